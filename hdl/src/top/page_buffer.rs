//! The page buffer between the NAND array and the PCIe data path: one region per (channel, way)
//! (one [`ChannelBuffer`] per channel, one region per way in it, each of
//! `ssdlab_model::ctrl::page_buffer::region_bytes`), filled/drained by
//! the NAND channels in data order and read/written by the front end's PRP data path
//! (`nvme::prp::dma::PrpDma`) one 16-byte beat per cycle.
//!
//! DMA side: the firmware starts a transfer on `dma_*` of the top naming (channel, way, byte
//! offset); at the handshake (`take`) this block latches them, and until `done`:
//! - host-to-device beats (`wd_*`, no back-pressure) are written at row `offset / 16`, +1 per
//!   beat, the lanes given by the beat's dword count (4 = all; the last beat may carry 1-3);
//! - device-to-host: the region's read port follows the row pointer's next value, so after one
//!   priming cycle (`bd_valid` rises 2 cycles after `take`) one beat per cycle is offered on
//!   `bd_*` and the pointer advances on every taken beat.
//!
//! The row pointer wraps inside the region: a transfer never touches another region. `err`
//! (sticky) flags a transfer naming a channel or way the buffer has no region for, whose offset
//! is not 16-byte aligned or whose `offset + len` exceeds the region's size, a short
//! host-to-device beat that is not the transfer's last, and any channel's firmware-rule
//! violation (see [`ChannelBuffer`]).

use super::channel_buffer::ChannelBuffer;
use super::region::BANK_BYTES;
use super::ROW_BITS;
use crate::nand::arbiter::MAX_WAYS;
use rust_hdl::prelude::*;

/// The ports on `nand_clock` (per channel, `_<channel>` in the Verilog); every other port is on
/// `clock`. The place-and-route harness clocks their registers by it (`pnr::harness`).
pub const NAND_CLOCK_PORTS: &[&str] = &[
    "start_fill",
    "start_drain",
    "start_half",
    "data_way",
    "cmd_we",
    "cmd_byte",
    "rd_beat",
    "rd_valid",
    "rd_data",
    "wr_beat",
    "wr_data",
];

#[derive(LogicBlock)]
pub struct PageBuffer {
    /// PCIe user clock: the DMA side.
    pub clock: Signal<In, Clock>,
    /// NAND sequencer clock: the channels' NAND side.
    pub nand_clock: Signal<In, Clock>,
    /// Per channel: bit w, way w takes a read or cache read from its queue at the coming NAND
    /// edge (`NandArray::start_fill`).
    pub start_fill: Vec<Signal<In, Bits<MAX_WAYS>>>,
    /// Per channel: bit w, way w takes a program (`NandArray::start_drain`).
    pub start_drain: Vec<Signal<In, Bits<MAX_WAYS>>>,
    /// Per channel: bit w, the op way w takes has its data in the region's upper half.
    pub start_half: Vec<Signal<In, Bits<MAX_WAYS>>>,
    /// Per channel: way owning the bus.
    pub data_way: Vec<Signal<In, Bits<3>>>,
    /// Per channel: a command latch starts this cycle (`phy.we & phy.cle`).
    pub cmd_we: Vec<Signal<In, Bit>>,
    /// Per channel: the command byte with `cmd_we`.
    pub cmd_byte: Vec<Signal<In, Bits<8>>>,
    /// Per channel: a data-out beat is read by the PHY this cycle.
    pub rd_beat: Vec<Signal<In, Bit>>,
    /// Per channel: a read word arrives.
    pub rd_valid: Vec<Signal<In, Bit>>,
    /// Per channel: the read beat, bytes-per-beat bytes (1, 2 or 4) in the low bytes.
    pub rd_data: Vec<Signal<In, Bits<32>>>,
    /// Per channel: a program data beat goes to the PHY this cycle.
    pub wr_beat: Vec<Signal<In, Bit>>,
    /// Per channel: the program beat, bytes-per-beat bytes in the low bytes.
    pub wr_data: Vec<Signal<Out, Bits<32>>>,
    /// The data path takes a transfer this cycle (`dma_valid & dma_ready`).
    pub take: Signal<In, Bit>,
    /// Channel of the transfer's region.
    pub channel: Signal<In, Bits<4>>,
    /// Way of the transfer's region.
    pub way: Signal<In, Bits<3>>,
    /// Byte offset of the transfer in the region (16-byte aligned).
    pub offset: Signal<In, Bits<32>>,
    /// Transfer length in bytes (checked against the region).
    pub len: Signal<In, Bits<32>>,
    /// Direction: 1 = device to host (region read), 0 = host to device (region write).
    pub to_host: Signal<In, Bit>,
    /// One cycle: the transfer ended (`dma_done`).
    pub done: Signal<In, Bit>,
    /// Host-to-device beat present.
    pub wd_valid: Signal<In, Bit>,
    /// The beat's 16 bytes (byte 0 in bits 7:0).
    pub wd_data: Signal<In, Bits<128>>,
    /// Valid dwords in the beat, 1..=4.
    pub wd_dwords: Signal<In, Bits<3>>,
    /// The transfer's last beat (only it may carry fewer than 4 dwords).
    pub wd_last: Signal<In, Bit>,
    /// Device-to-host: the transfer's next 16 bytes are offered.
    pub bd_valid: Signal<Out, Bit>,
    /// The 16 bytes (byte 0 in bits 7:0).
    pub bd_data: Signal<Out, Bits<128>>,
    /// The data path takes the beat this cycle.
    pub bd_ready: Signal<In, Bit>,
    /// Sticky: a transfer outside its region or a firmware-rule violation (see the module doc);
    /// a channel's NAND-side violation shows three PCIe edges or fewer after the NAND edge it
    /// was latched at (registered in the NAND clock, then two synchronizer flip-flops).
    pub err: Signal<Out, Bit>,
    chans: Vec<ChannelBuffer>,
    active: DFF<Bit>,
    ch: DFF<Bits<4>>,
    wy: DFF<Bits<3>>,
    th: DFF<Bit>,
    row: DFF<Bits<ROW_BITS>>,
    primed: DFF<Bit>,
    err_r: DFF<Bit>,
    /// Any channel's NAND-side error (NAND clock), and its two synchronizer stages.
    nerr: DFF<Bit>,
    es1: DFF<Bit>,
    es2: DFF<Bit>,
    nerr_any: Signal<Local, Bit>,
    lanes: Signal<Local, Bits<4>>,
    step: Signal<Local, Bit>,
    one_row: Constant<Bits<ROW_BITS>>,
    size: Constant<Bits<32>>,
    /// Bit c (w): the buffer has regions for channel c (way w); a transfer naming others is an
    /// error. (A bit mask, not a comparison with the last id: with 16 channels or 8 ways that
    /// comparison would be constant, which Verilator rejects.)
    has_ch: Constant<Bits<16>>,
    has_way: Constant<Bits<8>>,
    low4: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    dw1: Constant<Bits<3>>,
    dw2: Constant<Bits<3>>,
    dw3: Constant<Bits<3>>,
    m1: Constant<Bits<4>>,
    m2: Constant<Bits<4>>,
    m3: Constant<Bits<4>>,
    m4: Constant<Bits<4>>,
}

