//! The hardware executions of the datapath: a [`DatapathDut`] — the Verilated Verilog of
//! `ssdlab_hdl::top::Datapath` (`module top`) or its rust_hdl simulation — with the device models
//! around it: the root complex (`crate::devices::root_complex`: host memory, link ceiling, read
//! latency) on the PCIe streams, a pin-level target per channel on its ONFI pins
//! (`devices::onfi_pins::channel::PinChannel`: one `NandTarget` per way behind CE#, ONFI timing
//! checked in ns; `pins.rs` reads the pins from the DUT), the DRAM model
//! (`crate::devices::map_dram`) on the mapping cache's memory port, and the
//! firmware port driven from the shared firmware's offers.
//!
//! Speed ([`Stepping`]): in a cycle where no output the bench watches is set (events,
//! handshakes, NAND pins away from idle, RQ/DRAM/TP requests) and the device models' inputs to the
//! DUT are constant, nothing crosses to Rust: `idle_until` lets the DUT clock on in C++ up to
//! the models' next scheduled change (NAND R/B#, RC beat, link free, CQ beat, TP done) or the
//! host's next action, and the Verilated build fast-forwards a quiescent design. With the
//! sequencers on a clock of their own, the DUT clocks their edges in those stretches too
//! (`verilator::SecondClock`), and the targets skip the sequencer cycles run.

mod devices;
mod pins;
mod ports;
mod stepping;

pub use stepping::Stepping;

use super::exec::DatapathExec;
use super::port::*;
use super::sig::{ChSig, DatapathDut, Sig, VerilatorDut, CHANNELS, P};
use crate::devices::map_dram::{DramModel, DramTiming, TpMover};
use crate::devices::nand_target::TargetSuspend;
use crate::devices::onfi_pins::channel::{idle_pins, PinChannel};
use crate::devices::onfi_pins::OnfiPinTarget;
use crate::devices::root_complex::RootComplex;
use pins::pins_of;
use ports::{map_events, taken};
use ssdlab_hdl::pcie::tlp::{CqReq, ReqDesc, REQ_MWR};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nand::sequencer::{SeqTiming, SuspendRules};
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::{Cycle, CLOCK_PS};
use std::collections::VecDeque;

/// DRAM timing of the bench: first beat 12 cycles after the command, one 32-bit beat per cycle.
pub const DRAM: DramTiming = DramTiming {
    latency: 12,
    interval: 1,
};
/// Cycles the bench takes to move a translation page (not needed while the table fits).
pub const TP_CYCLES: u64 = 2000;
/// Sequencer cycles beyond the read return that a completion's crossing to the PCIe clock
/// takes at most (a few cycles of each clock; generous).
const SUSPEND_LOOKBACK: u64 = 64;

pub struct HwExec<D: DatapathDut> {
    pub dut: D,
    stepping: Stepping,
    /// Cycles run ahead of the bench by `idle_until` so far.
    pub ahead: u64,
    /// The last cycle set a watched output (so the next one is unlikely to be quiet).
    active: bool,
    watch: Vec<P>,
    /// Every channel's pins whose level a run-ahead must keep (CE#, RE#, WE#, DQS: idle not 0),
    /// and those that must stay 0 (CLE, ALE, the output enables).
    pin_levels: Vec<P>,
    pin_zeros: Vec<P>,
    rc: RootComplex,
    cq: VecDeque<(Cycle, u128, bool)>,
    /// Per channel: its pins and pin-level target.
    pins: Vec<PinChannel>,
    /// `SeqTiming::rd_return`.
    rd_return: u64,
    dram: DramModel,
    tp: TpMover,
    tp_done_at: Option<Cycle>,
    codes: (u64, u64),
    error: Option<String>,
    /// Channels (bit ch) whose bus a phase held in the last cycle run (a way's CE asserted):
    /// the bus-occupancy meter's input (`seqread`).
    pub bus_ce: u16,
    /// The suspend command byte when `nand.suspend` is on, and the suspend latches seen.
    sus_cmd: Option<u8>,
    suspends: u64,
    /// The sequencer clock's period when it is not the PCIe clock (the datapath then crosses
    /// ops and completions, `top::crosses_clocks`): the NAND targets count its cycles, and
    /// each PCIe cycle runs the sequencer edge inside it, if any.
    nand_ps: Option<u64>,
}

