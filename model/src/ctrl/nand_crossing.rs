//! The clock crossings between the controller's PCIe-clock side (the firmware's NAND command
//! port, the page buffer; 250 MHz, the PCIe user clock of PG213) and one channel's sequencer
//! clock (`onfi.core_clock_mhz`): per channel one asynchronous FIFO carries ops down to the
//! sequencer and one carries its completions up ([`super::clock_crossing`], docs/hdl.md
//! "Clock-domain crossing"; the HDL's are in `ssdlab_hdl::nand::array`). Data does not cross
//! through a FIFO: the page-buffer regions have a port in each clock, a read's words are in its
//! region before its completion is pushed and a program's words were written before its op was,
//! so the two FIFOs' latencies are all a NAND op pays for the crossing. With both sides on one
//! clock there is no FIFO and nothing to pay (the co-simulation geometry at 250 MHz).

use super::clock_crossing::{ClockCrossing, ClockDomain};
use crate::config::OnfiConfig;
use crate::nvme::frontend::tlp::CLOCK_PS;
use crate::time::SimTime;
use std::collections::VecDeque;

/// Ops a channel's down FIFO holds (the HDL's `CrossingFifo4` in `nand::array`).
pub const DOWN_FIFO_OPS: usize = 4;

/// One channel's op FIFO as its PCIe side sees it ([`NandCrossing::push`], [`NandCrossing::room`]):
/// when its last op entered the sequencer, and from when each slot still held is free again.
#[derive(Clone, Debug, Default)]
pub struct DownFifo {
    last_seen: Option<SimTime>,
    freed: VecDeque<SimTime>,
}

/// The two FIFOs of a channel whose sequencer clock differs from the PCIe clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NandCrossing {
    /// PCIe side to sequencer: NAND ops.
    down: ClockCrossing,
    /// Sequencer to PCIe side: completions.
    up: ClockCrossing,
}

impl NandCrossing {
    /// The crossing of a drive with `onfi`'s sequencer clock, both clocks' first edges at time
    /// zero; `None` when the sequencer runs on the PCIe clock.
    pub fn new(onfi: &OnfiConfig) -> Option<NandCrossing> {
        let nand_ps = onfi.core_period().as_ps();
        if nand_ps == CLOCK_PS {
            return None;
        }
        let (pcie, nand) = (ClockDomain::new(CLOCK_PS, 0), ClockDomain::new(nand_ps, 0));
        Some(NandCrossing {
            down: ClockCrossing {
                from: pcie,
                to: nand,
            },
            up: ClockCrossing {
                from: nand,
                to: pcie,
            },
        })
    }

    /// The FIFO that carries ops down to the sequencer (the completions' is its mirror).
    pub fn down(&self) -> &ClockCrossing {
        &self.down
    }

    /// When the sequencer takes an op the firmware hands to channel's FIFO at `at` (its
    /// handshake in the PCIe cycle starting at `at`): the start of the sequencer cycle in which
    /// the op moves from the FIFO into its way queue, as `ChannelSequencer::enqueue` counts an
    /// op handed over in a cycle. `prev` is that time for the channel's previous op: the FIFO
    /// hands over one op per sequencer cycle, so two ops pushed within one sequencer period
    /// are taken in consecutive cycles.
    #[inline]
    pub fn op_seen(&self, at: SimTime, prev: Option<SimTime>) -> SimTime {
        // The write pointer moves at the first PCIe edge strictly after `at` (the end of the
        // handshake cycle). Both clocks start at 0 and a pointer crosses two flip-flops: the
        // second sequencer edge strictly after the push (`ClockCrossing::visible_at`).
        let push = (at.as_ps() / CLOCK_PS + 1) * CLOCK_PS;
        let p = self.down.to.period_ps;
        let seen = SimTime::from_ps((push / p + 2) * p);
        debug_assert_eq!(seen, self.down.visible_at(SimTime::from_ps(push)));
        match prev {
            Some(q) if q.as_ps() + p > seen.as_ps() => SimTime::from_ps(q.as_ps() + p),
            _ => seen,
        }
    }

