//! Windowed greedy victim selection: the emptiest block among the `window` oldest closed blocks
//! of a die (by last write), not among all of them. Source: Hu, Haas, Eleftheriou, Pletka and
//! Bjørling, "Write amplification analysis in flash-based solid state drives", SYSTOR 2009
//! (windowed greedy reclaiming: window = all blocks is greedy, a window of one is FIFO).
//!
//! Why a controller does it: the candidates are kept in write order (a FIFO of closed blocks is
//! what a log-structured allocator has anyway), and scanning only its head bounds the work per
//! pick. What it changes: a young block that the host has just emptied is not collected before
//! older, fuller ones, so freshly overwritten data is not reclaimed at once.

use super::victim::{Candidate, VictimPolicy};

#[derive(Clone, Copy, Debug)]
pub struct WindowedGreedy {
    /// Candidates considered: the oldest `window` (at least 1).
    pub window: u32,
}

impl VictimPolicy for WindowedGreedy {
    fn pick(&self, cands: &[Candidate]) -> Option<usize> {
        assert!(
            self.window >= 1,
            "windowed greedy needs a window of at least one block"
        );
        if cands.is_empty() {
            return None;
        }
        // Oldest first; equal ages in candidate order, so the window is deterministic.
        let mut order: Vec<usize> = (0..cands.len()).collect();
        let w = (self.window as usize).min(cands.len());
        if w < cands.len() {
            order.select_nth_unstable_by(w - 1, |&a, &b| {
                cands[b].age.cmp(&cands[a].age).then(a.cmp(&b))
            });
            order.truncate(w);
        }
        // The emptiest in the window; ties go to the lowest candidate index.
        order
            .into_iter()
            .min_by(|&a, &b| cands[a].valid.cmp(&cands[b].valid).then(a.cmp(&b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ftl::greedy::Greedy;

    fn c(dbid: u32, valid: u32, age: u64) -> Candidate {
        Candidate {
            dbid,
            valid,
            capacity: 100,
            age,
        }
    }

    #[test]
    fn a_young_empty_block_waits_until_it_is_among_the_oldest() {
        // Ages 50, 40, 30, 5 (oldest first by age); the empty block is the youngest.
        let cands = [c(0, 80, 50), c(1, 70, 40), c(2, 90, 30), c(3, 0, 5)];
        assert_eq!(
            WindowedGreedy { window: 2 }.pick(&cands),
            Some(1),
            "70 valid is the emptiest of ages 50 and 40"
        );
        assert_eq!(
            WindowedGreedy { window: 3 }.pick(&cands),
            Some(1),
            "age 30 joins with 90 valid: no change"
        );
        assert_eq!(
            WindowedGreedy { window: 4 }.pick(&cands),
            Some(3),
            "the whole die: greedy"
        );
        assert_eq!(
            WindowedGreedy { window: 1 }.pick(&cands),
            Some(0),
            "a window of one is FIFO"
        );
    }

    #[test]
    fn a_window_at_least_the_candidates_is_greedy() {
        let cands = [c(0, 60, 9), c(1, 20, 1), c(2, 20, 7), c(3, 99, 3)];
        assert_eq!(
            WindowedGreedy { window: 4 }.pick(&cands),
            Greedy.pick(&cands)
        );
        assert_eq!(
            WindowedGreedy { window: 1000 }.pick(&cands),
            Some(1),
            "tie on 20 valid: lowest index"
        );
        assert_eq!(WindowedGreedy { window: 3 }.pick(&[]), None);
    }

    #[test]
    fn equal_ages_enter_the_window_in_candidate_order() {
        let cands = [c(0, 50, 10), c(1, 40, 10), c(2, 10, 10)];
        assert_eq!(
            WindowedGreedy { window: 2 }.pick(&cands),
            Some(1),
            "candidates 0 and 1 fill the window"
        );
    }
}
