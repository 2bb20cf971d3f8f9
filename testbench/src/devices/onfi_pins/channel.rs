//! One channel's NAND at the pins as a bench sees it ([`PinChannel`]): the pin-level target
//! ([`OnfiPinTarget`]: one beat-level `NandTarget` per way behind CE#, every ONFI timing
//! parameter checked in ns) on a PHY's pins (per quarter of a core cycle), its DQ back to the
//! PHY's `dq_in` after the io wrapper's round trip (`IO_ROUND_TRIP` cycles, as the channel bench
//! at the pins), its R/B# from the cycle before. A channel whose pins and target are idle
//! advances without stepping quarters ([`OnfiPinTarget::skip_idle`]).

use super::dut::PhyOut;
use super::{BusCycle, OnfiPinTarget};
use ssdlab_model::nand::phy::IO_ROUND_TRIP;
use std::collections::VecDeque;

/// One channel's pins and target.
pub struct PinChannel {
    pub target: OnfiPinTarget,
    /// Target DQ per core cycle on its way back through the io wrapper; the front is the PHY's
    /// `dq_in` in the current cycle.
    back: VecDeque<u32>,
    /// R/B# as the target drove it after the last quarter stepped.
    pub rb: u8,
}

impl PinChannel {
    pub fn new(target: OnfiPinTarget) -> Self {
        PinChannel {
            target,
            back: (0..IO_ROUND_TRIP).map(|_| 0).collect(),
            rb: 0xFF,
        }
    }

    /// The PHY's `dq_in` in the current core cycle.
    pub fn dq_in(&self) -> u32 {
        self.back.front().copied().unwrap_or_default()
    }

    /// Nothing is on its way: the pins were idle, the target drives nothing new and every
    /// word on its way back is the one it holds, so idle cycles change no input of the DUT.
    pub fn settled(&self) -> bool {
        let held = self.target.held_dq();
        self.target.idle() && self.back.iter().all(|&d| d == held)
    }

    /// One core cycle of the PHY's pins `u`; returns whether CE# was low on a way.
    pub fn cycle(&mut self, u: &PhyOut) -> bool {
        self.back.pop_front();
        if idle_pins(u) && self.settled() {
            self.rb = self.target.skip_idle(1);
            self.back.push_back(self.target.held_dq());
        } else {
            let (dq, rb) = self.target.step_cycle(u);
            self.rb = rb;
            self.back.push_back(dq);
        }
        u.ce_n != 0xFF
    }

    /// `cycles` core cycles the DUT ran ahead with idle pins (after [`Self::settled`]).
    pub fn skip(&mut self, cycles: u64) {
        if cycles > 0 {
            self.rb = self.target.skip_idle(cycles);
        }
    }

    /// The command latches since the last call equal to `byte`; the target's records cleared
    /// (a long bench needs only this count and the violations).
    pub fn take_commands(&mut self, byte: Option<u8>) -> u64 {
        let t = &mut self.target;
        let n = t
            .bus
            .drain(..)
            .filter(|(_, b)| byte.is_some_and(|x| *b == BusCycle::Command(x)))
            .count();
        t.bytes_in.clear();
        t.bytes_out.clear();
        t.phases.clear();
        n as u64
    }
}

/// Whether the PHY's pins `u` are at their idle levels: every CE# high, CLE and ALE low, WE#
/// and RE# high, DQ and DQS not driven.
pub fn idle_pins(u: &PhyOut) -> bool {
    u.ce_n == 0xFF
        && !(u.cle || u.ale || u.dq_oe || u.dqs_oe)
        && u.we_n
        && u.re == 0xF
        && u.dqs == 0
}

impl OnfiPinTarget {
    /// Whether the controller's pins are idle (every CE# high, CLE and ALE low, WE# and RE#
    /// high, no DQ or DQS driven) and the target drives nothing more: [`OnfiPinTarget::skip_idle`] may
    /// then stand for `step_cycle` with the same pins.
    pub fn idle(&self) -> bool {
        let p = &self.prev;
        p.ce_n == 0xFF
            && !p.cle
            && !p.ale
            && p.we_n
            && p.re
            && !p.dq_oe
            && !p.dqs_oe
            && !p.dqs
            && self.out_q.is_empty()
    }

    /// The DQ word `step_cycle` returns while the target drives nothing new (the byte it holds
    /// in all four quarters).
    pub fn held_dq(&self) -> u32 {
        u32::from_le_bytes([self.drive.dq; 4])
    }

    /// `cycles` core cycles with the idle pins of the last quarter ([`OnfiPinTarget::idle`]):
    /// what as many `step_cycle` calls would do (no edges, so no latch and no check), in one
    /// step; the R/B# rises inside are recorded for tRR. Returns R/B# after the last quarter.
    pub fn skip_idle(&mut self, cycles: u64) -> u8 {
        assert!(self.idle(), "skip_idle with the pins or the target busy");
        let end = self.h + 4 * cycles;
        let mut rb = (0xFFu16 << self.ways.len()) as u8;
        for (w, t) in self.ways.iter().enumerate() {
            // R/B# is sampled per quarter from its cycle: ready from quarter 4 x ready_at.
            let rise = 4 * t.ready_at();
            if t.ready((end - 1) / 4) {
                rb |= 1 << w;
                if self.rb_prev & (1 << w) == 0 {
                    self.rb_rise[w] = Some(rise.max(self.h));
                }
            }
        }
        self.rb_prev = rb;
        self.drive.rb_n = rb;
        self.h = end;
        rb
    }
}
