//! PRP walker (NVM Express Base Specification 1.4, section 4.3, Figures 108-109): screens a
//! command's PRP1/PRP2 and length, fetches the PRP list and hands out the transfer's memory-page
//! segments in order, as the model's `frontend::prp::walk` does:
//! - PRP1 may carry a dword offset (bits 1:0 must be 0); the first segment runs to its page end;
//! - a transfer ending in the second page uses PRP2 as the second entry (offset must be 0);
//! - a longer one uses PRP2 as a list pointer (qword aligned); entries run from its offset to the
//!   end of its page, whose last entry chains to the next list page when more entries are needed.
//!
//! List pages are read by [`PrpList`] (MRd ≤ MRRS, one at a time), all of them before any data
//! moves, so the TLP sequence is the model's. At most 32 list pages are followed (a chain of
//! pointer-only pages gets 13h instead of looping). Entries after the first with a non-zero offset, or a
//! chain pointer not qword aligned, end the command with PRP Offset Invalid (13h) once the list
//! page is in; a length of 0, not whole dwords or above 128 KiB gets Invalid Field (02h); a
//! failed list completion, or none within 65 535 cycles (262 µs), gets Data Transfer Error (04h).

use super::list::PrpList;
use super::ports::{MrdSource, RcBeat};
use super::{Cnt10, DwPageAddr, Ext10, Ext16, Off11, MAX_TRANSFER};
use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum WalkState {
    Idle,
    Check,
    ListStart,
    ListWait,
    Segs,
    Fail,
}

#[derive(LogicBlock)]
pub struct PrpWalk {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// MRRS, Device Control encoding (bytes = 128 << code).
    pub mrrs_code: Signal<In, Bits<3>>,
    /// A command is offered.
    pub cmd_valid: Signal<In, Bit>,
    /// The walker is idle and takes the command this cycle (if valid).
    pub cmd_ready: Signal<Out, Bit>,
    /// PRP entry 1, byte address.
    pub cmd_prp1: Signal<In, Bits<64>>,
    /// PRP entry 2 or PRP list pointer, byte address.
    pub cmd_prp2: Signal<In, Bits<64>>,
    /// Transfer length in bytes.
    pub cmd_len: Signal<In, Bits<32>>,
    /// PRP list read offer: MRd descriptor, 128 bits, tag `LIST_TAG` (valid/ready).
    pub lr: MrdSource,
    /// Requester completion beat, 128 bits (only tag `LIST_TAG` is used).
    pub rc: RcBeat,
    /// A segment is offered.
    pub seg_valid: Signal<Out, Bit>,
    /// Segment start, dword address.
    pub seg_addr: Signal<Out, Bits<62>>,
    /// Segment length in dwords (1..=1024).
    pub seg_len: Signal<Out, Bits<11>>,
    /// The segment is the transfer's last.
    pub seg_last: Signal<Out, Bit>,
    /// The consumer takes the segment this cycle.
    pub seg_ready: Signal<In, Bit>,
    /// One cycle: the command failed before moving data.
    pub fail: Signal<Out, Bit>,
    /// Status of the failure (SCT 10:8, SC 7:0).
    pub fail_status: Signal<Out, Bits<11>>,
    list: PrpList,
    st: DFF<WalkState>,
    prp1: DFF<Bits<64>>,
    prp2: DFF<Bits<64>>,
    len: DFF<Bits<32>>,
    first: DFF<Bits<11>>,
    srem: DFF<Bits<16>>,
    needed: DFF<Bits<6>>,
    base: DFF<Bits<6>>,
    ndata: DFF<Bits<6>>,
    chained: DFF<Bit>,
    ptr: DFF<Bits<64>>,
    lpages: DFF<Bits<6>>,
    sk: DFF<Bits<6>>,
    seg0: DFF<Bit>,
    fstat: DFF<Bits<11>>,
    len_bad: Signal<Local, Bit>,
    len_dw: Signal<Local, Bits<16>>,
    off1: Signal<Local, Off11>,
    room: Signal<Local, Bits<11>>,
    room16: Signal<Local, Ext16>,
    first11: Signal<Local, Bits<11>>,
    first16: Signal<Local, Ext16>,
    rest: Signal<Local, Bits<16>>,
    off16: Signal<Local, Ext16>,
    off16b: Signal<Local, Bits<16>>,
    /// t - 1 = len + offset - 1, dwords; only its quotient by 1024 (bits 15:10) is used: the
    /// name ends in `unused` so that Verilator's `--unused-regexp` (default `*unused*`) takes
    /// the discarded remainder bits as intended.
    span_low_unused: Signal<Local, Bits<16>>,
    pages: Signal<Local, Bits<6>>,
    qoff: Signal<Local, Ext10>,
    in_page: Signal<Local, Bits<10>>,
    need10: Signal<Local, Cnt10>,
    chain_now: Signal<Local, Bit>,
    count: Signal<Local, Bits<6>>,
    saddr: Signal<Local, DwPageAddr>,
    slen: Signal<Local, Bits<11>>,
    slen16: Signal<Local, Ext16>,
    off1b: Signal<Local, Bits<11>>,
    room16b: Signal<Local, Bits<16>>,
    first16b: Signal<Local, Bits<16>>,
    qoffb: Signal<Local, Bits<10>>,
    need10b: Signal<Local, Bits<10>>,
    slen16b: Signal<Local, Bits<16>>,
    one6: Constant<Bits<6>>,
    one16: Constant<Bits<16>>,
    zero6: Constant<Bits<6>>,
    max_lpages: Constant<Bits<6>>,
    k1024_11: Constant<Bits<11>>,
    k1024_16: Constant<Bits<16>>,
    k512_10: Constant<Bits<10>>,
    max_len: Constant<Bits<32>>,
    zero_off: Constant<Off11>,
    zero16: Constant<Ext16>,
    zero10: Constant<Ext10>,
    zero_cnt10: Constant<Cnt10>,
    zero_addr: Constant<DwPageAddr>,
    st_field: Constant<Bits<11>>,
    st_offset: Constant<Bits<11>>,
    st_xfer: Constant<Bits<11>>,
}

