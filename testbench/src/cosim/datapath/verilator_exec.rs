//! The Verilator execution of the datapath: the generated Verilog of `ssdlab_hdl::top::Datapath`
//! (`module top`) built by the generic runner (`crate::verilator`), with the device models
//! around it — the root complex (`ssdlab_hdl::nvme::root_complex`: host memory, link ceiling,
//! read latency) on the PCIe streams, one [`NandTarget`] per (channel, way) on the NAND pins (one
//! cycle of PHY read latency, as `channel_bench`), the DRAM model
//! (`ssdlab_hdl::ftl::map_cache::dram_model`) on the mapping cache's memory port — and the
//! firmware port driven from the shared firmware's offers.

use super::exec::DatapathExec;
use super::port::*;
use super::verilator_ports::{Ports, CHANNELS, WAYS};
use crate::cosim::nand_target::NandTarget;
use crate::verilator::{RunnerError, VerilatorModel};
use ssdlab_hdl::ftl::map_cache::dram_model::{DramIn, DramModel, DramTiming, TpMover, TpReq};
use ssdlab_hdl::nvme::root_complex::RootComplex;
use ssdlab_hdl::pcie::tlp::{CqReq, ReqDesc, REQ_MWR};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nand::sequencer::SeqTiming;
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::Cycle;
use std::collections::VecDeque;

/// DRAM timing of the bench: first beat 12 cycles after the command, one 32-bit beat per cycle.
pub const DRAM: DramTiming = DramTiming { latency: 12, interval: 1 };
/// Cycles the bench takes to move a translation page (never needed when the table fits).
pub const TP_CYCLES: u64 = 2000;

pub struct VerilatorExec {
    m: VerilatorModel,
    p: Ports,
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
}

impl VerilatorExec {
    /// Builds (or takes from the cache) `verilog`, the datapath's `module top`, for drive `cfg`.
    pub fn new(cfg: &DriveConfig, verilog: &str, line_entries: u32) -> Result<Self, RunnerError> {
        let mut m = VerilatorModel::build("datapath", verilog)?;
        let p = Ports::look_up(&m)?;
        let t = SeqTiming::new(&cfg.onfi);
        let stride = ssdlab_hdl::nand::plane_stride(cfg);
        let page = (cfg.geometry.page_bytes + cfg.geometry.spare_bytes) as usize;
        let targets = (0..CHANNELS * WAYS).map(|i| NandTarget::new(t, stride, (i % WAYS) as u8, page)).collect();
        let code = |b: u32| (b / 128).trailing_zeros() as u64;
        m.eval();
        Ok(VerilatorExec {
            m,
            p,
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
        })
    }

    /// The Verilated model (e.g. for a waveform or cycle count).
    pub fn model(&mut self) -> &mut VerilatorModel {
        &mut self.m
    }

    fn fail(&mut self, e: String) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    fn drive(&mut self, c: Cycle, o: &Offer) {
        let (m, p) = (&mut self.m, &self.p);
        let cq = self.cq.front().filter(|b| b.0 == c).copied();
        m.set(p.cq_tvalid, cq.is_some() as u64);
        m.set(p.cq_tlast, cq.is_some_and(|b| b.2) as u64);
        m.set_wide(p.cq_tdata, &words(cq.map_or(0, |b| b.1)));
        let rcb = self.rc.rc_beat_at(c);
        m.set(p.rc_tvalid, rcb.is_some() as u64);
        m.set(p.rc_tlast, rcb.is_some_and(|b| b.1) as u64);
        m.set_wide(p.rc_tdata, &words(rcb.map_or(0, |b| b.0)));
        m.set(p.rq_tready, self.rc.rq_tready_at(c) as u64);
        m.set(p.cc_tready, 1);
        m.set(p.mps_code, self.codes.0);
        m.set(p.mrrs_code, self.codes.1);
        m.set(p.cmd_stall, 0);
        p.drive_offer(m, o);
        for ch in 0..CHANNELS {
            let rb = (0..WAYS).fold(0u64, |a, w| a | (self.targets[ch * WAYS + w].ready(c) as u64) << w);
            m.set(p.rb[ch], rb);
            m.set(p.dq_in[ch], self.pending_read[ch].unwrap_or(0) as u64);
            m.set(p.dq_in_valid[ch], self.pending_read[ch].is_some() as u64);
        }
        let d = self.dram.outputs(c);
        m.set(p.dram_cmd_ready, d.cmd_ready as u64);
        m.set(p.dram_wdata_ready, d.wdata_ready as u64);
        m.set(p.dram_rdata_valid, d.rdata_valid as u64);
        m.set(p.dram_rdata, d.rdata as u64);
        m.set(p.map_tp_done, (self.tp_done_at == Some(c)) as u64);
        m.eval();
    }

