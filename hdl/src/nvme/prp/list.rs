//! PRP list page reader (NVM Express Base Specification 1.4, section 4.3, Figure 109): reads
//! `count` 8-byte entries from one list page with MRd ≤ MRRS (cut by a [`PrpSplit`], issued one
//! at a time, the next after the previous one's last completion beat, as the model's
//! `frontend::datapath` does), stores the first `ndata` as data page frame numbers at slots
//! `base..`, and keeps the last as the chain pointer when `chained`. It flags data entries with
//! a non-zero page offset and chain pointers not qword aligned (`bad_off`, for status 13h), and
//! failed or discontinued completions or none within 65 535 cycles (`xfer_err`, 04h). Completions arrive in
//! address order, possibly split at the read completion boundary; each payload beat carries two
//! entries, the last beat of a completion one or two.

use super::ports::{MrdSource, RcBeat};
use super::split::PrpSplit;
use super::{DwBytes, DwToByte, EntDw, LIST_TAG, MAX_ENTRIES};
use crate::pcie::words::ReqDescWord;
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum ListState {
    Idle,
    Seg,
    Req,
    Wait,
}

#[derive(LogicBlock)]
pub struct PrpList {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// MRRS, Device Control encoding (bytes = 128 << code).
    pub mrrs_code: Signal<In, Bits<3>>,
    /// One cycle: read a list page (only while `busy` is low).
    pub start: Signal<In, Bit>,
    /// First entry to read, byte address (qword aligned).
    pub ptr: Signal<In, Bits<64>>,
    /// Entries to read (1..=33), all within `ptr`'s page.
    pub count: Signal<In, Bits<6>>,
    /// Of them, data entries (the rest is the chain pointer).
    pub ndata: Signal<In, Bits<6>>,
    /// The last entry read is a chain pointer.
    pub chained: Signal<In, Bit>,
    /// Slot of the first data entry in the entry file.
    pub base: Signal<In, Bits<6>>,
    /// One cycle: store `load_pfn` at slot 0 (PRP2 of a two-page transfer).
    pub load0: Signal<In, Bit>,
    /// Page frame number for `load0`.
    pub load_pfn: Signal<In, Bits<52>>,
    /// PRP list read offer: MRd descriptor, 128 bits, tag `LIST_TAG` (valid/ready).
    pub lr: MrdSource,
    /// Requester completion beat, 128 bits (always accepted).
    pub rc: RcBeat,
    /// A page read is in progress.
    pub busy: Signal<Out, Bit>,
    /// One cycle, the cycle after the page's last completion beat: the page read ended
    /// (check `bad_off`, `xfer_err`).
    pub done: Signal<Out, Bit>,
    /// An entry of this page had a bad offset (valid with `done`).
    pub bad_off: Signal<Out, Bit>,
    /// A list completion failed or timed out (valid with `done`).
    pub xfer_err: Signal<Out, Bit>,
    /// The chain pointer read (valid with `done` when `chained`).
    pub next_ptr: Signal<Out, Bits<64>>,
    /// Entry file read slot.
    pub rd_idx: Signal<In, Bits<6>>,
    /// Page frame number stored at `rd_idx`.
    pub rd_pfn: Signal<Out, Bits<52>>,
    split: PrpSplit,
    st: DFF<ListState>,
    ent: [DFF<Bits<52>>; MAX_ENTRIES],
    ptr_q: DFF<Bits<64>>,
    count_q: DFF<Bits<6>>,
    ndata_q: DFF<Bits<6>>,
    chained_q: DFF<Bit>,
    base_q: DFF<Bits<6>>,
    ei: DFF<Bits<6>>,
    part_last: DFF<Bit>,
    rx_in: DFF<Bit>,
    mine: DFF<Bit>,
    endreq: DFF<Bit>,
    rem: DFF<Bits<11>>,
    bad: DFF<Bit>,
    xfer: DFF<Bit>,
    wait_cnt: DFF<Bits<16>>,
    nptr: DFF<Bits<64>>,
    dn: DFF<Bit>,
    desc: Signal<Local, ReqDescWord>,
    daddr: Signal<Local, DwToByte>,
    cnt_dw: Signal<Local, EntDw>,
    dwb: Signal<Local, DwBytes>,
    req_end: Signal<Local, Bit>,
    cpl_err: Signal<Local, Bit>,
    dwb13: Signal<Local, Bits<13>>,
    two: Signal<Local, Bit>,
    i1: Signal<Local, Bits<6>>,
    last_i: Signal<Local, Bits<6>>,
    ks: [Constant<Bits<6>>; MAX_ENTRIES],
    one6: Constant<Bits<6>>,
    two6: Constant<Bits<6>>,
    two11: Constant<Bits<11>>,
    four11: Constant<Bits<11>>,
    zero11: Constant<Bits<11>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    max_wait: Constant<Bits<16>>,
    list_tag: Constant<Bits<8>>,
    mrd: Constant<ReqDescWord>,
    zero_daddr: Constant<DwToByte>,
    zero_cnt: Constant<EntDw>,
    zero_dwb: Constant<DwBytes>,
}

