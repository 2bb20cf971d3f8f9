//! One page-buffer region: the data of one (channel, way) pair, `banks` banks of
//! [`BANK_BYTES`] (`ssdlab_model::ctrl::page_buffer::region_bytes`: planes x bits per cell x
//! (page + spare) of the drive, in whole banks), each held as four 32-bit lanes of true
//! dual-port block RAM ([`LaneRam`]). Byte `b` of the region is byte `b mod 4` of word
//! `k = b / 4`, stored in lane `k mod 4` at row `k / 4 = b / 16`, so one row is one 16-byte
//! PCIe-side beat (lane 0 in bits 31:0, byte 0 in bits 7:0) and NAND-side words go to the lanes
//! round-robin; row `r` is in bank `r / 1024`.
//!
//! Two ports, each in its own clock: port A (PCIe clock) reads or writes whole rows, any
//! subset of lanes (1-4 for a DMA beat); port B (NAND sequencer clock) writes one lane (a NAND
//! word, the same word offered to every lane) or reads a row. Each port returns the row
//! addressed at its previous clock edge (read-first), the bank chosen by its own registered
//! bank bits. Sizing: a bank's lane is 1024 x 32 bit, one RAMB36 (Xilinx 7-series/UltraScale,
//! 1K x 36 mode) or two DP16KD (ECP5); a region of `banks` banks is 4 x `banks` of them.

use super::lane_ram::{LaneRam, LANE_ADDR_BITS};
use super::{Lanes4, ROW_BITS};
use rust_hdl::prelude::*;
pub use ssdlab_model::ctrl::page_buffer::BANK_BYTES;

/// Rows (16 bytes each) per bank, log2: 1024 rows = 16 KiB.
pub const BANK_ROW_BITS: usize = 10;
const _: () = assert!(
    (16 << BANK_ROW_BITS) as u64 == BANK_BYTES && BANK_ROW_BITS == 10 && LANE_ADDR_BITS == 10
);
/// Bank-select bits of a row address (its bits above the bank's rows; the kernel's part-selects
/// name the offset 10 literally, as rust-hdl emits named offsets as identifiers).
const BANK_SEL_BITS: usize = ROW_BITS - BANK_ROW_BITS;
/// The most banks a region has (its row address is [`ROW_BITS`] wide).
pub const MAX_BANKS: usize = 1 << BANK_SEL_BITS;

#[derive(LogicBlock)]
pub struct Region {
    /// Port A clock: the PCIe user clock.
    pub pcie_clock: Signal<In, Clock>,
    /// Port A row (16-byte units from the region start), read and written at the clock edge.
    pub a_row: Signal<In, Bits<ROW_BITS>>,
    /// Port A lanes written at the clock edge, bit l = lane l (bytes 4l..4l+3); 0 = a read.
    pub a_lanes: Signal<In, Bits<4>>,
    /// Port A write data, lane l in bits 32l+31..32l.
    pub a_wdata: Signal<In, Bits<128>>,
    /// Port A: the row addressed at the previous `pcie_clock` edge, 16 bytes.
    pub a_rdata: Signal<Out, Bits<128>>,
    /// Port B clock: the NAND sequencer clock.
    pub nand_clock: Signal<In, Clock>,
    /// Port B row, read and written at the clock edge.
    pub b_row: Signal<In, Bits<ROW_BITS>>,
    /// Port B lanes written at the clock edge (one for a NAND word); 0 = a read.
    pub b_lanes: Signal<In, Bits<4>>,
    /// Port B write word (the same for every lane).
    pub b_wdata: Signal<In, Bits<32>>,
    /// Port B: the row addressed at the previous `nand_clock` edge, 16 bytes.
    pub b_rdata: Signal<Out, Bits<128>>,
    /// Lane `l` of bank `b` is entry `4 b + l`.
    lanes: Vec<LaneRam>,
    /// Bank of the row each port read at its last clock edge.
    a_bank: DFF<Bits<BANK_SEL_BITS>>,
    b_bank: DFF<Bits<BANK_SEL_BITS>>,
    a_word: Signal<Local, Lanes4>,
    b_word: Signal<Local, Lanes4>,
    /// Per bank: its index.
    bank: Vec<Constant<Bits<BANK_SEL_BITS>>>,
}

impl Region {
    /// A region of `banks` banks (1..=[`MAX_BANKS`]).
    pub fn new(banks: usize) -> Self {
        assert!(
            (1..=MAX_BANKS).contains(&banks),
            "a region has 1..={MAX_BANKS} banks, got {banks}"
        );
        crate::elab::with_defaults!(Region {
            lanes: crate::elab::vec_of(4 * banks),
            bank: (0..banks).map(|b| Constant::new(bits(b as u64))).collect(),
        } defaults {
            pcie_clock, a_row, a_lanes, a_wdata, a_rdata, nand_clock, b_row, b_lanes, b_wdata,
            b_rdata, a_bank, b_bank, a_word, b_word,
        })
    }
}

