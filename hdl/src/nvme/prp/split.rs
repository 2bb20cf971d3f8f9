//! Request splitter of the PRP data path: cuts one memory-page segment `[addr, addr + len)`
//! into requests of at most `128 << max_code` bytes that end on naturally aligned boundaries of
//! that size (PCI Express Base 3.0, 2.2.7: a request must not cross a 4 KiB boundary; the
//! Device Control MPS/MRRS encoding 000b = 128 B … 101b = 4096 B). The same cut as the model's
//! `frontend::tlp::split_aligned`. One request per cycle; the next segment is taken in the cycle
//! the current one's last request is, so segments follow each other without a bubble.

use super::{DwPageAddr, Off11};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PrpSplit {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// Largest request, Device Control encoding: bytes = 128 << code (0..=5).
    pub max_code: Signal<In, Bits<3>>,
    /// A segment is offered.
    pub seg_valid: Signal<In, Bit>,
    /// Segment start, dword address (byte address / 4).
    pub seg_addr: Signal<In, Bits<62>>,
    /// Segment length in dwords, 1..=1024, within the start's 4 KiB page.
    pub seg_len: Signal<In, Bits<11>>,
    /// The segment is the transfer's last.
    pub seg_last: Signal<In, Bit>,
    /// The segment is taken this cycle (if valid).
    pub seg_ready: Signal<Out, Bit>,
    /// A request is offered.
    pub req_valid: Signal<Out, Bit>,
    /// Request dword address.
    pub req_addr: Signal<Out, Bits<62>>,
    /// Request length in dwords (1..=1024).
    pub req_dwords: Signal<Out, Bits<11>>,
    /// The request is the transfer's last.
    pub req_last: Signal<Out, Bit>,
    /// The consumer takes the request this cycle.
    pub req_ready: Signal<In, Bit>,
    active: DFF<Bit>,
    pfn: DFF<Bits<52>>,
    lo: DFF<Bits<11>>,
    seg_end: DFF<Bits<11>>,
    last: DFF<Bit>,
    /// Request size in dwords, registered from `max_code` (a cycle behind it).
    maxd: DFF<Bits<11>>,
    /// `!(maxd - 1)`: clears a dword offset's bits below the request size.
    maxm: DFF<Bits<11>>,
    maxd_in: Signal<Local, Bits<11>>,
    bound: Signal<Local, Bits<11>>,
    stop: Signal<Local, Bits<11>>,
    seg_lo: Signal<Local, Off11>,
    lo11: Signal<Local, Bits<11>>,
    addr: Signal<Local, DwPageAddr>,
    fin: Signal<Local, Bit>,
    k32: Constant<Bits<11>>,
    k1024: Constant<Bits<11>>,
    five3: Constant<Bits<3>>,
    one11: Constant<Bits<11>>,
    zero_off: Constant<Off11>,
    zero_addr: Constant<DwPageAddr>,
}

impl Default for PrpSplit {
    fn default() -> Self {
        crate::elab::with_defaults!(PrpSplit {
            k32: Constant::new(bits::<11>(32)),
            k1024: Constant::new(bits::<11>(1024)),
            five3: Constant::new(bits::<3>(5)),
            one11: Constant::new(bits::<11>(1)),
            zero_off: Constant::new(Off11::default()),
            zero_addr: Constant::new(DwPageAddr::default()),
        } defaults {
            clock, max_code, seg_valid, seg_addr, seg_len, seg_last, seg_ready, req_valid, req_addr, req_dwords,
            req_last, req_ready, active, pfn, lo, seg_end, last, maxd, maxm, maxd_in, bound, stop, seg_lo, lo11, addr, fin,
        })
    }
}

