//! Weighted round robin with urgent priority class (NVM Express Base Specification 1.4,
//! section 4.13.2): the admin queue is served strictly first, then urgent queues round robin,
//! then high/medium/low classes each getting `weight` consecutive commands per round.
//! A simplification of the spec's credit scheme: a class's credit refills when every class
//! with ready queues has used its credit.

use super::arbiter::{RoundRobin, SqArbiter};

/// Queue priority from Create I/O SQ CDW11.QPRIO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    Urgent,
    High,
    Medium,
    Low,
}

#[derive(Debug)]
pub struct WeightedRoundRobin {
    prio: Vec<Priority>,
    weights: [u32; 3],
    credit: [u32; 3],
    rr: [RoundRobin; 4],
}

impl WeightedRoundRobin {
    /// `prio[q]` for every queue (queue 0, the admin queue, is ignored); weights for
    /// high/medium/low, each ≥ 1.
    pub fn new(prio: Vec<Priority>, weights: [u32; 3]) -> Self {
        assert!(
            weights.iter().all(|w| *w >= 1),
            "WRR weights must be at least 1"
        );
        WeightedRoundRobin {
            prio,
            weights,
            credit: weights,
            rr: Default::default(),
        }
    }
    fn class_pick(&mut self, class: Priority, ready: &[bool]) -> Option<usize> {
        let prio = &self.prio;
        self.rr[class as usize].pick_where(ready.len(), |q| ready[q] && q > 0 && prio[q] == class)
    }
}

impl SqArbiter for WeightedRoundRobin {
    fn pick(&mut self, ready: &[bool]) -> Option<usize> {
        assert_eq!(
            ready.len(),
            self.prio.len(),
            "ready mask does not match queue count"
        );
        if ready[0] {
            return Some(0);
        }
        if let Some(q) = self.class_pick(Priority::Urgent, ready) {
            return Some(q);
        }
        for _round in 0..2 {
            for (i, class) in [Priority::High, Priority::Medium, Priority::Low]
                .into_iter()
                .enumerate()
            {
                if self.credit[i] == 0 {
                    continue;
                }
                if let Some(q) = self.class_pick(class, ready) {
                    self.credit[i] -= 1;
                    return Some(q);
                }
            }
            self.credit = self.weights;
        }
        None
    }
    fn policy(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_3_2_1_give_commands_in_that_ratio() {
        use Priority::*;
        let mut a = WeightedRoundRobin::new(vec![Low, High, Medium, Low], [3, 2, 1]);
        let ready = [false, true, true, true];
        let mut n = [0u32; 4];
        for _ in 0..60 {
            n[a.pick(&ready).unwrap()] += 1;
        }
        // 6 commands per round: 3 high (q1), 2 medium (q2), 1 low (q3); 10 rounds.
        assert_eq!(n, [0, 30, 20, 10]);
        assert_eq!(
            a.pick(&[true, true, true, true]),
            Some(0),
            "admin queue first"
        );
    }
}
