//! The device models' side of a hardware-execution cycle: the DUT's inputs driven from the
//! root complex (CQ and RC streams, RQ ready), the NAND targets (R/B# and DQ at the pins), the
//! DRAM model and the translation-page mover; then the DUT's outputs observed by the same models
//! (RQ beats, DRAM commands and write data, TP requests, the ONFI pins).

use super::pins::pins_of;
use super::ports::drive_offer;
use super::{HwExec, TP_CYCLES};
use crate::cosim::datapath::port::Offer;
use crate::cosim::datapath::sig::{ChSig, DatapathDut, Sig, CHANNELS};
use crate::devices::map_dram::{DramIn, TpReq};
use ssdlab_model::nvme::frontend::tlp::Cycle;

impl<D: DatapathDut> HwExec<D> {
    /// Sets every DUT input for cycle `c` from the device models and the offers `o`, then
    /// evaluates the DUT.
    pub(super) fn drive(&mut self, c: Cycle, o: &Offer) {
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
        for (ch, p) in self.pins.iter().enumerate() {
            d.set(ChSig::RbN.at(ch), p.rb as u64);
            d.set(ChSig::DqIn.at(ch), p.dq_in() as u64);
        }
        let m = self.dram.outputs(c);
        d.set(Sig::DramCmdReady.p(), m.cmd_ready as u64);
        d.set(Sig::DramWdataReady.p(), m.wdata_ready as u64);
        d.set(Sig::DramRdataValid.p(), m.rdata_valid as u64);
        d.set(Sig::DramRdata.p(), m.rdata as u64);
        d.set(Sig::TpDone.p(), (self.tp_done_at == Some(c)) as u64);
        d.eval();
    }

    /// The CQ, RQ, DRAM and TP streams of cycle `c`: the models take what the DUT handed them.
    pub(super) fn streams(&mut self, c: Cycle) {
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
        // Both DUTs drive the PG156 sideband: the root complex checks it beat by beat.
        let side = v.then(|| (d.get(Sig::RqTkeep.p()) as u8, d.get(Sig::RqTuser.p())));
        self.rc.rq_observe(c, v, r, data, l, side);
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

    /// The ONFI pins of every channel in sequencer cycle `c` into its target (which checks
    /// their timing), the target's DQ and R/B# on their way back.
    pub(super) fn nand_pins(&mut self, c: Cycle) {
        self.bus_ce = 0;
        for ch in 0..CHANNELS {
            let u = pins_of(&self.dut, ch);
            let p = &mut self.pins[ch];
            if p.cycle(&u) {
                self.bus_ce |= 1 << ch;
            }
            self.suspends += p.take_commands(self.sus_cmd);
            if !p.target.violations.is_empty()
                || p.target.ways.iter().any(|w| !w.violations.is_empty())
            {
                let v = p.target.report();
                return self.fail(format!(
                    "sequencer cycle {c}: channel {ch}: ONFI violation: {v}"
                ));
            }
        }
    }
}
