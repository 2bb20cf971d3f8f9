//! The PRP data path composed (NVM Express Base Specification 1.4, section 4.3): one command at
//! a time, given its direction, PRP1, PRP2 and byte length, it walks the PRPs ([`PrpWalk`]),
//! cuts the segments at MRRS (host→device) or MPS (device→host) ([`PrpSplit`]) and moves the
//! data ([`PrpWriteData`] / [`PrpReadData`]) on the requester streams of `pcie::tlp`. `done` pulses
//! once per command with its status: 0, Invalid Field (02h), PRP Offset Invalid (13h) or Data
//! Transfer Error (04h). MPS and MRRS come from the PCIe Device Control register the host
//! programs at enumeration (encoding 000b = 128 B … 101b = 4096 B).

use super::ports::{BdSink, RcBeat, WdBeat};
use super::read_data::PrpReadData;
use super::split::PrpSplit;
use super::walk::PrpWalk;
use super::write_data::PrpWriteData;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PrpDma {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// Max payload size, Device Control encoding (bytes = 128 << code).
    pub mps_code: Signal<In, Bits<3>>,
    /// Max read request size, Device Control encoding.
    pub mrrs_code: Signal<In, Bits<3>>,
    /// A command is offered.
    pub cmd_valid: Signal<In, Bit>,
    /// The data path is idle and takes the command this cycle (if valid).
    pub cmd_ready: Signal<Out, Bit>,
    /// Direction: 1 = device→host (NVM Read: MWr), 0 = host→device (NVM Write: MRd).
    pub cmd_to_host: Signal<In, Bit>,
    /// PRP entry 1, byte address.
    pub cmd_prp1: Signal<In, Bits<64>>,
    /// PRP entry 2 or PRP list pointer, byte address.
    pub cmd_prp2: Signal<In, Bits<64>>,
    /// Transfer length in bytes (whole dwords, 4..=128 KiB).
    pub cmd_len: Signal<In, Bits<32>>,
    /// RQ stream data beat.
    pub rq_tdata: Signal<Out, Bits<128>>,
    /// RQ stream beat valid.
    pub rq_tvalid: Signal<Out, Bit>,
    /// RQ stream last beat of the TLP.
    pub rq_tlast: Signal<Out, Bit>,
    /// The hard block takes the beat this cycle.
    pub rq_tready: Signal<In, Bit>,
    /// RC stream beat, 128 bits (always accepted).
    pub rc: RcBeat,
    /// Host→device data beat for the buffer: 16 bytes and its dword count (no backpressure).
    pub wd: WdBeat,
    /// Device→host data from the buffer: the transfer's next 16 bytes (valid/ready).
    pub bd: BdSink,
    /// One cycle: the command ended.
    pub done: Signal<Out, Bit>,
    /// Status with `done` (SCT 10:8, SC 7:0).
    pub status: Signal<Out, Bits<11>>,
    walk: PrpWalk,
    split: PrpSplit,
    write_data: PrpWriteData,
    read_data: PrpReadData,
    to_host: DFF<Bit>,
    take: Signal<Local, Bit>,
    zero11: Constant<Bits<11>>,
}

impl Default for PrpDma {
    fn default() -> Self {
        crate::elab::with_defaults!(PrpDma {
            zero11: Constant::new(bits::<11>(0)),
        } defaults {
            clock, mps_code, mrrs_code, cmd_valid, cmd_ready, cmd_to_host, cmd_prp1, cmd_prp2, cmd_len,
            rq_tdata, rq_tvalid, rq_tlast, rq_tready, rc, wd, bd, done, status, walk, split, write_data, read_data, to_host,
            take,
        })
    }
}

