//! One page-buffer region: the data of one (channel, way) pair, `banks` banks of
//! [`BANK_BYTES`] (`ssdlab_model::ctrl::page_buffer::region_bytes`: planes x bits per cell x
//! (page + spare) of the drive, in whole banks), each held as four 32-bit lanes of simple dual-port block RAM (one
//! write port, one registered read port, the inference template of rust-hdl's `RAM`). Byte `b`
//! of the region is byte `b mod 4` of word `k = b / 4`, stored in lane `k mod 4` at row
//! `k / 4 = b / 16`, so one row is one 16-byte PCIe-side beat (lane 0 in bits 31:0, byte 0 in
//! bits 7:0) and NAND-side words go to the lanes round-robin; row `r` is in bank `r / 1024`.
//! The write port takes any subset of lanes (one lane for a NAND word, 1-4 for a DMA beat); the
//! read port returns a whole row one cycle after its address (read-first: a read and a write of
//! the same row in one cycle return the old row), the bank chosen by the address's registered
//! bank bits. Sizing: a bank's lane is 1024 x 32 bit, one RAMB36 (Xilinx 7-series/UltraScale,
//! 1K x 36 mode); a region of `banks` banks is 4 x `banks` RAMB36s.

use super::{Lanes4, ROW_BITS};
use rust_hdl::prelude::*;
pub use ssdlab_model::ctrl::page_buffer::BANK_BYTES;

/// Rows (16 bytes each) per bank, log2: 1024 rows = 16 KiB.
pub const BANK_ROW_BITS: usize = 10;
const _: () = assert!((16 << BANK_ROW_BITS) as u64 == BANK_BYTES && BANK_ROW_BITS == 10);
/// Bank-select bits of a row address (its bits above the bank's rows; the kernel's part-selects
/// name the offset 10 literally, as rust-hdl emits named offsets as identifiers).
const BANK_SEL_BITS: usize = ROW_BITS - BANK_ROW_BITS;
/// The most banks a region has (its row address is [`ROW_BITS`] wide).
pub const MAX_BANKS: usize = 1 << BANK_SEL_BITS;

#[derive(LogicBlock)]
pub struct Region {
    /// Core clock (both ports).
    pub clock: Signal<In, Clock>,
    /// Write row (16-byte units from the region start).
    pub wr_row: Signal<In, Bits<ROW_BITS>>,
    /// Lanes written at the clock edge, bit l = lane l (bytes 4l..4l+3 of the row); 0 = no write.
    pub wr_lanes: Signal<In, Bits<4>>,
    /// Write data, lane l in bits 32l+31..32l.
    pub wr_data: Signal<In, Bits<128>>,
    /// Read row (16-byte units), sampled at the clock edge.
    pub rd_row: Signal<In, Bits<ROW_BITS>>,
    /// The row addressed at the previous clock edge, 16 bytes (byte 0 in bits 7:0).
    pub rd_data: Signal<Out, Bits<128>>,
    /// Lane `l` of bank `b` is entry `4 b + l`.
    lanes: Vec<RAM<Bits<32>, BANK_ROW_BITS>>,
    /// Bank of the row read at the last clock edge.
    rd_bank: DFF<Bits<BANK_SEL_BITS>>,
    word: Signal<Local, Lanes4>,
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
            clock, wr_row, wr_lanes, wr_data, rd_row, rd_data, rd_bank, word,
        })
    }
}

impl Logic for Region {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rd_bank);
        self.rd_bank.d.next = self.rd_row.val().get_bits::<BANK_SEL_BITS>(10);
        self.word.next.l0 = self.lanes[0].read_data.val();
        self.word.next.l1 = self.lanes[1].read_data.val();
        self.word.next.l2 = self.lanes[2].read_data.val();
        self.word.next.l3 = self.lanes[3].read_data.val();
        // Every lane: the clock and the row within its bank.
        for l in 0..self.lanes.len() {
            self.lanes[l].read_clock.next = self.clock.val();
            self.lanes[l].write_clock.next = self.clock.val();
            self.lanes[l].read_address.next = self.rd_row.val().get_bits::<BANK_ROW_BITS>(0);
            self.lanes[l].write_address.next = self.wr_row.val().get_bits::<BANK_ROW_BITS>(0);
        }
        for b in 0..self.bank.len() {
            // Part-selects with literal offsets (rust-hdl emits named offsets as identifiers).
            self.lanes[4 * b].write_data.next = self.wr_data.val().get_bits::<32>(0);
            self.lanes[4 * b + 1].write_data.next = self.wr_data.val().get_bits::<32>(32);
            self.lanes[4 * b + 2].write_data.next = self.wr_data.val().get_bits::<32>(64);
            self.lanes[4 * b + 3].write_data.next = self.wr_data.val().get_bits::<32>(96);
            self.lanes[4 * b].write_enable.next = false;
            self.lanes[4 * b + 1].write_enable.next = false;
            self.lanes[4 * b + 2].write_enable.next = false;
            self.lanes[4 * b + 3].write_enable.next = false;
            if self.wr_row.val().get_bits::<BANK_SEL_BITS>(10) == self.bank[b].val() {
                self.lanes[4 * b].write_enable.next = self.wr_lanes.val().get_bit(0);
                self.lanes[4 * b + 1].write_enable.next = self.wr_lanes.val().get_bit(1);
                self.lanes[4 * b + 2].write_enable.next = self.wr_lanes.val().get_bit(2);
                self.lanes[4 * b + 3].write_enable.next = self.wr_lanes.val().get_bit(3);
            }
            if self.rd_bank.q.val() == self.bank[b].val() {
                self.word.next.l0 = self.lanes[4 * b].read_data.val();
                self.word.next.l1 = self.lanes[4 * b + 1].read_data.val();
                self.word.next.l2 = self.lanes[4 * b + 2].read_data.val();
                self.word.next.l3 = self.lanes[4 * b + 3].read_data.val();
            }
        }
        self.rd_data.next = self.word.val().into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_is_synthesizable() {
        yosys_validate("ssdlab_top_region", &crate::verilog_of(Region::new(2))).unwrap();
        yosys_validate("ssdlab_top_region_7", &crate::verilog_of(Region::new(7))).unwrap();
    }
}
