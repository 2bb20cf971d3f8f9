//! Sequential stream detection and read-ahead into the DRAM buffer. A host read that starts where
//! the previous one ended continues a stream; from the second such read on, the FTL prefetches the
//! next `read_ahead_kib` of the logical range (ReadAhead ops) and keeps the physical address each
//! prefetched unit had when it was read. A later host read of such a unit is served from DRAM;
//! a write or trim of it drops it from the window. Each held unit also keeps the *tag* of the
//! ReadAhead op that fetches it (tags count the FTL's ReadAhead ops from 0, in emission order), so
//! that the timed drive can make a hit wait until that NAND read and its channel transfer have
//! finished: a prefetch is in DRAM only once its read is done. Source: Linux-style sequential read-ahead as
//! described for SSD firmware in MQSim and in Micron's "SSD read-ahead" application notes.

use super::layout::NONE;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct ReadAhead {
    window_units: u64,
    /// End of the previous host read (NONE64 before any).
    last_end: u64,
    /// Sequential reads in a row.
    pub run: u32,
    /// Prefetched window: `buf[i]` is (physical unit read for lpn `lo + i` (NONE: not held), tag
    /// of the ReadAhead op reading it).
    lo: u64,
    buf: VecDeque<(u32, u64)>,
}

const NONE64: u64 = u64::MAX;

impl ReadAhead {
    pub fn new(read_ahead_kib: u32) -> ReadAhead {
        ReadAhead {
            window_units: read_ahead_kib as u64 / 4,
            last_end: NONE64,
            run: 0,
            lo: 0,
            buf: VecDeque::new(),
        }
    }

    /// The physical unit held in DRAM for `lpn` and the tag of the op prefetching it, if any.
    #[inline]
    pub fn lookup(&self, lpn: u64) -> Option<(u32, u64)> {
        let i = lpn.wrapping_sub(self.lo);
        if i < self.buf.len() as u64 && self.buf[i as usize].0 != NONE {
            Some(self.buf[i as usize])
        } else {
            None
        }
    }

    /// Whether no prefetched unit is held (then `relocated` and `invalidate` do nothing).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// `lpn` was overwritten or trimmed.
    #[inline]
    pub fn invalidate(&mut self, lpn: u64) {
        let i = lpn.wrapping_sub(self.lo);
        if i < self.buf.len() as u64 {
            self.buf[i as usize].0 = NONE;
        }
    }

    /// `lpn`'s data moved from `from` to `to` (GC): a held copy stays valid, now known by `to`.
    #[inline]
    pub fn relocated(&mut self, lpn: u64, from: u32, to: u32) {
        let i = lpn.wrapping_sub(self.lo);
        if i < self.buf.len() as u64 && self.buf[i as usize].0 == from {
            self.buf[i as usize].0 = to;
        }
    }

    /// Whether a host read starting at `lpn` continues the stream (starts where the last ended).
    #[inline]
    pub fn continues(&self, lpn: u64) -> bool {
        self.last_end == lpn
    }

    /// Records a host read of [lpn, lpn + count) and returns the logical range to prefetch now.
    pub fn observe(&mut self, lpn: u64, count: u32, logical_units: u64) -> Option<(u64, u64)> {
        let end = lpn + count as u64;
        self.run = if lpn == self.last_end {
            self.run + 1
        } else {
            0
        };
        self.last_end = end;
        if self.run == 0 || self.window_units == 0 {
            return None;
        }
        // Units before the current read are consumed: drop them.
        while self.lo < lpn && !self.buf.is_empty() {
            self.buf.pop_front();
            self.lo += 1;
        }
        let held_end = self.lo + self.buf.len() as u64;
        // The held window continues this read only if it starts at or before the read's end. A
        // window left elsewhere by an earlier stream (e.g. ahead of a stream restarting at the
        // range's start) is dropped: kept, it would make `start` lie beyond `stop` and stop all
        // prefetching until the new stream reached it.
        let start = if self.buf.is_empty() || held_end < end || self.lo > end {
            self.buf.clear();
            self.lo = end;
            end
        } else {
            held_end
        };
        let stop = (end + self.window_units).min(logical_units);
        (start < stop).then_some((start, stop))
    }

