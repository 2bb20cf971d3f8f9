//! Foreground relocation interleaved with host programs (`controller.interleave_relocation`).
//!
//! The FTL decides *what* foreground GC does: when a host write opens a block on a die short of
//! free blocks, it relocates whole victims at once (state), and the batch carries their page
//! reads, programs and erases. Queued FIFO on the die ahead of the host's next program, a
//! victim's relocation (at 84 % valid: ~1150 multi-plane reads and ~320 one-shot TLC programs,
//! ~0.6 s of die time) stalls that die's host data for as long, and the controller's write
//! buffer must absorb the stall. Firmware does not work that way: it cleans a victim in small
//! steps between host programs, a quota of relocation work per host page large enough that the
//! victim is done before the host needs the block it frees (partial block cleaning: Choudhuri
//! and Givargis, "Real-time access guarantees for NAND flash using partial block cleaning",
//! SEUS 2008; preemptible GC: Lee et al., IEEE TCAD 2013, also behind `bg` in `DieSlot`).
//!
//! Here the drive decides *when*: a die's relocation ops wait in its `reloc` queue, in FTL order.
//! The FTL relocates when a host write opens a block on the die; the queued work must be done
//! before that block is full, P = `wordlines_per_block` host programs later (the burst did it
//! before the first). So the k-th host-data program issued on the die after relocation ops were
//! queued earns ceil(queued / (P - k + 1)) of them the right to start (behind it, and ahead of
//! the die's next host program), the last one all that are left: the work is spread evenly
//! over the block (the firmware's quota, proportional to the free-block deficit). Relocation
//! ops also start without credit when a host program or erase waits for them (its block is one
//! they erase), and in host-idle time (`Drive::idle`, before any background work). Whatever
//! lets them start, at most [`BG_INFLIGHT_PER_DIE`] run on a die at once: the firmware hands
//! its die scheduler a step of a victim at a time, so a host read on the die waits for a step,
//! not for the victim (`read_priority.rs`). They do not start merely because a die has no host
//! op: GC is paced by host writes, and host reads after a write burst do not pay its relocation
//! (what is left when writes stop is the physical free-block deficit, paid by the next writes
//! or in idle time). Total NAND work is unchanged; what changes is which host IO waits behind
//! it.
//!
//! Measured (docs/calibration.md): steady-state writes do not depend on the write
//! buffer absorbing whole-victim bursts; a write test's relocation now partly falls after its
//! window instead of before its first host program, so short steady-state windows read higher.

use super::nand_path::bg_block_count;
use super::{Drive, BG_INFLIGHT_PER_DIE};
use crate::ftl::{NandOpKind, OpPurpose};
use crate::time::SimTime;

/// Ops the FTL emits to relocate data (and the erase that ends a relocation).
pub(super) fn is_relocation(p: OpPurpose) -> bool {
    matches!(
        p,
        OpPurpose::GcRead
            | OpPurpose::GcWrite
            | OpPurpose::FoldRead
            | OpPurpose::FoldWrite
            | OpPurpose::WearLevelRead
            | OpPurpose::WearLevelWrite
            | OpPurpose::Erase
    )
}

impl Drive {
    /// A host-data program is being issued on `die`: it earns its quota of relocation ops.
    pub(super) fn earn_reloc_credit(&mut self, die: u32) {
        let slot = &mut self.dies[die as usize];
        debug_assert!(slot.reloc_budget >= 1);
        let quota = (slot.reloc.len() as u32).div_ceil(slot.reloc_budget);
        slot.reloc_budget = (slot.reloc_budget - 1).max(1);
        slot.reloc_credit = (slot.reloc_credit + quota).min(slot.reloc.len() as u32);
    }