impl Default for PrpWalk {
    fn default() -> Self {
        let k11 = |v: u64| Constant::new(bits::<11>(v));
        crate::elab::with_defaults!(PrpWalk {
            one6: Constant::new(bits::<6>(1)),
            one16: Constant::new(bits::<16>(1)),
            zero6: Constant::new(bits::<6>(0)),
            max_lpages: Constant::new(bits::<6>(31)),
            k1024_11: k11(1024),
            k1024_16: Constant::new(bits::<16>(1024)),
            k512_10: Constant::new(bits::<10>(512)),
            max_len: Constant::new(bits::<32>(MAX_TRANSFER as u64)),
            zero_off: Constant::new(Off11::default()),
            zero16: Constant::new(Ext16::default()),
            zero10: Constant::new(Ext10::default()),
            zero_cnt10: Constant::new(Cnt10::default()),
            zero_addr: Constant::new(DwPageAddr::default()),
            st_field: k11(super::status::invalid_field() as u64),
            st_offset: k11(super::status::prp_offset_invalid() as u64),
            st_xfer: k11(super::status::data_transfer_error() as u64),
        } defaults {
            clock, mrrs_code, cmd_valid, cmd_ready, cmd_prp1, cmd_prp2, cmd_len, lr, rc, seg_valid, seg_addr,
            seg_len, seg_last, seg_ready, fail, fail_status, list, st, prp1, prp2, len, first, srem, needed,
            base, ndata, chained, ptr, lpages, sk, seg0, fstat, len_bad, len_dw, off1, room, room16, first11,
            first16, rest, off16, off16b, span_low_unused, pages, qoff, in_page, need10, chain_now, count, saddr, slen, slen16, off1b, room16b,
            first16b, qoffb, need10b, slen16b,
        })
    }
}

