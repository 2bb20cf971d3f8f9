//! Host→device data of the PRP data path (NVM Write): memory reads ≤ MRRS from the splitter,
//! up to 32 in flight (tags `DATA_TAG_BASE | seq`, the model's `DATA_TAGS` = 32), and
//! reassembly of their completions onto the data-buffer port in transfer order. Completions
//! may be split at the read completion boundary (PCI Express Base 3.0, 2.3.1.1); each one's
//! payload starts in dword 0 of its first payload beat, so the dword stream is repacked into
//! 16-byte beats across request and completion boundaries (a residue of up to 3 dwords).
//! Completions must come in request order: a tag out of order, a failed completion (UR/CA), a
//! discontinued one (its last beat is not written) or none for 65 535 cycles marks the command failed; the block then drops the remaining
//! requests, waits for the outstanding ones to end (or abandons them on the timeout) and
//! reports Data Transfer Error (04h). The buffer must take one beat per cycle (it reserved room
//! for the whole command before the command started, as the model's data buffer admits it).

use super::ports::{MrdSource, RcBeat, ReqSink, WdBeat};
use super::{Beat2, DataTag, DwBytes, DwToByte, DATA_TAG_BASE};
use crate::pcie::words::ReqDescWord;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PrpWriteData {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// One cycle: a host→device command starts.
    pub start: Signal<In, Bit>,
    /// One cycle: the command failed before moving data; stop.
    pub cancel: Signal<In, Bit>,
    /// Request from the splitter: dword address, length in dwords, last flag (valid/ready).
    pub req: ReqSink,
    /// MRd offered to the requester stream: 128-bit `pcie::tlp::ReqDesc` (valid/ready).
    pub m: MrdSource,
    /// Requester completion beat, 128 bits (only data tags are used).
    pub rc: RcBeat,
    /// Data-buffer write: a host→device beat, 16 bytes and its dword count (no backpressure).
    pub wd: WdBeat,
    /// One cycle: the command ended (with the last beat, or after a failure).
    pub done: Signal<Out, Bit>,
    /// Status with `done`: 0, or Data Transfer Error (04h).
    pub done_status: Signal<Out, Bits<11>>,
    /// A command is in progress.
    pub busy: Signal<Out, Bit>,
    active: DFF<Bit>,
    n_iss: DFF<Bits<6>>,
    n_done: DFF<Bits<6>>,
    last_iss: DFF<Bit>,
    err: DFF<Bit>,
    rx_in: DFF<Bit>,
    mine: DFF<Bit>,
    endreq: DFF<Bit>,
    rem: DFF<Bits<11>>,
    res: DFF<Bits<128>>,
    nres: DFF<Bits<3>>,
    fin: DFF<Bit>,
    idle_cnt: DFF<Bits<16>>,
    wv: DFF<Bit>,
    wdata: DFF<Bits<128>>,
    wdw: DFF<Bits<3>>,
    wl: DFF<Bit>,
    dn: DFF<Bit>,
    dstat: DFF<Bits<11>>,
    outst: Signal<Local, Bits<6>>,
    can: Signal<Local, Bit>,
    tag: Signal<Local, DataTag>,
    desc: Signal<Local, ReqDescWord>,
    daddr: Signal<Local, DwToByte>,
    dwb: Signal<Local, DwBytes>,
    dwb13: Signal<Local, Bits<13>>,
    is_data: Signal<Local, Bit>,
    req_end: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    /// This beat ends a discontinued completion of the engine's (PG156 RC discontinue).
    dsc: Signal<Local, Bit>,
    n: Signal<Local, Bits<3>>,
    total: Signal<Local, Bits<3>>,
    sh: Signal<Local, Bits<8>>,
    inw: Signal<Local, Beat2>,
    resw: Signal<Local, Beat2>,
    comb: Signal<Local, Bits<256>>,
    inb: Signal<Local, Bits<256>>,
    resb: Signal<Local, Bits<256>>,
    k32_8: Constant<Bits<8>>,
    k64_8: Constant<Bits<8>>,
    k96_8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    one6: Constant<Bits<6>>,
    k32_6: Constant<Bits<6>>,
    zero6: Constant<Bits<6>>,
    one3: Constant<Bits<3>>,
    two3: Constant<Bits<3>>,
    three3: Constant<Bits<3>>,
    four3: Constant<Bits<3>>,
    zero3: Constant<Bits<3>>,
    four11: Constant<Bits<11>>,
    zero11: Constant<Bits<11>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    max_idle: Constant<Bits<16>>,
    tag_hi: Constant<Bits<3>>,
    mrd: Constant<ReqDescWord>,
    zero_tag: Constant<DataTag>,
    zero_daddr: Constant<DwToByte>,
    zero_dwb: Constant<DwBytes>,
    zero_beat2: Constant<Beat2>,
    st_ok: Constant<Bits<11>>,
    st_xfer: Constant<Bits<11>>,
}

