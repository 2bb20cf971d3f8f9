//! Time without host IO and untimed state changes: `Drive::idle` lets the FTL's background work
//! (GC, SLC folding, buffer flush) run on the dies, and the functional write/trim used for
//! preconditioning change FTL state without timing anything.

use super::{Drive, IoCompletion, IoOp, NONE};
use crate::error::DriveError;
use crate::time::SimTime;

impl Drive {
    /// Lets `d` pass with no new host IO. While no host command is outstanding the FTL's
    /// background work (buffer flush, SLC folding, GC, wear levelling) runs on the dies:
    /// `Ftl::idle_work` is asked at the start and after each background batch completes; when it
    /// has nothing due, the drive waits until `Ftl::next_idle_work_at` says work becomes due
    /// (host-idle time counted from the last completion) and asks again.
    /// Refused: a window ending past [`SimTime::LIMIT`].
    pub fn idle(&mut self, d: SimTime, done: &mut Vec<IoCompletion>) -> Result<(), DriveError> {
        let end = self
            .now()
            .add_limited(d)
            .ok_or(DriveError::TimeBeyondLimit {
                call: "idle",
                now: self.now(),
                span: d,
            })?;
        let mut target = self.now();
        let mut guard = 0u32;
        self.bg_allowed = true;
        if self.outstanding == 0 {
            let now = self.now();
            self.start_background(now);
        }
        loop {
            self.process_until(target);
            if self.outstanding > 0 {
                break; // host IO in flight: no background work
            }
            guard += 1;
            assert!(guard < 1 << 24, "background work does not converge");
            if self.reloc_queued > 0 {
                // Foreground relocation left by host writes (`reloc_queue.rs`) came first: it
                // finishes (on dies the host left idle) before background work is asked for.
                if !self.run_while(end, |d| d.reloc_queued > 0) {
                    break;
                }
                target = self.now();
                continue;
            }
            let idle_for = self.now() - self.host_idle_since;
            let mut batch = std::mem::take(&mut self.batch);
            batch.clear();
            let did = self.ftl.idle_work(idle_for, &mut batch);
            let n = batch.len();
            self.dispatching_bg = true;
            self.dispatch_batch(&mut batch, NONE);
            self.dispatching_bg = false;
            self.batch = batch;
            if n > 0 {
                // Run the background batch to completion (or to the end of the window).
                if !self.run_while(end, |d| d.ops_inflight > 0) {
                    break;
                }
                target = self.now();
                continue;
            }
            if did {
                target = self.now(); // state-only work (no ops): ask again at once
                continue;
            }
            match self.ftl.next_idle_work_at(idle_for) {
                Some(at) if self.host_idle_since + at <= end => {
                    target = (self.host_idle_since + at).max(self.now())
                }
                _ => break,
            }
        }
        self.run_until(end, done)?;
        self.bg_allowed = false;
        Ok(())
    }

    /// Handles events while `busy` holds, up to `end`; false when `end` came first.
    fn run_while(&mut self, end: SimTime, busy: impl Fn(&Drive) -> bool) -> bool {
        while busy(self) {
            match self.q.pop_until(end) {
                Some((at, ev)) => self.handle(at, ev),
                None => return false,
            }
        }
        true
    }

    /// Untimed writes for preconditioning: FTL state changes, no ops (`Ftl::warm_up`). Refused
    /// (nothing written): a range beyond the capacity.
    pub fn functional_write(&mut self, offset: u64, len: u64) -> Result<(), DriveError> {
        let (lpn, units) = self.units_of(IoOp::Write, offset, len)?;
        let mut left = units;
        let mut l = lpn;
        while left > 0 {
            let n = left.min(1 << 16) as u32;
            self.batch.clear();
            self.ftl.warm_up(l, n);
            l += n as u64;
            left -= n as u64;
        }
        self.batch.clear();
        self.refresh_stats();
        Ok(())
    }

    /// Untimed writes of `len` bytes at each of `offsets`, in order, for preconditioning: the
    /// same FTL state as one `functional_write` per offset, through the FTL's batched path
    /// (`Ftl::warm_up_units`, which prefetches the table entries of upcoming writes). Refused
    /// (nothing written): any range beyond the capacity.
    pub fn functional_write_many(&mut self, offsets: &[u64], len: u64) -> Result<(), DriveError> {
        let mut lpns = Vec::new();
        for &off in offsets {
            let (lpn, units) = self.units_of(IoOp::Write, off, len)?;
            lpns.extend(lpn..lpn + units);
        }
        for chunk in lpns.chunks(1 << 16) {
            self.batch.clear();
            self.ftl.warm_up_units(chunk);
        }
        self.batch.clear();
        self.refresh_stats();
        Ok(())
    }

    /// Untimed trim of the whole 4 KiB units inside a byte range. Refused: a range beyond the
    /// capacity.
    pub fn functional_trim(&mut self, offset: u64, len: u64) -> Result<(), DriveError> {
        let (lpn, units) = self.whole_units_in(IoOp::Trim, offset, len)?;
        let mut l = lpn;
        while l < lpn + units {
            let n = (lpn + units - l).min(1 << 30) as u32;
            self.ftl.trim(l, n);
            l += n as u64;
        }
        self.refresh_stats();
        Ok(())
    }

    /// 4 KiB units entirely inside the byte range of `op` (trims never discard a neighbour's
    /// sectors), checked against the capacity.
    pub(super) fn whole_units_in(
        &self,
        op: IoOp,
        offset: u64,
        len: u64,
    ) -> Result<(u64, u64), DriveError> {
        self.units_of(op, offset, len)?; // range check: offset + len fits the capacity
        let first = offset.div_ceil(4096);
        let end = (offset + len) / 4096;
        Ok((first, end.saturating_sub(first)))
    }
}
