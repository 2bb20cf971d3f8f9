//! The hardware executions of the datapath: a [`DatapathDut`] — the Verilated Verilog of
//! `ssdlab_hdl::top::Datapath` (`module top`) or its rust_hdl simulation — with the device models
//! around it: the root complex (`crate::devices::root_complex`: host memory, link ceiling, read
//! latency) on the PCIe streams, one [`NandTarget`] per (channel, way) on the NAND pins (one cycle
//! of PHY read latency, as `channel_bench`), the DRAM model
//! (`crate::devices::map_dram`) on the mapping cache's memory port, and the
//! firmware port driven from the shared firmware's offers.
//!
//! Speed ([`Stepping`]): in a cycle where no output the bench watches is set (events,
//! handshakes, NAND pin activity, RQ/DRAM/TP requests) and the device models' inputs to the
//! DUT are constant, nothing crosses to Rust: `idle_until` lets the DUT clock on in C++ up to
//! the models' next scheduled change (NAND R/B#, RC beat, link free, CQ beat, TP done) or the
//! host's next action, and the Verilated build fast-forwards a quiescent design.

mod ports;

use super::exec::DatapathExec;
use super::port::*;
use super::sig::{quiesce, ChSig, DatapathDut, Sig, VerilatorDut, CHANNELS, P, WAYS};
use crate::devices::map_dram::{DramIn, DramModel, DramTiming, TpMover, TpReq};
use crate::devices::nand_target::{NandTarget, TargetSuspend};
use crate::devices::root_complex::RootComplex;
use crate::verilator::{RunnerError, VerilatorModel};
use ports::{drive_offer, map_events, taken};
use ssdlab_hdl::pcie::tlp::{CqReq, ReqDesc, REQ_MWR};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nand::sequencer::{SeqTiming, SuspendRules};
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::Cycle;
use std::collections::VecDeque;

/// DRAM timing of the bench: first beat 12 cycles after the command, one 32-bit beat per cycle.
pub const DRAM: DramTiming = DramTiming {
    latency: 12,
    interval: 1,
};
/// Cycles the bench takes to move a translation page (not needed while the table fits).
pub const TP_CYCLES: u64 = 2000;

/// How the hardware execution advances through cycles in which nothing reaches the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepping {
    /// Every cycle through Rust.
    PerCycle,
    /// Quiet stretches clocked by the DUT itself (`DatapathDut::run_quiet`), without fast-forward.
    Quiet,
    /// As `Quiet`, and a quiescent Verilated design fast-forwarded (`sig::quiesce`).
    FastForward,
}

impl Stepping {
    /// `SSDLAB_STEPPING` = `per-cycle` | `quiet` | `fast-forward` if set (to compare speeds or
    /// rule the run-ahead out when debugging), else `default`.
    pub fn from_env(default: Stepping) -> Result<Stepping, RunnerError> {
        match std::env::var("SSDLAB_STEPPING").ok().as_deref() {
            None => Ok(default),
            Some("per-cycle") => Ok(Stepping::PerCycle),
            Some("quiet") => Ok(Stepping::Quiet),
            Some("fast-forward") => Ok(Stepping::FastForward),
            Some(v) => Err(RunnerError::Parse(format!(
                "SSDLAB_STEPPING={v}: expected per-cycle, quiet or fast-forward"
            ))),
        }
    }
}

pub struct HwExec<D: DatapathDut> {
    pub dut: D,
    stepping: Stepping,
    /// Cycles run ahead of the bench by `idle_until` so far.
    pub ahead: u64,
    /// The last cycle set a watched output (so the next one is unlikely to be quiet).
    active: bool,
    watch: Vec<P>,
    rc: RootComplex,
    cq: VecDeque<(Cycle, u128, bool)>,
    targets: Vec<NandTarget>,
    pending_read: [Option<u32>; CHANNELS],
    dram: DramModel,
    tp: TpMover,
    tp_done_at: Option<Cycle>,
    codes: (u64, u64),
    bpc: usize,
    error: Option<String>,
    /// Channels (bit ch) whose bus a phase held in the last cycle run (a way's CE asserted):
    /// the bus-occupancy meter's input (`seqread`).
    pub bus_ce: u16,
    /// The suspend command byte when `nand.suspend` is on, and the suspend latches seen.
    sus_cmd: Option<u8>,
    suspends: u64,
}

