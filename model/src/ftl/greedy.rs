//! Greedy victim selection: the block with the fewest valid units, i.e. the least data to move
//! per block freed. Source: Rosenblum & Ousterhout (1992); the default of most FTL simulators.

use super::victim::{Candidate, VictimPolicy};

#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl VictimPolicy for Greedy {
    fn pick(&self, cands: &[Candidate]) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, c) in cands.iter().enumerate() {
            if best.is_none_or(|b| c.valid < cands[b].valid) {
                best = Some(i);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_fewest_valid_first_on_ties() {
        let c = |dbid, valid| Candidate {
            dbid,
            valid,
            capacity: 100,
            age: 0,
        };
        assert_eq!(
            Greedy.pick(&[c(0, 50), c(1, 10), c(2, 10), c(3, 70)]),
            Some(1)
        );
        assert_eq!(Greedy.pick(&[]), None);
    }
}