impl Default for PrpWriteData {
    fn default() -> Self {
        let mrd = ReqDescWord {
            req_type: bits::<4>(crate::pcie::tlp::REQ_MRD as u64),
            ..Default::default()
        };
        crate::elab::with_defaults!(PrpWriteData {
            k32_8: Constant::new(bits::<8>(32)),
            k64_8: Constant::new(bits::<8>(64)),
            k96_8: Constant::new(bits::<8>(96)),
            zero8: Constant::new(bits::<8>(0)),
            one6: Constant::new(bits::<6>(1)),
            k32_6: Constant::new(bits::<6>(32)),
            zero6: Constant::new(bits::<6>(0)),
            one3: Constant::new(bits::<3>(1)),
            two3: Constant::new(bits::<3>(2)),
            three3: Constant::new(bits::<3>(3)),
            four3: Constant::new(bits::<3>(4)),
            zero3: Constant::new(bits::<3>(0)),
            four11: Constant::new(bits::<11>(4)),
            zero11: Constant::new(bits::<11>(0)),
            one16: Constant::new(bits::<16>(1)),
            zero16: Constant::new(bits::<16>(0)),
            max_idle: Constant::new(bits::<16>(0xFFFF)),
            tag_hi: Constant::new(bits::<3>((DATA_TAG_BASE >> 5) as u64)),
            mrd: Constant::new(mrd),
            zero_tag: Constant::new(DataTag::default()),
            zero_daddr: Constant::new(DwToByte::default()),
            zero_dwb: Constant::new(DwBytes::default()),
            zero_beat2: Constant::new(Beat2::default()),
            st_ok: Constant::new(bits::<11>(super::status::success() as u64)),
            st_xfer: Constant::new(bits::<11>(super::status::data_transfer_error() as u64)),
        } defaults {
            clock, start, cancel, req, m, rc, wd, done, done_status, busy, active, n_iss, n_done, last_iss, err,
            rx_in, mine, endreq, rem, res, nres, fin, idle_cnt, wv, wdata, wdw, wl, dn, dstat, outst, can, tag,
            desc, daddr, dwb, dwb13, is_data, req_end, push, dsc, n, total, sh, inw, resw, comb, inb, resb,
        })
    }
}

