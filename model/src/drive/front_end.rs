//! The drive's NVMe front end: the same [`FrontEnd`] block the HDL front end is checked
//! against, run event by event (`nvme/frontend/wake.rs`), between the host (`host_driver.rs`,
//! `host_memory.rs`) and the firmware (`host.rs`).
//!
//! Clocking: the front end counts cycles of its 250 MHz clock. An input that reaches it at time
//! `t` (a completion request, a data move) is applied at the first clock edge at or after `t`,
//! once the block has been run through the cycle before. A doorbell write goes in when the host
//! writes it, with the first edge at or after its arrival over the link as its cycle: the block
//! keeps it until its run reaches that cycle (`nvme/frontend/cq_head.rs`), which gives the same
//! outputs without an event per doorbell. The block's next
//! output (`FrontEnd::next_wake`: a TLP, a fetched command, a CQE or an MSI-X message) is run by
//! an [`Ev::FrontEnd`] wake 1 ps after that cycle's edge, so inputs of the same edge are always
//! applied before it runs. Internal steps before it (a completion-engine take) run inside that
//! run or before the next input. Both give the TLPs and commands of running the block every
//! cycle.
//!
//! At construction the controller is enabled and its I/O queue pairs exist, as after a host
//! driver's initialisation (NVMe 1.4, 7.6.1): queue pair `q + 1` per drive queue `q`, each CQ
//! with its own MSI-X vector, unmasked; the admin queue is configured but idle.

use super::host_driver::HostDriver;
use super::host_memory::{cq_base, cycle_at_or_after, edge_time, sq_base, HostMemory, MSI_ADDR};
use super::{Drive, Ev};
use crate::config::DriveConfig;
use crate::encoding::nvme_regs::{cq_doorbell, sq_doorbell, ACQ, AQA, ASQ, CC, CC_EN, MSIX_TABLE};
use crate::nvme::frontend::queue_op::QueueOp;
use crate::nvme::frontend::tlp::{Cycle, CLOCK_PS};
use crate::nvme::frontend::FrontEnd;
use crate::pcie::Dir;
use crate::time::SimTime;

/// Admin SQ and CQ bases (below the I/O regions of `host_memory.rs`).
const ASQ_BASE: u64 = 0x10_0000;
const ACQ_BASE: u64 = 0x11_0000;

/// The front end, host memory and host driver of a controller initialised at cycle `c0`
/// (module doc).
pub(super) fn initialised(cfg: &DriveConfig, c0: Cycle) -> (FrontEnd, HostMemory, HostDriver) {
    let n = cfg.nvme.io_queues as u16;
    let entries = cfg.nvme.queue_entries;
    let mut fe = FrontEnd::new(&cfg.pcie, &cfg.nvme);
    fe.set_tlp_log(false);
    let mut host = HostMemory::new(&cfg.pcie, n as usize + 1, entries);
    fe.mmio_write(c0, AQA, (1 << 16) | 1, &mut host); // 2-entry admin queues
    fe.mmio_write(c0, ASQ, ASQ_BASE as u32, &mut host);
    fe.mmio_write(c0, ACQ, ACQ_BASE as u32, &mut host);
    for v in 0..=n as u32 {
        let e = MSIX_TABLE + 16 * v;
        fe.mmio_write(c0, e, MSI_ADDR as u32, &mut host);
        fe.mmio_write(c0, e + 4, (MSI_ADDR >> 32) as u32, &mut host);
        fe.mmio_write(c0, e + 8, v, &mut host);
        fe.mmio_write(c0, e + 12, 0, &mut host); // vector control: unmasked
    }
    // CC: EN, IOSQES = 6 (64 B entries), IOCQES = 4 (16 B entries).
    fe.mmio_write(c0 + 1, CC, CC_EN | (6 << 16) | (4 << 20), &mut host);
    assert!(fe.ready(), "front end did not become ready");
    let size = (entries - 1) as u16;
    for qid in 1..=n {
        let cq = QueueOp {
            qid,
            base: cq_base(qid),
            size,
            vec: qid,
            ien: true,
            ..QueueOp::default()
        };
        let sq = QueueOp {
            sq: true,
            qid,
            base: sq_base(qid),
            size,
            cqid: qid,
            ..QueueOp::default()
        };
        for op in [cq, sq] {
            fe.apply_queue_op(&op)
                .unwrap_or_else(|s| panic!("validated queue pair {qid} refused: {s:?}"));
        }
    }
    (fe, host, HostDriver::new(n, entries))
}

impl Drive {
    /// Runs the front end through cycle `c` and hands on what it produced: fetched commands to
    /// the firmware (at the cycle each is valid), MSI-X messages to the host.
    fn fe_run(&mut self, c: Cycle) {
        // Nothing in the block changes before its next due cycle (`wake.rs`).
        if self.fe_due.is_none_or(|d| d > c) {
            return;
        }
        let mut out = std::mem::take(&mut self.fe_out);
        (self.fe_due, self.fe_wake_at) = self.fe.run_until_wake(c, &mut self.host, &mut out);
        for f in out.drain(..) {
            let cmd = self.driver.cmd_of(f.sqid, f.sqe.cid);
            self.q.schedule(edge_time(f.cycle), Ev::Fetched { cmd });
        }
        self.fe_out = out;
        for (t, v) in self.host.msis.drain(..) {
            self.q.schedule(t, Ev::HostIrq { vector: v });
        }
    }

