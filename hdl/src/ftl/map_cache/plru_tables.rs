//! The mapping cache's replacement policy as the hardware uses it: the model's tree pseudo-LRU
//! (`ssdlab_model::ftl::map_cache::tree_plru`, `ways - 1` bits in heap order) tabulated at
//! elaboration, so the HDL cannot drift from the model.

use ssdlab_model::ftl::map_cache::tree_plru::TreePlru;
use ssdlab_model::ftl::map_cache::Replacement;

/// Per way w: touching w maps state s to `(s & keep[w]) | set[w]`; w is the victim of state s
/// when `s & path_mask[w] == path_val[w]` (the nodes on w's path point toward it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlruTables {
    pub keep: Vec<u64>,
    pub set: Vec<u64>,
    pub path_mask: Vec<u64>,
    pub path_val: Vec<u64>,
}

impl PlruTables {
    /// Tables for `ways` (a power of two, 2..=16) from the model's policy.
    pub fn from_model(ways: usize) -> PlruTables {
        assert!(
            ways.is_power_of_two() && (2..=16).contains(&ways),
            "ways {ways}"
        );
        let all = (1u32 << (ways - 1)) - 1;
        let touched = |from: u32, w: usize| {
            let mut p = TreePlru::new(1, ways);
            p.set_state_bits(0, from);
            p.touch(0, w);
            p.state_bits(0) as u64
        };
        // Path bits are forced to the same value from any state; the others are kept. Touching
        // points the path away from w, so the victim condition is the complement on the path.
        let keep: Vec<u64> = (0..ways).map(|w| touched(0, w) ^ touched(all, w)).collect();
        let set: Vec<u64> = (0..ways).map(|w| touched(0, w)).collect();
        let path_mask: Vec<u64> = keep.iter().map(|k| !k & all as u64).collect();
        let path_val = (0..ways).map(|w| !set[w] & path_mask[w]).collect();
        PlruTables {
            keep,
            set,
            path_mask,
            path_val,
        }
    }

    /// The victim the tables select for state `s` (exactly one way matches).
    pub fn victim(&self, s: u64) -> usize {
        let m: Vec<usize> = (0..self.keep.len())
            .filter(|&w| s & self.path_mask[w] == self.path_val[w])
            .collect();
        assert_eq!(m.len(), 1, "state {s:#b}: ways {m:?} match");
        m[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_model_for_every_state_and_way() {
        for ways in [2usize, 4, 8, 16] {
            let t = PlruTables::from_model(ways);
            for s in 0..1u64 << (ways - 1) {
                let mut p = TreePlru::new(1, ways);
                p.set_state_bits(0, s as u32);
                assert_eq!(t.victim(s), p.victim(0), "{ways} ways, state {s:#b}");
                for w in 0..ways {
                    let mut q = TreePlru::new(1, ways);
                    q.set_state_bits(0, s as u32);
                    q.touch(0, w);
                    assert_eq!(
                        (s & t.keep[w]) | t.set[w],
                        q.state_bits(0) as u64,
                        "{ways} ways, state {s:#b}, way {w}"
                    );
                }
            }
        }
    }
}
