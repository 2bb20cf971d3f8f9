//! One page-buffer region: the data of one (channel, way) pair, `PAGE_BUF_BYTES` bytes held as
//! four 32-bit lanes of simple dual-port block RAM (one write port, one registered read port,
//! the inference template of rust-hdl's `RAM`). Byte `b` of the region is byte `b mod 4` of
//! word `k = b / 4`, stored in lane `k mod 4` at row `k / 4 = b / 16`, so one row is one 16-byte
//! PCIe-side beat (lane 0 in bits 31:0, byte 0 in bits 7:0) and NAND-side words go to the lanes
//! round-robin. The write port takes any subset of lanes (one lane for a NAND word, 1-4 for a
//! DMA beat); the read port returns a whole row one cycle after its address (read-first: a read
//! and a write of the same row in one cycle return the old row). Sizing: 16 KiB per region =
//! 4 lanes x 1024 x 32 bit = 4 RAMB36 (Xilinx 7-series/UltraScale, 1K x 36 mode).

use super::{Lanes4, ROW_BITS};
use rust_hdl::prelude::*;

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
    lanes: [RAM<Bits<32>, ROW_BITS>; 4],
    word: Signal<Local, Lanes4>,
}

impl Default for Region {
    fn default() -> Self {
        crate::elab::with_defaults!(Region {} defaults {
            clock, wr_row, wr_lanes, wr_data, rd_row, rd_data, word,
        } arrays {
            lanes,
        })
    }
}

impl Logic for Region {
    #[hdl_gen]
    fn update(&mut self) {
        for l in 0..4 {
            self.lanes[l].read_clock.next = self.clock.val();
            self.lanes[l].write_clock.next = self.clock.val();
            self.lanes[l].read_address.next = self.rd_row.val();
            self.lanes[l].write_address.next = self.wr_row.val();
            self.lanes[l].write_enable.next = self.wr_lanes.val().get_bit(l);
        }
        // Part-selects with literal offsets (rust-hdl emits named offsets as identifiers).
        self.lanes[0].write_data.next = self.wr_data.val().get_bits::<32>(0);
        self.lanes[1].write_data.next = self.wr_data.val().get_bits::<32>(32);
        self.lanes[2].write_data.next = self.wr_data.val().get_bits::<32>(64);
        self.lanes[3].write_data.next = self.wr_data.val().get_bits::<32>(96);
        self.word.next.l0 = self.lanes[0].read_data.val();
        self.word.next.l1 = self.lanes[1].read_data.val();
        self.word.next.l2 = self.lanes[2].read_data.val();
        self.word.next.l3 = self.lanes[3].read_data.val();
        self.rd_data.next = self.word.val().into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_is_synthesizable() {
        yosys_validate("ssdlab_top_region", &crate::verilog_of(Region::default())).unwrap();
    }
}
