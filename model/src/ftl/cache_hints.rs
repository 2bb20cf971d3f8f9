//! Cache hints for the timed drive's commands: no modelled hardware. A command's FTL tables
//! (its mapping entries, then the spare area, valid bit and block entry of where they point) are
//! far larger than the host CPU's caches, so the lookup at `host_read`/`host_write` waits on two
//! dependent DRAM misses. The drive knows the units at submission, several events before the
//! lookup: it hints the mapping entries then, and at the command's fetch, when those entries are
//! cached, the locations they point to. Prefetching is a hint only: it reads nothing that
//! decides a result (a stale entry costs a miss, not correctness; the JSON of a run is the same
//! with and without). Source: software prefetch as in [`super::batch`] (Intel optimization
//! manual, "Software prefetch").

use super::batch::prefetch;
use super::layout::NONE;
use super::Ftl;

/// Units of a command hinted at most: a 4 KiB random IO is the case that misses; a long IO's
/// sequential entries are the hardware prefetcher's.
const HINTED_UNITS: u64 = 4;

impl Ftl {
    /// Starts fetching the mapping entries of the first units of [lpn, lpn + count).
    #[inline]
    pub fn hint_mapping(&self, lpn: u64, count: u32) {
        for u in self.hinted(lpn, count) {
            prefetch(self.l2p.as_ptr().wrapping_add(u as usize));
        }
    }

    /// Reads the (by now cached) mapping entries of the first units of [lpn, lpn + count) and
    /// starts fetching what a lookup of each touches next: the spare area (the checker's read
    /// check) and the block entry of a read, the valid bit and block entry a write clears.
    #[inline]
    pub fn hint_locations(&self, lpn: u64, count: u32, write: bool) {
        for u in self.hinted(lpn, count) {
            self.hint_location(u, write);
        }
    }

    /// Reads `lpn`'s mapping entry (a hint only: the entry may still change before the lookup,
    /// which costs a miss, not correctness) and starts fetching the block entry of its location
    /// and the valid bit a write clears there, or the spare area a read's integrity check reads.
    /// Also the batched writes' near prefetch (`batch.rs`).
    #[inline]
    pub(super) fn hint_location(&self, lpn: u64, write: bool) {
        let old = self.l2p[lpn as usize].ppa();
        if old == NONE {
            return;
        }
        let dbid = self.l.dbid_of_ppa(old);
        prefetch(self.blocks.info.as_ptr().wrapping_add(dbid as usize));
        if write {
            self.valid.prefetch(old);
        } else if self.checker.is_some() {
            prefetch(self.oob.as_ptr().wrapping_add(old as usize));
        }
    }

    /// The units hinted of [lpn, lpn + count): none out of range.
    fn hinted(&self, lpn: u64, count: u32) -> std::ops::Range<u64> {
        let end = lpn
            .saturating_add((count as u64).min(HINTED_UNITS))
            .min(self.logical_units());
        lpn.min(end)..end
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{fill_sequential, ftl, random_writes, small_cfg};

    /// Hints read tables and change nothing, at any unit, the last ones and beyond included.
    #[test]
    fn hints_change_no_state_anywhere_in_or_beyond_the_drive() {
        let mut f = ftl(&small_cfg());
        fill_sequential(&mut f, 64, 1);
        random_writes(&mut f, 2_000, 7);
        let before = f.state_digest();
        let n = f.logical_units();
        for lpn in [0, 1, n / 2, n - 4, n - 1, n, n + 100, u64::MAX - 2] {
            for count in [0, 1, 4, 32, u32::MAX] {
                f.hint_mapping(lpn, count);
                f.hint_locations(lpn, count, false);
                f.hint_locations(lpn, count, true);
            }
        }
        assert_eq!(f.state_digest(), before);
    }
}