    fn streams(&mut self, c: Cycle) {
        let (m, p) = (&self.m, &self.p);
        if self.cq.front().is_some_and(|b| b.0 == c) {
            if m.get(p.cq_tready) != 0 {
                self.cq.pop_front();
            } else {
                self.cq.iter_mut().for_each(|b| b.0 += 1);
            }
        }
        let tdata = from_words(&m.get_wide(p.rq_tdata));
        self.rc.rq_observe(c, m.get(p.rq_tvalid) != 0, m.get(p.rq_tready) != 0, tdata, m.get(p.rq_tlast) != 0);
        let d = self.dram.outputs(c);
        let inp = DramIn {
            cmd_valid: m.get(p.dram_cmd_valid) != 0,
            cmd_write: m.get(p.dram_cmd_write) != 0,
            cmd_addr: m.get(p.dram_cmd_addr) as u32,
            wdata_valid: m.get(p.dram_wdata_valid) != 0,
            wdata: m.get(p.dram_wdata) as u32,
        };
        self.dram.step(c, d, inp);
        if self.tp_done_at == Some(c) {
            self.tp_done_at = None;
        }
        if m.get(p.map_tp_req_valid) != 0 && self.tp_done_at.is_none() {
            let r = TpReq { tp: m.get(p.tp_tp), slot: m.get(p.tp_slot), evict_tp: m.get(p.tp_evict_tp), evict_dirty: m.get(p.tp_evict_dirty) != 0 };
            self.tp.apply(r, &mut self.dram);
            self.tp_done_at = Some(c + TP_CYCLES);
        }
    }

    /// NAND pins of every channel: latches and beats to the targets, read data for next cycle.
    fn nand_pins(&mut self, c: Cycle) {
        for ch in 0..CHANNELS {
            let pins = self.p.pins(&self.m, ch);
            self.pending_read[ch] = None;
            if pins.ce.count_ones() > 1 {
                return self.fail(format!("cycle {c}: channel {ch}: chip enables {:04b} together", pins.ce));
            }
            let active = pins.we || pins.wr_beat || pins.rd_beat;
            if pins.ce == 0 {
                if active {
                    self.fail(format!("cycle {c}: channel {ch}: bus activity with no chip enable"));
                }
                continue;
            }
            let t = &mut self.targets[ch * WAYS + pins.ce.trailing_zeros() as usize];
            if pins.we && pins.cle {
                t.command(c, pins.dq_out as u8);
            }
            if pins.we && pins.ale {
                t.address(c, pins.dq_out as u8);
            }
            if pins.wr_beat {
                t.data_in(c, &pins.dq_out.to_le_bytes()[..self.bpc]);
            }
            if pins.rd_beat {
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
        let (m, p) = (&self.m, &self.p);
        let t = p.taken(m, o);
        if m.get(p.cmd_valid) != 0 {
            let mut raw = [0u8; 64];
            for (i, port) in [p.cmd_w0, p.cmd_w1, p.cmd_w2, p.cmd_w3].into_iter().enumerate() {
                raw[16 * i..16 * i + 16].copy_from_slice(&from_words(&m.get_wide(port)).to_le_bytes());
            }
            ev.push(HwEvent::Cmd { sqid: m.get(p.cmd_sqid) as u16, sqe: Sqe::decode(&raw) });
        }
        p.map_events(m, ev);
        for ch in 0..CHANNELS {
            if m.get(p.done_valid[ch]) != 0 {
                ev.push(HwEvent::NandDone { channel: ch as u8, way: m.get(p.done_way[ch]) as u8 });
            }
        }
        if m.get(p.dma_done) != 0 {
            ev.push(HwEvent::DmaDone { status: m.get(p.dma_status) as u16 });
        }
        if m.get(p.pb_err) != 0 {
            self.fail(format!("cycle {c}: page buffer flagged a firmware-rule violation (pb_err)"));
        }
        if let (true, Some(n)) = (t.nand, o.nand) {
            self.targets[n.channel as usize * WAYS + n.way as usize].push_array_cycles(n.array_cycles);
        }
        t
    }
}

/// A 128-bit value as four 32-bit words, least significant first.
pub fn words(v: u128) -> [u32; 4] {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}
pub fn from_words(w: &[u32]) -> u128 {
    w.iter().rev().fold(0u128, |a, x| a << 32 | *x as u128)
}

impl DatapathExec for VerilatorExec {
    fn name(&self) -> &'static str {
        "verilator"
    }
    fn rc(&mut self) -> &mut RootComplex {
        &mut self.rc
    }
    /// A 4DW MWr on the CQ stream (descriptor beat, data beat), after the beats already queued.
    fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32) {
        let first = cycle.max(self.cq.back().map_or(0, |b| b.0 + 1));
        let d = ReqDesc { addr: offset as u64, dwords: 1, req_type: REQ_MWR, tag: 0 };
        self.cq.push_back((first, CqReq::bar0(d).pack(), false));
        self.cq.push_back((first + 1, value as u128, true));
    }
    fn cycle(&mut self, c: Cycle, o: &Offer, ev: &mut Vec<HwEvent>) -> Taken {
        self.drive(c, o);
        let t = self.events(c, o, ev);
        self.streams(c);
        self.nand_pins(c);
        self.m.tick(self.p.clock);
        t
    }
    fn error(&self) -> Option<String> {
        self.error.clone()
    }
}
