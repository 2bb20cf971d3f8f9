//! Requester-request stream master of the PRP data path (128-bit at 250 MHz, `pcie::tlp`
//! layout: one descriptor beat, then payload beats with payload dword 0 in bits 31:0):
//! - MRd descriptors offered by the walker (list reads) or the read engine, one beat each;
//! - device→host data (NVM Read): a memory write ≤ MPS per request of the splitter, its
//!   payload taken from the data-buffer port (16-byte beats in transfer order) and realigned
//!   to the request's first dword (a residue of up to 3 dwords carries over between requests).
//!
//! A descriptor offered in cycle `t` while the stream is free is on `rq_tdata` in `t + 1`; the
//! stream is free again in the cycle its last beat is taken, so TLPs follow back to back. If the
//! buffer has no data for the next payload beat, `rq_tvalid` drops inside the packet (AXI4-Stream
//! allows it) until it has.

use super::ports::{BdSink, MrdSink, ReqSink};
use super::{Beat2, DwToByte};
use crate::pcie::words::ReqDescWord;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum WrState {
    Idle,
    Body,
}

#[derive(LogicBlock)]
pub struct PrpReadData {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// One cycle: a device→host command starts (clears the realignment residue).
    pub start: Signal<In, Bit>,
    /// One cycle: the command failed before moving data; stop.
    pub cancel: Signal<In, Bit>,
    /// MRd descriptor offered by the walker or the read engine, 128 bits (valid/ready).
    pub m: MrdSink,
    /// Request from the splitter: dword address, length in dwords, last flag (valid/ready).
    pub req: ReqSink,
    /// Data-buffer read: the transfer's next 16 bytes (valid/ready).
    pub bd: BdSink,
    /// RQ stream data beat.
    pub rq_tdata: Signal<Out, Bits<128>>,
    /// RQ stream beat valid.
    pub rq_tvalid: Signal<Out, Bit>,
    /// RQ stream last beat of the TLP.
    pub rq_tlast: Signal<Out, Bit>,
    /// The hard block takes the beat this cycle (link ceiling backpressure).
    pub rq_tready: Signal<In, Bit>,
    /// One cycle: the transfer's last MWr has left (its last beat was taken).
    pub done: Signal<Out, Bit>,
    /// A device→host command is in progress.
    pub busy: Signal<Out, Bit>,
    st: DFF<WrState>,
    active: DFF<Bit>,
    tdata: DFF<Bits<128>>,
    tvalid: DFF<Bit>,
    tlast: DFF<Bit>,
    fin_beat: DFF<Bit>,
    cur_last: DFF<Bit>,
    rem: DFF<Bits<11>>,
    acc: DFF<Bits<128>>,
    nacc: DFF<Bits<3>>,
    dn: DFF<Bit>,
    can_load: Signal<Local, Bit>,
    k: Signal<Local, Bits<3>>,
    have: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    sh_in: Signal<Local, Bits<8>>,
    inw: Signal<Local, Beat2>,
    accw: Signal<Local, Beat2>,
    inb: Signal<Local, Bits<256>>,
    accb: Signal<Local, Bits<256>>,
    comb: Signal<Local, Bits<256>>,
    desc: Signal<Local, ReqDescWord>,
    daddr: Signal<Local, DwToByte>,
    k32_8: Constant<Bits<8>>,
    k64_8: Constant<Bits<8>>,
    k96_8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    one3: Constant<Bits<3>>,
    two3: Constant<Bits<3>>,
    three3: Constant<Bits<3>>,
    four3: Constant<Bits<3>>,
    zero3: Constant<Bits<3>>,
    four11: Constant<Bits<11>>,
    zero128: Constant<Bits<128>>,
    mwr: Constant<ReqDescWord>,
    zero_beat2: Constant<Beat2>,
    zero_daddr: Constant<DwToByte>,
}

impl Default for PrpReadData {
    fn default() -> Self {
        let mwr = ReqDescWord {
            req_type: bits::<4>(crate::pcie::tlp::REQ_MWR as u64),
            ..Default::default()
        };
        crate::elab::with_defaults!(PrpReadData {
            k32_8: Constant::new(bits::<8>(32)),
            k64_8: Constant::new(bits::<8>(64)),
            k96_8: Constant::new(bits::<8>(96)),
            zero8: Constant::new(bits::<8>(0)),
            one3: Constant::new(bits::<3>(1)),
            two3: Constant::new(bits::<3>(2)),
            three3: Constant::new(bits::<3>(3)),
            four3: Constant::new(bits::<3>(4)),
            zero3: Constant::new(bits::<3>(0)),
            four11: Constant::new(bits::<11>(4)),
            zero128: Constant::new(bits::<128>(0)),
            mwr: Constant::new(mwr),
            zero_beat2: Constant::new(Beat2::default()),
            zero_daddr: Constant::new(DwToByte::default()),
        } defaults {
            clock, start, cancel, m, req, bd, rq_tdata, rq_tvalid, rq_tlast, rq_tready, done, busy, st, active,
            tdata, tvalid, tlast, fin_beat, cur_last, rem, acc, nacc, dn, can_load, k, have, take, sh_in, inw,
            accw, inb, accb, comb, desc, daddr,
        })
    }
}