/// The Verilator execution.
pub type VerilatorExec = HwExec<VerilatorDut>;

impl VerilatorExec {
    /// Builds (or takes from the cache) `verilog`, the datapath's `module top`, for drive `cfg`;
    /// with `vcd`, a traced build writing every signal to that file.
    pub fn verilated(
        cfg: &DriveConfig,
        verilog: &str,
        line_entries: u32,
        vcd: Option<&std::path::Path>,
    ) -> Result<Self, RunnerError> {
        let m = VerilatorModel::build_with("datapath", verilog, vcd, &quiesce())?;
        let mut x = HwExec::new(cfg, VerilatorDut::new(m)?, line_entries);
        let mut s = Stepping::from_env(if vcd.is_some() {
            Stepping::Quiet
        } else {
            Stepping::FastForward
        })?;
        // Default fast-forward never at the price of exactness: quiet stepping (same results,
        // slower) with a warning; an explicit SSDLAB_STEPPING=fast-forward is refused below.
        if s == Stepping::FastForward && std::env::var_os("SSDLAB_STEPPING").is_none() {
            if let Some(h) = x.dut.m.fast_forward_hazard() {
                eprintln!(
                    "warning: {}: no fast-forward, stepping quiet (same results, slower): {h}",
                    x.dut.m.name()
                );
                s = Stepping::Quiet;
            }
        }
        x.set_stepping(s)?;
        Ok(x)
    }

    /// Chooses how cycles are advanced (all give the same streams; `FastForward` is fastest).
    /// `FastForward` is an error naming the memory, module and line for a design with an
    /// asynchronous memory read (`verilator::async_memory_reads`): it would not be exact.
    pub fn set_stepping(&mut self, s: Stepping) -> Result<(), RunnerError> {
        if s == Stepping::FastForward {
            if let Some(h) = self.dut.m.fast_forward_hazard() {
                return Err(RunnerError::FastForward {
                    block: self.dut.m.name().to_string(),
                    read: h.clone(),
                });
            }
        }
        self.stepping = s;
        self.dut.ff = s == Stepping::FastForward;
        Ok(())
    }
}

impl<D: DatapathDut> HwExec<D> {
    pub fn new(cfg: &DriveConfig, mut dut: D, line_entries: u32) -> Self {
        let t = SeqTiming::new(&cfg.onfi);
        let stride = ssdlab_hdl::nand::plane_stride(cfg);
        let page = (cfg.geometry.page_bytes + cfg.geometry.spare_bytes) as usize;
        // Targets accept suspend and resume when the drive's policy may suspend (tSUS and the
        // resume latency on R/B#, in cycles as the sequencer rounds them).
        let r = SuspendRules::new(&cfg.nand.suspend, &t);
        let sus = r.enabled.then_some(TargetSuspend {
            commands: r.commands,
            t_suspend: r.t_suspend,
            t_resume: r.t_resume,
        });
        let targets = (0..CHANNELS * WAYS)
            .map(|i| {
                let mut tg = NandTarget::new(t, stride, (i % WAYS) as u8, page);
                if let Some(s) = sus {
                    tg.set_suspend(s);
                }
                tg
            })
            .collect();
        let code = |b: u32| (b / 128).trailing_zeros() as u64;
        dut.eval();
        HwExec {
            dut,
            stepping: Stepping::PerCycle,
            ahead: 0,
            active: true,
            watch: Vec::with_capacity(64),
            rc: RootComplex::new(&cfg.pcie),
            cq: VecDeque::new(),
            targets,
            pending_read: [None; CHANNELS],
            dram: DramModel::new(DRAM, line_entries),
            tp: TpMover::default(),
            tp_done_at: None,
            codes: (code(cfg.pcie.mps_bytes), code(cfg.pcie.mrrs_bytes)),
            bpc: t.bytes_per_cycle as usize,
            error: None,
            bus_ce: 0,
            sus_cmd: sus.map(|s| s.commands.suspend),
            suspends: 0,
        }
    }