    /// Whether channel FIFO `f` has room for an op handed over in the PCIe cycle starting at
    /// `at` (the HDL's `nand_cmd_ready`): fewer than [`DOWN_FIFO_OPS`] ops whose slots the
    /// writer does not yet see free.
    pub fn room(&self, f: &mut DownFifo, at: SimTime) -> bool {
        while f.freed.front().is_some_and(|&t| t <= at) {
            f.freed.pop_front();
        }
        f.freed.len() < DOWN_FIFO_OPS
    }

    /// The first time at or after `at` at which channel FIFO `f` has room ([`Self::room`]):
    /// `at` itself, or the start of the PCIe cycle in which the writer sees a slot freed (what
    /// a firmware that offers the op every cycle until it is taken sees). Calls on one FIFO
    /// come with non-decreasing `at` (slots freed by then are forgotten).
    pub fn room_from(&self, f: &mut DownFifo, at: SimTime) -> SimTime {
        if self.room(f, at) {
            return at;
        }
        // Slots free in push order: room comes with the fourth-newest slot's release.
        f.freed[f.freed.len() - DOWN_FIFO_OPS]
    }

    /// Hands an op to channel FIFO `f` in the PCIe cycle starting at `at` ([`Self::room`] said
    /// yes): returns when the sequencer takes it ([`Self::op_seen`]). Its slot is free for the
    /// writer from the second PCIe edge strictly after the sequencer edge that pops it, the
    /// end of that sequencer cycle.
    pub fn push(&self, f: &mut DownFifo, at: SimTime) -> SimTime {
        let seen = self.op_seen(at, f.last_seen);
        f.last_seen = Some(seen);
        let pop = seen.as_ps() + self.down.to.period_ps;
        let freed = SimTime::from_ps((pop / CLOCK_PS + 2) * CLOCK_PS);
        debug_assert_eq!(freed, self.down.freed_at(SimTime::from_ps(pop)));
        f.freed.push_back(freed);
        seen
    }

    /// When the PCIe side sees a completion the sequencer pushed at its clock edge `done`.
    #[inline]
    pub fn completion_seen(&self, done: SimTime) -> SimTime {
        // A constant divisor: a multiply, not a division (this runs at every channel wake).
        let seen = SimTime::from_ps((done.as_ps() / CLOCK_PS + 2) * CLOCK_PS);
        debug_assert_eq!(seen, self.up.visible_at(done));
        seen
    }