/// The Verilator execution.
pub type VerilatorExec = HwExec<VerilatorDut>;

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
        let ways = cfg.geometry.ways_per_channel as u8;
        let pins = (0..CHANNELS)
            .map(|_| {
                let mut tg = OnfiPinTarget::new(&cfg.onfi, ways, stride, page);
                for w in tg.ways.iter_mut() {
                    if let Some(s) = sus {
                        w.set_suspend(s);
                    }
                }
                PinChannel::new(tg)
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
            pin_levels: per_channel(&[ChSig::CeN, ChSig::Re, ChSig::WeN, ChSig::Dqs]),
            pin_zeros: per_channel(&[ChSig::Cle, ChSig::Ale, ChSig::DqOe, ChSig::DqsOe]),
            rc: RootComplex::new(&cfg.pcie),
            cq: VecDeque::new(),
            pins,
            rd_return: t.rd_return as u64,
            dram: DramModel::new(DRAM, line_entries),
            tp: TpMover::default(),
            tp_done_at: None,
            codes: (code(cfg.pcie.mps_bytes), code(cfg.pcie.mrrs_bytes)),
            error: None,
            bus_ce: 0,
            sus_cmd: sus.map(|s| s.commands.suspend),
            suspends: 0,
            nand_ps: ssdlab_hdl::top::crosses_clocks(cfg).then(|| cfg.onfi.core_period().as_ps()),
        }
    }

    /// Stores `data` in the NAND target of (`channel`, `way`) at `row`, byte `column`
    /// ([`NandTarget::preload`]).
    pub fn preload(&mut self, channel: u8, way: u8, row: u32, column: usize, data: &[u8]) {
        self.pins[channel as usize].target.ways[way as usize].preload(row, column, data);
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
        w.extend((0..CHANNELS).map(|ch| ChSig::DoneValid.at(ch)));
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
        // A target's R/B# reaches the DUT's input the cycle after it rises (`PinChannel`).
        let now = self.nand_cycle_at(c);
        for t in self.pins.iter().flat_map(|p| &p.target.ways) {
            if t.ready_at() >= now {
                h = h.min(self.pcie_cycle_after(t.ready_at()));
            }
        }
        h
    }

    /// The first sequencer cycle the bench steps in PCIe cycle `c` or later (`c` itself on one
    /// clock): sequencer cycle k ends at the edge (k + 1) x `nand_ps`, stepped in the PCIe cycle
    /// whose span (c x 4 ns, (c + 1) x 4 ns] holds that edge.
    fn nand_cycle_at(&self, c: Cycle) -> u64 {
        self.nand_ps.map_or(c, |pn| c * CLOCK_PS / pn)
    }

    /// The PCIe cycle after the one in which the bench steps sequencer cycle `k`.
    fn pcie_cycle_after(&self, k: u64) -> Cycle {
        self.nand_ps.map_or(k.saturating_add(1), |pn| {
            k.saturating_add(1).saturating_mul(pn).div_ceil(CLOCK_PS)
        })
    }

    fn fail(&mut self, e: String) {
        if self.error.is_none() {
            self.error = Some(e);
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
        // The op's last phase ended the read return and the up crossing before its completion
        // shows here: if the target was suspended then, the op is a read of the suspension.
        // Asked from `SUSPEND_LOOKBACK` sequencer cycles earlier than that, a bound on the
        // crossing (a program completes the resume latency after the resume, far later).
        let end = self
            .nand_cycle_at(c)
            .saturating_sub(self.rd_return + SUSPEND_LOOKBACK);
        for ch in 0..CHANNELS {
            if d.get(ChSig::DoneValid.at(ch)) != 0 {
                let way = d.get(ChSig::DoneWay.at(ch)) as u8;
                ev.push(HwEvent::NandDone {
                    channel: ch as u8,
                    way,
                    overtook: self.pins[ch].target.ways[way as usize].suspended_since(end),
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
            self.pins[n.channel as usize].target.ways[n.way as usize]
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
        match self.nand_ps {
            None => self.nand_pins(c),
            Some(pn) => {
                // The sequencer edge after this PCIe cycle's start, up to its end (one at most:
                // the sequencer clock is the slower), ends sequencer cycle e / pn - 1.
                let (start, end) = (c * CLOCK_PS, (c + 1) * CLOCK_PS);
                let e = (start / pn + 1) * pn;
                if e <= end {
                    self.nand_pins(e / pn - 1);
                    if e < end {
                        self.dut.nand_edge();
                    } else {
                        self.dut.nand_with_tick();
                    }
                }
            }
        }
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
            || !self.pins.iter().all(PinChannel::settled)
        {
            return from;
        }
        let h = self.horizon(from).min(until);
        if h <= from + 1 {
            return from;
        }
        self.drive(from, o);
        // The run stops when a pin leaves the level it has now: that must be its idle level.
        if !(0..CHANNELS).all(|ch| idle_pins(&pins_of(&self.dut, ch))) {
            return from;
        }
        self.fill_watch(o);
        // Any pin away from its idle level stops the run.
        self.watch.extend_from_slice(&self.pin_zeros);
        let n = self
            .dut
            .run_quiet(&self.watch, &self.pin_levels, h - from, from, self.nand_ps);
        assert!(n <= h - from, "ran past the horizon");
        // The sequencer cycles in the PCIe cycles run, each idle at the pins.
        let k = self.nand_cycle_at(from + n) - self.nand_cycle_at(from);
        self.pins.iter_mut().for_each(|p| p.skip(k));
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

/// The ports `sigs` of every channel.
fn per_channel(sigs: &[ChSig]) -> Vec<P> {
    sigs.iter()
        .flat_map(|&s| (0..CHANNELS).map(move |ch| s.at(ch)))
        .collect()
}
