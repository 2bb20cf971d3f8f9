//! NAND half of the drive: FTL op batches onto per-die FIFOs (with `after` dependencies), dies
//! onto their channel's sequencer, sequencer completions back to commands and the data buffer;
//! plus busy/idle tracking (the statistics window is `window.rs`).

use super::{stats, Drive, Ev, OpRec, BG_INFLIGHT_PER_DIE, NONE};
use crate::ftl::{NandOp, NandOpKind, OpPurpose};
use crate::nand::sequencer::SeqOp;
use crate::time::SimTime;

impl Drive {
    #[inline]
    pub(super) fn die_index(&self, op: &NandOp) -> u32 {
        let g = &self.cfg.geometry;
        let id = op.addr.die;
        debug_assert!(
            (id.channel as u32) < g.channels
                && (id.way as u32) < g.ways_per_channel
                && (id.die as u32) < g.dies_per_way
        );
        (id.die as u32 * g.ways_per_channel + id.way as u32) * g.channels + id.channel as u32
    }

    /// Queues a batch from one FTL call; ops owned by `owner` (or NONE) count towards it.
    pub(super) fn dispatch_batch(&mut self, batch: &mut Vec<NandOp>, owner: u32) {
        if batch.is_empty() {
            return;
        }
        let now = self.now();
        let first_new = self.batch_ids.len();
        debug_assert_eq!(first_new, 0);
        let held = self.held_erases.len();
        for (i, op) in batch.iter().enumerate() {
            self.enqueue_op(i, op, owner);
        }
        self.ops_inflight += batch.len() as u64;
        self.mark_busy(now);
        for k in 0..self.batch_ids.len() {
            let die = self.ops[self.batch_ids[k] as usize].die;
            self.start_ready(now, die);
        }
        self.kick_for_held(now, self.held_erases.len() > held);
        self.batch_ids.clear();
        batch.clear();
    }

    /// Op `i` of the batch being dispatched: recorded, linked behind the op it waits for
    /// (`after`, an earlier op of the same batch), counted towards its owner, and queued on its
    /// die (not started: `dispatch_batch` starts the dies once the whole batch is queued).
    fn enqueue_op(&mut self, i: usize, op: &NandOp, owner: u32) {
        let die = self.die_index(op);
        let owned = owner != NONE
            && matches!(
                op.purpose,
                OpPurpose::HostRead
                    | OpPurpose::MapRead
                    | OpPurpose::HostWrite
                    | OpPurpose::MapWrite
            );
        let rec = self.op_record(op, die, if owned { owner } else { NONE });
        let id = self.alloc_op(rec);
        if let Some(j) = op.after {
            assert!(
                (j as usize) < i,
                "op {i} of a batch waits for op {j}, which is not before it"
            );
            let dep = self.batch_ids[j as usize];
            self.ops[id as usize].blocked = true;
            self.ops[id as usize].next_waiter = self.ops[dep as usize].first_waiter;
            self.ops[dep as usize].first_waiter = id;
        }
        if owned {
            self.cmds[owner as usize].ops_left += 1;
        }
        self.hold_if_needed(id, op);
        self.batch_ids.push(id);
        self.queue_or_hold(id, op);
    }

    /// The record of a newly dispatched op: a host-data program takes the next program sequence
    /// number (flush ordering), a ReadAhead op the next prefetch tag; background or relocation
    /// by the batch's origin and `controller.interleave_relocation`.
    fn op_record(&mut self, op: &NandOp, die: u32, owner: u32) -> OpRec {
        let pseq = if op.kind == NandOpKind::Program && op.purpose == OpPurpose::HostWrite {
            self.host_prog_next += 1;
            self.host_progs.insert(self.host_prog_next - 1);
            self.host_prog_next - 1
        } else {
            u64::MAX
        };
        let ra_tag = if op.purpose == OpPurpose::ReadAhead {
            self.ra_tag_next += 1;
            let fresh = self
                .ra_inflight
                .insert(self.ra_tag_next - 1, Vec::new())
                .is_none();
            assert!(
                fresh,
                "ReadAhead tag {} dispatched twice",
                self.ra_tag_next - 1
            );
            self.ra_tag_next - 1
        } else {
            u64::MAX
        };
        let bg = self.dispatching_bg;
        let reloc = !bg
            && self.cfg.controller.interleave_relocation
            && super::reloc_queue::is_relocation(op.purpose);
        OpRec {
            op: *op,
            die,
            owner,
            blocked: false,
            first_waiter: NONE,
            next_waiter: NONE,
            done: false,
            pseq,
            ra_tag,
            bg,
            reloc,
            issued: u64::MAX,
            sent: {
                self.sent_next += 1;
                self.sent_next - 1
            },
        }
    }

