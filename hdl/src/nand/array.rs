//! NAND array of 1 to 16 channels (`geometry.channels`): a dispatcher routes each op of the
//! shared command port to its channel's sequencer (`NandChannel`), each with its own way queues,
//! bus and completion reporting. Per-channel PHY boundaries are port arrays (`ce[i]`, `cle[i]`,
//! ... for channel i). Mirrors the model's per-channel `ChannelSequencer`s (one per channel,
//! independent buses).

use crate::nand::op::OP_BITS;
use crate::nand::phy::NandPhy;
use crate::nand::sequencer::NandChannel;
use crate::nand::timing::HdlTiming;
use rust_hdl::prelude::*;

/// The most channels an array has (`cmd_channel` is 4 bits).
pub const MAX_CHANNELS: usize = 16;

#[derive(LogicBlock)]
pub struct NandArray {
    /// Sequencer clock, shared by all channels.
    pub clock: Signal<In, Clock>,
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
    /// The addressed channel's way queue has room (0 for a channel or way the array lacks).
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
    /// Per channel: an op completed this cycle.
    pub done_valid: Vec<Signal<Out, Bit>>,
    /// Per channel: way of the completed op.
    pub done_way: Vec<Signal<Out, Bits<3>>>,
    channels: Vec<NandChannel>,
}

impl NandArray {
    /// An array of `channels` channels (1..=[`MAX_CHANNELS`]) of `ways` ways each.
    pub fn new(t: &HdlTiming, channels: usize, ways: usize) -> Self {
        assert!(
            (1..=MAX_CHANNELS).contains(&channels),
            "an array has 1..={MAX_CHANNELS} channels, got {channels}"
        );
        crate::elab::with_defaults!(NandArray {
            channels: (0..channels).map(|_| NandChannel::new(t, ways)).collect(),
            wr_data: crate::elab::vec_of(channels),
            data_way: crate::elab::vec_of(channels),
            phy: crate::elab::vec_of(channels),
            rd_data: crate::elab::vec_of(channels),
            rd_valid: crate::elab::vec_of(channels),
            done_valid: crate::elab::vec_of(channels),
            done_way: crate::elab::vec_of(channels),
        } defaults {
            clock, cmd_valid, cmd_channel, cmd_way, cmd_op, cmd_array, cmd_ready,
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
        for i in 0..self.channels.len() {
            NandPhy::link(&mut self.phy[i], &mut self.channels[i].phy);
            self.channels[i].clock.next = self.clock.val();
            self.channels[i].cmd_valid.next =
                self.cmd_valid.val() & (self.cmd_channel.val().index() == i);
            self.channels[i].cmd_way.next = self.cmd_way.val();
            self.channels[i].cmd_op.next = self.cmd_op.val();
            self.channels[i].cmd_array.next = self.cmd_array.val();
            if self.cmd_channel.val().index() == i {
                self.cmd_ready.next = self.channels[i].cmd_ready.val();
            }
            self.channels[i].wr_data.next = self.wr_data[i].val();
            self.data_way[i].next = self.channels[i].data_way.val();
            self.rd_data[i].next = self.channels[i].rd_data.val();
            self.rd_valid[i].next = self.channels[i].rd_valid.val();
            self.done_valid[i].next = self.channels[i].done_valid.val();
            self.done_way[i].next = self.channels[i].done_way.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::DriveConfig;

    #[test]
    fn nand_array_is_synthesizable() {
        let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10).unwrap();
        let vlog = crate::verilog_of(NandArray::new(&t, 8, 4));
        yosys_validate("ssdlab_nand_array", &vlog).unwrap();
    }
}