    /// Issues the relocation ops due on `die`, in order, at most [`BG_INFLIGHT_PER_DIE`] in
    /// flight: while the FIFO's head waits for them (`host_waits`), within the credit host
    /// programs earned, or while the die runs no host op.
    /// Returns whether any started and whether the queue's head waits for a queued background op
    /// on its block (a program or erase never overtakes one: they were emitted first).
    pub(super) fn start_relocation(
        &mut self,
        now: SimTime,
        die: u32,
        host_waits: bool,
    ) -> (bool, bool) {
        let mut touched = false;
        let mut bound = 1u32 << 20;
        loop {
            bound -= 1;
            assert!(bound > 0, "die {die}: relocation queue does not drain");
            let Some(&h) = self.dies[die as usize].reloc.front() else {
                break;
            };
            if self.ops[h as usize].blocked || self.hold_at_head(h) {
                break;
            }
            let slot = &self.dies[die as usize];
            if slot.reloc_inflight >= BG_INFLIGHT_PER_DIE {
                // Every path waits for room, a waiting host op too: the die's reads must not
                // queue behind a whole victim (`read_priority.rs`). Earned credit is kept.
                break;
            }
            let rec = &self.ops[h as usize];
            let block = rec.op.addr.block;
            if rec.op.kind != NandOpKind::Read
                && slot.bg_blocks.iter().any(|&(b, _)| b == block)
                && self.block_waits(&slot.bg, block, h)
            {
                return (touched, true);
            }
            // A held erase may wait for this op (`erase_hold.rs`).
            let needed = self.held_dep(h) || (host_waits && self.fifo_head_waits_for_reloc(die));
            let slot = &self.dies[die as usize];
            let host_running = slot.die.inflight() > slot.bg_inflight + slot.reloc_inflight;
            // Host idle (`Drive::idle`) and the die free: FIFO ops left after `start_host_ops`
            // cannot start, so they do not count as host work. Host reads do not pay for the
            // relocation host writes left behind (firmware prefers reads; GC is paced by writes).
            let free_slot =
                !host_running && slot.bg_inflight + slot.reloc_inflight < BG_INFLIGHT_PER_DIE;
            let idle = self.bg_allowed && self.outstanding == 0 && free_slot;
            // Host writes wait for buffer room (held up behind another die) and this die has no
            // host op to run: it would idle with its relocation queued.
            let stalled = self.cfg.controller.relocation_while_writes_wait
                && !self.buf_wait.is_empty()
                && slot.fifo.is_empty()
                && free_slot;
            let idle = idle || stalled;
            if !(needed || idle || slot.reloc_credit > 0) {
                break;
            }
            let slot = &mut self.dies[die as usize];
            if !(needed || idle) {
                slot.reloc_credit -= 1;
            }
            slot.reloc.pop_front();
            slot.reloc_inflight += 1;
            debug_assert!(slot.reloc_inflight <= BG_INFLIGHT_PER_DIE);
            slot.reloc_credit = slot.reloc_credit.min(slot.reloc.len() as u32);
            bg_block_count(&mut slot.reloc_blocks, block, -1);
            self.reloc_queued -= 1;
            self.issue(now, die, h);
            touched = true;
        }
        (touched, false)
    }

    /// Relocation ops earned by host programs and able to start wait on `die`: the next host
    /// program starts behind them, so a host program is followed by its quota on the die
    /// whatever the in-flight bound lets start at once. Like `start_relocation`, it holds the
    /// queue's head when that is an erase the FTL does not let start yet (`hold_at_head`).
    pub(super) fn reloc_credit_due(&mut self, die: u32) -> bool {
        let slot = &self.dies[die as usize];
        match slot.reloc.front() {
            Some(&h) if slot.reloc_credit > 0 => {
                !self.ops[h as usize].blocked && !self.hold_at_head(h)
            }
            _ => false,
        }
    }

    /// Host writes have just started waiting for buffer room: dies with queued relocation and
    /// nothing else to do may start it (`controller.relocation_while_writes_wait`).
    pub(super) fn start_stalled_relocation(&mut self, now: SimTime) {
        if !self.cfg.controller.relocation_while_writes_wait {
            return;
        }
        for die in 0..self.dies.len() as u32 {
            let slot = &self.dies[die as usize];
            if !slot.reloc.is_empty() && slot.fifo.is_empty() {
                self.start_ready(now, die);
            }
        }
    }

    /// The FIFO's head is a program or erase on a block with queued relocation ops.
    fn fifo_head_waits_for_reloc(&self, die: u32) -> bool {
        let slot = &self.dies[die as usize];
        slot.fifo.front().is_some_and(|&h| {
            let op = self.ops[h as usize].op;
            op.kind != NandOpKind::Read
                && slot.reloc_blocks.iter().any(|&(b, _)| b == op.addr.block)
        })
    }
}