    /// The outputs that need the bench in a cycle when non-zero, given the offers `o`.
    fn fill_watch(&mut self, o: &Offer) {
        let w = &mut self.watch;
        w.clear();
        w.extend(
            [
                Sig::CmdValid,
                Sig::MapDecValid,
                Sig::MapRespValid,
                Sig::DmaDone,
                Sig::PbErr,
                Sig::RqTvalid,
                Sig::DramCmdValid,
                Sig::DramWdataValid,
                Sig::TpReqValid,
            ]
            .map(Sig::p),
        );
        for s in [ChSig::DoneValid, ChSig::We, ChSig::WrBeat, ChSig::RdBeat] {
            w.extend((0..CHANNELS).map(|ch| s.at(ch)));
        }
        for (offered, s) in [
            (o.map.is_some(), Sig::MapReqReady),
            (o.nand.is_some(), Sig::NandCmdReady),
            (o.dma.is_some(), Sig::DmaReady),
            (o.cpl.is_some(), Sig::CplReady),
        ] {
            if offered {
                w.push(s.p());
            }
        }
    }

    /// The first cycle >= `c` at which a device model's inputs to the DUT may change without
    /// DUT activity (`c`: now).
    fn horizon(&self, c: Cycle) -> Cycle {
        let mut h = self.rc.next_change(c).min(self.dram.next_change(c));
        h = h.min(self.cq.front().map_or(Cycle::MAX, |b| b.0));
        h = h.min(self.tp_done_at.unwrap_or(Cycle::MAX));
        for t in &self.targets {
            if t.ready_at() > c {
                h = h.min(t.ready_at());
            }
        }
        h
    }

    fn fail(&mut self, e: String) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    fn drive(&mut self, c: Cycle, o: &Offer) {
        let d = &mut self.dut;
        let cq = self.cq.front().filter(|b| b.0 == c).copied();
        d.set(Sig::CqTvalid.p(), cq.is_some() as u64);
        d.set(Sig::CqTlast.p(), cq.is_some_and(|b| b.2) as u64);
        d.set128(Sig::CqTdata.p(), cq.map_or(0, |b| b.1));
        let rcb = self.rc.rc_beat_at(c);
        d.set(Sig::RcTvalid.p(), rcb.is_some() as u64);
        d.set(Sig::RcTlast.p(), rcb.is_some_and(|b| b.1) as u64);
        d.set128(Sig::RcTdata.p(), rcb.map_or(0, |b| b.0));
        d.set(Sig::RqTready.p(), self.rc.rq_tready_at(c) as u64);
        d.set(Sig::CcTready.p(), 1);
        d.set(Sig::MpsCode.p(), self.codes.0);
        d.set(Sig::MrrsCode.p(), self.codes.1);
        d.set(Sig::CmdStall.p(), 0);
        drive_offer(d, o);
        for ch in 0..CHANNELS {
            let rb = (0..WAYS).fold(0u64, |a, w| {
                a | (self.targets[ch * WAYS + w].ready(c) as u64) << w
            });
            d.set(ChSig::Rb.at(ch), rb);
            d.set(
                ChSig::DqIn.at(ch),
                self.pending_read[ch].unwrap_or(0) as u64,
            );
            d.set(
                ChSig::DqInValid.at(ch),
                self.pending_read[ch].is_some() as u64,
            );
        }
        let m = self.dram.outputs(c);
        d.set(Sig::DramCmdReady.p(), m.cmd_ready as u64);
        d.set(Sig::DramWdataReady.p(), m.wdata_ready as u64);
        d.set(Sig::DramRdataValid.p(), m.rdata_valid as u64);
        d.set(Sig::DramRdata.p(), m.rdata as u64);
        d.set(Sig::TpDone.p(), (self.tp_done_at == Some(c)) as u64);
        d.eval();
    }