    /// Stores `rec` in a free op slot (or a new one); returns its id.
    fn alloc_op(&mut self, rec: OpRec) -> u32 {
        match self.free_ops.pop() {
            Some(id) => {
                self.ops[id as usize] = rec;
                id
            }
            None => {
                self.ops.push(rec);
                (self.ops.len() - 1) as u32
            }
        }
    }

    /// Appends op `id` to its die's background, relocation or host-path queue.
    pub(super) fn queue_on_die(&mut self, id: u32, op: &NandOp) {
        let rec = self.ops[id as usize];
        let slot = &mut self.dies[rec.die as usize];
        if rec.bg {
            slot.bg.push_back(id);
            bg_block_count(&mut slot.bg_blocks, op.addr.block, 1);
            assert!(slot.bg.len() < 1 << 20, "die background queue overflow");
        } else if rec.reloc {
            slot.reloc.push_back(id);
            bg_block_count(&mut slot.reloc_blocks, op.addr.block, 1);
            slot.reloc_budget = self
                .cfg
                .geometry
                .wordlines_per_block
                .max(1)
                .saturating_mul(self.cfg.controller.relocation_spread_blocks);
            assert!(slot.reloc.len() < 1 << 20, "die relocation queue overflow");
            self.reloc_queued += 1;
        } else {
            slot.fifo.push_back(id);
            assert!(slot.fifo.len() < 1 << 20, "die FIFO overflow");
        }
    }

    /// Starts the background ops every die can run now (`Drive::idle` begins).
    pub(super) fn start_background(&mut self, now: SimTime) {
        for die in 0..self.dies.len() as u32 {
            if !self.dies[die as usize].bg.is_empty() {
                self.start_ready(now, die);
            }
        }
    }

    /// Hands the die's unblocked head ops to its channel sequencer, in order; then the relocation
    /// ops due (`reloc_queue.rs`); then, while the die runs no host-path op and none can start, up
    /// to [`BG_INFLIGHT_PER_DIE`] background ops. Relocation ops a waiting host op needs may start
    /// that host op: the passes repeat while they start something.
    pub(super) fn start_ready(&mut self, now: SimTime, die: u32) {
        let mut touched = false;
        for _ in 0..4 {
            let (host, wait) = self.start_host_ops(now, die);
            let (reloc, reloc_waits_bg) = self.start_relocation(now, die, wait == Wait::Reloc);
            let bg_head = self.dies[die as usize].bg.front();
            let needed =
                wait == Wait::Bg || reloc_waits_bg || bg_head.is_some_and(|&h| self.held_dep(h));
            let bg = self.start_bg_ops(now, die, needed);
            touched |= host | reloc | bg;
            if !reloc || wait == Wait::None {
                break;
            }
        }
        if touched {
            let ch = self.dies[die as usize].channel;
            self.wake(now, ch);
        }
    }

    /// Issues the die's FIFO ops in order until one is blocked (its `after` op runs) or must wait
    /// for queued background or relocation ops on its block: a program or erase must not overtake
    /// them (an erase frees the block it will write). Reads may: a read of data a queued
    /// relocation moves stands for the firmware reading the still-valid source copy on the die.
    /// Reads queued behind a head that cannot start go ahead of it (`read_priority.rs`).
    fn start_host_ops(&mut self, now: SimTime, die: u32) -> (bool, Wait) {
        let mut touched = false;
        while let Some(&h) = self.dies[die as usize].fifo.front() {
            let (op, blocked) = (self.ops[h as usize].op, self.ops[h as usize].blocked);
            let host_program = self.ops[h as usize].pseq != u64::MAX;
            let wait = if blocked || self.hold_at_head(h) {
                Some(Wait::None)
            } else if host_program && self.reloc_credit_due(die) {
                Some(Wait::Credit)
            } else {
                self.head_waits_for_block(die, h, &op)
            };
            if let Some(wait) = wait {
                let reads = self.start_reads_behind_head(now, die);
                return (touched | reads, wait);
            }
            self.dies[die as usize].fifo.pop_front();
            if host_program {
                self.earn_reloc_credit(die);
            }
            self.issue(now, die, h);
            touched = true;
        }
        (touched, Wait::None)
    }

