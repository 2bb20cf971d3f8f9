//! One lane of a page-buffer bank: 1024 x 32 bit of true dual-port block RAM with a clock per
//! port, so that the PCIe side (the DMA engine, port A) and the NAND side (the channel's fill
//! and drain pointers, port B) each reach the region in their own clock domain and the data
//! never passes through a FIFO: only the op and its completion cross (`nand::array`).
//!
//! Both ports are read-first (a read and a write of one address at one edge return the old
//! word) with a registered read: `a_rdata` holds the word addressed at the last `a_clock` edge,
//! `b_rdata` likewise. Two writes of one address at coincident edges of the two clocks leave
//! either word; the datapath never does that (a region is filled or drained by the NAND side
//! only while the firmware has no DMA on it, and the op's crossing orders the two).
//!
//! Inference: the Verilog is the vendor-neutral true-dual-port template (two `always` blocks,
//! each with its clock, both writing one array). yosys 0.23 maps it to one RAMB36E2
//! (`synth_xilinx`, 1K x 36 mode) or two DP16KD (`synth_ecp5`); iCE40 block RAM (SB_RAM40_4K)
//! has one write and one read port and cannot hold it. Verilator reports the array as written
//! from two clocks (MULTIDRIVEN), the point of the block; the pragma around its declaration
//! waives that one warning here.

use rust_hdl::core::timing::TimingInfo;
use rust_hdl::prelude::*;

/// Address bits of a lane (1024 words).
pub const LANE_ADDR_BITS: usize = 10;

#[derive(LogicBlock, Default)]
pub struct LaneRam {
    /// Port A clock (the PCIe user clock).
    pub a_clock: Signal<In, Clock>,
    /// Port A word address.
    pub a_addr: Signal<In, Bits<LANE_ADDR_BITS>>,
    /// Port A writes `a_wdata` at the clock edge.
    pub a_we: Signal<In, Bit>,
    /// Port A write word.
    pub a_wdata: Signal<In, Bits<32>>,
    /// Port A: the word addressed at the previous `a_clock` edge (before that edge's write).
    pub a_rdata: Signal<Out, Bits<32>>,
    /// Port B clock (the NAND sequencer clock).
    pub b_clock: Signal<In, Clock>,
    /// Port B word address.
    pub b_addr: Signal<In, Bits<LANE_ADDR_BITS>>,
    /// Port B writes `b_wdata` at the clock edge.
    pub b_we: Signal<In, Bit>,
    /// Port B write word.
    pub b_wdata: Signal<In, Bits<32>>,
    /// Port B: the word addressed at the previous `b_clock` edge (before that edge's write).
    pub b_rdata: Signal<Out, Bits<32>>,
    _sim: std::collections::BTreeMap<u64, Bits<32>>,
}

impl Logic for LaneRam {
    fn update(&mut self) {
        let (a, b) = (self.a_clock.pos_edge(), self.b_clock.pos_edge());
        // Both ports read before either writes: coincident edges sample the old words, as the
        // Verilog's non-blocking assignments do.
        let word = |m: &std::collections::BTreeMap<u64, Bits<32>>, at: Bits<LANE_ADDR_BITS>| {
            m.get(&at.index().try_into().expect("10-bit address"))
                .copied()
                .unwrap_or_default()
        };
        if a {
            self.a_rdata.next = word(&self._sim, self.a_addr.val());
        }
        if b {
            self.b_rdata.next = word(&self._sim, self.b_addr.val());
        }
        if a && self.a_we.val() {
            self._sim
                .insert(self.a_addr.val().index() as u64, self.a_wdata.val());
        }
        if b && self.b_we.val() {
            self._sim
                .insert(self.b_addr.val().index() as u64, self.b_wdata.val());
        }
    }

    fn connect(&mut self) {
        self.a_rdata.connect();
        self.b_rdata.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
/* verilator lint_off MULTIDRIVEN */
reg [31:0] mem[1023:0];
/* verilator lint_on MULTIDRIVEN */

always @(posedge a_clock) begin
   if (a_we) begin
      mem[a_addr] <= a_wdata;
   end
   a_rdata <= mem[a_addr];
end

always @(posedge b_clock) begin
   if (b_we) begin
      mem[b_addr] <= b_wdata;
   end
   b_rdata <= mem[b_addr];
end
"
            .into(),
        )
    }

    fn timing(&self) -> Vec<TimingInfo> {
        let port = |p: &str| TimingInfo {
            name: format!("lane_ram_{p}"),
            clock: format!("{p}_clock"),
            inputs: vec![format!("{p}_addr"), format!("{p}_we"), format!("{p}_wdata")],
            outputs: vec![format!("{p}_rdata")],
        };
        vec![port("a"), port("b")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_ram_is_synthesizable() {
        crate::test_support::yosys_validate(
            "ssdlab_top_lane_ram",
            &crate::verilog_of(LaneRam::default()),
        )
        .unwrap();
    }

    /// Each port reads the word before its own edge's write, and sees the other port's write
    /// from the edge after it; coincident edges read the old words.
    #[test]
    fn ports_read_first_in_their_own_clocks() {
        let mut r = LaneRam::default();
        r.connect_all();
        let edge = |r: &mut LaneRam, a: bool, b: bool| {
            r.a_clock.next = Clock::from(false);
            r.b_clock.next = Clock::from(false);
            crate::settle(r, 8, "lane_ram");
            r.a_clock.next = Clock::from(a);
            r.b_clock.next = Clock::from(b);
            crate::settle(r, 8, "lane_ram");
        };
        r.a_addr.next = 5.into();
        r.a_we.next = true;
        r.a_wdata.next = 0xA5.into();
        r.b_addr.next = 5.into();
        // Coincident edges: A writes 5, B reads the old (zero) word.
        edge(&mut r, true, true);
        assert_eq!(r.b_rdata.val(), 0);
        r.a_we.next = false;
        r.b_we.next = true;
        r.b_wdata.next = 0x5A.into();
        // B alone: reads A's word, writes its own.
        edge(&mut r, false, true);
        assert_eq!(r.b_rdata.val(), 0xA5);
        // A alone: reads B's word.
        edge(&mut r, true, false);
        assert_eq!(r.a_rdata.val(), 0x5A);
    }
}