    fn streams(&mut self, c: Cycle) {
        let d = &self.dut;
        if self.cq.front().is_some_and(|b| b.0 == c) {
            if d.get(Sig::CqTready.p()) != 0 {
                self.cq.pop_front();
            } else {
                self.cq.iter_mut().for_each(|b| b.0 += 1);
            }
        }
        let (v, r, l) = (
            d.get(Sig::RqTvalid.p()) != 0,
            d.get(Sig::RqTready.p()) != 0,
            d.get(Sig::RqTlast.p()) != 0,
        );
        let data = if v { d.get128(Sig::RqTdata.p()) } else { 0 };
        self.rc.rq_observe(c, v, r, data, l);
        let out = self.dram.outputs(c);
        let inp = DramIn {
            cmd_valid: d.get(Sig::DramCmdValid.p()) != 0,
            cmd_write: d.get(Sig::DramCmdWrite.p()) != 0,
            cmd_addr: d.get(Sig::DramCmdAddr.p()) as u32,
            wdata_valid: d.get(Sig::DramWdataValid.p()) != 0,
            wdata: d.get(Sig::DramWdata.p()) as u32,
        };
        self.dram.step(c, out, inp);
        if self.tp_done_at == Some(c) {
            self.tp_done_at = None;
        }
        if d.get(Sig::TpReqValid.p()) != 0 && self.tp_done_at.is_none() {
            let r = TpReq {
                tp: d.get(Sig::TpReqTp.p()),
                slot: d.get(Sig::TpReqSlot.p()),
                evict_tp: d.get(Sig::TpReqEvictTp.p()),
                evict_dirty: d.get(Sig::TpReqEvictDirty.p()) != 0,
            };
            self.tp.apply(r, &mut self.dram);
            self.tp_done_at = Some(c + TP_CYCLES);
        }
    }

    /// NAND pins of every channel: latches and beats to the targets, read data for next cycle.
    fn nand_pins(&mut self, c: Cycle) {
        self.bus_ce = 0;
        for ch in 0..CHANNELS {
            self.pending_read[ch] = None;
            let ce = self.dut.get(ChSig::Ce.at(ch)) as u8;
            if ce == 0 {
                continue;
            }
            self.bus_ce |= 1 << ch;
            if ce.count_ones() > 1 {
                return self.fail(format!(
                    "cycle {c}: channel {ch}: chip enables {ce:04b} together"
                ));
            }
            let d = &self.dut;
            let (we, cle, ale) = (
                d.get(ChSig::We.at(ch)) != 0,
                d.get(ChSig::Cle.at(ch)) != 0,
                d.get(ChSig::Ale.at(ch)) != 0,
            );
            let (wr, rd, dq) = (
                d.get(ChSig::WrBeat.at(ch)) != 0,
                d.get(ChSig::RdBeat.at(ch)) != 0,
                d.get(ChSig::DqOut.at(ch)) as u32,
            );
            let t = &mut self.targets[ch * WAYS + ce.trailing_zeros() as usize];
            if we && cle {
                t.command(c, dq as u8);
                self.suspends += (self.sus_cmd == Some(dq as u8)) as u64;
            }
            if we && ale {
                t.address(c, dq as u8);
            }
            if wr {
                t.data_in(c, &dq.to_le_bytes()[..self.bpc]);
            }
            if rd {
                let mut w = [0u8; 4];
                w[..self.bpc].copy_from_slice(&t.data_out(c, self.bpc));
                self.pending_read[ch] = Some(u32::from_le_bytes(w));
            }
            if let Some(v) = t.violations.first() {
                let v = format!("cycle {c}: channel {ch}: ONFI violation: {v}");
                self.fail(v);
            }
        }
    }

