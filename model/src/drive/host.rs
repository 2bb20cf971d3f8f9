//! Host-side half of the drive: submission, doorbells, command fetch, firmware, write-data DMA,
//! read-data return, completion entries, interrupts, and the statistics window.

use super::{Cmd, Drive, Ev, HostIo, IoCompletion, IoId, IoOp, MAX_COMMANDS, NONE};
use crate::error::DriveError;
use crate::ftl::OpPurpose;
use crate::nvme::{prp_list_bytes, IrqDecision, CQE_BYTES, DOORBELL_BYTES, MSIX_BYTES, SQE_BYTES};
use crate::pcie::Dir;
use crate::time::SimTime;

impl Drive {
    pub(super) fn host_submit(&mut self, io: HostIo) -> Result<IoId, DriveError> {
        let now = self.now();
        let (lpn, units) = match io.op {
            IoOp::Flush => (0, 0),
            IoOp::Trim => self.whole_units_in(io.op, io.offset, io.len)?,
            _ if io.len == 0 => {
                return Err(DriveError::ZeroLength {
                    op: io.op.name(),
                    offset: io.offset,
                })
            }
            _ => self.units_of(io.op, io.offset, io.len)?,
        };
        if io.len >= u32::MAX as u64 {
            return Err(DriveError::TooLong {
                op: io.op.name(),
                len: io.len,
            });
        }
        if self.free_cmds.is_empty() && self.cmds.len() >= MAX_COMMANDS {
            return Err(DriveError::TooManyCommands { max: MAX_COMMANDS });
        }
        let id = self.next_id;
        self.next_id += 1;
        let queue = io.queue % self.nvme.count();
        let c = Cmd {
            id,
            op: io.op,
            len: io.len,
            queue,
            submitted: now,
            lpn,
            units: units as u32,
            ops_left: 0,
            data_ops_left: 0,
            sends_left: 0,
            share: 0,
            unsent: 0,
            waits_programs: false,
            live: true,
        };
        let slot = match self.free_cmds.pop() {
            Some(s) => {
                self.cmds[s as usize] = c;
                s
            }
            None => {
                self.cmds.push(c);
                (self.cmds.len() - 1) as u32
            }
        };
        self.outstanding += 1;
        self.mark_busy(now);
        if self.nvme.has_room(queue) {
            self.ring_doorbell(now, slot);
        } else {
            self.host_wait[queue as usize].push_back(slot);
        }
        Ok(IoId(id))
    }

    fn ring_doorbell(&mut self, now: SimTime, cmd: u32) {
        self.nvme.host_submit(self.cmds[cmd as usize].queue);
        let t = self.link.memory_write(now, Dir::Down, DOORBELL_BYTES);
        self.q.schedule(t, Ev::Doorbell { cmd });
    }

    pub(super) fn on_doorbell(&mut self, cmd: u32) {
        self.nvme.doorbell(self.cmds[cmd as usize].queue, cmd);
        self.try_fetch();
    }

    fn try_fetch(&mut self) {
        let now = self.now();
        while self.fetches < super::MAX_FETCHES {
            let Some((_q, cmd)) = self.nvme.fetch_next() else {
                break;
            };
            let t = self.link.device_read(now, SQE_BYTES);
            self.q.schedule(t, Ev::Fetched { cmd });
            self.fetches += 1;
        }
    }

    pub(super) fn on_fetched(&mut self, now: SimTime, cmd: u32) {
        self.fetches -= 1;
        self.try_fetch();
        let c = self.cmds[cmd as usize];
        let (cpu_units, extra) = match c.op {
            // The read's per-unit work comes after its FTL lookup (`start_read`).
            IoOp::Read if self.cfg.controller.read_lookup_on_demand => (0, prp_list_bytes(c.len)),
            IoOp::Read | IoOp::Write => (c.units as u64, prp_list_bytes(c.len)),
            // Dataset Management carries its range list (16 B per range) in host memory.
            IoOp::Trim => (0, 16),
            IoOp::Flush => (0, 0),
        };
        let mut t = self.cpu.process_cmd(now, cpu_units, c.op == IoOp::Write);
        if extra > 0 {
            t = t.max(self.link.device_read(now, extra));
        }
        self.q.schedule(t, Ev::Firmware { cmd });
    }