impl Logic for PrpWriteData {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, active, n_iss, n_done, last_iss, err, rx_in, mine, endreq, rem, res, nres,
            fin, idle_cnt, wv, wdata, wdw, wl, dn, dstat
        );
        // Issue: up to 32 reads outstanding; after a failure requests are taken and dropped.
        self.outst.next = self.n_iss.q.val() - self.n_done.q.val();
        self.can.next = self.active.q.val()
            & !self.err.q.val()
            & !self.last_iss.q.val()
            & (self.outst.val() < self.k32_6.val());
        self.tag.next = self.zero_tag.val();
        self.tag.next.seq = self.n_iss.q.val().get_bits::<5>(0);
        self.tag.next.hi = self.tag_hi.val();
        self.daddr.next = self.zero_daddr.val();
        self.daddr.next.dw = self.req.addr.val();
        self.desc.next = self.mrd.val();
        self.desc.next.addr = self.daddr.val().into();
        self.desc.next.dwords = self.req.dwords.val();
        self.desc.next.tag = self.tag.val().into();
        self.m.desc.next = self.desc.val().into();
        self.m.valid.next = self.req.valid.val() & self.can.val();
        self.req.ready.next = (self.m.ready.val() & self.can.val())
            | (self.active.q.val() & self.err.q.val() & !self.last_iss.q.val());
        if self.req.valid.val() & self.req.ready.val() {
            if self.can.val() {
                self.n_iss.d.next = self.n_iss.q.val() + self.one6.val();
            }
            if self.req.last.val() {
                self.last_iss.d.next = true;
            }
        }
        // Completions: the descriptor beat names the tag; a request ends with the completion
        // whose byte count equals its own length (PCIe 2.2.9), or with a failed completion.
        self.req_end.next = false;
        self.push.next = false;
        self.dsc.next = false;
        self.is_data.next =
            (self.rc.tdata.val().get_bits::<3>(69) == self.tag_hi.val()) & self.active.q.val();
        self.dwb.next = self.zero_dwb.val();
        self.dwb.next.dw = self.rc.tdata.val().get_bits::<11>(32);
        self.dwb13.next = self.dwb.val().into();
        self.n.next = self.four3.val();
        if self.rem.q.val() < self.four11.val() {
            self.n.next = self.rem.q.val().get_bits::<3>(0);
        }
        if self.rc.tvalid.val() & !self.rx_in.q.val() {
            self.rx_in.d.next = !self.rc.tlast.val();
            self.mine.d.next = self.is_data.val();
            self.rem.d.next = self.rc.tdata.val().get_bits::<11>(32);
            self.endreq.d.next = self.rc.tdata.val().get_bits::<13>(16) == self.dwb13.val();
            if self.is_data.val() {
                if self.rc.tdata.val().get_bits::<5>(64) != self.n_done.q.val().get_bits::<5>(0) {
                    self.err.d.next = true;
                }
                if self.rc.tdata.val().get_bits::<3>(43).any() | self.rc.tlast.val() {
                    self.err.d.next = true;
                    self.req_end.next = true;
                }
            }
        }
        if self.rc.tvalid.val() & self.rx_in.q.val() {
            if self.rc.tlast.val() {
                self.rx_in.d.next = false;
            }
            if self.mine.q.val() {
                self.rem.d.next = self.zero11.val();
                if self.rem.q.val() >= self.four11.val() {
                    self.rem.d.next = self.rem.q.val() - self.four11.val();
                }
                // A discontinued completion's last beat is not written and fails the command.
                self.dsc.next = self.rc.tlast.val() & self.rc.discontinue.val();
                self.push.next = !self.err.q.val() & !self.dsc.val();
                if self.dsc.val() {
                    self.err.d.next = true;
                }
                if self.rc.tlast.val() & self.endreq.q.val() {
                    self.req_end.next = true;
                }
            }
        }
        if self.req_end.val() {
            self.n_done.d.next = self.n_done.q.val() + self.one6.val();
        }
        // Repacking: residue (nres dwords) ++ this beat's n dwords; full beats go out.
        self.total.next = self.nres.q.val() + self.n.val();
        self.sh.next = self.zero8.val();
        if self.nres.q.val() == self.one3.val() {
            self.sh.next = self.k32_8.val();
        } else if self.nres.q.val() == self.two3.val() {
            self.sh.next = self.k64_8.val();
        } else if self.nres.q.val() == self.three3.val() {
            self.sh.next = self.k96_8.val();
        }
        self.inw.next = self.zero_beat2.val();
        self.inw.next.lo = self.rc.tdata.val();
        self.inb.next = self.inw.val().into();
        self.resw.next = self.zero_beat2.val();
        self.resw.next.lo = self.res.q.val();
        self.resb.next = self.resw.val().into();
        self.comb.next = self.resb.val() | (self.inb.val() << self.sh.val());
        self.wv.d.next = false;
        self.wl.d.next = false;
        self.dn.d.next = false;
        if self.push.val() {
            if self.total.val() < self.four3.val() {
                self.res.d.next = self.comb.val().get_bits::<128>(0);
                self.nres.d.next = self.total.val();
            } else {
                self.wv.d.next = true;
                self.wdata.d.next = self.comb.val().get_bits::<128>(0);
                self.wdw.d.next = self.four3.val();
                self.res.d.next = self.comb.val().get_bits::<128>(128);
                self.nres.d.next = self.total.val() - self.four3.val();
            }
            // The last request's last completion: the beat with nothing left over is the last
            // one, else the residue follows next cycle.
            if self.req_end.val() & self.last_iss.q.val() & (self.outst.val() == self.one6.val()) {
                if self.total.val() == self.four3.val() {
                    self.wl.d.next = true;
                    self.dn.d.next = true;
                    self.dstat.d.next = self.st_ok.val();
                    self.active.d.next = false;
                } else {
                    self.fin.d.next = true;
                }
            }
        }
        if self.fin.q.val() {
            self.fin.d.next = false;
            self.wv.d.next = true;
            self.wdata.d.next = self.res.q.val();
            self.wdw.d.next = self.nres.q.val();
            self.wl.d.next = true;
            self.nres.d.next = self.zero3.val();
            self.dn.d.next = true;
            self.dstat.d.next = self.st_ok.val();
            self.active.d.next = false;
        }
        // Failure: once the last request is taken and nothing is outstanding.
        if self.active.q.val()
            & self.err.q.val()
            & self.last_iss.q.val()
            & (self.outst.val() == self.zero6.val())
        {
            self.dn.d.next = true;
            self.dstat.d.next = self.st_xfer.val();
            self.active.d.next = false;
        }
        // Completion timeout: nothing for 65 535 cycles with reads outstanding.
        if self.rc.tvalid.val() | (self.outst.val() == self.zero6.val()) {
            self.idle_cnt.d.next = self.zero16.val();
        } else {
            self.idle_cnt.d.next = self.idle_cnt.q.val() + self.one16.val();
            if self.idle_cnt.q.val() == self.max_idle.val() {
                self.err.d.next = true;
                self.n_done.d.next = self.n_iss.q.val();
            }
        }
        if self.start.val() {
            self.active.d.next = true;
            self.err.d.next = false;
            self.last_iss.d.next = false;
            self.nres.d.next = self.zero3.val();
            self.fin.d.next = false;
        }
        if self.cancel.val() {
            self.active.d.next = false;
        }
        self.wd.valid.next = self.wv.q.val();
        self.wd.data.next = self.wdata.q.val();
        self.wd.dwords.next = self.wdw.q.val();
        self.wd.last.next = self.wl.q.val();
        self.done.next = self.dn.q.val();
        self.done_status.next = self.dstat.q.val();
        self.busy.next = self.active.q.val();
    }
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(PrpWriteData::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prp_read_is_synthesizable() {
        crate::test_support::yosys_validate("ssdlab_prp_write_data", &export_verilog()).unwrap();
    }
}
