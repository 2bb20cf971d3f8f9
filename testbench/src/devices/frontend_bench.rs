//! Test bench shared by the front-end tests: the rust_hdl `NvmeFrontEnd` driven by the
//! root-complex model, with a minimal next stage ("firmware") that executes queue creation
//! through the `qc_*` port and completes every other command after a fixed latency; and the
//! same host + firmware around the behavioural front end, for comparison.

use crate::devices::root_complex::RootComplex;
use rust_hdl::prelude::*;
use ssdlab_hdl::nvme::arbiter::Arbitration;
use ssdlab_hdl::nvme::frontend::NvmeFrontEnd;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme::{opc, Status};
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::queue_op::QueueOp;
use ssdlab_model::nvme::frontend::tlp::Cycle;
use ssdlab_model::nvme::frontend::{FetchedCommand, FrontEnd};
use std::collections::VecDeque;

/// Cycles the bench firmware takes per command.
pub const FW_LATENCY: Cycle = 20;

/// A command handed on by either front end: (cycle, sqid, decoded entry).
pub type Handed = (Cycle, u16, Sqe);

/// Firmware decision for a handed command: queue config to apply, completion to post.
fn firmware(sqid: u16, s: &Sqe) -> (Option<QueueOp>, Option<(u16, Status, u32)>) {
    match (sqid, s.opc) {
        (0, opc::ADMIN_CREATE_IO_CQ | opc::ADMIN_CREATE_IO_SQ) => {
            (QueueOp::from_admin(s), Some((s.cid, Status::SUCCESS, 0)))
        }
        (0, opc::ADMIN_ASYNC_EVENT) => (None, None),
        _ => (None, Some((s.cid, Status::SUCCESS, 0))),
    }
}

/// A next stage plugged into [`HdlBench`] beside its queue-management firmware, for commands
/// it takes over (e.g. NVM Read/Write whose data it moves on the front end's `dma_*` port).
pub trait NextStage {
    /// A handed command; `true` if this stage takes it (the bench firmware then ignores it).
    fn take(&mut self, cycle: Cycle, sqid: u16, sqe: &Sqe) -> bool;
    /// Drives the stage's front-end inputs for `cycle` (before the settle).
    fn drive(&mut self, cycle: Cycle, uut: &mut NvmeFrontEnd);
    /// Samples the front end after the settle; returns a completion (sqid, cid, status) to post.
    fn observe(&mut self, cycle: Cycle, uut: &NvmeFrontEnd) -> Option<(u16, u16, Status)>;
}

/// No next stage: the bench firmware completes every command.
pub struct NoStage;

impl NextStage for NoStage {
    fn take(&mut self, _: Cycle, _: u16, _: &Sqe) -> bool {
        false
    }
    fn drive(&mut self, _: Cycle, _: &mut NvmeFrontEnd) {}
    fn observe(&mut self, _: Cycle, _: &NvmeFrontEnd) -> Option<(u16, u16, Status)> {
        None
    }
}

pub struct HdlBench<S: NextStage = NoStage> {
    pub uut: NvmeFrontEnd,
    pub rc: RootComplex,
    pub cycle: Cycle,
    pub handed: Vec<Handed>,
    pub events: Vec<(Cycle, u8)>,
    /// (BAR0 offset, data-beat cycle) of every host MMIO write.
    pub mmio_log: Vec<(u32, Cycle)>,
    cpl: VecDeque<(Cycle, u16, u16, Status, u32)>,
    qc: VecDeque<(Cycle, QueueOp)>,
    /// Max payload / read request size codes driven on `mps_code` / `mrrs_code` (from the config).
    mps_mrrs: (u64, u64),
    /// The plugged-in next stage.
    pub stage: S,
}

fn settle(uut: &mut NvmeFrontEnd) {
    ssdlab_hdl::settle(uut, 256, "front end");
}

impl HdlBench {
    pub fn new(cfg: &DriveConfig) -> Self {
        Self::with_arbitration(cfg, Arbitration::RoundRobin)
    }

    pub fn with_arbitration(cfg: &DriveConfig, arb: Arbitration) -> Self {
        let time = ssdlab_model::nvme::frontend::msix::coalesce_time_cycles(&cfg.nvme);
        let mut uut = NvmeFrontEnd::new(
            cfg.nvme.queue_entries,
            cfg.nvme.irq_coalesce_count,
            time,
            arb,
        );
        uut.connect_all();
        let code = |b: u32| (b / 128).trailing_zeros() as u64;
        let mps_mrrs = (code(cfg.pcie.mps_bytes), code(cfg.pcie.mrrs_bytes));
        let (handed, events, mmio_log, cpl, qc) = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            VecDeque::new(),
            VecDeque::new(),
        );
        HdlBench {
            uut,
            rc: RootComplex::new(&cfg.pcie),
            cycle: 0,
            handed,
            events,
            mmio_log,
            cpl,
            qc,
            mps_mrrs,
            stage: NoStage,
        }
    }

    /// This bench with next stage `stage` (before any cycle has run).
    pub fn with_stage<S: NextStage>(self, stage: S) -> HdlBench<S> {
        assert_eq!(self.cycle, 0, "the next stage is plugged in before the run");
        let HdlBench {
            uut,
            rc,
            cycle,
            handed,
            events,
            mmio_log,
            cpl,
            qc,
            mps_mrrs,
            ..
        } = self;
        HdlBench {
            uut,
            rc,
            cycle,
            handed,
            events,
            mmio_log,
            cpl,
            qc,
            mps_mrrs,
            stage,
        }
    }
}