    /// Whether FIFO head `h` (`op`), a program or erase, must wait for queued background
    /// (`Wait::Bg`) or relocation (`Wait::Reloc`) ops on its block.
    fn head_waits_for_block(&self, die: u32, h: u32, op: &NandOp) -> Option<Wait> {
        if op.kind == NandOpKind::Read {
            return None;
        }
        let slot = &self.dies[die as usize];
        let b = op.addr.block;
        if slot.bg_blocks.iter().any(|&(x, _)| x == b) && self.block_waits(&slot.bg, b, h) {
            return Some(Wait::Bg);
        }
        if slot.reloc_blocks.iter().any(|&(x, _)| x == b) && self.block_waits(&slot.reloc, b, h) {
            return Some(Wait::Reloc);
        }
        None
    }

    /// Background ops run while the host is idle (`Drive::idle`, no relocation left on the die)
    /// or when a host or relocation op waits for them; never ahead of a host-path op that could
    /// start.
    fn start_bg_ops(&mut self, now: SimTime, die: u32, needed: bool) -> bool {
        let mut touched = false;
        loop {
            let slot = &self.dies[die as usize];
            if !((self.bg_allowed && self.outstanding == 0 && slot.reloc.is_empty()) || needed) {
                break;
            }
            let host_running = slot.die.inflight() > slot.bg_inflight;
            let host_ready = !slot.fifo.is_empty() && !needed;
            let Some(&h) = slot.bg.front() else { break };
            if host_running
                || host_ready
                || slot.bg_inflight >= BG_INFLIGHT_PER_DIE
                || self.ops[h as usize].blocked
            {
                break;
            }
            let slot = &mut self.dies[die as usize];
            slot.bg.pop_front();
            slot.bg_inflight += 1;
            bg_block_count(&mut slot.bg_blocks, self.ops[h as usize].op.addr.block, -1);
            self.issue(now, die, h);
            touched = true;
        }
        touched
    }

    /// Hands op `h` to its die's channel sequencer.
    pub(super) fn issue(&mut self, now: SimTime, die: u32, h: u32) {
        self.issued += 1;
        self.ops[h as usize].issued = self.issued;
        {
            let op = self.ops[h as usize].op;
            let slot = &mut self.dies[die as usize];
            let array_time = slot.die.start(now, &op, &self.timing);
            let seq_op = SeqOp {
                id: h as u64,
                way: slot.way,
                die: slot.lun,
                kind: op.kind,
                planes: op.planes.max(1),
                bus_bytes: op.bus_bytes,
                array_time,
                pages: op.one_shot_pages(self.cfg.geometry.bits_per_cell),
            };
            let ch = slot.channel as usize;
            let at = self.page_buf.nand_accept(ch, now, op.kind, op.bus_bytes);
            let c = &mut self.chans[ch];
            if let Some(x) = self.nand_x {
                // Handed over when the FIFO has room (the firmware offers until it is taken).
                let at = x.room_from(&mut c.fifo, at);
                let seen = x.push(&mut c.fifo, at);
                c.seq.enqueue(seen, seq_op);
            } else {
                c.seq.enqueue(at, seq_op);
            }
            self.stats.get_mut().nand_ops[stats::purpose_index(op.purpose)] += 1;
            self.stats.get_mut().onfi_bytes += op.bus_bytes as u64;
            self.nand_pj += self.timing.energy_pj(&op);
        }
    }

    /// Replaces the program/erase suspend rules of every channel (`nand.suspend`), e.g. between
    /// the steps of a protocol; ops already suspended finish under the old rules.
    pub fn set_suspend(
        &mut self,
        cfg: &crate::config::SuspendConfig,
    ) -> Result<(), crate::error::ConfigError> {
        cfg.validate()?;
        self.cfg.nand.suspend = cfg.clone();
        for c in &mut self.chans {
            c.seq.set_suspend(cfg);
        }
        Ok(())
    }