    /// The held units, in logical order: (lpn, physical unit read for it, tag of the op reading it).
    pub fn held(&self) -> impl Iterator<Item = (u64, u32, u64)> + '_ {
        (self.lo..)
            .zip(&self.buf)
            .filter(|(_, &(ppa, _))| ppa != NONE)
            .map(|(lpn, &(ppa, tag))| (lpn, ppa, tag))
    }

    /// Drops every held unit that op `tag` reads: a later host read of it reads NAND.
    pub fn forget(&mut self, tag: u64) {
        for e in self.buf.iter_mut().filter(|e| e.0 != NONE && e.1 == tag) {
            e.0 = NONE;
        }
    }

    /// Appends the next prefetched unit (in order from the start returned by `observe`) and the
    /// tag of the op reading it (ignored for NONE).
    pub fn push(&mut self, ppa: u32, tag: u64) {
        self.buf.push_back((ppa, tag));
        debug_assert!(self.buf.len() as u64 <= 2 * self.window_units + 4096);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_sequential_read_prefetches_the_window() {
        let mut ra = ReadAhead::new(64); // 16 units
        assert_eq!(ra.observe(100, 8, 1000), None);
        assert_eq!(ra.observe(108, 8, 1000), Some((116, 132)));
        for p in 0..16 {
            ra.push(500 + p, 7 + p as u64 / 8);
        }
        assert_eq!(ra.lookup(120), Some((504, 7)));
        assert_eq!(ra.lookup(124), Some((508, 8)));
        ra.invalidate(120);
        assert_eq!(ra.lookup(120), None);
        // next read consumes 116..124, tops up to 140.
        assert_eq!(ra.observe(116, 8, 1000), Some((132, 140)));
        assert_eq!(ra.lookup(116), Some((500, 7)));
        // a random read breaks the stream.
        assert_eq!(ra.observe(7, 1, 1000), None);
    }

    /// The window lists its held units with their tags; forgetting a tag drops exactly its
    /// units, and an invalidated unit is not listed.
    #[test]
    fn held_lists_the_window_and_forget_drops_one_tag() {
        let mut ra = ReadAhead::new(32); // 8 units
        assert_eq!(ra.observe(0, 4, 1000), None);
        assert_eq!(ra.observe(4, 4, 1000), Some((8, 16)));
        for p in 0..8 {
            ra.push(200 + p, 3 + p as u64 / 4);
        }
        ra.invalidate(9);
        let held: Vec<_> = ra.held().collect();
        assert_eq!(held.len(), 7);
        assert_eq!(held[0], (8, 200, 3));
        assert_eq!(held[1], (10, 202, 3), "9 was overwritten");
        assert_eq!(held[6], (15, 207, 4));
        ra.forget(3);
        assert_eq!(ra.lookup(10), None);
        assert_eq!(ra.lookup(12), Some((204, 4)));
        assert_eq!(ra.held().count(), 4);
    }

    #[test]
    fn a_new_stream_behind_a_stale_window_prefetches_again() {
        let mut ra = ReadAhead::new(64); // 16 units
        assert_eq!(ra.observe(500, 8, 1000), None);
        assert_eq!(ra.observe(508, 8, 1000), Some((516, 532)));
        for p in 0..16 {
            ra.push(100 + p, 1);
        }
        // The host restarts a sequential pass at lpn 0 (as fio does for every job of a test
        // range): the window 516..532 lies ahead of it and must not hold back the new stream's
        // prefetch of the 16 units after its second read, 16..32.
        assert_eq!(ra.observe(0, 8, 1000), None);
        assert_eq!(ra.observe(8, 8, 1000), Some((16, 32)));
        assert_eq!(ra.lookup(520), None, "the stale window is gone");
    }
}
