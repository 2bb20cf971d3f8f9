//! The FTL's per-4 KiB-unit tables, laid out for the functional warm-up's cache behaviour:
//! - [`MapEntry`]: the logical-to-physical mapping entry of a logical unit (the 4 B a controller
//!   keeps in DRAM) with the integrity checker's expected write sequence beside it, so one cache
//!   line serves both;
//! - [`Oob`]: a physical unit's out-of-band (spare-area) metadata, logical unit and write
//!   sequence, as the NAND page's spare bytes hold them;
//! - [`ValidBits`]: one bit per physical unit, set while the mapping points at it (firmware keeps
//!   such a bitmap per block, e.g. MQSim's `Block_Pool_Slot_Type::Invalid_page_bitmap`), so GC
//!   finds a victim's valid units by scanning words instead of looking up every spare-area lpn.
//!
//! Invariant (debug-asserted by GC): bit `p` set <=> `oob[p].lpn != NONE && l2p[oob[p].lpn].ppa == p`.

use super::layout::NONE;

/// A logical unit's mapping entry. The physical unit is stored inverted (`!ppa`), so the
/// all-zero entry is [`UNMAPPED`]: the table of a fresh drive is zeroed memory the OS hands out
/// untouched ([`super::bigvec::big_zeroed`]), and only the entries a run writes cost a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct MapEntry {
    /// `!ppa`: 0 is NONE (unmapped).
    ppa_inv: u32,
    /// Sequence number of the latest host write (integrity checker; 0: none, or checker off).
    pub seq: u32,
}

impl MapEntry {
    #[inline]
    pub const fn new(ppa: u32, seq: u32) -> MapEntry {
        MapEntry { ppa_inv: !ppa, seq }
    }
    /// Physical unit (NONE: unmapped).
    #[inline]
    pub const fn ppa(self) -> u32 {
        !self.ppa_inv
    }
    #[inline]
    pub fn set_ppa(&mut self, ppa: u32) {
        self.ppa_inv = !ppa;
    }
    /// The stored word of the physical unit and the value that stores `ppa` in it (for the
    /// relocation's streaming stores).
    #[inline]
    pub(super) fn ppa_word(&mut self, ppa: u32) -> (&mut u32, u32) {
        (&mut self.ppa_inv, !ppa)
    }
}

pub const UNMAPPED: MapEntry = MapEntry::new(NONE, 0);

/// A physical unit's spare-area metadata, the logical unit stored inverted as in [`MapEntry`]
/// (all-zero: [`ERASED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct Oob {
    /// `!lpn`: 0 is NONE (erased or padding).
    lpn_inv: u32,
    /// Write sequence of the data stored here (0: erased, padding, or checker off).
    pub seq: u32,
}

impl Oob {
    #[inline]
    pub const fn new(lpn: u32, seq: u32) -> Oob {
        Oob { lpn_inv: !lpn, seq }
    }
    /// Logical unit stored here (NONE: erased or padding).
    #[inline]
    pub const fn lpn(self) -> u32 {
        !self.lpn_inv
    }
    #[inline]
    pub fn set_lpn(&mut self, lpn: u32) {
        self.lpn_inv = !lpn;
    }
}

pub const ERASED: Oob = Oob::new(NONE, 0);

// SAFETY: two `u32`s (`repr(C)`, no padding); all-zero bytes are UNMAPPED, a valid value.
unsafe impl super::bigvec::Zeroed for MapEntry {}
// SAFETY: two `u32`s (`repr(C)`, no padding); all-zero bytes are ERASED, a valid value.
unsafe impl super::bigvec::Zeroed for Oob {}

/// One bit per physical unit.
#[derive(Clone, Debug)]
pub struct ValidBits {
    words: Vec<u64>,
}