    pub(super) fn on_firmware(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        match c.op {
            IoOp::Read => {
                let waits = !self.rbuf_wait.is_empty();
                let admitted = match &mut self.rbuf {
                    None => true,
                    Some(rb) => !waits && rb.try_reserve(c.units as u64),
                };
                if admitted {
                    self.start_read(now, cmd);
                } else {
                    self.rbuf_wait.push_back(cmd);
                }
            }
            IoOp::Write => {
                if self.buf_wait.is_empty() && self.buf.try_reserve(c.units as u64) {
                    self.start_write_dma(now, cmd);
                } else {
                    self.buf_wait.push_back(cmd);
                    if self.buf_wait.len() == 1 {
                        self.start_stalled_relocation(now);
                    }
                    self.unstick();
                }
            }
            IoOp::Trim => {
                if c.units > 0 {
                    self.ftl.trim(c.lpn, c.units);
                }
                self.post_cqe(now, cmd);
            }
            IoOp::Flush => {
                let mut batch = std::mem::take(&mut self.batch);
                batch.clear();
                self.ftl.flush(&mut batch);
                self.dispatch_batch(&mut batch, cmd);
                self.batch = batch;
                // Durable means every host-data program dispatched so far has finished too.
                let snap = self.host_prog_next;
                if self.host_progs.first().is_some_and(|&p| p < snap) {
                    self.cmds[cmd as usize].waits_programs = true;
                    self.flush_wait.push_back((snap, cmd));
                }
                self.check_done(now, cmd);
            }
        }
    }

    fn start_read(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        let mut batch = std::mem::take(&mut self.batch);
        batch.clear();
        self.ftl.host_read(c.lpn, c.units, &mut batch);
        self.note_integrity(now, &c);
        let nand_ops = batch
            .iter()
            .filter(|o| o.purpose == OpPurpose::HostRead)
            .count() as u32;
        // Units served from prefetches still being read wait for those reads: each such
        // ReadAhead op carries a share of the data, like a host-read op.
        let ra_waits = self.claim_prefetch_hits(now, cmd);
        let ra_ops = batch
            .iter()
            .filter(|o| o.purpose == OpPurpose::ReadAhead)
            .count() as u64;
        self.ra_tag_next = self.ftl.prefetch_tags_issued() - ra_ops;
        let mut data_ops = nand_ops + ra_waits;
        // Per-unit work at the lookup: this read's own units now (its page reads wait for it),
        // and each prefetch's units as it is dispatched (`prefetch::lookup_work`).
        let map_until = self.map_lookups(now, c.lpn, c.units, false);
        let own_until = self.lookup_work_of_read(now, c.units, ra_ops, map_until);
        if own_until > now && nand_ops == 0 {
            // No page read of its own to hold back: its data waits for the work instead.
            data_ops += 1;
            self.q.schedule(own_until, Ev::ReadWork { cmd });
        }
        {
            let m = &mut self.cmds[cmd as usize];
            m.data_ops_left = data_ops;
            m.unsent = c.len;
            m.share = if data_ops == 0 {
                0
            } else {
                (c.len / data_ops as u64) as u32
            };
        }
        self.dispatch_batch(&mut batch, cmd);
        self.batch = batch;
        self.end_lookup_work();
        if data_ops == 0 {
            // Everything from the buffer or unmapped (zeroes): straight from DRAM.
            self.schedule_send(now, cmd, c.len);
        }
    }

    fn schedule_send(&mut self, now: SimTime, cmd: u32, bytes: u64) {
        let m = &mut self.cmds[cmd as usize];
        m.unsent -= bytes;
        m.sends_left += 1;
        // From DRAM through the page buffer's DMA port: its first TLP leaves the port's start
        // latency after the data is there.
        let t = self.dram.access(now, bytes);
        let t = self.page_buf.host_move_start(t, bytes);
        self.q.schedule(
            t,
            Ev::SendData {
                cmd,
                bytes: bytes as u32,
            },
        );
    }

