//! Offset generators of one job direction: sequential with wrap-around, random without
//! repetition within a pass (fio's default random map: every block once per pass), and uniform
//! random with repetition (`norandommap`).
//!
//! The no-repeat order is a keyed Feistel permutation of the block indices (cycle-walking onto
//! `0..blocks`), so it needs O(1) memory even for a whole 1 TB drive in 4 KiB blocks.

use rand::Rng;
use ssdlab_model::rng::ModelRng;

#[derive(Clone, Debug)]
enum Pattern {
    Seq {
        pos: u64,
    },
    Perm {
        keys: [u64; 4],
        half_bits: u32,
        next: u64,
    },
    Uniform,
    /// `random_distribution` other than uniform (`skew.rs`).
    Skewed(Box<super::skew::Skew>),
}

/// Yields block-aligned offsets inside `[start, start + len)`.
#[derive(Clone, Debug)]
pub struct OffsetGen {
    start: u64,
    bs: u64,
    blocks: u64,
    pattern: Pattern,
    rng: ModelRng,
}

impl OffsetGen {
    /// `len` must hold at least one block.
    pub fn new(
        start: u64,
        len: u64,
        bs: u64,
        random: bool,
        norandommap: bool,
        mut rng: ModelRng,
    ) -> Self {
        let blocks = len / bs;
        assert!(blocks > 0, "region of {len} B holds no {bs} B block");
        let pattern = match (random, norandommap) {
            (false, _) => Pattern::Seq { pos: 0 },
            (true, true) => Pattern::Uniform,
            (true, false) => {
                let bits = (64 - (blocks - 1).leading_zeros()).max(2);
                Pattern::Perm {
                    keys: rng.gen(),
                    half_bits: bits.div_ceil(2),
                    next: 0,
                }
            }
        };
        OffsetGen {
            start,
            bs,
            blocks,
            pattern,
            rng,
        }
    }

    /// Draws blocks from `d` instead (with repetition); uniform `d` changes nothing.
    pub fn skewed(mut self, d: &crate::fio::distribution::Distribution) -> Self {
        if let Some(s) = super::skew::Skew::new(d, self.blocks, self.bs, &mut self.rng) {
            self.pattern = Pattern::Skewed(Box::new(s));
        }
        self
    }

    pub fn next_offset(&mut self) -> u64 {
        let block = match &mut self.pattern {
            Pattern::Seq { pos } => {
                let b = *pos;
                *pos = if b + 1 >= self.blocks { 0 } else { b + 1 };
                b
            }
            Pattern::Uniform => self.rng.gen_range(0..self.blocks),
            Pattern::Skewed(s) => s.next_block(&mut self.rng),
            Pattern::Perm {
                keys,
                half_bits,
                next,
            } => {
                let mut x = feistel(*next, keys, *half_bits);
                // Cycle-walk: the domain is at most 4x blocks, so this ends in a few steps.
                while x >= self.blocks {
                    x = feistel(x, keys, *half_bits);
                }
                *next += 1;
                if *next == self.blocks {
                    *next = 0;
                    *keys = self.rng.gen(); // a new order for the next pass
                }
                x
            }
        };
        debug_assert!(block < self.blocks);
        self.start + block * self.bs
    }
}

impl OffsetGen {
    /// The next offset for a block of `len` bytes (at most the region; `bssplit` sizes on a
    /// generator of the split's smallest size): sequential access advances past the whole block,
    /// and a block that would run past the region's end is moved back to end inside it.
    pub fn next_offset_len(&mut self, len: u64) -> u64 {
        let span = self.blocks * self.bs;
        assert!(
            len > 0 && len <= span,
            "block of {len} B in a region of {span} B"
        );
        let k = len.div_ceil(self.bs);
        let off = match &mut self.pattern {
            Pattern::Seq { pos } => {
                let b = *pos;
                *pos = if b + k >= self.blocks { 0 } else { b + k };
                self.start + b * self.bs
            }
            _ => self.next_offset(),
        };
        off.min(self.start + (span - len) / self.bs * self.bs)
    }
}

pub(crate) fn feistel(x: u64, keys: &[u64; 4], half: u32) -> u64 {
    let mask = (1u64 << half) - 1;
    let (mut l, mut r) = (x >> half, x & mask);
    for k in keys {
        let f = mix(r ^ k) & mask;
        (l, r) = (r, l ^ f);
    }
    (l << half) | r
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::SeedTree;

    #[test]
    fn sequential_wraps() {
        let mut g = OffsetGen::new(
            8192,
            3 * 4096 + 100,
            4096,
            false,
            false,
            SeedTree::new(1).stream("t", 0),
        );
        let v: Vec<u64> = (0..4).map(|_| g.next_offset()).collect();
        assert_eq!(v, vec![8192, 12288, 16384, 8192]);
    }

    #[test]
    fn variable_blocks_advance_and_stay_inside() {
        // 4 KiB granules, 40 KiB region: 8 KiB at 0, 12 KiB at 8 KiB, 16 KiB at 20 KiB, then a
        // 8 KiB block at 36 KiB would end at 44 KiB: moved back to 32 KiB; the next wraps to 0.
        let mut g = OffsetGen::new(
            0,
            40_960,
            4096,
            false,
            false,
            SeedTree::new(1).stream("t", 0),
        );
        let v: Vec<u64> = [8192, 12_288, 16_384, 8192, 4096]
            .iter()
            .map(|l| g.next_offset_len(*l))
            .collect();
        assert_eq!(v, vec![0, 8192, 20_480, 32_768, 0]);
        let mut r = OffsetGen::new(
            4096,
            40_960,
            4096,
            true,
            true,
            SeedTree::new(2).stream("t", 0),
        );
        for _ in 0..1000 {
            let o = r.next_offset_len(16_384);
            assert!(
                o >= 4096 && o + 16_384 <= 4096 + 40_960 && o.is_multiple_of(4096),
                "{o}"
            );
        }
    }

    #[test]
    fn random_map_visits_every_block_once_per_pass() {
        for (seed, blocks) in [(1u64, 1u64), (2, 2), (3, 1000), (4, 1025)] {
            let mut g = OffsetGen::new(
                0,
                blocks * 512,
                512,
                true,
                false,
                SeedTree::new(seed).stream("t", 0),
            );
            for pass in 0..2 {
                let mut seen = vec![false; blocks as usize];
                for _ in 0..blocks {
                    let b = (g.next_offset() / 512) as usize;
                    assert!(!seen[b], "seed {seed}: block {b} twice in pass {pass}");
                    seen[b] = true;
                }
            }
        }
    }

    #[test]
    fn random_order_is_not_sequential_and_is_seeded() {
        let first = |seed| {
            let mut g = OffsetGen::new(
                0,
                1 << 30,
                4096,
                true,
                false,
                SeedTree::new(seed).stream("t", 0),
            );
            (0..16).map(|_| g.next_offset()).collect::<Vec<_>>()
        };
        assert_eq!(first(7), first(7));
        assert_ne!(first(7), first(8));
        let a = first(7);
        assert!(
            a.windows(2).filter(|w| w[1] == w[0] + 4096).count() < 3,
            "{a:?}"
        );
    }
}
