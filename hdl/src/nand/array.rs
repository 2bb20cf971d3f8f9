//! NAND array of 1 to 16 channels (`geometry.channels`): a dispatcher routes each op of the
//! shared command port to its channel's sequencer (`NandChannel`), each with its own way queues,
//! bus and completion reporting. Per-channel PHY boundaries are port arrays (`ce[i]`, `cle[i]`,
//! ... for channel i). Mirrors the model's per-channel `ChannelSequencer`s (one per channel,
//! independent buses).
//!
//! **Clocks.** The command port and the completion outputs are on `pcie_clock`, everything
//! else on `clock`, the sequencer clock. When the two differ (`new`'s `cross`), each channel
//! has two asynchronous FIFOs (`top::clock_crossing`, 4 entries each): its ops (way, op word,
//! array cycles) go down through one, which offers its head to the channel and pops it when the
//! addressed way queue takes it, one op per sequencer cycle; `cmd_ready` is the
//! addressed channel's FIFO not full. The channel's completions go up through the other,
//! pushed at the sequencer edge the op completes at (`done_next`) and popped at once on the
//! PCIe side, one `done_valid` cycle each. Its model, edge for edge, is
//! `ssdlab_model::ctrl::nand_crossing` (the `Drive` charges it on every NAND op). Without
//! `cross` both sides are one clock: `pcie_clock` is unused and ops and completions pass
//! straight through, as in the model without a crossing.

use crate::nand::arbiter::MAX_WAYS;
use crate::nand::op::OP_BITS;
use crate::nand::phy::NandPhy;
use crate::nand::sequencer::NandChannel;
use crate::nand::timing::HdlTiming;
use crate::top::clock_crossing::CrossingFifo4;
use rust_hdl::prelude::*;

/// The most channels an array has (`cmd_channel` is 4 bits).
pub const MAX_CHANNELS: usize = 16;
/// An op in a channel's down FIFO: way [2:0], op word [71:3], array cycles [103:72].
pub const XOP_BITS: usize = 3 + OP_BITS + 32;
const _: () = assert!(
    XOP_BITS == 104,
    "the kernel's part-select offsets assume 69-bit ops"
);

/// The fields of an op as the down FIFO holds them (first field in the low bits).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct XOp {
    pub way: Bits<3>,
    pub op: Bits<OP_BITS>,
    pub array: Bits<32>,
}

#[derive(LogicBlock)]
pub struct NandArray {
    /// Sequencer clock, shared by all channels.
    pub clock: Signal<In, Clock>,
    /// PCIe user clock: the command port and the completions (unused without a crossing).
    pub pcie_clock: Signal<In, Clock>,
    /// An op is offered; taken at the clock edge when `cmd_ready`.
    pub cmd_valid: Signal<In, Bit>,
    /// Channel of the offered op (below the array's channel count).
    pub cmd_channel: Signal<In, Bits<4>>,
    /// Way of the offered op within its channel (below the channels' way count).
    pub cmd_way: Signal<In, Bits<3>>,
    /// Packed op word (layout: `nand::op`).
    pub cmd_op: Signal<In, Bits<OP_BITS>>,
    /// Array time of the offered op in sequencer cycles (for program/erase suspend).
    pub cmd_array: Signal<In, Bits<32>>,
    /// The op can be taken: the addressed channel's down FIFO has room, or, without a
    /// crossing, the addressed way queue has (0 for a channel or way the array lacks).
    pub cmd_ready: Signal<Out, Bit>,
    /// Per channel: program data (4 bytes), consumed on that channel's `wr_beat`.
    pub wr_data: Vec<Signal<In, Bits<32>>>,
    /// Per channel: way owning the channel's bus.
    pub data_way: Vec<Signal<Out, Bits<3>>>,
    /// Per channel: the PHY boundary (`nand::phy::NandPhy`), `phy_<i>_ce`, ... in Verilog.
    pub phy: Vec<NandPhy>,
    /// Per channel: read data to the controller buffer.
    pub rd_data: Vec<Signal<Out, Bits<32>>>,
    /// Per channel: `rd_data` valid.
    pub rd_valid: Vec<Signal<Out, Bit>>,
    /// Per channel: bit w, way w takes a read or cache read from its queue at the coming
    /// sequencer edge (`NandChannel::start_fill`).
    pub start_fill: Vec<Signal<Out, Bits<MAX_WAYS>>>,
    /// Per channel: bit w, way w takes a program (`NandChannel::start_drain`).
    pub start_drain: Vec<Signal<Out, Bits<MAX_WAYS>>>,
    /// Per channel: bit w, the op way w takes is in its region's upper half (op word bit 68).
    pub start_half: Vec<Signal<Out, Bits<MAX_WAYS>>>,
    /// Per channel: an op completed this cycle (PCIe clock with a crossing).
    pub done_valid: Vec<Signal<Out, Bit>>,
    /// Per channel: way of the completed op.
    pub done_way: Vec<Signal<Out, Bits<3>>>,
    channels: Vec<NandChannel>,
    down: Vec<CrossingFifo4<XOP_BITS>>,
    up: Vec<CrossingFifo4<3>>,
    /// The op word on the command port, packed for the down FIFOs.
    xin: Signal<Local, XOp>,
    /// Per channel: the op offered to it (the FIFO's head, or the command port).
    c_valid: Vec<Signal<Local, Bit>>,
    c_way: Vec<Signal<Local, Bits<3>>>,
    c_op: Vec<Signal<Local, Bits<OP_BITS>>>,
    /// Ops and completions cross between `pcie_clock` and `clock`.
    crossed: Constant<Bit>,
}