impl Logic for PrpDma {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, to_host);
        self.walk.clock.next = self.clock.val();
        self.split.clock.next = self.clock.val();
        self.write_data.clock.next = self.clock.val();
        self.read_data.clock.next = self.clock.val();
        // Command: taken when every engine is idle; the direction picks the engine.
        self.cmd_ready.next =
            self.walk.cmd_ready.val() & !self.write_data.busy.val() & !self.read_data.busy.val();
        self.take.next = self.cmd_valid.val() & self.cmd_ready.val();
        self.walk.cmd_valid.next = self.take.val();
        self.walk.cmd_prp1.next = self.cmd_prp1.val();
        self.walk.cmd_prp2.next = self.cmd_prp2.val();
        self.walk.cmd_len.next = self.cmd_len.val();
        self.walk.mrrs_code.next = self.mrrs_code.val();
        if self.take.val() {
            self.to_host.d.next = self.cmd_to_host.val();
        }
        self.write_data.start.next = self.take.val() & !self.cmd_to_host.val();
        self.read_data.start.next = self.take.val() & self.cmd_to_host.val();
        self.write_data.cancel.next = self.walk.fail.val();
        self.read_data.cancel.next = self.walk.fail.val();
        // Segments → requests ≤ MPS (to host) or ≤ MRRS (from host).
        self.split.max_code.next = self.mrrs_code.val();
        if self.to_host.q.val() {
            self.split.max_code.next = self.mps_code.val();
        }
        self.split.seg_valid.next = self.walk.seg_valid.val();
        self.split.seg_addr.next = self.walk.seg_addr.val();
        self.split.seg_len.next = self.walk.seg_len.val();
        self.split.seg_last.next = self.walk.seg_last.val();
        self.walk.seg_ready.next = self.split.seg_ready.val();
        self.write_data.req.valid.next = self.split.req_valid.val() & !self.to_host.q.val();
        self.read_data.req.valid.next = self.split.req_valid.val() & self.to_host.q.val();
        self.write_data.req.addr.next = self.split.req_addr.val();
        self.read_data.req.addr.next = self.split.req_addr.val();
        self.write_data.req.dwords.next = self.split.req_dwords.val();
        self.read_data.req.dwords.next = self.split.req_dwords.val();
        self.write_data.req.last.next = self.split.req_last.val();
        self.read_data.req.last.next = self.split.req_last.val();
        self.split.req_ready.next = self.write_data.req.ready.val();
        if self.to_host.q.val() {
            self.split.req_ready.next = self.read_data.req.ready.val();
        }
        // Requester streams: list and data MRd descriptors go through the write engine's
        // stream register; completions go to both readers, each keeps its own tags.
        self.read_data.m.valid.next = self.walk.lr.valid.val() | self.write_data.m.valid.val();
        self.read_data.m.desc.next = self.write_data.m.desc.val();
        if self.walk.lr.valid.val() {
            self.read_data.m.desc.next = self.walk.lr.desc.val();
        }
        self.walk.lr.ready.next = self.read_data.m.ready.val();
        self.write_data.m.ready.next = self.read_data.m.ready.val() & !self.walk.lr.valid.val();
        self.rq_tdata.next = self.read_data.rq_tdata.val();
        self.rq_tvalid.next = self.read_data.rq_tvalid.val();
        self.rq_tlast.next = self.read_data.rq_tlast.val();
        self.read_data.rq_tready.next = self.rq_tready.val();
        RcBeat::link(&mut self.rc, &mut self.walk.rc);
        self.write_data.rc.tdata.next = self.rc.tdata.val();
        self.write_data.rc.tvalid.next = self.rc.tvalid.val();
        self.write_data.rc.tlast.next = self.rc.tlast.val();
        self.write_data.rc.discontinue.next = self.rc.discontinue.val();
        // Buffer ports.
        WdBeat::link(&mut self.wd, &mut self.write_data.wd);
        BdSink::link(&mut self.bd, &mut self.read_data.bd);
        // One status per command.
        self.done.next =
            self.walk.fail.val() | self.write_data.done.val() | self.read_data.done.val();
        self.status.next = self.zero11.val();
        if self.walk.fail.val() {
            self.status.next = self.walk.fail_status.val();
        } else if self.write_data.done.val() {
            self.status.next = self.write_data.done_status.val();
        }
    }
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(PrpDma::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prp_dma_is_synthesizable() {
        crate::test_support::yosys_validate("ssdlab_prp_dma", &export_verilog()).unwrap();
    }
}
