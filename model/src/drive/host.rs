//! Host-side half of the drive: submission through the host driver's queues, the front end's
//! fetch, firmware, write-data DMA, read-data return and completion requests (the front end
//! posts the entries and interrupts, `front_end.rs`), and the statistics window.
//!
//! A host IO longer than the front end's largest transfer ([`MAX_CMD_BYTES`], its MDTS) is
//! split by the host into commands at 128 KiB-aligned offsets, as Linux's block layer splits
//! at `max_hw_sectors`; the IO completes with its last command.

use super::host_memory::{data_addr, prps, MAX_CMD_BYTES};
use super::{Cmd, Drive, Ev, HostIo, IoCompletion, IoId, IoOp, MAX_COMMANDS, NONE};
use crate::encoding::nvme::{opc, Status};
use crate::error::DriveError;
use crate::ftl::OpPurpose;
use crate::nvme::frontend::datapath::Direction;
use crate::nvme::frontend::entry::Sqe;
use crate::time::SimTime;

/// A host IO split into several commands: what its completion reports, and commands left.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SplitIo {
    len: u64,
    submitted: SimTime,
    left: u32,
}

/// Bytes a command moves: its length in whole dwords (PRP transfers are dword granular).
fn xfer_bytes(len: u64) -> u32 {
    len.div_ceil(4) as u32 * 4
}

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
        let n_pieces = self.piece_count(&io);
        if self.free_cmds.len() + MAX_COMMANDS.saturating_sub(self.cmds.len()) < n_pieces {
            return Err(DriveError::TooManyCommands { max: MAX_COMMANDS });
        }
        let id = self.next_id;
        self.next_id += 1;
        let queues = self.cfg.nvme.io_queues as u16;
        let queue = if io.queue < queues {
            io.queue
        } else {
            io.queue % queues
        };
        let split = if n_pieces > 1 {
            let s = SplitIo {
                len: io.len,
                submitted: now,
                left: n_pieces as u32,
            };
            match self.free_splits.pop() {
                Some(i) => {
                    self.splits[i as usize] = s;
                    i
                }
                None => {
                    self.splits.push(s);
                    (self.splits.len() - 1) as u32
                }
            }
        } else {
            NONE
        };
        for i in 0..n_pieces {
            let (offset, len) = Self::piece(&io, n_pieces, i);
            let (lpn, units) = if n_pieces > 1 {
                self.units_of(io.op, offset, len)?
            } else {
                (lpn, units)
            };
            let c = Cmd {
                id,
                op: io.op,
                len,
                queue,
                submitted: now,
                lpn,
                units: units as u32,
                ops_left: 0,
                data_ops_left: 0,
                sends_left: 0,
                share: 0,
                unsent: 0,
                sent: 0,
                cid: 0,
                split,
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
            if self.driver.has_room(queue + 1) {
                self.submit_to_sq(now, slot);
            } else {
                self.host_wait[queue as usize].push_back(slot);
            }
        }
        self.outstanding += 1;
        self.mark_busy(now);
        Ok(IoId(id))
    }

    /// Commands `io` becomes: one, or one per 128 KiB-aligned piece of a longer read or write.
    fn piece_count(&self, io: &HostIo) -> usize {
        let max = MAX_CMD_BYTES as u64;
        if !matches!(io.op, IoOp::Read | IoOp::Write) || io.len <= max {
            return 1;
        }
        // The end is checked against the capacity by `units_of`.
        ((io.offset + io.len).div_ceil(max) - io.offset / max) as usize
    }

    /// The (offset, length) of piece `i` of the `n` commands of `io` (`piece_count`): cut at
    /// 128 KiB-aligned offsets.
    fn piece(io: &HostIo, n: usize, i: usize) -> (u64, u64) {
        if n == 1 {
            return (io.offset, io.len);
        }
        let max = MAX_CMD_BYTES as u64;
        let end = io.offset + io.len;
        let at = if i == 0 {
            io.offset
        } else {
            (io.offset / max + i as u64) * max
        };
        let stop = ((at / max + 1) * max).min(end);
        (at, stop - at)
    }

    /// The host driver writes command `cmd`'s SQ entry and rings the SQ tail doorbell.
    fn submit_to_sq(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        let qid = c.queue + 1;
        let (cid, slot, tail) = self.driver.submit(qid, cmd);
        self.cmds[cmd as usize].cid = cid;
        if matches!(c.op, IoOp::Read | IoOp::Write) {
            self.ftl.hint_mapping(c.lpn, c.units);
        }
        let opcode = match c.op {
            IoOp::Read => opc::NVM_READ,
            IoOp::Write => opc::NVM_WRITE,
            IoOp::Trim => opc::NVM_DSM,
            IoOp::Flush => opc::NVM_FLUSH,
        };
        let (prp1, prp2) = match c.op {
            IoOp::Read | IoOp::Write => prps(qid, cid, 0, xfer_bytes(c.len)),
            IoOp::Trim => (data_addr(qid, cid), 0),
            IoOp::Flush => (0, 0),
        };
        let mut sqe = Sqe::new(opcode, cid, 1, prp1, prp2);
        // SLBA (CDW10-11) and 0's based NLB (CDW12) in 4 KiB blocks; DSM: one range, deallocate.
        sqe.cdw10 = c.lpn as u32;
        sqe.cdw11 = (c.lpn >> 32) as u32;
        sqe.cdw12 = match c.op {
            IoOp::Trim => 0,
            _ => c.units.saturating_sub(1),
        };
        if c.op == IoOp::Trim {
            sqe.cdw11 = 1 << 2;
        }
        self.host.put_sqe(qid, slot, sqe.encode());
        self.ring_sq_doorbell(now, qid, tail);
    }

    pub(super) fn on_fetched(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        if c.op == IoOp::Read {
            self.ftl.hint_locations(c.lpn, c.units, false);
        }
        let cpu_units = match c.op {
            // The read's per-unit work comes after its FTL lookup (`start_read`).
            IoOp::Read if self.cfg.controller.read_lookup_on_demand => 0,
            IoOp::Read | IoOp::Write => c.units as u64,
            IoOp::Trim | IoOp::Flush => 0,
        };
        let mut t = self.cpu.process_cmd(now, cpu_units, c.op == IoOp::Write);
        if c.op == IoOp::Trim {
            // Dataset Management carries its range list (16 B per range) in host memory.
            let qid = c.queue + 1;
            let end = self.move_data(now, data_addr(qid, c.cid), 0, 16, Direction::FromHost);
            t = t.max(end);
        }
        self.q.schedule(t, Ev::Firmware { cmd });
    }

    /// A data move through the front end's PRP engine starting now; returns when it is done.
    fn move_data(
        &mut self,
        now: SimTime,
        prp1: u64,
        prp2: u64,
        len: u32,
        dir: Direction,
    ) -> SimTime {
        let c = self.fe_input_cycle(now);
        let end = self
            .fe
            .move_timing(c, (prp1, prp2, len), dir, &mut self.host)
            .unwrap_or_else(|s| panic!("the drive's own PRPs were refused: {s:?}"));
        // The move only held the requester port: that can delay the next fetch or post, never
        // bring one earlier, so the kept due and wake stay lower bounds (no full search).
        self.fe_settle_earlier(None);
        super::host_memory::edge_time(end)
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
            // Shares are whole 4 KiB pages (a move starts at a page of the command's buffer);
            // the last send takes what is left.
            m.unsent = xfer_bytes(c.len) as u64;
            m.share = if data_ops == 0 {
                0
            } else {
                (m.unsent / data_ops as u64 / 4096 * 4096) as u32
            };
        }
        self.dispatch_batch(&mut batch, cmd);
        self.batch = batch;
        self.end_lookup_work();
        if data_ops == 0 {
            // Everything from the buffer or unmapped (zeroes): straight from DRAM.
            self.schedule_send(now, cmd, xfer_bytes(c.len) as u64);
        }
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

    /// `bytes` of read `cmd`'s data go to the host: the next part of its buffer, through the
    /// front end's PRP engine (the port handed it over, `read_port.rs`).
    pub(super) fn on_send_data(&mut self, now: SimTime, cmd: u32, bytes: u32) {
        let c = self.cmds[cmd as usize];
        if bytes == 0 {
            self.send_finished(now, cmd);
            return;
        }
        let qid = c.queue + 1;
        let (prp1, prp2) = prps(qid, c.cid, c.sent, bytes);
        self.cmds[cmd as usize].sent += bytes;
        let end = self.move_data(now, prp1, prp2, bytes, Direction::ToHost);
        self.q.schedule(end, Ev::SendDone { cmd });
    }

    /// One of read `cmd`'s sends finished.
    pub(super) fn send_finished(&mut self, now: SimTime, cmd: u32) {
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

    /// Write `cmd`'s data move is handed to the page buffer's DMA port: it starts after the
    /// port's start latency (`on_write_move`).
    pub(super) fn start_write_dma(&mut self, now: SimTime, cmd: u32) {
        let len = self.cmds[cmd as usize].len;
        let t = self.page_buf.host_move_start(now, len);
        self.q.schedule(t, Ev::WriteMove { cmd });
    }

    /// Write `cmd`'s data is read from host memory through the front end's PRP engine.
    pub(super) fn on_write_move(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        self.ftl.hint_locations(c.lpn, c.units, true);
        let len = xfer_bytes(c.len);
        let (prp1, prp2) = prps(c.queue + 1, c.cid, 0, len);
        let end = self.move_data(now, prp1, prp2, len, Direction::FromHost);
        self.q
            .schedule(self.page_buf.host_move_done(end), Ev::WriteData { cmd });
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

    /// The firmware asks the front end to complete `cmd`: it posts the 16 B entry and raises
    /// or coalesces the interrupt (`FrontEnd::complete`).
    pub(super) fn post_cqe(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        let cycle = self.fe_input_cycle(now);
        self.fe
            .complete(cycle, c.queue + 1, c.cid, Status::SUCCESS, 0);
        // A completion request can only bring the engine's next take earlier.
        self.fe_settle_earlier(self.fe.take_due_and_wake());
    }

    /// The host took command `cmd`'s completion: the command is over, and its IO when it was
    /// the IO's last command; a command the host held back for want of room in the SQ goes in.
    pub(super) fn on_done(&mut self, now: SimTime, cmd: u32) {
        let c = self.cmds[cmd as usize];
        assert!(c.live, "command {cmd} completed twice");
        self.cmds[cmd as usize].live = false;
        self.free_cmds.push(cmd);
        let q = c.queue as usize;
        if let Some(&next) = self.host_wait[q].front() {
            self.host_wait[q].pop_front();
            self.submit_to_sq(now, next);
        }
        let (len, submitted) = if c.split == NONE {
            (c.len, c.submitted)
        } else {
            let s = &mut self.splits[c.split as usize];
            s.left -= 1;
            if s.left > 0 {
                return;
            }
            let s = *s;
            self.free_splits.push(c.split);
            (s.len, s.submitted)
        };
        let latency = now - submitted;
        let stats = self.stats.get_mut();
        let window_start = stats.window_start;
        let st = match c.op {
            IoOp::Read => &mut stats.read,
            IoOp::Write => &mut stats.write,
            IoOp::Trim => &mut stats.trim,
            IoOp::Flush => &mut stats.flush,
        };
        if submitted >= window_start {
            st.record(len, latency);
        }
        self.done_buf.push(IoCompletion {
            id: IoId(c.id),
            op: c.op,
            len,
            submitted,
            completed: now,
        });
        self.outstanding -= 1;
        if self.outstanding == 0 {
            self.host_idle_since = now;
        }
        self.mark_idle(now);
    }
}