    /// An op owned by `cmd` (a read's map/page read, a flush's program) finished.
    pub(super) fn owned_op_done(&mut self, now: SimTime, cmd: u32, purpose: OpPurpose) {
        let m = &mut self.cmds[cmd as usize];
        assert!(
            m.live && m.ops_left > 0,
            "op completion for command {cmd} that expects none"
        );
        m.ops_left -= 1;
        if m.op == IoOp::Read && purpose == OpPurpose::HostRead {
            self.data_share_ready(now, cmd);
        }
        self.check_done(now, cmd);
    }

    /// The per-unit work of read `cmd`, which has no page read of its own, is done.
    pub(super) fn on_read_work(&mut self, now: SimTime, cmd: u32) {
        self.prefetch_ready(now, cmd);
    }

    /// A ReadAhead op that `cmd` was served from finished: its share of the data is in DRAM.
    pub(super) fn prefetch_ready(&mut self, now: SimTime, cmd: u32) {
        let m = &self.cmds[cmd as usize];
        assert!(
            m.live && m.op == IoOp::Read && m.data_ops_left > 0,
            "prefetch wait for command {cmd} that expects none"
        );
        self.data_share_ready(now, cmd);
        self.check_done(now, cmd);
    }

    /// One of read `cmd`'s data ops (its own page read, or a prefetch it waits on) is done:
    /// send its share of the data, or all that is left after the last one.
    fn data_share_ready(&mut self, now: SimTime, cmd: u32) {
        let m = &mut self.cmds[cmd as usize];
        m.data_ops_left -= 1;
        let bytes = if m.data_ops_left == 0 {
            m.unsent
        } else {
            m.share as u64
        };
        self.schedule_send(now, cmd, bytes);
    }

    pub(super) fn on_send_data(&mut self, now: SimTime, cmd: u32, bytes: u32) {
        self.link.memory_write(now, Dir::Up, bytes as u64);
        self.cmds[cmd as usize].sends_left -= 1;
        self.check_done(now, cmd);
    }

    /// A host-data program finished: release flushes no longer waiting for earlier programs.
    pub(super) fn host_program_done(&mut self, now: SimTime, pseq: u64) {
        assert!(
            self.host_progs.remove(&pseq),
            "host program {pseq} not in flight"
        );
        while let Some(&(snap, cmd)) = self.flush_wait.front() {
            if self.host_progs.first().is_some_and(|&p| p < snap) {
                break;
            }
            self.flush_wait.pop_front();
            self.cmds[cmd as usize].waits_programs = false;
            self.check_done(now, cmd);
        }
    }

    /// Reads and flushes complete when their ops are done and their data has been sent (and,
    /// for a flush, the host-data programs before it are done).
    fn check_done(&mut self, now: SimTime, cmd: u32) {
        let m = &self.cmds[cmd as usize];
        if m.ops_left == 0 && m.data_ops_left == 0 && m.sends_left == 0 && !m.waits_programs {
            debug_assert_eq!(m.unsent, 0);
            let (op, units) = (m.op, m.units as u64);
            self.post_cqe(now, cmd);
            if op == IoOp::Read {
                self.release_read_room(now, units);
            }
        }
    }

    /// A read's data has all gone up the link: its staging room frees; waiting reads start in
    /// arrival order while they fit (an empty buffer admits an oversized read).
    fn release_read_room(&mut self, now: SimTime, units: u64) {
        let Some(rb) = &mut self.rbuf else { return };
        rb.release(units);
        while let Some(&next) = self.rbuf_wait.front() {
            let rb = self.rbuf.as_mut().expect("checked above");
            if !rb.try_reserve(self.cmds[next as usize].units as u64) {
                break;
            }
            self.rbuf_wait.pop_front();
            self.start_read(now, next);
        }
    }

    pub(super) fn start_write_dma(&mut self, now: SimTime, cmd: u32) {
        // Through the page buffer's DMA port: the move's requests leave its start latency after
        // the handshake; the link is reserved now, so the latency is charged at the end (the
        // same completion time while the link is free).
        let len = self.cmds[cmd as usize].len;
        let t = self.link.device_read(now, len);
        let t = self.page_buf.host_move_start(t, len);
        self.q
            .schedule(self.page_buf.host_move_done(t), Ev::WriteData { cmd });
    }