    /// Makes sure an engine event is due when channel `ch` next needs attention: when the PCIe
    /// side would see what the sequencer's next event pushes (`NandCrossing`).
    fn wake(&mut self, now: SimTime, ch: u16) {
        let c = &mut self.chans[ch as usize];
        if let Some(t) = c.seq.next_event_time() {
            let t = self.nand_x.map_or(t, |x| x.completion_seen(t)).max(now);
            if c.wake_at.is_none_or(|w| t < w) {
                c.wake_at = Some(t);
                self.q.schedule(t, Ev::Channel { ch });
            }
        }
    }

    pub(super) fn on_channel(&mut self, now: SimTime, ch: u16) {
        if self.chans[ch as usize].wake_at != Some(now) {
            return; // superseded by an earlier wake
        }
        self.chans[ch as usize].wake_at = None;
        let mut done = std::mem::take(&mut self.seq_done);
        // The sequencer runs through the last of its cycles whose completions are seen by now.
        let through = match self.nand_x {
            None => Some(now),
            Some(x) => x.seen_through(now),
        };
        if let Some(t) = through {
            self.chans[ch as usize].seq.advance(t, &mut done);
        }
        for c in done.drain(..) {
            debug_assert!(c.completed <= now);
            self.op_done(now, c.id as u32);
        }
        self.seq_done = done;
        self.wake(now, ch);
    }

    fn op_done(&mut self, now: SimTime, id: u32) {
        let rec = self.ops[id as usize];
        assert!(!rec.done, "op {id} completed twice");
        self.ops[id as usize].done = true;
        self.dies[rec.die as usize].die.finish();
        if rec.bg {
            self.dies[rec.die as usize].bg_inflight -= 1;
        }
        if rec.reloc {
            self.dies[rec.die as usize].reloc_inflight -= 1;
        }
        self.ops_inflight -= 1;
        if rec.op.kind != NandOpKind::Read {
            self.ftl.nand_done(&rec.op);
            if rec.op.kind == NandOpKind::Program {
                self.release_erases(now);
            }
        }
        let mut w = rec.first_waiter;
        while w != NONE {
            let next = self.ops[w as usize].next_waiter;
            self.ops[w as usize].blocked = false;
            let die = self.ops[w as usize].die;
            self.start_ready(now, die);
            w = next;
        }
        // The die may now start background work (or a host op that waited for it).
        self.start_ready(now, rec.die);
        self.free_ops.push(id);
        if rec.owner != NONE {
            self.owned_op_done(now, rec.owner, rec.op.purpose);
        }
        if rec.ra_tag != u64::MAX {
            self.prefetch_op_done(now, rec.ra_tag, &rec.op);
        }
        if rec.pseq != u64::MAX {
            self.buf
                .release((rec.op.bus_bytes / self.unit_bus_bytes) as u64);
            self.host_program_done(now, rec.pseq);
            self.admit_writes(now);
        }
        self.mark_idle(now);
    }

    pub(super) fn mark_busy(&mut self, now: SimTime) {
        if self.busy_since.is_none() && (self.outstanding > 0 || self.ops_inflight > 0) {
            self.busy_since = Some(now);
        }
    }

    pub(super) fn mark_idle(&mut self, now: SimTime) {
        if self.outstanding == 0 && self.ops_inflight == 0 {
            if let Some(s) = self.busy_since.take() {
                self.busy_acc += now - s.max(self.stats.get_mut().window_start);
            }
        }
    }
}

/// What the FIFO's head op waits for, if anything but its `after` op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wait {
    None,
    /// Queued background ops on its block.
    Bg,
    /// Queued relocation ops on its block.
    Reloc,
    /// A host-data program: the relocation ops the previous one earned start first
    /// (`reloc_queue.rs`).
    Credit,
}

/// Adds `delta` to the count of queued background (or relocation) ops addressing `block`
/// (entries at zero go).
pub(super) fn bg_block_count(blocks: &mut Vec<(u32, u32)>, block: u32, delta: i32) {
    match blocks.iter().position(|&(b, _)| b == block) {
        Some(i) => {
            let n = blocks[i].1 as i64 + delta as i64;
            assert!(n >= 0, "background op count of block {block} below zero");
            if n == 0 {
                blocks.swap_remove(i);
            } else {
                blocks[i].1 = n as u32;
            }
        }
        None => {
            assert_eq!(delta, 1, "background op count of block {block} not tracked");
            blocks.push((block, 1));
        }
    }
    debug_assert!(blocks.len() <= 1 << 16);
}