    /// The cycle an input arriving now is applied at, with the front end run up to it.
    pub(super) fn fe_input_cycle(&mut self, now: SimTime) -> Cycle {
        let c = cycle_at_or_after(now);
        if c > 0 {
            self.fe_run(c - 1);
        }
        c
    }

    /// After an input: makes sure a wake is due for the front end's next event.
    pub(super) fn fe_settle(&mut self) {
        (self.fe_due, self.fe_wake_at) = self.fe.due_and_wake();
        self.fe_schedule_wake();
    }

    /// After an input that can only bring one engine's next step earlier, `step` being that
    /// step's due and wake (`FrontEnd::fetch_due_and_wake`, `FrontEnd::take_due_and_wake`): the
    /// block's next due and wake are the earlier of what they were and the step's, found
    /// without searching every engine (`fe_settle`). `None`: an input that brings no step
    /// earlier (a data move); only the wake is made sure of.
    pub(super) fn fe_settle_earlier(&mut self, step: Option<(Cycle, Cycle)>) {
        if let Some((d, w)) = step {
            self.fe_due = Some(self.fe_due.map_or(d, |x| x.min(d)));
            self.fe_wake_at = Some(self.fe_wake_at.map_or(w, |x| x.min(w)));
        }
        // Never later than a full search (earlier only when an earlier step was superseded, which
        // costs a wake that finds nothing, not a result).
        debug_assert!({
            let (d, w) = self.fe.due_and_wake();
            d.is_none_or(|d| self.fe_due.is_some_and(|x| x <= d))
                && w.is_none_or(|w| self.fe_wake_at.is_some_and(|x| x <= w))
        });
        self.fe_schedule_wake();
    }

    /// Schedules a wake for the block's next output (`FrontEnd::next_wake`): internal steps
    /// before it (a completion-engine take) run then, or before the next input, whichever is
    /// first.
    fn fe_schedule_wake(&mut self) {
        let Some(d) = self.fe_wake_at else { return };
        if self.fe_wake.is_some_and(|w| w <= d) {
            return;
        }
        self.fe_wake = Some(d);
        let at = (edge_time(d) + SimTime::from_ps(1)).max(self.now());
        self.q.schedule(at, Ev::FrontEnd);
    }

    /// A wake at `at` (1 ps after its cycle's edge, or later) runs the block through the last
    /// edge before `at`.
    pub(super) fn on_fe_wake(&mut self, at: SimTime) {
        let cycle = (at.0 - 1) / CLOCK_PS;
        if self.fe_wake.is_some_and(|w| w <= cycle) {
            self.fe_wake = None;
        }
        self.fe_run(cycle);
        self.fe_schedule_wake();
    }

    /// The host writes SQ `qid`'s tail doorbell (4 B MWr down the link).
    pub(super) fn ring_sq_doorbell(&mut self, now: SimTime, qid: u16, tail: u32) {
        self.ring_doorbell(now, sq_doorbell(qid), tail);
        // A tail write can only bring the next fetch earlier.
        self.fe_settle_earlier(self.fe.fetch_due_and_wake());
    }

    /// The host writes the doorbell register `reg` (4 B MWr down the link). The front end takes
    /// the write now with its arrival cycle: a doorbell only changes what the block does from
    /// that cycle on (an SQ tail is visible to the arbiter `doorbell_to_arb` cycles later, a CQ
    /// head is applied when the block runs the cycle), so the block need not be run up to it
    /// first, and no event carries the write. The caller settles the block's next wake.
    fn ring_doorbell(&mut self, now: SimTime, reg: u32, value: u32) {
        let t = self.host.link.memory_write(now, Dir::Down, 4);
        self.fe
            .mmio_write(cycle_at_or_after(t), reg, value, &mut self.host);
        assert!(self.fe.take_event().is_none(), "drive rang a bad doorbell");
    }

    /// An MSI-X message reached the host: it takes every completion entry of the CQ that has
    /// arrived, completes those commands, and rings the CQ head doorbell.
    pub(super) fn on_host_irq(&mut self, now: SimTime, vector: u16) {
        let qid = vector;
        let mut n = 0u32;
        while let Some(&(t, cid)) = self.host.cqes[qid as usize].front() {
            if t > now {
                break;
            }
            self.host.cqes[qid as usize].pop_front();
            let cmd = self.driver.take_completion(qid, cid);
            n += 1;
            self.on_done(now, cmd);
        }
        if n > 0 {
            let head = self.driver.consume(qid, n);
            self.ring_doorbell(now, cq_doorbell(qid), head);
            // A head write changes the block's next wake only while a completion waits on a
            // full CQ (`FrontEnd::head_wake`).
            if self.fe.head_wake().is_some() {
                self.fe_settle();
            }
        }
    }
}