impl Default for PrpList {
    fn default() -> Self {
        let mrd = ReqDescWord {
            req_type: bits::<4>(crate::pcie::tlp::REQ_MRD as u64),
            tag: bits::<8>(LIST_TAG as u64),
            ..Default::default()
        };
        crate::elab::with_defaults!(PrpList {
            ks: std::array::from_fn(|i| Constant::new(bits::<6>(i as u64))),
            one6: Constant::new(bits::<6>(1)),
            two6: Constant::new(bits::<6>(2)),
            two11: Constant::new(bits::<11>(2)),
            four11: Constant::new(bits::<11>(4)),
            zero11: Constant::new(bits::<11>(0)),
            one16: Constant::new(bits::<16>(1)),
            zero16: Constant::new(bits::<16>(0)),
            max_wait: Constant::new(bits::<16>(0xFFFF)),
            list_tag: Constant::new(bits::<8>(LIST_TAG as u64)),
            mrd: Constant::new(mrd),
            zero_daddr: Constant::new(DwToByte::default()),
            zero_cnt: Constant::new(EntDw::default()),
            zero_dwb: Constant::new(DwBytes::default()),
        } defaults {
            clock, mrrs_code, start, ptr, count, ndata, chained, base, load0, load_pfn, lr, rc, busy, done,
            bad_off, xfer_err, next_ptr, rd_idx, rd_pfn, split, st, ptr_q, count_q, ndata_q, chained_q, base_q,
            ei, part_last, rx_in, mine, endreq, rem, bad, xfer, wait_cnt, nptr, dn, desc, daddr, cnt_dw, dwb,
            req_end, cpl_err, dwb13, two, i1, last_i,
        } arrays {
            ent,
        })
    }
}