    /// The last sequencer time whose completions the PCIe side has seen by `now`; `None` while
    /// it can have seen none.
    #[inline]
    pub fn seen_through(&self, now: SimTime) -> Option<SimTime> {
        // Pushed strictly before the PCIe edge one period before the last edge at or before now.
        let before = (now.as_ps() / CLOCK_PS).checked_sub(1)? * CLOCK_PS;
        debug_assert_eq!(Some(SimTime::from_ps(before)), self.up.pushed_before(now));
        before.checked_sub(1).map(SimTime::from_ps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    /// sm2262-512g: ONFI 800 MT/s on a 200 MHz sequencer clock (5 ns), PCIe 4 ns.
    fn preset() -> NandCrossing {
        NandCrossing::new(&DriveConfig::default_drive().onfi).expect("200 MHz is not 250 MHz")
    }

    #[test]
    fn one_clock_has_no_crossing() {
        let mut onfi = DriveConfig::default_drive().onfi;
        (onfi.core_clock_mhz, onfi.transfer_mts) = (250, 1000);
        assert_eq!(NandCrossing::new(&onfi), None);
    }

    #[test]
    fn an_op_and_a_completion_cross_at_the_second_edge_after_their_push() {
        let x = preset();
        let ns = |n: u64| SimTime::from_ns(n);
        // An op handed over at 9 ns is pushed at the PCIe edge at 12 ns; NAND edges after it at
        // 15 and 20 ns. Handed over in the cycle starting at 12 ns: pushed at 16 ns, NAND edges
        // after it at 20 and 25 ns. Handed over at 8 ns: pushed at 12 ns, seen at 20 ns, so a
        // second op of the channel handed over at 9 ns is taken one NAND cycle later (25 ns).
        assert_eq!(x.op_seen(ns(9), None), ns(20));
        assert_eq!(x.op_seen(ns(12), None), ns(25));
        assert_eq!(x.op_seen(ns(9), Some(ns(20))), ns(25));
        assert_eq!(x.op_seen(ns(12), Some(ns(20))), ns(25));
        // A completion pushed at the NAND edge at 20 ns (a PCIe edge too: not seen there):
        // PCIe edges after it at 24 and 28 ns. Pushed at 25 ns: 28 and 32 ns.
        assert_eq!(x.completion_seen(ns(20)), ns(28));
        assert_eq!(x.completion_seen(ns(25)), ns(32));
        // By 28 ns the PCIe side has seen what was pushed before 24 ns (through 23.999 ns): the
        // completion of 20 ns, not the one of 25 ns.
        assert_eq!(x.seen_through(ns(28)), Some(SimTime::from_ps(23_999)));
        assert_eq!(x.seen_through(ns(31)), Some(SimTime::from_ps(23_999)));
        assert_eq!(x.seen_through(ns(32)), Some(SimTime::from_ps(27_999)));
        // Before the second PCIe edge after time zero nothing is seen; from it (8 ns), a push at
        // time zero is.
        assert_eq!(x.seen_through(ns(4)), None);
        assert_eq!(x.seen_through(ns(7)), None);
        assert_eq!(x.seen_through(ns(8)), Some(SimTime::from_ps(3_999)));
    }

    /// Four ops in consecutive PCIe cycles fill the FIFO; the fifth has room from the PCIe
    /// cycle after the second PCIe edge that follows the first op's pop (hand arithmetic).
    #[test]
    fn the_fifth_op_of_a_burst_waits_for_a_freed_slot() {
        let x = preset();
        let mut f = DownFifo::default();
        let ns = |n: u64| SimTime::from_ns(n);
        // Handed over in the cycles at 12, 16, 20, 24 ns: pushed at 16..28 ns, taken at 25,
        // 30, 35, 40 ns (the first at the second NAND edge after 16 ns, then one per cycle).
        for (k, at) in [12, 16, 20, 24].into_iter().enumerate() {
            assert!(x.room(&mut f, ns(at)));
            assert_eq!(x.push(&mut f, ns(at)), ns(25 + 5 * k as u64));
        }
        // The first op is popped at the NAND edge at 30 ns; the PCIe edges after it are 32 and
        // 36 ns: full through the cycle at 32 ns, room from 36 ns.
        assert_eq!(x.room_from(&mut f, ns(28)), ns(36));
        assert!(!x.room(&mut f, ns(28)));
        assert!(!x.room(&mut f, ns(32)));
        assert!(x.room(&mut f, ns(36)));
        assert_eq!(x.room_from(&mut f, ns(36)), ns(36));
    }

    /// The closed forms against the two FIFOs' edge-by-edge model, every 125 ps of a 120 ns
    /// window, at the presets' sequencer clock (200 MHz) and two slower ones (125 and 100 MHz).
    #[test]
    fn closed_forms_match_the_fifo_model() {
        for (mhz, mts) in [(200, 800), (125, 500), (100, 400)] {
            let mut onfi = DriveConfig::default_drive().onfi;
            (onfi.core_clock_mhz, onfi.transfer_mts) = (mhz, mts);
            let x = NandCrossing::new(&onfi).expect("not the PCIe clock");
            for t in (0..120_000u64).step_by(125) {
                let t = SimTime::from_ps(t);
                let push = x.down.from.edge_after(t);
                assert_eq!(
                    x.op_seen(t, None),
                    x.down.visible_at(push),
                    "{mhz} MHz, {t:?}"
                );
                let before = x.up.pushed_before(t);
                assert_eq!(
                    x.seen_through(t),
                    before
                        .and_then(|b| b.as_ps().checked_sub(1))
                        .map(SimTime::from_ps)
                );
                if x.up.from.is_edge(t) {
                    assert_eq!(x.completion_seen(t), x.up.visible_at(t));
                }
            }
        }
    }
}