    pub(super) fn on_write_data(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        self.dram.access(now, c.len);
        self.map_lookups(now, c.lpn, c.units, true);
        let mut batch = std::mem::take(&mut self.batch);
        batch.clear();
        self.ftl.host_write(c.lpn, c.units, &mut batch);
        self.dispatch_batch(&mut batch, NONE);
        self.batch = batch;
        self.post_cqe(now, cmd);
    }

    /// Admits waiting writes, in order, as buffer room frees.
    pub(super) fn admit_writes(&mut self, now: SimTime) {
        while let Some(&cmd) = self.buf_wait.front() {
            if !self.buf.try_reserve(self.cmds[cmd as usize].units as u64) {
                break;
            }
            self.buf_wait.pop_front();
            self.start_write_dma(now, cmd);
        }
        self.unstick();
    }

    /// Writes wait for buffer room but nothing is in flight to free it: program what is staged.
    pub(super) fn unstick(&mut self) {
        if self.buf_wait.is_empty() || self.ops_inflight > 0 {
            return;
        }
        let mut batch = std::mem::take(&mut self.batch);
        batch.clear();
        self.ftl.flush(&mut batch);
        let n = batch.len();
        self.dispatch_batch(&mut batch, NONE);
        self.batch = batch;
        if n == 0 {
            // Nothing staged either: the occupancy is stale (e.g. data the FTL wrote in place).
            let used = self.buf.used_units();
            self.buf.release(used);
            let now = self.now();
            self.admit_writes(now);
        }
    }

    /// Writes the 16 B completion entry, then raises or coalesces the interrupt.
    pub(super) fn post_cqe(&mut self, now: SimTime, cmd: u32) {
        let q = self.cmds[cmd as usize].queue;
        let t = self.link.memory_write(now, Dir::Up, CQE_BYTES);
        self.irq_wait[q as usize].push(cmd);
        match self.nvme.post_completion(q, t) {
            IrqDecision::Now => self.send_msi(now, q),
            IrqDecision::ArmTimer(at) => self.q.schedule(at, Ev::IrqTimer { queue: q }),
            IrqDecision::Wait => {}
        }
    }

    fn send_msi(&mut self, now: SimTime, q: u16) {
        let t = self.link.memory_write(now, Dir::Up, MSIX_BYTES);
        self.nvme.interrupt_sent(q);
        let mut w = std::mem::take(&mut self.irq_wait[q as usize]);
        for cmd in w.drain(..) {
            self.q.schedule(t, Ev::Done { cmd });
        }
        self.irq_wait[q as usize] = w;
    }

    pub(super) fn on_irq_timer(&mut self, now: SimTime, q: u16) {
        if self.nvme.snapshot(q).uncoalesced > 0 {
            self.send_msi(now, q);
        }
    }

    pub(super) fn on_done(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        assert!(c.live, "command {cmd} completed twice");
        self.cmds[cmd as usize].live = false;
        self.free_cmds.push(cmd);
        let len = c.len;
        let latency = now - c.submitted;
        let st = match c.op {
            IoOp::Read => &mut self.stats.read,
            IoOp::Write => &mut self.stats.write,
            IoOp::Trim => &mut self.stats.trim,
            IoOp::Flush => &mut self.stats.flush,
        };
        if c.submitted >= self.stats.window_start {
            st.record(len, latency);
        }
        self.done_buf.push(IoCompletion {
            id: IoId(c.id),
            op: c.op,
            len,
            submitted: c.submitted,
            completed: now,
        });
        self.outstanding -= 1;
        if self.outstanding == 0 {
            self.host_idle_since = now;
        }
        self.mark_idle(now);
        let q = c.queue as usize;
        if let Some(&next) = self.host_wait[q].front() {
            if self.nvme.has_room(c.queue) {
                self.host_wait[q].pop_front();
                self.ring_doorbell(now, next);
            }
        }
    }
}