impl PageBuffer {
    /// A page buffer of `channels` x `ways` regions of `banks` banks each (`top::region`), whose
    /// NAND channels move `bytes_per_beat` bytes per core cycle (1, 2 or 4; see
    /// [`ChannelBuffer`]'s "NAND beat width") and return read words `read_return` cycles after
    /// their beats (the PHY's read return).
    pub fn new(
        bytes_per_beat: u32,
        read_return: u32,
        channels: usize,
        ways: usize,
        banks: usize,
    ) -> Self {
        crate::elab::with_defaults!(PageBuffer {
            chans: (0..channels)
                .map(|_| ChannelBuffer::new(bytes_per_beat, read_return, ways, banks))
                .collect(),
            start_fill: crate::elab::vec_of(channels),
            start_drain: crate::elab::vec_of(channels),
            start_half: crate::elab::vec_of(channels),
            data_way: crate::elab::vec_of(channels),
            cmd_we: crate::elab::vec_of(channels),
            cmd_byte: crate::elab::vec_of(channels),
            rd_beat: crate::elab::vec_of(channels),
            rd_valid: crate::elab::vec_of(channels),
            rd_data: crate::elab::vec_of(channels),
            wr_beat: crate::elab::vec_of(channels),
            wr_data: crate::elab::vec_of(channels),
            one_row: Constant::new(bits::<ROW_BITS>(1)),
            size: Constant::new(bits::<32>(banks as u64 * BANK_BYTES)),
            has_ch: Constant::new(bits::<16>((1u64 << channels) - 1)),
            has_way: Constant::new(bits::<8>((1u64 << ways) - 1)),
            low4: Constant::new(bits::<32>(15)),
            zero32: Constant::new(bits::<32>(0)),
            dw1: Constant::new(bits::<3>(1)),
            dw2: Constant::new(bits::<3>(2)),
            dw3: Constant::new(bits::<3>(3)),
            m1: Constant::new(bits::<4>(0b0001)),
            m2: Constant::new(bits::<4>(0b0011)),
            m3: Constant::new(bits::<4>(0b0111)),
            m4: Constant::new(bits::<4>(0b1111)),
        } defaults {
            clock, nand_clock, take, channel, way, offset, len, to_host, done,
            wd_valid, wd_data, wd_dwords, wd_last, bd_valid, bd_data, bd_ready, err, active, ch, wy, th, row,
            primed, err_r, nerr, es1, es2, nerr_any, lanes, step,
        })
    }
}