impl ValidBits {
    pub fn new(units: u64) -> ValidBits {
        // One spare word so that `row` may always read two words.
        ValidBits {
            words: super::bigvec::big_zeroed(units.div_ceil(64) as usize + 1),
        }
    }
    #[inline]
    pub fn set(&mut self, p: u32) {
        self.words[(p >> 6) as usize] |= 1 << (p & 63);
    }
    #[inline]
    pub fn clear(&mut self, p: u32) {
        self.words[(p >> 6) as usize] &= !(1 << (p & 63));
    }
    #[inline]
    pub fn get(&self, p: u32) -> bool {
        self.words[(p >> 6) as usize] >> (p & 63) & 1 == 1
    }
    /// Bits of units [first, first + n) as a mask (bit i = unit first + i), `1 <= n <= 64`.
    #[inline]
    pub fn row(&self, first: u32, n: u32) -> u64 {
        debug_assert!((1..=64).contains(&n));
        let (w, s) = ((first >> 6) as usize, first & 63);
        let lo = self.words[w] >> s;
        let bits = if s == 0 {
            lo
        } else {
            lo | self.words[w + 1] << (64 - s)
        };
        if n == 64 {
            bits
        } else {
            bits & ((1u64 << n) - 1)
        }
    }
    /// Sets bits [first, first + n), `1 <= n <= 64`.
    #[inline]
    pub fn set_run(&mut self, first: u32, n: u32) {
        debug_assert!((1..=64).contains(&n));
        self.or_mask(first, if n == 64 { !0 } else { (1u64 << n) - 1 });
    }
    /// Sets bit `first + i` for every bit i of `mask`.
    #[inline]
    pub fn or_mask(&mut self, first: u32, mask: u64) {
        let (w, s) = ((first >> 6) as usize, first & 63);
        self.words[w] |= mask << s;
        if s != 0 {
            self.words[w + 1] |= mask >> (64 - s);
        }
    }
    /// Clears bit `first + i` for every bit i of `mask`.
    #[inline]
    pub fn clear_mask(&mut self, first: u32, mask: u64) {
        let (w, s) = ((first >> 6) as usize, first & 63);
        self.words[w] &= !(mask << s);
        if s != 0 {
            self.words[w + 1] &= !(mask >> (64 - s));
        }
    }
    /// Sets bits [first, first + n), any `n`.
    pub fn set_range(&mut self, first: u32, n: u32) {
        for p in (first..first + n).step_by(64) {
            self.set_run(p, (first + n - p).min(64));
        }
    }
    /// Clears bits [first, first + n), any `n`.
    pub fn clear_range(&mut self, first: u32, n: u32) {
        for p in (first..first + n).step_by(64) {
            let k = (first + n - p).min(64);
            self.clear_mask(p, if k == 64 { !0 } else { (1u64 << k) - 1 });
        }
    }
    /// Whether every bit of [first, first + n) is clear.
    pub fn none_in(&self, first: u32, n: u32) -> bool {
        (first..first + n)
            .step_by(64)
            .all(|p| self.row(p, (first + n - p).min(64)) == 0)
    }
    /// Start fetching the word holding `p` (a hint, no effect on results).
    #[inline]
    pub fn prefetch(&self, p: u32) {
        super::batch::prefetch(self.words.as_ptr().wrapping_add((p >> 6) as usize));
    }
}

/// Feeds the `ppa`s of `map` (or the `lpn`s of `oob`) to a hasher in blocks (the state digest).
pub fn hash_field<T: Copy, H: std::hash::Hasher>(
    items: &[T],
    field: impl Fn(&T) -> u32,
    h: &mut H,
) {
    use std::hash::Hash;
    let mut buf = [0u32; 1024];
    items.len().hash(h);
    for chunk in items.chunks(buf.len()) {
        for (b, it) in buf.iter_mut().zip(chunk) {
            *b = field(it);
        }
        buf[..chunk.len()].hash(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The empty values are the zero bytes a fresh table is made of.
    #[test]
    fn empty_entries_are_all_zero_bytes() {
        let (m, o): (Vec<MapEntry>, Vec<Oob>) = (
            super::super::bigvec::big_zeroed(3),
            super::super::bigvec::big_zeroed(3),
        );
        assert!(m
            .iter()
            .all(|&e| e == UNMAPPED && e.ppa() == NONE && e.seq == 0));
        assert!(o
            .iter()
            .all(|&e| e == ERASED && e.lpn() == NONE && e.seq == 0));
        let mut e = MapEntry::new(7, 9);
        assert_eq!((e.ppa(), e.seq), (7, 9));
        e.set_ppa(NONE);
        assert_eq!(e, MapEntry::new(NONE, 9));
    }

    #[test]
    fn rows_straddle_words() {
        let mut v = ValidBits::new(200);
        for p in [0, 5, 63, 64, 70, 127, 199] {
            v.set(p);
        }
        assert_eq!(v.row(0, 8), 0b10_0001);
        // units 60..68: 63 and 64 set -> bits 3 and 4.
        assert_eq!(v.row(60, 8), 0b1_1000);
        assert_eq!(v.row(64, 64), 1 | 1 << 6 | 1 << 63);
        v.clear(64);
        assert!(!v.get(64) && v.get(63));
        assert!(v.none_in(128, 71) && !v.none_in(128, 72));
        // A run over a word boundary: units 60..68, then clear 63 and 66 by mask.
        let mut w = ValidBits::new(200);
        w.set_run(60, 8);
        assert_eq!(w.row(56, 16), 0xff0);
        w.clear_mask(60, 0b100_1000);
        assert_eq!(w.row(56, 16), 0b1011_0111_0000);
        w.set_run(128, 64);
        assert!(w.get(128) && w.get(191) && !w.get(192) && !w.get(127));
        // Ranges of any length: 130 bits from 10, then clear 100 of them from 20.
        let mut r = ValidBits::new(200);
        r.set_range(10, 130);
        assert!(!r.get(9) && r.get(10) && r.get(139) && !r.get(140));
        r.clear_range(20, 100);
        assert!(r.get(19) && !r.get(20) && !r.get(119) && r.get(120) && r.get(139));
        assert!(r.none_in(20, 100) && !r.none_in(19, 1));
    }
}
