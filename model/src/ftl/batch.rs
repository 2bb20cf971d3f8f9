//! Batched host writes for the fast functional warm-up (issue 3): the same state transitions as
//! one `host_write` per unit, in the same order, but the caller hands over the whole logical
//! sequence so the FTL can software-prefetch the random table entries of write i + K while it
//! performs write i. On a 512 GB drive the mapping table (with the checker's sequence numbers)
//! and the valid bitmap are far larger than the CPU caches; without prefetching nearly every
//! random write waits on two or three DRAM misses in a row. Prefetching is a hint only: it never
//! changes what is computed (a test compares `state_digest` with the one-at-a-time path).
//! Source: the classic "software pipelining of pointer-chasing loops" (Intel optimization
//! manual, 7.6 "Software prefetch"), applied to the page-mapping FTL.

use super::{Ftl, NandOp, WriteOutcome};

/// Units ahead at which the mapping and checker entries are prefetched (into L2).
const FAR: usize = 128;
/// Units ahead at which the (by now cached) old mapping is read and its block entry and valid
/// bit prefetched (into L1).
const NEAR: usize = 24;
/// Prefetches are issued for a group of this many writes at once, then the group is written.
/// Measured on the 2-core KVM guest this was tuned on (steady-state random writes, full preset,
/// median of 12 interleaved 2 M-unit windows): per-write prefetching at 64/24 units 6.0-6.2 M
/// units per CPU-second, far into L2 alone 6.1 M, grouped (16) alone 6.1 M, both 7.0-7.2 M.
/// Our reading (no hardware counters in the guest): a prefetch that misses the TLB holds up
/// retirement for its page walk (nested paging), and grouped prefetches overlap their walks.
const GROUP: usize = 16;

impl Ftl {
    /// Host writes of one unit each, of `lpns` in order. Same resulting FTL state, statistics and
    /// ops as `for &u in lpns { host_write(u, 1, ops) }`, at a fraction of the cache misses.
    pub fn host_write_units(&mut self, lpns: &[u64], ops: &mut Vec<NandOp>) -> WriteOutcome {
        let n = self.logical_units();
        if let Some(&bad) = lpns.iter().find(|&&u| u >= n) {
            panic!("host write of unit {bad} beyond capacity {n}");
        }
        ops.append(&mut self.deferred);
        let ahead =
            |i: usize, d: usize| &lpns[(i + d).min(lpns.len())..(i + d + GROUP).min(lpns.len())];
        for (g, chunk) in lpns.chunks(GROUP).enumerate() {
            let i = g * GROUP;
            for &far in ahead(i, FAR) {
                self.prefetch_far(far);
            }
            for &near in ahead(i, NEAR) {
                // Its mapping entry was prefetched FAR - NEAR units ago: the block entry and
                // valid bit its old location will clear.
                self.hint_location(near, true);
            }
            for &lpn in chunk {
                self.write_unit(lpn, ops);
            }
        }
        self.st.host_units_written += lpns.len() as u64;
        self.refresh_block_stats();
        WriteOutcome {
            units: lpns.len() as u32,
        }
    }

    /// Functional warm-up of units `lpns`, in order (issue 3): the same state transitions and
    /// statistics as `host_write_units`, but the NAND ops, which a warm-up drops untimed, are not
    /// built (the few produced off the hot path, e.g. translation-page traffic, are dropped).
    pub fn warm_up_units(&mut self, lpns: &[u64]) -> WriteOutcome {
        self.without_ops(|f, ops| f.host_write_units(lpns, ops))
    }

    /// Functional warm-up of units [lpn, lpn + count): `host_write` without building NAND ops.
    pub fn warm_up(&mut self, lpn: u64, count: u32) -> WriteOutcome {
        self.without_ops(|f, ops| f.host_write(lpn, count, ops))
    }

    fn without_ops(
        &mut self,
        call: impl FnOnce(&mut Ftl, &mut Vec<NandOp>) -> WriteOutcome,
    ) -> WriteOutcome {
        let mut dropped = std::mem::take(&mut self.dropped);
        self.emit = false;
        let out = call(self, &mut dropped);
        self.emit = true;
        dropped.clear();
        self.dropped = dropped;
        out
    }

    /// Starts fetching `lpn`'s mapping entry (which holds the checker's sequence too).
    #[inline]
    fn prefetch_far(&self, lpn: u64) {
        prefetch_l2(self.l2p.as_ptr().wrapping_add(lpn as usize));
    }
}

/// A cache-line prefetch hint for the data at `p` into L1 (never faults, no effect on results).
#[inline(always)]
pub(super) fn prefetch<T>(p: *const T) {
    hint(p, false);
}

/// A prefetch into the L2 cache only (far ahead: the L2 tracks more outstanding misses than
/// the L1's miss buffers, which the near prefetches and the writes' own accesses need).
#[inline(always)]
pub(super) fn prefetch_l2<T>(p: *const T) {
    hint(p, true);
}

#[inline(always)]
fn hint<T>(p: *const T, l2_only: bool) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: _mm_prefetch is a hint; it never faults, even on an invalid address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0, _MM_HINT_T2};
        if l2_only {
            _mm_prefetch(p as *const i8, _MM_HINT_T2)
        } else {
            _mm_prefetch(p as *const i8, _MM_HINT_T0)
        }
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, l2_only);
}

/// Stores `v` at `*p` past the caches (a non-temporal store): for GC's mapping updates, random
/// in a table far larger than the caches and not read again soon, it saves reading the line
/// first (the read-for-ownership of an ordinary store). The store is weakly ordered: nothing may
/// access `*p` before the next [`stream_fence`] (as `_mm_stream_si32`'s documentation requires).
#[inline(always)]
pub(super) fn stream_store(p: &mut u32, v: u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `p` is a valid, aligned, exclusive reference; callers fence before reading it.
    unsafe {
        std::arch::x86_64::_mm_stream_si32(p as *mut u32 as *mut i32, v as i32)
    };
    #[cfg(not(target_arch = "x86_64"))]
    {
        *p = v;
    }
}

/// Orders every earlier [`stream_store`] before all later memory accesses (`sfence`).
#[inline(always)]
pub(super) fn stream_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: sfence has no preconditions.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}
