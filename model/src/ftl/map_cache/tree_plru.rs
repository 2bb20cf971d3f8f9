//! Tree pseudo-LRU replacement (the policy of most set-associative SRAM caches; see Hennessy &
//! Patterson, "Computer Architecture", 5th ed., appendix B, and Al-Zoubi et al., "Performance
//! evaluation of cache replacement policies for the SPEC CPU2000 benchmark suite", ACM-SE 2004).
//!
//! `ways - 1` bits per set form a binary tree in heap order: bit 0 is the root, node `n` (1-based
//! heap index) has children `2n` and `2n+1`, its bit is stored at index `n - 1`. A bit points at
//! the half to evict next: 0 = left (lower way numbers), 1 = right. `touch(way)` walks from the
//! root toward `way` and sets each node to point *away* from it; `victim` follows the pointers.
//! For 4 ways: bit 0 = root (ways 0-1 vs 2-3), bit 1 = left node (0 vs 1), bit 2 = right node
//! (2 vs 3) — the layout of the HDL's 3-bit PLRU field.

use super::replacement::Replacement;

#[derive(Clone, Debug)]
pub struct TreePlru {
    ways: usize,
    levels: u32,
    bits: Vec<u16>,
}

impl TreePlru {
    /// `ways` must be a power of two in 1..=16 (checked by `FtlConfig::validate`).
    pub fn new(sets: usize, ways: usize) -> TreePlru {
        assert!(
            ways.is_power_of_two() && ways <= 16,
            "tree PLRU needs a power-of-two way count <= 16, got {ways}"
        );
        TreePlru {
            ways,
            levels: ways.trailing_zeros(),
            bits: vec![0; sets],
        }
    }
}

impl TreePlru {
    /// Overwrite the state word of `set` (used to tabulate the policy, e.g. for the HDL).
    pub fn set_state_bits(&mut self, set: usize, bits: u32) {
        assert!(
            bits < 1 << (self.ways - 1).max(1),
            "state {bits:#b} too wide for {} ways",
            self.ways
        );
        self.bits[set] = bits as u16;
    }
}

impl Replacement for TreePlru {
    fn touch(&mut self, set: usize, way: usize) {
        assert!(way < self.ways, "way {way} out of range");
        let mut node = 1usize;
        let mut b = self.bits[set];
        for level in (0..self.levels).rev() {
            let right = (way >> level) & 1 == 1;
            // Point away from the touched half.
            if right {
                b &= !(1 << (node - 1));
            } else {
                b |= 1 << (node - 1);
            }
            node = 2 * node + right as usize;
        }
        self.bits[set] = b;
    }

    fn victim(&self, set: usize) -> usize {
        let b = self.bits[set];
        let mut node = 1usize;
        let mut way = 0usize;
        for _ in 0..self.levels {
            let right = (b >> (node - 1)) & 1 == 1;
            way = 2 * way + right as usize;
            node = 2 * node + right as usize;
        }
        debug_assert!(way < self.ways);
        way
    }

    fn state_bits(&self, set: usize) -> u32 {
        self.bits[set] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_way_tree_follows_hand_worked_bits() {
        let mut p = TreePlru::new(1, 4);
        // Fresh state: all bits 0 -> leftmost way.
        assert_eq!(p.victim(0), 0);
        p.touch(0, 0); // root -> right (1), left node -> way 1 (1): bits 0b011
        assert_eq!(p.state_bits(0), 0b011);
        assert_eq!(p.victim(0), 2);
        p.touch(0, 2); // root -> left (0), right node -> way 3 (bit2 = 1): 0b110
        assert_eq!(p.state_bits(0), 0b110);
        assert_eq!(p.victim(0), 1);
        p.touch(0, 1); // root -> right, left node -> way 0 (bit1 = 0): 0b101
        assert_eq!(p.state_bits(0), 0b101);
        assert_eq!(p.victim(0), 3);
    }

    #[test]
    fn one_way_always_victim_zero() {
        let mut p = TreePlru::new(2, 1);
        p.touch(1, 0);
        assert_eq!(p.victim(1), 0);
        assert_eq!(p.state_bits(1), 0);
    }
}