impl Logic for PageBuffer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, active, ch, wy, th, row, primed, err_r, es1, es2);
        dff_setup!(self, nand_clock, nerr);
        // Transfer in progress: latched at the handshake, ended by `done` (a new take wins).
        if self.done.val() {
            self.active.d.next = false;
        }
        self.primed.d.next = self.active.q.val() & self.th.q.val() & !self.done.val();
        if self.take.val() {
            self.active.d.next = true;
            self.primed.d.next = false;
            self.ch.d.next = self.channel.val();
            self.wy.d.next = self.way.val();
            self.th.d.next = self.to_host.val();
            self.row.d.next = self.offset.val().get_bits::<ROW_BITS>(4);
            if ((self.offset.val() & self.low4.val()) != self.zero32.val())
                | (self.offset.val() > self.size.val())
                | (self.len.val() > self.size.val() - self.offset.val())
                | !self.has_ch.val().get_bit(self.channel.val().index())
                | !self.has_way.val().get_bit(self.way.val().index())
            {
                self.err_r.d.next = true;
            }
        }
        self.bd_valid.next = self.active.q.val() & self.th.q.val() & self.primed.q.val();
        self.step.next = (self.active.q.val() & !self.th.q.val() & self.wd_valid.val())
            | (self.active.q.val() & self.th.q.val() & self.primed.q.val() & self.bd_ready.val());
        if self.step.val() & !self.take.val() {
            self.row.d.next = self.row.q.val() + self.one_row.val();
        }
        self.lanes.next = self.m4.val();
        if self.wd_dwords.val() == self.dw1.val() {
            self.lanes.next = self.m1.val();
        } else if self.wd_dwords.val() == self.dw2.val() {
            self.lanes.next = self.m2.val();
        } else if self.wd_dwords.val() == self.dw3.val() {
            self.lanes.next = self.m3.val();
        }
        if self.active.q.val()
            & !self.th.q.val()
            & self.wd_valid.val()
            & !self.wd_last.val()
            & (self.lanes.val() != self.m4.val())
        {
            self.err_r.d.next = true;
        }
        self.bd_data.next = self.chans[0].dma_rdata.val();
        self.nerr_any.next = false;
        for c in 0..self.chans.len() {
            self.chans[c].pcie_clock.next = self.clock.val();
            self.chans[c].nand_clock.next = self.nand_clock.val();
            self.chans[c].start_fill.next = self.start_fill[c].val();
            self.chans[c].start_drain.next = self.start_drain[c].val();
            self.chans[c].start_half.next = self.start_half[c].val();
            self.chans[c].data_way.next = self.data_way[c].val();
            self.chans[c].cmd_we.next = self.cmd_we[c].val();
            self.chans[c].cmd_byte.next = self.cmd_byte[c].val();
            self.chans[c].rd_beat.next = self.rd_beat[c].val();
            self.chans[c].rd_valid.next = self.rd_valid[c].val();
            self.chans[c].rd_data.next = self.rd_data[c].val();
            self.chans[c].wr_beat.next = self.wr_beat[c].val();
            self.wr_data[c].next = self.chans[c].wr_data.val();
            self.chans[c].dma_way.next = self.wy.q.val();
            self.chans[c].dma_we.next = self.active.q.val()
                & !self.th.q.val()
                & self.wd_valid.val()
                & (self.ch.q.val().index() == c);
            self.chans[c].dma_wrow.next = self.row.q.val();
            self.chans[c].dma_lanes.next = self.lanes.val();
            self.chans[c].dma_wdata.next = self.wd_data.val();
            self.chans[c].dma_rrow.next = self.row.d.val();
            if self.ch.q.val().index() == c {
                self.bd_data.next = self.chans[c].dma_rdata.val();
            }
            if self.chans[c].err.val() {
                self.nerr_any.next = true;
            }
        }
        // The channels' errors cross to the PCIe clock: sticky, so two flip-flops suffice.
        self.nerr.d.next = self.nerr_any.val();
        self.es1.d.next = self.nerr.q.val();
        self.es2.d.next = self.es1.q.val();
        self.err.next = self.err_r.q.val() | self.es2.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_buffer_is_synthesizable() {
        crate::test_support::yosys_validate(
            "ssdlab_top_page_buffer",
            &crate::verilog_of(PageBuffer::new(4, 11, 8, 4, 2)),
        )
        .unwrap();
    }
}
