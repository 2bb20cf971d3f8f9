//! Cost-benefit victim selection: maximise `(1 - u) * age / (1 + u)`, where `u` is the valid
//! fraction: free space gained times its stability, over the cost of reading and rewriting the
//! valid part. Source: Rosenblum & Ousterhout (1992), LFS cleaning policy (cost = 1 + u with the
//! read of the whole segment; here only valid pages are read, so cost = read u + write u = 2u;
//! we keep 1 + u so an empty block is not an infinite score and ages still order full blocks).

use super::victim::{Candidate, VictimPolicy};

#[derive(Clone, Copy, Debug, Default)]
pub struct CostBenefit;

impl CostBenefit {
    /// Score scaled to integers: (cap - valid) * (age + 1) / (cap + valid), compared exactly by
    /// cross-multiplication to stay deterministic.
    fn better(a: &Candidate, b: &Candidate) -> bool {
        let num = |c: &Candidate| (c.capacity - c.valid) as u128 * (c.age as u128 + 1);
        let den = |c: &Candidate| (c.capacity + c.valid) as u128;
        num(a) * den(b) > num(b) * den(a)
    }
}

impl VictimPolicy for CostBenefit {
    fn pick(&self, cands: &[Candidate]) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, c) in cands.iter().enumerate() {
            debug_assert!(c.valid <= c.capacity);
            if best.is_none_or(|b| Self::better(c, &cands[b])) {
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
    fn old_cold_block_beats_young_emptier_block() {
        let c = |dbid, valid, age| Candidate {
            dbid,
            valid,
            capacity: 100,
            age,
        };
        // young: 60 free, age 10 -> 60*11/140 = 4.7; old: 40 free, age 1000 -> 40*1001/160 = 250.
        assert_eq!(CostBenefit.pick(&[c(0, 40, 10), c(1, 60, 1000)]), Some(1));
        // same age: the emptier block wins (greedy as a special case).
        assert_eq!(CostBenefit.pick(&[c(0, 40, 5), c(1, 60, 5)]), Some(0));
    }
}
