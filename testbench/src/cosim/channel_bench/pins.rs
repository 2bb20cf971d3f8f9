//! The channel bench with the NAND at the pins: the channel's beat port drives the ONFI PHY
//! (`ssdlab_hdl::nand::phy::OnfiPhy`, rust_hdl or Verilated: [`PhyDut`]), whose per-quarter
//! pins drive the pin-level target ([`OnfiPinTarget`]: ONFI timing checked in ns, one
//! beat-level `NandTarget` per way behind CE#); the target's DQ comes back through the io
//! wrapper's round trip ([`PinChannel`], as in the datapath benches) and the PHY's
//! fixed-latency capture into the channel's read port, and R/B# through the PHY into the way
//! FSMs. The bench's own side (op
//! stream, write data, shadow pages, the beat-port trace the model is compared with) is the
//! beat-level bench's.
//!
//! A read's bytes reach the channel `PhyTiming::read_return` cycles after their beats, which
//! the channel's completion waits for (`SeqTiming::rd_return`): the bench checks an op's data
//! at its completion, as with the beat-level targets.

use crate::cosim::channel_dut::{ChanIn, ChanOut};
use crate::devices::onfi_pins::bench::Beat;
use crate::devices::onfi_pins::channel::PinChannel;
use crate::devices::onfi_pins::dut::{PhyDut, PhyIn, PhyOut};
use crate::devices::onfi_pins::OnfiPinTarget;
use std::collections::VecDeque;

/// The PHY and the pin-level target in a channel bench.
pub struct PinSide<'a> {
    pub phy: &'a mut dyn PhyDut,
    /// The target on the PHY's pins, its DQ and R/B# on their way back.
    pub chan: PinChannel,
    /// This cycle's DQ input of the PHY (`chan`'s at the cycle's start).
    dq_in: u32,
    /// The way of each read beat whose bytes have not come back yet.
    pub(super) rd_ways: VecDeque<u8>,
}

impl<'a> PinSide<'a> {
    pub fn new(phy: &'a mut dyn PhyDut, target: OnfiPinTarget) -> Self {
        PinSide {
            phy,
            chan: PinChannel::new(target),
            dq_in: 0,
            rd_ways: VecDeque::new(),
        }
    }

    /// The cycle's start: the PHY's registered read port and R/B# for the channel's inputs.
    pub(super) fn read_port(&mut self, inp: &mut ChanIn) -> Option<(u8, u32)> {
        self.dq_in = self.chan.dq_in();
        let o = self.eval(&Beat::default());
        inp.rb = o.beat_rb;
        if !o.beat_dq_in_valid {
            return None;
        }
        inp.dq_in = o.beat_dq_in;
        inp.dq_in_valid = true;
        // A valid word with no beat outstanding is caught by the bench's read-port check.
        let way = self.rd_ways.pop_front().unwrap_or(u8::MAX);
        Some((way, o.beat_dq_in))
    }

    /// The channel's beat outputs into the PHY, its pins into the target for four quarters.
    pub(super) fn drive(&mut self, o: &ChanOut) {
        let beat = Beat {
            ce: o.ce,
            cle: o.cle,
            ale: o.ale,
            we: o.we,
            dq: o.dq_out,
            wr: o.wr_beat,
            rd: o.rd_beat,
        };
        let u = self.eval(&beat);
        self.chan.cycle(&u);
    }

    fn eval(&mut self, beat: &Beat) -> PhyOut {
        self.phy.eval(&PhyIn {
            beat: *beat,
            rb_n: self.chan.rb,
            dq_in: self.dq_in,
        })
    }

    /// The target's first violation (pin timing or command sequence), if any.
    pub(super) fn violation(&mut self) -> Option<String> {
        let r = self.chan.target.report();
        (!r.is_empty()).then(|| r.lines().next().unwrap_or_default().to_string())
    }
}