impl Logic for PrpList {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, st, ptr_q, count_q, ndata_q, chained_q, base_q, ei, part_last, rx_in,
            mine, endreq, rem, bad, xfer, wait_cnt, nptr, dn
        );
        for s in 0..32 {
            self.ent[s].clock.next = self.clock.val();
            self.ent[s].d.next = self.ent[s].q.val();
        }
        // The page's entries as one segment of 2 * count dwords, cut at MRRS.
        self.split.clock.next = self.clock.val();
        self.split.max_code.next = self.mrrs_code.val();
        self.cnt_dw.next = self.zero_cnt.val();
        self.cnt_dw.next.n = self.count_q.q.val();
        self.split.seg_addr.next = self.ptr_q.q.val().get_bits::<62>(2);
        self.split.seg_len.next = self.cnt_dw.val().into();
        self.split.seg_last.next = true;
        self.split.seg_valid.next = self.st.q.val() == ListState::Seg;
        self.split.req_ready.next = (self.st.q.val() == ListState::Req) & self.lr.ready.val();
        self.daddr.next = self.zero_daddr.val();
        self.daddr.next.dw = self.split.req_addr.val();
        self.desc.next = self.mrd.val();
        self.desc.next.addr = self.daddr.val().into();
        self.desc.next.dwords = self.split.req_dwords.val();
        self.lr.desc.next = self.desc.val().into();
        self.lr.valid.next = (self.st.q.val() == ListState::Req) & self.split.req_valid.val();
        self.busy.next = self.st.q.val() != ListState::Idle;
        // Done one cycle after the page's last beat, so the flags and pointer it wrote are out.
        self.done.next = self.dn.q.val();
        self.dn.d.next = false;
        self.bad_off.next = self.bad.q.val();
        self.xfer_err.next = self.xfer.q.val();
        self.next_ptr.next = self.nptr.q.val();
        // Completions: a descriptor beat opens one; payload beats carry the entries.
        self.req_end.next = false;
        self.cpl_err.next = false;
        self.dwb.next = self.zero_dwb.val();
        self.dwb.next.dw = self.rc.tdata.val().get_bits::<11>(32);
        self.dwb13.next = self.dwb.val().into();
        self.two.next = self.rem.q.val() > self.two11.val();
        self.i1.next = self.ei.q.val() + self.one6.val();
        self.last_i.next = self.count_q.q.val() - self.one6.val();
        if self.rc.tvalid.val() & !self.rx_in.q.val() {
            self.rx_in.d.next = !self.rc.tlast.val();
            self.mine.d.next = (self.rc.tdata.val().get_bits::<8>(64) == self.list_tag.val())
                & (self.st.q.val() == ListState::Wait);
            self.rem.d.next = self.rc.tdata.val().get_bits::<11>(32);
            self.endreq.d.next = self.rc.tdata.val().get_bits::<13>(16) == self.dwb13.val();
            if (self.rc.tdata.val().get_bits::<8>(64) == self.list_tag.val())
                & (self.st.q.val() == ListState::Wait)
            {
                // A failed completion (UR/CA: no data follows) or one without payload ends it.
                if self.rc.tdata.val().get_bits::<3>(43).any() | self.rc.tlast.val() {
                    self.xfer.d.next = true;
                    self.cpl_err.next = true;
                    self.req_end.next = true;
                }
            }
        }
        if self.rc.tvalid.val() & self.rx_in.q.val() {
            if self.rc.tlast.val() {
                self.rx_in.d.next = false;
            }
            if self.mine.q.val() {
                if self.two.val() {
                    self.rem.d.next = self.rem.q.val() - self.four11.val();
                    self.ei.d.next = self.ei.q.val() + self.two6.val();
                } else {
                    self.rem.d.next = self.zero11.val();
                    self.ei.d.next = self.i1.val();
                }
                for s in 0..32 {
                    if (self.ei.q.val() < self.ndata_q.q.val())
                        & ((self.base_q.q.val() + self.ei.q.val()) == self.ks[s].val())
                    {
                        self.ent[s].d.next = self.rc.tdata.val().get_bits::<52>(12);
                    }
                    if self.two.val()
                        & (self.i1.val() < self.ndata_q.q.val())
                        & ((self.base_q.q.val() + self.i1.val()) == self.ks[s].val())
                    {
                        self.ent[s].d.next = self.rc.tdata.val().get_bits::<52>(76);
                    }
                }
                if (self.ei.q.val() < self.ndata_q.q.val())
                    & self.rc.tdata.val().get_bits::<12>(0).any()
                {
                    self.bad.d.next = true;
                }
                if self.two.val()
                    & (self.i1.val() < self.ndata_q.q.val())
                    & self.rc.tdata.val().get_bits::<12>(64).any()
                {
                    self.bad.d.next = true;
                }
                if self.chained_q.q.val() & (self.ei.q.val() == self.last_i.val()) {
                    self.nptr.d.next = self.rc.tdata.val().get_bits::<64>(0);
                    if self.rc.tdata.val().get_bits::<3>(0).any() {
                        self.bad.d.next = true;
                    }
                }
                if self.chained_q.q.val() & self.two.val() & (self.i1.val() == self.last_i.val()) {
                    self.nptr.d.next = self.rc.tdata.val().get_bits::<64>(64);
                    if self.rc.tdata.val().get_bits::<3>(64).any() {
                        self.bad.d.next = true;
                    }
                }
                if self.rc.tlast.val() & self.endreq.q.val() {
                    self.req_end.next = true;
                }
                // A discontinued completion (corrupt entries) fails the list like a failed one.
                if self.rc.tlast.val() & self.rc.discontinue.val() {
                    self.xfer.d.next = true;
                    self.cpl_err.next = true;
                    self.req_end.next = true;
                }
            }
        }
        match self.st.q.val() {
            ListState::Idle => {
                if self.start.val() {
                    self.st.d.next = ListState::Seg;
                    self.ptr_q.d.next = self.ptr.val();
                    self.count_q.d.next = self.count.val();
                    self.ndata_q.d.next = self.ndata.val();
                    self.chained_q.d.next = self.chained.val();
                    self.base_q.d.next = self.base.val();
                    self.ei.d.next = self.ks[0].val();
                    self.bad.d.next = false;
                    self.xfer.d.next = false;
                }
            }
            ListState::Seg => {
                if self.split.seg_ready.val() {
                    self.st.d.next = ListState::Req;
                }
            }
            ListState::Req => {
                if self.split.req_valid.val() & self.lr.ready.val() {
                    self.part_last.d.next = self.split.req_last.val();
                    self.wait_cnt.d.next = self.zero16.val();
                    self.st.d.next = ListState::Wait;
                }
            }
            ListState::Wait => {
                self.wait_cnt.d.next = self.wait_cnt.q.val() + self.one16.val();
                if self.req_end.val() {
                    if self.part_last.q.val() | self.xfer.q.val() | self.cpl_err.val() {
                        self.dn.d.next = true;
                        self.st.d.next = ListState::Idle;
                    } else {
                        self.st.d.next = ListState::Req;
                    }
                } else if self.wait_cnt.q.val() == self.max_wait.val() {
                    self.xfer.d.next = true;
                    self.dn.d.next = true;
                    self.st.d.next = ListState::Idle;
                }
            }
            _ => {
                self.st.d.next = ListState::Idle;
            }
        }
        if self.load0.val() {
            self.ent[0].d.next = self.load_pfn.val();
        }
        self.rd_pfn.next = self.ent[0].q.val();
        for s in 0..32 {
            if self.rd_idx.val() == self.ks[s].val() {
                self.rd_pfn.next = self.ent[s].q.val();
            }
        }
    }
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(PrpList::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prp_list_is_synthesizable() {
        crate::test_support::yosys_validate("ssdlab_prp_list", &export_verilog()).unwrap();
    }
}