    fn events(&mut self, c: Cycle, o: &Offer, ev: &mut Vec<HwEvent>) -> Taken {
        let d = &self.dut;
        let t = taken(d, o);
        if d.get(Sig::CmdValid.p()) != 0 {
            let mut raw = [0u8; 64];
            for (i, s) in [Sig::CmdW0, Sig::CmdW1, Sig::CmdW2, Sig::CmdW3]
                .into_iter()
                .enumerate()
            {
                raw[16 * i..16 * i + 16].copy_from_slice(&d.get128(s.p()).to_le_bytes());
            }
            ev.push(HwEvent::Cmd {
                sqid: d.get(Sig::CmdSqid.p()) as u16,
                sqe: Sqe::decode(&raw),
            });
        }
        map_events(d, ev);
        for ch in 0..CHANNELS {
            if d.get(ChSig::DoneValid.at(ch)) != 0 {
                let way = d.get(ChSig::DoneWay.at(ch)) as u8;
                // While the target is suspended, the op done is a read of the suspension.
                ev.push(HwEvent::NandDone {
                    channel: ch as u8,
                    way,
                    overtook: self.targets[ch * WAYS + way as usize].suspended(),
                });
            }
        }
        if d.get(Sig::DmaDone.p()) != 0 {
            ev.push(HwEvent::DmaDone {
                status: d.get(Sig::DmaStatus.p()) as u16,
            });
        }
        if d.get(Sig::PbErr.p()) != 0 {
            self.fail(format!(
                "cycle {c}: the page buffer flagged a firmware-rule violation (pb_err)"
            ));
        }
        if let (true, Some(n)) = (t.nand, o.nand) {
            self.targets[n.channel as usize * WAYS + n.way as usize]
                .push_array_cycles(n.array_cycles);
        }
        t
    }
}

impl<D: DatapathDut> DatapathExec for HwExec<D> {
    fn name(&self) -> &'static str {
        self.dut.name()
    }
    fn rc(&mut self) -> &mut RootComplex {
        &mut self.rc
    }
    /// A 4DW MWr on the CQ stream (descriptor beat, data beat), after the beats already queued.
    fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32) {
        let first = cycle.max(self.cq.back().map_or(0, |b| b.0 + 1));
        let d = ReqDesc {
            addr: offset as u64,
            dwords: 1,
            req_type: REQ_MWR,
            tag: 0,
        };
        self.cq.push_back((first, CqReq::bar0(d).pack(), false));
        self.cq.push_back((first + 1, value as u128, true));
    }
    fn cycle(&mut self, c: Cycle, o: &Offer, ev: &mut Vec<HwEvent>) -> Taken {
        self.drive(c, o);
        let t = self.events(c, o, ev);
        self.streams(c);
        self.nand_pins(c);
        self.fill_watch(o);
        self.active = self.watch.iter().any(|p| self.dut.get(*p) != 0);
        self.dut.tick();
        t
    }
    fn idle_until(&mut self, from: Cycle, until: Cycle, o: &Offer) -> Cycle {
        if self.stepping == Stepping::PerCycle
            || self.active
            || o.qc.is_some()
            || self.error.is_some()
            || self.pending_read.iter().any(Option::is_some)
        {
            return from;
        }
        let h = self.horizon(from).min(until);
        if h <= from + 1 {
            return from;
        }
        self.drive(from, o);
        self.fill_watch(o);
        let ce: [P; CHANNELS] = std::array::from_fn(|ch| ChSig::Ce.at(ch));
        let n = self.dut.run_quiet(&self.watch, &ce, h - from);
        assert!(n <= h - from, "ran past the horizon");
        self.ahead += n;
        from + n
    }
    fn error(&self) -> Option<String> {
        self.error.clone()
    }
    fn suspends(&self) -> u64 {
        self.suspends
    }
}
