//! The device models' side of a hardware-execution cycle: the DUT's inputs driven from the
//! root complex (CQ and RC streams, RQ ready), the NAND targets (R/B#, read data the PHY's read
//! return after its beat), the DRAM model and the translation-page mover; then the DUT's outputs
//! observed by the same models (RQ beats, DRAM commands and write data, TP requests, NAND
//! latches and beats).

use super::ports::drive_offer;
use super::{HwExec, TP_CYCLES};
use crate::cosim::datapath::port::Offer;
use crate::cosim::datapath::sig::{ChSig, DatapathDut, Sig, CHANNELS};
use crate::devices::map_dram::{DramIn, TpReq};
use ssdlab_model::nvme::frontend::tlp::{Cycle, CLOCK_PS};

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
        // The targets count sequencer cycles: the one in progress at this PCIe cycle's start.
        let nc = self.nand_ps.map_or(c, |pn| c * CLOCK_PS / pn);
        for ch in 0..CHANNELS {
            let rb = (0..self.ways).fold(0u64, |a, w| {
                a | (self.targets[ch * self.ways + w].ready(nc) as u64) << w
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

    /// NAND pins of every channel in sequencer cycle `c`: latches and beats to the targets,
    /// read data on its way back, and the word due in the next sequencer cycle.
    pub(super) fn nand_pins(&mut self, c: Cycle) {
        self.bus_ce = 0;
        self.nand_beats(c);
        for ch in 0..CHANNELS {
            self.pending_read[ch] = self.returning[ch].take(c + 1);
        }
    }

    /// The latches and beats of every channel in sequencer cycle `c`.
    fn nand_beats(&mut self, c: Cycle) {
        for ch in 0..CHANNELS {
            let ce = self.dut.get(ChSig::Ce.at(ch)) as u8;
            if ce == 0 {
                continue;
            }
            self.bus_ce |= 1 << ch;
            if ce.count_ones() > 1 || (ce as u32) >> self.ways != 0 {
                return self.fail(format!(
                    "cycle {c}: channel {ch}: chip enables {ce:08b} of {} ways",
                    self.ways
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
            let t = &mut self.targets[ch * self.ways + ce.trailing_zeros() as usize];
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
                self.returning[ch].push(c, u32::from_le_bytes(w));
            }
            if let Some(v) = t.violations.first() {
                let v = format!("cycle {c}: channel {ch}: ONFI violation: {v}");
                self.fail(v);
            }
        }
    }
}