impl NandArray {
    /// An array of `channels` channels (1..=[`MAX_CHANNELS`]) of `ways` ways each; with `cross`,
    /// the command port and completions are on a PCIe clock other than the sequencer clock.
    pub fn new(t: &HdlTiming, channels: usize, ways: usize, cross: bool) -> Self {
        assert!(
            (1..=MAX_CHANNELS).contains(&channels),
            "an array has 1..={MAX_CHANNELS} channels, got {channels}"
        );
        crate::elab::with_defaults!(NandArray {
            channels: (0..channels).map(|_| NandChannel::new(t, ways)).collect(),
            down: crate::elab::vec_of(channels),
            up: crate::elab::vec_of(channels),
            wr_data: crate::elab::vec_of(channels),
            data_way: crate::elab::vec_of(channels),
            phy: crate::elab::vec_of(channels),
            rd_data: crate::elab::vec_of(channels),
            rd_valid: crate::elab::vec_of(channels),
            start_fill: crate::elab::vec_of(channels),
            start_drain: crate::elab::vec_of(channels),
            start_half: crate::elab::vec_of(channels),
            done_valid: crate::elab::vec_of(channels),
            done_way: crate::elab::vec_of(channels),
            c_valid: crate::elab::vec_of(channels),
            c_way: crate::elab::vec_of(channels),
            c_op: crate::elab::vec_of(channels),
            crossed: Constant::new(cross),
        } defaults {
            clock, pcie_clock, cmd_valid, cmd_channel, cmd_way, cmd_op, cmd_array, cmd_ready, xin,
        })
    }

    /// Channels of the array.
    pub fn channels(&self) -> usize {
        self.channels.len()
    }
}

impl Logic for NandArray {
    #[hdl_gen]
    fn update(&mut self) {
        self.cmd_ready.next = false;
        self.xin.next.way = self.cmd_way.val();
        self.xin.next.op = self.cmd_op.val();
        self.xin.next.array = self.cmd_array.val();
        for i in 0..self.channels.len() {
            NandPhy::link(&mut self.phy[i], &mut self.channels[i].phy);
            self.channels[i].clock.next = self.clock.val();
            self.down[i].write_clock.next = self.pcie_clock.val();
            self.down[i].read_clock.next = self.clock.val();
            self.up[i].write_clock.next = self.clock.val();
            self.up[i].read_clock.next = self.pcie_clock.val();
            self.down[i].data_in.next = self.xin.val().into();
            self.up[i].data_in.next = self.channels[i].done_next_way.val();
            // The op offered to the channel: the command port's, or the down FIFO's head.
            self.c_valid[i].next = self.cmd_valid.val() & (self.cmd_channel.val().index() == i);
            self.c_way[i].next = self.cmd_way.val();
            self.c_op[i].next = self.cmd_op.val();
            self.channels[i].cmd_array.next = self.cmd_array.val();
            self.down[i].push.next = false;
            self.up[i].push.next = false;
            self.done_valid[i].next = self.channels[i].done_valid.val();
            self.done_way[i].next = self.channels[i].done_way.val();
            if self.cmd_channel.val().index() == i {
                self.cmd_ready.next = self.channels[i].cmd_ready.val();
            }
            if self.crossed.val() {
                self.down[i].push.next =
                    self.cmd_valid.val() & (self.cmd_channel.val().index() == i);
                // No op enters while completions back up (never, with the PCIe side faster).
                self.c_valid[i].next = !self.down[i].empty.val() & !self.up[i].full.val();
                self.c_way[i].next = self.down[i].data_out.val().get_bits::<3>(0);
                self.c_op[i].next = self.down[i].data_out.val().get_bits::<OP_BITS>(3);
                self.channels[i].cmd_array.next = self.down[i].data_out.val().get_bits::<32>(72);
                self.up[i].push.next = self.channels[i].done_next.val();
                self.done_valid[i].next = !self.up[i].empty.val();
                self.done_way[i].next = self.up[i].data_out.val();
                if self.cmd_channel.val().index() == i {
                    self.cmd_ready.next = !self.down[i].full.val();
                }
            }
            self.down[i].pop.next = self.c_valid[i].val() & self.channels[i].cmd_ready.val();
            self.up[i].pop.next = true;
            self.channels[i].cmd_valid.next = self.c_valid[i].val();
            self.channels[i].cmd_way.next = self.c_way[i].val();
            self.channels[i].cmd_op.next = self.c_op[i].val();
            self.start_fill[i].next = self.channels[i].start_fill.val();
            self.start_drain[i].next = self.channels[i].start_drain.val();
            self.start_half[i].next = self.channels[i].start_half.val();
            self.channels[i].wr_data.next = self.wr_data[i].val();
            self.data_way[i].next = self.channels[i].data_way.val();
            self.rd_data[i].next = self.channels[i].rd_data.val();
            self.rd_valid[i].next = self.channels[i].rd_valid.val();
        }
    }
}

#[cfg(test)]
mod tests;