impl Logic for PrpReadData {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, st, active, tdata, tvalid, tlast, fin_beat, cur_last, rem, acc, nacc, dn
        );
        self.can_load.next = !self.tvalid.q.val() | self.rq_tready.val();
        // The next payload beat carries k dwords: the residue, topped up from the buffer.
        self.k.next = self.four3.val();
        if self.rem.q.val() < self.four11.val() {
            self.k.next = self.rem.q.val().get_bits::<3>(0);
        }
        self.take.next = self.nacc.q.val() < self.k.val();
        self.have.next = !self.take.val() | self.bd.valid.val();
        self.sh_in.next = self.zero8.val();
        if self.nacc.q.val() == self.one3.val() {
            self.sh_in.next = self.k32_8.val();
        } else if self.nacc.q.val() == self.two3.val() {
            self.sh_in.next = self.k64_8.val();
        } else if self.nacc.q.val() == self.three3.val() {
            self.sh_in.next = self.k96_8.val();
        }
        self.inw.next = self.zero_beat2.val();
        if self.take.val() {
            self.inw.next.lo = self.bd.data.val();
        }
        self.inb.next = self.inw.val().into();
        self.accw.next = self.zero_beat2.val();
        self.accw.next.lo = self.acc.q.val();
        self.accb.next = self.accw.val().into();
        self.comb.next = self.accb.val() | (self.inb.val() << self.sh_in.val());
        self.daddr.next = self.zero_daddr.val();
        self.daddr.next.dw = self.req.addr.val();
        self.desc.next = self.mwr.val();
        self.desc.next.addr = self.daddr.val().into();
        self.desc.next.dwords = self.req.dwords.val();
        self.m.ready.next = (self.st.q.val() == WrState::Idle) & self.can_load.val();
        self.req.ready.next = (self.st.q.val() == WrState::Idle)
            & self.can_load.val()
            & !self.m.valid.val()
            & self.active.q.val();
        self.bd.ready.next =
            (self.st.q.val() == WrState::Body) & self.can_load.val() & self.take.val();
        self.dn.d.next = false;
        if self.tvalid.q.val() & self.rq_tready.val() & self.tlast.q.val() & self.fin_beat.q.val() {
            self.dn.d.next = true;
            self.active.d.next = false;
        }
        if self.can_load.val() {
            self.tvalid.d.next = false;
        }
        match self.st.q.val() {
            WrState::Idle => {
                if self.can_load.val() & self.m.valid.val() {
                    self.tdata.d.next = self.m.desc.val();
                    self.tvalid.d.next = true;
                    self.tlast.d.next = true;
                    self.fin_beat.d.next = false;
                } else if self.can_load.val() & self.req.valid.val() & self.active.q.val() {
                    self.tdata.d.next = self.desc.val().into();
                    self.tvalid.d.next = true;
                    self.tlast.d.next = false;
                    self.fin_beat.d.next = false;
                    self.rem.d.next = self.req.dwords.val();
                    self.cur_last.d.next = self.req.last.val();
                    self.st.d.next = WrState::Body;
                }
            }
            WrState::Body => {
                if self.can_load.val() & self.have.val() {
                    self.tdata.d.next = self.comb.val().get_bits::<128>(0);
                    self.tvalid.d.next = true;
                    // What is left after the k dwords sent: constant part-selects per k.
                    self.acc.d.next = self.comb.val().get_bits::<128>(128);
                    if self.k.val() == self.one3.val() {
                        self.acc.d.next = self.comb.val().get_bits::<128>(32);
                    } else if self.k.val() == self.two3.val() {
                        self.acc.d.next = self.comb.val().get_bits::<128>(64);
                    } else if self.k.val() == self.three3.val() {
                        self.acc.d.next = self.comb.val().get_bits::<128>(96);
                    }
                    if self.take.val() {
                        self.nacc.d.next = self.nacc.q.val() + self.four3.val() - self.k.val();
                    } else {
                        self.nacc.d.next = self.nacc.q.val() - self.k.val();
                    }
                    if self.rem.q.val() > self.four11.val() {
                        self.rem.d.next = self.rem.q.val() - self.four11.val();
                        self.tlast.d.next = false;
                    } else {
                        self.tlast.d.next = true;
                        self.fin_beat.d.next = self.cur_last.q.val();
                        self.st.d.next = WrState::Idle;
                    }
                }
            }
            _ => {
                self.st.d.next = WrState::Idle;
            }
        }
        if self.start.val() {
            self.active.d.next = true;
            self.nacc.d.next = self.zero3.val();
            self.acc.d.next = self.zero128.val();
        }
        if self.cancel.val() {
            self.active.d.next = false;
        }
        self.rq_tdata.next = self.tdata.q.val();
        self.rq_tvalid.next = self.tvalid.q.val();
        self.rq_tlast.next = self.tlast.q.val();
        self.done.next = self.dn.q.val();
        self.busy.next = self.active.q.val();
    }
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(PrpReadData::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prp_read_data_is_synthesizable() {
        crate::test_support::yosys_validate("ssdlab_prp_read_data", &export_verilog()).unwrap();
    }
}
