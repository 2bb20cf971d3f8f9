//! The mapping cache's replacement policy as the hardware uses it: the model's 4-way tree
//! pseudo-LRU (`ssdlab_model::ftl::map_cache::tree_plru`) tabulated at elaboration, so the HDL
//! cannot drift from the model. State bits: [0] root, [1] left node, [2] right node.

use super::WAYS;

/// The model's 4-way tree-PLRU as tables: touching way w maps state s to
/// `(s & keep[w]) | set[w]`; the victim of state s is `victim[s]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlruTables {
    pub keep: [u64; WAYS],
    pub set: [u64; WAYS],
    pub victim: [u64; 8],
}

impl PlruTables {
    pub fn from_model() -> PlruTables {
        use ssdlab_model::ftl::map_cache::tree_plru::TreePlru;
        use ssdlab_model::ftl::map_cache::Replacement;
        let touched = |from: u32, w: usize| {
            let mut p = TreePlru::new(1, WAYS);
            p.set_state_bits(0, from);
            p.touch(0, w);
            p.state_bits(0) as u64
        };
        let victim = |st: u32| {
            let mut p = TreePlru::new(1, WAYS);
            p.set_state_bits(0, st);
            p.victim(0) as u64
        };
        PlruTables {
            // Path bits are forced to the same value from any state; the others are kept.
            keep: std::array::from_fn(|w| touched(0, w) ^ touched(0b111, w)),
            set: std::array::from_fn(|w| touched(0, w)),
            victim: std::array::from_fn(|st| victim(st as u32)),
        }
    }
}