impl<S: NextStage> HdlBench<S> {
    fn step(&mut self) {
        let c = self.cycle;
        self.uut.clock.next = Clock { clk: false };
        self.rc.drive(c, &mut self.uut);
        self.uut.cmd_stall.next = false;
        self.uut.mps_code.next = bits::<3>(self.mps_mrrs.0);
        self.uut.mrrs_code.next = bits::<3>(self.mps_mrrs.1);
        self.stage.drive(c, &mut self.uut);
        self.uut.qc_valid.next = false;
        if let Some(&(due, q)) = self.qc.front() {
            if due <= c {
                self.uut.qc_valid.next = true;
                self.uut.qc_sq.next = q.sq;
                self.uut.qc_del.next = q.del;
                self.uut.qc_qid.next = bits::<4>(q.qid as u64);
                self.uut.qc_base.next = bits::<64>(q.base);
                self.uut.qc_size.next = bits::<16>(q.size as u64);
                self.uut.qc_cqid.next = bits::<4>(q.cqid as u64);
                self.uut.qc_vec.next = bits::<4>(q.vec as u64);
                self.uut.qc_ien.next = q.ien;
                self.uut.qc_prio.next = bits::<2>(q.prio as u64);
                self.qc.pop_front();
            }
        }
        self.uut.cpl_valid.next = false;
        if let Some(&(due, sq, cid, st, dw0)) = self.cpl.front() {
            if due <= c {
                self.uut.cpl_valid.next = true;
                self.uut.cpl_sqid.next = bits::<4>(sq as u64);
                self.uut.cpl_cid.next = bits::<16>(cid as u64);
                self.uut.cpl_status.next = bits::<11>(st.field() as u64);
                self.uut.cpl_dw0.next = bits::<32>(dw0 as u64);
            }
        }
        settle(&mut self.uut);
        self.rc.observe(c, &self.uut);
        if let Some((sqid, cid, st)) = self.stage.observe(c, &self.uut) {
            self.cpl.push_back((c + 1, sqid, cid, st, 0));
        }
        if self.uut.cpl_ready.val() {
            self.cpl.pop_front();
        }
        if self.uut.evt_valid.val() {
            self.events
                .push((c, self.uut.evt_info.val().to_u64() as u8));
        }
        if self.uut.cmd_valid.val() {
            let mut raw = [0u8; 64];
            let ws = [
                self.uut.cmd_w0.val(),
                self.uut.cmd_w1.val(),
                self.uut.cmd_w2.val(),
                self.uut.cmd_w3.val(),
            ];
            for (i, w) in ws.iter().enumerate() {
                raw[16 * i..16 * i + 16].copy_from_slice(&w.to_u128().to_le_bytes());
            }
            let sqid = self.uut.cmd_sqid.val().to_u64() as u16;
            let sqe = Sqe::decode(&raw);
            self.handed.push((c, sqid, sqe));
            let taken = self.stage.take(c, sqid, &sqe);
            let (qc, cpl) = if taken {
                (None, None)
            } else {
                firmware(sqid, &sqe)
            };
            if let Some(q) = qc {
                self.qc.push_back((c + FW_LATENCY - 1, q));
            }
            if let Some((cid, st, dw0)) = cpl {
                self.cpl.push_back((c + FW_LATENCY, sqid, cid, st, dw0));
            }
        }
        self.uut.clock.next = Clock { clk: true };
        settle(&mut self.uut);
        self.cycle += 1;
    }

    /// Runs until cycle `until` (exclusive).
    pub fn run_until(&mut self, until: Cycle) {
        while self.cycle < until {
            self.step();
        }
    }
}

/// The behavioural front end with the same root complex and firmware.
pub struct ModelBench {
    pub fe: FrontEnd,
    pub rc: RootComplex,
    pub handed: Vec<Handed>,
    /// Asynchronous event information codes, in order.
    pub events: Vec<u8>,
    now: Cycle,
}

impl ModelBench {
    pub fn new(cfg: &DriveConfig) -> Self {
        ModelBench {
            fe: FrontEnd::new(&cfg.pcie, &cfg.nvme),
            rc: RootComplex::new(&cfg.pcie),
            handed: Vec::new(),
            events: Vec::new(),
            now: 0,
        }
    }

    /// Host MMIO write queued at `cycle`, applied at the cycle its data beat reaches the block.
    pub fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32) -> Cycle {
        let at = self.rc.mmio_write(cycle, offset, value);
        self.rc.discard_device_beats();
        self.fe.mmio_write(at, offset, value, &mut self.rc);
        while let Some(e) = self.fe.take_event() {
            self.events.push((e.dw0() >> 8) as u8);
        }
        at
    }

    /// Runs the front end to `until` one cycle at a time, executing the bench firmware on each
    /// command as soon as it is fetched, so its completion is known before the front end's
    /// engines reserve the requester port for later cycles.
    pub fn run_until(&mut self, until: Cycle) {
        while self.now < until {
            self.now += 1;
            let mut out: Vec<FetchedCommand> = Vec::new();
            self.fe.run_until(self.now, &mut self.rc, &mut out);
            for c in out {
                self.execute(&c);
            }
        }
    }

    fn execute(&mut self, c: &FetchedCommand) {
        self.handed.push((c.cycle, c.sqid, c.sqe));
        let (qc, cpl) = firmware(c.sqid, &c.sqe);
        if let Some(q) = qc {
            self.fe
                .apply_queue_op(&q)
                .expect("bench creates valid queues");
        }
        if let Some((cid, st, dw0)) = cpl {
            self.fe.complete(c.cycle + FW_LATENCY, c.sqid, cid, st, dw0);
        }
    }
}