impl Logic for PrpSplit {
    // `fin` keeps the `!(a < b)` form: `a >= b`, the same function, synthesizes to a different
    // netlist (xcu 14 406 LUT for the front end instead of 13 601) that places slower on the
    // ECP5; the figures in docs/hdl.md are of this form.
    #[allow(clippy::nonminimal_bool)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, active, pfn, lo, seg_end, last, maxd, maxm);
        // Request size in dwords; codes 6 and 7 are reserved (PCIe Device Control): 4096 B.
        // Registered: `max_code` follows the command's direction, which is set when the command
        // is taken, and the first segment of it comes at least two cycles later (the walker's
        // Check), so every request of a command is cut at its own size.
        self.maxd_in.next = self.k32.val() << self.max_code.val();
        if self.max_code.val() > self.five3.val() {
            self.maxd_in.next = self.k1024.val();
        }
        self.maxd.d.next = self.maxd_in.val();
        self.maxm.d.next = !(self.maxd_in.val() - self.one11.val());
        // Next aligned boundary above `lo`: clear the low bits, add one request size.
        self.bound.next = (self.lo.q.val() & self.maxm.q.val()) + self.maxd.q.val();
        self.stop.next = self.seg_end.q.val();
        if self.bound.val() < self.seg_end.q.val() {
            self.stop.next = self.bound.val();
        }
        // The request reaches the segment's end: stop == seg_end, i.e. bound >= seg_end (one
        // compare, not the compare, the mux and an equality after it).
        self.fin.next = !(self.bound.val() < self.seg_end.q.val());
        self.addr.next = self.zero_addr.val();
        self.addr.next.pfn = self.pfn.q.val();
        self.addr.next.off = self.lo.q.val().get_bits::<10>(0);
        self.req_valid.next = self.active.q.val();
        self.req_addr.next = self.addr.val().into();
        self.req_dwords.next = self.stop.val() - self.lo.q.val();
        self.req_last.next = self.last.q.val() & self.fin.val();
        self.seg_ready.next = !self.active.q.val() | (self.req_ready.val() & self.fin.val());
        if self.active.q.val() & self.req_ready.val() {
            self.lo.d.next = self.stop.val();
            if self.fin.val() {
                self.active.d.next = false;
            }
        }
        self.seg_lo.next = self.zero_off.val();
        self.seg_lo.next.off = self.seg_addr.val().get_bits::<10>(0);
        self.lo11.next = self.seg_lo.val().into();
        if self.seg_ready.val() & self.seg_valid.val() {
            self.active.d.next = true;
            self.pfn.d.next = self.seg_addr.val().get_bits::<52>(10);
            self.lo.d.next = self.lo11.val();
            self.seg_end.d.next = self.lo11.val() + self.seg_len.val();
            self.last.d.next = self.seg_last.val();
        }
    }
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(PrpSplit::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcie::rq_mux::simulate_settle;

    fn clock(uut: &mut PrpSplit) {
        uut.clock.next = Clock { clk: true };
        simulate_settle(uut);
        uut.clock.next = Clock { clk: false };
        simulate_settle(uut);
    }

    /// Runs segments through the splitter, taking every request at once; returns
    /// (address, bytes, last) per request.
    fn run(max_code: u64, segs: &[(u64, u32)]) -> Vec<(u64, u32, bool)> {
        let mut uut = PrpSplit::default();
        uut.connect_all();
        uut.max_code.next = bits::<3>(max_code);
        uut.req_ready.next = true;
        let mut out = Vec::new();
        let mut next = 0;
        for _ in 0..200 {
            uut.seg_valid.next = next < segs.len();
            if next < segs.len() {
                uut.seg_addr.next = bits::<62>(segs[next].0 / 4);
                uut.seg_len.next = bits::<11>(segs[next].1 as u64 / 4);
                uut.seg_last.next = next + 1 == segs.len();
            }
            simulate_settle(&mut uut);
            if uut.req_valid.val() {
                out.push((
                    4 * uut.req_addr.val().to_u64(),
                    4 * uut.req_dwords.val().to_u64() as u32,
                    uut.req_last.val(),
                ));
            }
            if uut.seg_ready.val() && next < segs.len() {
                next += 1;
            }
            clock(&mut uut);
        }
        out
    }

    /// The model's `split_respects_alignment_and_4k` case, one page at a time: 0x1F10+0xF0
    /// (to the 4 KiB end), then 0x2000+0x210 at 256 B → 0x100, 0x100, 0x10.
    #[test]
    fn splits_at_aligned_boundaries_like_the_model() {
        let out = run(1, &[(0x1F10, 0xF0), (0x2000, 0x210)]);
        assert_eq!(
            out,
            vec![
                (0x1F10, 0xF0, false),
                (0x2000, 0x100, false),
                (0x2100, 0x100, false),
                (0x2200, 0x10, true)
            ]
        );
    }

    /// 3584 B at page offset 0x200, MRRS 512 (code 2): 7 requests of 512; at 4096 (code 5) one.
    #[test]
    fn page_at_offset_0x200_gives_seven_512_byte_reads() {
        let out = run(2, &[(0x5_0200, 3584)]);
        assert_eq!(out.len(), 7);
        assert!(out.iter().all(|r| r.1 == 512 && r.0 % 512 == 0));
        assert_eq!(run(5, &[(0x5_0200, 3584)]), vec![(0x5_0200, 3584, true)]);
    }

    #[test]
    fn prp_split_is_synthesizable() {
        crate::test_support::yosys_validate("ssdlab_prp_split", &export_verilog()).unwrap();
    }
}
