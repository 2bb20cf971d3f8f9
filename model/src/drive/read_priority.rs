//! Reads first on a die whose host-path queue is held up.
//!
//! A die's FIFO keeps the FTL's order, so a program or erase that must wait (for the
//! relocation or background ops queued on its block, for an `after` op, or a held erase) holds
//! back what is behind it. Firmware keeps reads out of that wait: its per-die scheduler serves
//! host and mapping reads ahead of queued programs, erases and relocation (MQSim's transaction
//! scheduling units keep user reads, user writes, mapping and GC transactions in separate
//! per-chip queues and serve reads first; Sprinkler, Jung et al., HPCA 2014, issues them out
//! of order). Here a read behind a head that cannot start goes to the sequencer at once,
//! unless it waits for an `after` op itself (its map read).
//!
//! No read overtakes data it needs: a read of data whose program has not completed is served
//! from the buffer (`Ftl::host_read`, `programmed`), never from the page being written, and the
//! FTL maps no data to a block queued for erase.
//!
//! Together with the relocation in flight per die bounded by [`BG_INFLIGHT_PER_DIE`]
//! (`reloc_queue.rs`), a host read on a die waiting for a whole victim's relocation waits for
//! at most that many relocation ops and the host-path ops issued before it, not for the victim.

use super::Drive;
#[cfg(doc)]
use super::BG_INFLIGHT_PER_DIE;
use crate::ftl::NandOpKind;
use crate::time::SimTime;

impl Drive {
    /// The die's FIFO head cannot start: issues, in FIFO order, every read behind it that waits
    /// for no other op. Returns whether any started.
    pub(super) fn start_reads_behind_head(&mut self, now: SimTime, die: u32) -> bool {
        let mut touched = false;
        let mut i = 1;
        // Each pass removes an entry or moves past one: at most the FIFO's length of passes.
        while i < self.dies[die as usize].fifo.len() {
            let h = self.dies[die as usize].fifo[i];
            let r = &self.ops[h as usize];
            if r.op.kind == NandOpKind::Read && !r.blocked {
                self.dies[die as usize].fifo.remove(i);
                self.issue(now, die, h);
                touched = true;
            } else {
                i += 1;
            }
        }
        touched
    }
}