impl Logic for Region {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, pcie_clock, a_bank);
        dff_setup!(self, nand_clock, b_bank);
        self.a_bank.d.next = self.a_row.val().get_bits::<BANK_SEL_BITS>(10);
        self.b_bank.d.next = self.b_row.val().get_bits::<BANK_SEL_BITS>(10);
        self.a_word.next.l0 = self.lanes[0].a_rdata.val();
        self.a_word.next.l1 = self.lanes[1].a_rdata.val();
        self.a_word.next.l2 = self.lanes[2].a_rdata.val();
        self.a_word.next.l3 = self.lanes[3].a_rdata.val();
        self.b_word.next.l0 = self.lanes[0].b_rdata.val();
        self.b_word.next.l1 = self.lanes[1].b_rdata.val();
        self.b_word.next.l2 = self.lanes[2].b_rdata.val();
        self.b_word.next.l3 = self.lanes[3].b_rdata.val();
        // Every lane: the clocks, the rows within its bank and port B's word.
        for l in 0..self.lanes.len() {
            self.lanes[l].a_clock.next = self.pcie_clock.val();
            self.lanes[l].b_clock.next = self.nand_clock.val();
            self.lanes[l].a_addr.next = self.a_row.val().get_bits::<LANE_ADDR_BITS>(0);
            self.lanes[l].b_addr.next = self.b_row.val().get_bits::<LANE_ADDR_BITS>(0);
            self.lanes[l].b_wdata.next = self.b_wdata.val();
            self.lanes[l].a_we.next = false;
            self.lanes[l].b_we.next = false;
        }
        for b in 0..self.bank.len() {
            // Part-selects with literal offsets (rust-hdl emits named offsets as identifiers).
            self.lanes[4 * b].a_wdata.next = self.a_wdata.val().get_bits::<32>(0);
            self.lanes[4 * b + 1].a_wdata.next = self.a_wdata.val().get_bits::<32>(32);
            self.lanes[4 * b + 2].a_wdata.next = self.a_wdata.val().get_bits::<32>(64);
            self.lanes[4 * b + 3].a_wdata.next = self.a_wdata.val().get_bits::<32>(96);
            if self.a_row.val().get_bits::<BANK_SEL_BITS>(10) == self.bank[b].val() {
                self.lanes[4 * b].a_we.next = self.a_lanes.val().get_bit(0);
                self.lanes[4 * b + 1].a_we.next = self.a_lanes.val().get_bit(1);
                self.lanes[4 * b + 2].a_we.next = self.a_lanes.val().get_bit(2);
                self.lanes[4 * b + 3].a_we.next = self.a_lanes.val().get_bit(3);
            }
            if self.b_row.val().get_bits::<BANK_SEL_BITS>(10) == self.bank[b].val() {
                self.lanes[4 * b].b_we.next = self.b_lanes.val().get_bit(0);
                self.lanes[4 * b + 1].b_we.next = self.b_lanes.val().get_bit(1);
                self.lanes[4 * b + 2].b_we.next = self.b_lanes.val().get_bit(2);
                self.lanes[4 * b + 3].b_we.next = self.b_lanes.val().get_bit(3);
            }
            if self.a_bank.q.val() == self.bank[b].val() {
                self.a_word.next.l0 = self.lanes[4 * b].a_rdata.val();
                self.a_word.next.l1 = self.lanes[4 * b + 1].a_rdata.val();
                self.a_word.next.l2 = self.lanes[4 * b + 2].a_rdata.val();
                self.a_word.next.l3 = self.lanes[4 * b + 3].a_rdata.val();
            }
            if self.b_bank.q.val() == self.bank[b].val() {
                self.b_word.next.l0 = self.lanes[4 * b].b_rdata.val();
                self.b_word.next.l1 = self.lanes[4 * b + 1].b_rdata.val();
                self.b_word.next.l2 = self.lanes[4 * b + 2].b_rdata.val();
                self.b_word.next.l3 = self.lanes[4 * b + 3].b_rdata.val();
            }
        }
        self.a_rdata.next = self.a_word.val().into();
        self.b_rdata.next = self.b_word.val().into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_is_synthesizable() {
        crate::test_support::yosys_validate(
            "ssdlab_top_region",
            &crate::verilog_of(Region::new(2)),
        )
        .unwrap();
        crate::test_support::yosys_validate(
            "ssdlab_top_region_7",
            &crate::verilog_of(Region::new(7)),
        )
        .unwrap();
    }
}
