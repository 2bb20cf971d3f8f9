//! 8-channel NAND array: a dispatcher routes each op of the shared command port to its
//! channel's sequencer (`NandChannel`), each with its own way queues, bus and completion
//! reporting. Per-channel PHY boundaries are port arrays (`ce[i]`, `cle[i]`, ... for channel i).
//! Mirrors the model's per-channel `ChannelSequencer`s (one per channel, independent buses).

use crate::nand::op::OP_BITS;
use crate::nand::phy::NandPhy;
use crate::nand::sequencer::NandChannel;
use crate::nand::timing::HdlTiming;
use rust_hdl::prelude::*;

/// Channels in the array.
pub const CHANNELS: usize = 8;

#[derive(LogicBlock)]
pub struct NandArray {
    /// Sequencer clock, shared by all channels.
    pub clock: Signal<In, Clock>,
    /// An op is offered; taken at the clock edge when `cmd_ready`.
    pub cmd_valid: Signal<In, Bit>,
    /// Channel of the offered op.
    pub cmd_channel: Signal<In, Bits<3>>,
    /// Way of the offered op within its channel.
    pub cmd_way: Signal<In, Bits<2>>,
    /// Packed op word (layout: `nand::op`).
    pub cmd_op: Signal<In, Bits<OP_BITS>>,
    /// Array time of the offered op in sequencer cycles (for program/erase suspend).
    pub cmd_array: Signal<In, Bits<32>>,
    /// The addressed channel's way queue has room.
    pub cmd_ready: Signal<Out, Bit>,
    /// Per channel: program data (4 bytes), consumed on that channel's `wr_beat`.
    pub wr_data: [Signal<In, Bits<32>>; CHANNELS],
    /// Per channel: way owning the channel's bus.
    pub data_way: [Signal<Out, Bits<2>>; CHANNELS],
    /// Per channel: the PHY boundary (`nand::phy::NandPhy`), `phy$i$ce`, ... in Verilog.
    pub phy: [NandPhy; CHANNELS],
    /// Per channel: read data to the controller buffer.
    pub rd_data: [Signal<Out, Bits<32>>; CHANNELS],
    /// Per channel: `rd_data` valid.
    pub rd_valid: [Signal<Out, Bit>; CHANNELS],
    /// Per channel: an op completed this cycle.
    pub done_valid: [Signal<Out, Bit>; CHANNELS],
    /// Per channel: way of the completed op.
    pub done_way: [Signal<Out, Bits<2>>; CHANNELS],
    channels: [NandChannel; CHANNELS],
}

impl NandArray {
    pub fn new(t: &HdlTiming) -> Self {
        crate::elab::with_defaults!(NandArray {
            channels: array_init::array_init(|_| NandChannel::new(t)),
        } defaults {
            clock, cmd_valid, cmd_channel, cmd_way, cmd_op, cmd_array, cmd_ready,
        } arrays {
            wr_data, data_way, phy, rd_data, rd_valid, done_valid, done_way,
        })
    }
}

impl Logic for NandArray {
    #[hdl_gen]
    fn update(&mut self) {
        self.cmd_ready.next = false;
        // Index literals: `link` names its arguments textually in the generated Verilog.
        NandPhy::link(&mut self.phy[0], &mut self.channels[0].phy);
        NandPhy::link(&mut self.phy[1], &mut self.channels[1].phy);
        NandPhy::link(&mut self.phy[2], &mut self.channels[2].phy);
        NandPhy::link(&mut self.phy[3], &mut self.channels[3].phy);
        NandPhy::link(&mut self.phy[4], &mut self.channels[4].phy);
        NandPhy::link(&mut self.phy[5], &mut self.channels[5].phy);
        NandPhy::link(&mut self.phy[6], &mut self.channels[6].phy);
        NandPhy::link(&mut self.phy[7], &mut self.channels[7].phy);
        for i in 0..CHANNELS {
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
        let vlog = crate::verilog_of(NandArray::new(&t));
        yosys_validate("ssdlab_nand_array", &vlog).unwrap();
    }
}
