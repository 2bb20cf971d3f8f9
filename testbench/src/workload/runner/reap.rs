//! When a clone's completed commands free their slots: fio's reaping (`backend.c`
//! `wait_for_completions`, `io_u_queued_complete`; `fio/batch.rs` has the options).
//!
//! With every slot in use fio waits for `min(iodepth_batch_complete_min, in flight)`
//! completions (at least one), takes up to `iodepth_batch_complete_max` of those done, and
//! repeats while more than `iodepth_low` remain in flight; the reaped commands' completion
//! latency ends when they are reaped (fio stamps clat in `ios_completed`). A clone with a free
//! slot that is not issuing (waiting for its rate schedule, thinktime, the next loop, or
//! finished) reaps every completion as it arrives, as fio's `io_u_quiesce` and
//! `cleanup_pending_aio` do. With fio's defaults (1, 1, `iodepth`) every completion is reaped
//! at its own time, the plain closed loop.

use super::{Clone, TimeOverflow, Timers};
use crate::workload::device::Completion;
use ssdlab_model::SimTime;

impl Clone {
    /// A completion of this clone's command arrived from the device.
    pub(super) fn arrived(&mut self, c: Completion) {
        let at = self
            .unreaped
            .partition_point(|u| u.completed <= c.completed);
        self.unreaped.insert(at, c);
    }

    /// Reaps what fio would reap now; returns how many (0: wait for the device).
    pub(super) fn reap(
        &mut self,
        ci: usize,
        window_start: SimTime,
        timers: &mut Timers,
    ) -> Result<usize, TimeOverflow> {
        if self.unreaped.is_empty() {
            return Ok(0);
        }
        let full = self.free_slots == 0 || self.low_drain || self.lat_blocks();
        let b = self.batch;
        let (n, at) = if full {
            let depth = self.outstanding;
            let min = b.complete_min.min(depth).max(1) as usize;
            if self.unreaped.len() < min {
                return Ok(0);
            }
            let max = (b.complete_max.min(depth) as usize).max(min);
            let at = self.unreaped[min - 1].completed;
            let ready = self.unreaped.partition_point(|u| u.completed <= at);
            (ready.min(max), Some(at))
        } else {
            (self.unreaped.len(), None)
        };
        let reaped: Vec<Completion> = self.unreaped.drain(..n).collect();
        for mut c in reaped {
            if let Some(t) = at {
                c.completed = t;
            }
            self.complete(ci, &c, window_start, timers)?;
        }
        self.low_drain = full && self.outstanding > b.low && !self.finished;
        Ok(n)
    }
}