impl Logic for PrpWalk {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, st, prp1, prp2, len, first, srem, needed, base, ndata, chained, ptr,
            lpages, sk, seg0, fstat
        );
        self.list.clock.next = self.clock.val();
        self.list.mrrs_code.next = self.mrrs_code.val();
        RcBeat::link(&mut self.rc, &mut self.list.rc);
        MrdSource::link(&mut self.lr, &mut self.list.lr);
        self.list.load_pfn.next = self.prp2.q.val().get_bits::<52>(12);
        self.list.load0.next = false;
        self.list.start.next = false;
        self.list.ptr.next = self.ptr.q.val();
        self.list.base.next = self.base.q.val();
        self.list.rd_idx.next = self.sk.q.val();
        // Screening (Check): dwords in the first page, the rest, pages after the first.
        self.len_bad.next = !self.len.q.val().any()
            | self.len.q.val().get_bits::<2>(0).any()
            | (self.len.q.val() > self.max_len.val());
        self.len_dw.next = self.len.q.val().get_bits::<16>(2);
        self.off1.next = self.zero_off.val();
        self.off1.next.off = self.prp1.q.val().get_bits::<10>(2);
        self.off1b.next = self.off1.val().into();
        self.room.next = self.k1024_11.val() - self.off1b.val();
        self.room16.next = self.zero16.val();
        self.room16.next.v = self.room.val();
        self.first11.next = self.room.val();
        self.room16b.next = self.room16.val().into();
        if self.len_dw.val() < self.room16b.val() {
            self.first11.next = self.len_dw.val().get_bits::<11>(0);
        }
        self.first16.next = self.zero16.val();
        self.first16.next.v = self.first11.val();
        self.first16b.next = self.first16.val().into();
        self.rest.next = self.len_dw.val() - self.first16b.val();
        // Pages after the first, ceil(rest / 1024), computed beside `first` and `rest` rather
        // than from them: with t = len_dw + off (t >= 1 for a valid length), rest is
        // max(t - 1024, 0) and ceil(rest / 1024) = floor((t - 1) / 1024). t - 1 <= 32768 + 1022
        // fits 16 bits, the quotient (<= 32) 6 bits. Invalid lengths fail before it is used.
        self.off16.next = self.zero16.val();
        self.off16.next.v = self.off1b.val();
        self.off16b.next = self.off16.val().into();
        self.span_low_unused.next = self.len_dw.val() + self.off16b.val() - self.one16.val();
        self.pages.next = self.span_low_unused.val().get_bits::<6>(10);
        // List page (ListStart): entries from the pointer to the end of its page.
        self.qoff.next = self.zero10.val();
        self.qoff.next.v = self.ptr.q.val().get_bits::<9>(3);
        self.qoffb.next = self.qoff.val().into();
        self.in_page.next = self.k512_10.val() - self.qoffb.val();
        self.need10.next = self.zero_cnt10.val();
        self.need10.next.v = self.needed.q.val();
        self.need10b.next = self.need10.val().into();
        self.chain_now.next = self.need10b.val() > self.in_page.val();
        self.count.next = self.needed.q.val();
        if self.chain_now.val() {
            self.count.next = self.in_page.val().get_bits::<6>(0);
        }
        self.list.count.next = self.count.val();
        self.list.chained.next = self.chain_now.val();
        self.list.ndata.next = self.count.val();
        if self.chain_now.val() {
            self.list.ndata.next = self.count.val() - self.one6.val();
        }
        // Segments: PRP1's page, then the stored entries, 1024 dwords each but the last.
        self.saddr.next = self.zero_addr.val();
        self.saddr.next.pfn = self.list.rd_pfn.val();
        self.slen.next = self.k1024_11.val();
        if self.srem.q.val() < self.k1024_16.val() {
            self.slen.next = self.srem.q.val().get_bits::<11>(0);
        }
        self.slen16.next = self.zero16.val();
        self.slen16.next.v = self.slen.val();
        self.slen16b.next = self.slen16.val().into();
        self.seg_valid.next = self.st.q.val() == WalkState::Segs;
        self.seg_addr.next = self.saddr.val().into();
        self.seg_len.next = self.slen.val();
        self.seg_last.next = self.srem.q.val() <= self.k1024_16.val();
        if self.seg0.q.val() {
            self.seg_addr.next = self.prp1.q.val().get_bits::<62>(2);
            self.seg_len.next = self.first.q.val();
            self.seg_last.next = !self.srem.q.val().any();
        }
        self.cmd_ready.next = self.st.q.val() == WalkState::Idle;
        self.fail.next = false;
        self.fail_status.next = self.fstat.q.val();
        match self.st.q.val() {
            WalkState::Idle => {
                if self.cmd_valid.val() {
                    self.prp1.d.next = self.cmd_prp1.val();
                    self.prp2.d.next = self.cmd_prp2.val();
                    self.len.d.next = self.cmd_len.val();
                    self.st.d.next = WalkState::Check;
                }
            }
            WalkState::Check => {
                self.first.d.next = self.first11.val();
                self.srem.d.next = self.rest.val();
                self.needed.d.next = self.pages.val();
                self.base.d.next = self.zero6.val();
                self.lpages.d.next = self.zero6.val();
                self.sk.d.next = self.zero6.val();
                self.seg0.d.next = true;
                self.ptr.d.next = self.prp2.q.val();
                self.st.d.next = WalkState::Segs;
                if self.len_bad.val() {
                    self.fstat.d.next = self.st_field.val();
                    self.st.d.next = WalkState::Fail;
                } else if self.prp1.q.val().get_bits::<2>(0).any() {
                    self.fstat.d.next = self.st_offset.val();
                    self.st.d.next = WalkState::Fail;
                } else if !self.pages.val().any() {
                    self.st.d.next = WalkState::Segs;
                } else if self.pages.val() == self.one6.val() {
                    if self.prp2.q.val().get_bits::<12>(0).any() {
                        self.fstat.d.next = self.st_offset.val();
                        self.st.d.next = WalkState::Fail;
                    } else {
                        self.list.load0.next = true;
                    }
                } else if self.prp2.q.val().get_bits::<3>(0).any() {
                    self.fstat.d.next = self.st_offset.val();
                    self.st.d.next = WalkState::Fail;
                } else {
                    self.st.d.next = WalkState::ListStart;
                }
            }
            WalkState::ListStart => {
                if !self.list.busy.val() {
                    self.list.start.next = true;
                    self.chained.d.next = self.chain_now.val();
                    self.ndata.d.next = self.list.ndata.val();
                    self.st.d.next = WalkState::ListWait;
                }
            }
            WalkState::ListWait => {
                if self.list.done.val() {
                    if self.list.bad_off.val() {
                        self.fstat.d.next = self.st_offset.val();
                        self.st.d.next = WalkState::Fail;
                    } else if self.list.xfer_err.val() {
                        self.fstat.d.next = self.st_xfer.val();
                        self.st.d.next = WalkState::Fail;
                    } else if !self.chained.q.val() {
                        self.st.d.next = WalkState::Segs;
                    } else if self.lpages.q.val() == self.max_lpages.val() {
                        self.fstat.d.next = self.st_offset.val();
                        self.st.d.next = WalkState::Fail;
                    } else {
                        self.ptr.d.next = self.list.next_ptr.val();
                        self.base.d.next = self.base.q.val() + self.ndata.q.val();
                        self.needed.d.next = self.needed.q.val() - self.ndata.q.val();
                        self.lpages.d.next = self.lpages.q.val() + self.one6.val();
                        self.st.d.next = WalkState::ListStart;
                    }
                }
            }
            WalkState::Segs => {
                if self.seg_ready.val() {
                    if self.seg0.q.val() {
                        self.seg0.d.next = false;
                    } else {
                        self.sk.d.next = self.sk.q.val() + self.one6.val();
                        self.srem.d.next = self.srem.q.val() - self.slen16b.val();
                    }
                    if self.seg_last.val() {
                        self.st.d.next = WalkState::Idle;
                    }
                }
            }
            WalkState::Fail => {
                self.fail.next = true;
                self.st.d.next = WalkState::Idle;
            }
            _ => {
                self.st.d.next = WalkState::Idle;
            }
        }
    }
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(PrpWalk::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prp_walk_is_synthesizable() {
        crate::test_support::yosys_validate("ssdlab_prp_walk", &export_verilog()).unwrap();
    }
}
