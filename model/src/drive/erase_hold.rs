//! Relocation erases the FTL holds (`ftl/erase_order.rs`, with `ftl.persistence`): an erase
//! whose earlier programs have not all completed is queued on its die blocked (as an op
//! waiting on `after`: the ops behind it in its queue wait too), and unblocked when the
//! completion of the last of them reaches the FTL. While one is held the drive keeps every
//! wait pointing at an earlier-sent op, so the oldest op not done can always start: relocation
//! and background ops sent before a held erase may start at once (they may be, or be queued
//! ahead of, what it waits for; later ones keep their pacing), and a program or erase waits
//! only for the relocation or background ops on its block sent before it. With no erase held
//! (always without `ftl.persistence`) nothing here changes the schedule.

use super::Drive;
use crate::ftl::{NandOp, NandOpKind};
use crate::time::SimTime;
use std::collections::VecDeque;

impl Drive {
    /// Op `id` (just recorded) is an erase the FTL holds: it waits, blocked.
    pub(super) fn hold_if_needed(&mut self, id: u32, op: &NandOp) {
        if op.kind == NandOpKind::Erase && !self.ftl.erase_ordered(op) {
            self.hold(id);
        }
    }

    /// Op `h`, at the head of its die's queue, is about to start: an erase whose block still
    /// holds the newest durable copy of some data (`ftl/superseded.rs`: the program superseding
    /// it has not completed) is held there instead (returned true). Checked only at the head,
    /// where the erase would start: queued behind its relocation, it usually never waits.
    pub(super) fn hold_at_head(&mut self, h: u32) -> bool {
        let op = self.ops[h as usize].op;
        if op.kind != NandOpKind::Erase || self.ftl.erase_may_start(&op) {
            return false;
        }
        self.hold(h);
        true
    }

    fn hold(&mut self, id: u32) {
        self.ops[id as usize].blocked = true;
        self.held_erases.push(id);
        self.held_upto = self.held_upto.max(self.ops[id as usize].sent);
    }

    /// Whether an erase is held.
    #[inline]
    pub(super) fn erase_held(&self) -> bool {
        !self.held_erases.is_empty()
    }

    /// Whether queued op `h` was sent before a held erase (it may start at once: a held erase
    /// may wait for it or for an op behind it).
    #[inline]
    pub(super) fn held_dep(&self, h: u32) -> bool {
        self.erase_held() && self.ops[h as usize].sent < self.held_upto
    }

    /// A batch has just held `newly` more erases: every die gets a chance to run the ops they
    /// may wait for.
    pub(super) fn kick_for_held(&mut self, now: SimTime, newly: bool) {
        if newly {
            for die in 0..self.dies.len() as u32 {
                self.start_ready(now, die);
            }
        }
    }

    /// A program completed: the held erases the FTL now lets start are unblocked.
    pub(super) fn release_erases(&mut self, now: SimTime) {
        if self.held_erases.is_empty() {
            return;
        }
        let mut held = std::mem::take(&mut self.held_erases);
        let mut released = Vec::new();
        held.retain(|&id| {
            let go = self.ftl.erase_may_start(&self.ops[id as usize].op);
            if go {
                released.push(id);
            }
            !go
        });
        self.held_upto = held
            .iter()
            .map(|&i| self.ops[i as usize].sent)
            .max()
            .unwrap_or(0);
        self.held_erases = held;
        for id in released {
            self.ops[id as usize].blocked = false;
            let die = self.ops[id as usize].die;
            self.start_ready(now, die);
        }
    }

    /// Whether the queued ops `queue` on `block` (there are some) hold back op `h`, a program or
    /// erase on it: all of them do when no erase is held, else those sent before `h`.
    pub(super) fn block_waits(&self, queue: &VecDeque<u32>, block: u32, h: u32) -> bool {
        if !self.erase_held() {
            return true;
        }
        let sent = self.ops[h as usize].sent;
        queue.iter().any(|&i| {
            let r = &self.ops[i as usize];
            r.op.addr.block == block && r.sent < sent
        })
    }
}
