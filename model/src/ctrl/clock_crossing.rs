//! Clock-domain crossing through an asynchronous FIFO with gray-coded pointers: the behavioural
//! model of the HDL block `ssdlab_hdl::top::clock_crossing::ClockCrossingFifo`, which joins the
//! PCIe user clock (250 MHz, Xilinx PG213) and the NAND sequencer clock (`onfi.core_clock_mhz`).
//!
//! The FIFO is the classic design (C. E. Cummings, "Simulation and Synthesis Techniques for
//! Asynchronous FIFO Design", SNUG 2002): each side counts its pointer in binary and keeps its
//! gray code in a register; the other side samples that register through [`SYNC_STAGES`]
//! flip-flops in its own clock. A gray code changes one bit per step, so a sample taken while
//! the pointer moves is either the old or the new value, never a mix.
//!
//! What that costs, edge by edge: a word pushed at write edge `w` (the pointer register changes
//! there) is sampled by the first read-domain flip-flop at the first read edge strictly after
//! `w`, and by the last at the [`SYNC_STAGES`]-th: from that edge on the read side counts the
//! word (`empty` falls if it was the only one), and a pop at any later read edge takes it. A pop
//! frees its slot for the writer the same way, [`SYNC_STAGES`] write edges after it. In real
//! hardware an edge that falls inside the sampling flip-flop's setup window may take one more
//! edge; a simulation has no such window, and the co-simulations keep the two clocks' edges
//! apart (a phase offset, [`ClockDomain::phase_ps`]) so that no edge of one domain coincides
//! with an edge of the other and "strictly after" is never a tie.

use crate::time::SimTime;

/// Flip-flops each pointer crosses through (a two-stage synchronizer).
pub const SYNC_STAGES: u64 = 2;

/// A clock: rising edges at `phase_ps + k * period_ps` for k = 0, 1, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockDomain {
    /// Clock period, ps.
    pub period_ps: u64,
    /// Time of the first rising edge, ps (below `period_ps`).
    pub phase_ps: u64,
}

impl ClockDomain {
    /// A clock of `period_ps` whose first rising edge is at `phase_ps`.
    pub fn new(period_ps: u64, phase_ps: u64) -> Self {
        assert!(period_ps > 0, "a clock period of 0 ps");
        assert!(
            phase_ps < period_ps,
            "phase {phase_ps} ps not below the period {period_ps} ps"
        );
        ClockDomain {
            period_ps,
            phase_ps,
        }
    }

    /// The first rising edge strictly after `t`.
    pub fn edge_after(&self, t: SimTime) -> SimTime {
        let t = t.as_ps();
        if t < self.phase_ps {
            return SimTime::from_ps(self.phase_ps);
        }
        let k = (t - self.phase_ps) / self.period_ps + 1;
        SimTime::from_ps(self.phase_ps + k * self.period_ps)
    }

    /// The first rising edge at or after `t`.
    pub fn edge_at_or_after(&self, t: SimTime) -> SimTime {
        if self.is_edge(t) {
            t
        } else {
            self.edge_after(t)
        }
    }

    /// The last rising edge at or before `t`, or `None` before the first edge.
    pub fn edge_at_or_before(&self, t: SimTime) -> Option<SimTime> {
        let t = t.as_ps().checked_sub(self.phase_ps)?;
        Some(SimTime::from_ps(
            self.phase_ps + t / self.period_ps * self.period_ps,
        ))
    }

    /// Whether a rising edge falls at `t`.
    pub fn is_edge(&self, t: SimTime) -> bool {
        t.as_ps() >= self.phase_ps && (t.as_ps() - self.phase_ps).is_multiple_of(self.period_ps)
    }
}

/// One direction of an asynchronous FIFO: writes in `from`, reads in `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockCrossing {
    pub from: ClockDomain,
    pub to: ClockDomain,
}

impl ClockCrossing {
    /// The read-domain edge from which a word pushed at write edge `push` is counted by the
    /// reader (`empty` low when it is the oldest): the [`SYNC_STAGES`]-th read edge strictly
    /// after `push`.
    pub fn visible_at(&self, push: SimTime) -> SimTime {
        debug_assert!(
            self.from.is_edge(push),
            "push at {push:?}, not a write edge"
        );
        synced(self.to, push)
    }

    /// The inverse of [`Self::visible_at`]: every word pushed strictly before the returned time
    /// is counted by the reader at or before read time `t`, and no word pushed at or after it
    /// is; `None` when no push is counted by `t`. A word pushed at `p` is counted from the
    /// [`SYNC_STAGES`]-th read edge strictly after `p`, which is at or before the last read edge
    /// `e` at or before `t` exactly when `p` is strictly before `e - (SYNC_STAGES - 1) * period`.
    pub fn pushed_before(&self, t: SimTime) -> Option<SimTime> {
        let e = self.to.edge_at_or_before(t)?.as_ps();
        e.checked_sub((SYNC_STAGES - 1) * self.to.period_ps)
            .map(SimTime::from_ps)
    }

    /// The write-domain edge from which the slot a pop at read edge `pop` freed counts as free
    /// for the writer (`full` low, when the FIFO was full): the [`SYNC_STAGES`]-th write edge
    /// strictly after `pop`.
    pub fn freed_at(&self, pop: SimTime) -> SimTime {
        debug_assert!(self.to.is_edge(pop), "pop at {pop:?}, not a read edge");
        synced(self.from, pop)
    }
}

/// The [`SYNC_STAGES`]-th edge of `clock` strictly after `t`.
fn synced(clock: ClockDomain, t: SimTime) -> SimTime {
    let mut e = t;
    for _ in 0..SYNC_STAGES {
        e = clock.edge_after(e);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PCIe user clock 250 MHz from 0 ps; NAND clock 200 MHz with a 500 ps phase (edges at
    /// 500, 5 500, 10 500, ... ps: never on a multiple of 1 000 ps, so never on a PCIe edge).
    fn pcie_to_nand() -> ClockCrossing {
        ClockCrossing {
            from: ClockDomain::new(4_000, 0),
            to: ClockDomain::new(5_000, 500),
        }
    }

    #[test]
    fn edges_strictly_after_a_time() {
        let nand = ClockDomain::new(5_000, 500);
        assert_eq!(nand.edge_after(SimTime::ZERO), SimTime::from_ps(500));
        assert_eq!(
            nand.edge_after(SimTime::from_ps(500)),
            SimTime::from_ps(5_500)
        );
        assert_eq!(
            nand.edge_after(SimTime::from_ps(5_499)),
            SimTime::from_ps(5_500)
        );
        assert!(nand.is_edge(SimTime::from_ps(10_500)) && !nand.is_edge(SimTime::from_ps(10_000)));
    }

    #[test]
    fn a_word_crosses_at_the_second_read_edge_after_its_push() {
        let x = pcie_to_nand();
        // Pushed at 8 000 ps: NAND edges after it at 10 500 and 15 500.
        assert_eq!(
            x.visible_at(SimTime::from_ps(8_000)),
            SimTime::from_ps(15_500)
        );
        // At 12 000 ps: 15 500, 20 500. The latency in read cycles depends on the phase between
        // the clocks: 7 500 ps here, 8 500 ps above (1.5 to 2.5 read cycles over the 20 ns
        // pattern the two clocks repeat).
        assert_eq!(
            x.visible_at(SimTime::from_ps(12_000)),
            SimTime::from_ps(20_500)
        );
    }

    #[test]
    fn a_freed_slot_crosses_back_at_the_second_write_edge_after_the_pop() {
        let x = pcie_to_nand();
        // Popped at NAND edge 10 500 ps: PCIe edges after it at 12 000 and 16 000.
        assert_eq!(
            x.freed_at(SimTime::from_ps(10_500)),
            SimTime::from_ps(16_000)
        );
        // Popped at 15 500: 16 000, 20 000.
        assert_eq!(
            x.freed_at(SimTime::from_ps(15_500)),
            SimTime::from_ps(20_000)
        );
    }

    #[test]
    fn pushed_before_inverts_visible_at() {
        let x = pcie_to_nand();
        // By hand: a push at 8 000 ps is counted from 15 500 ps. At 15 500 the last NAND edge is
        // 15 500, one period before it 10 500: pushes before 10 500 (8 000 among them) are
        // counted. At 15 499 the last edge is 10 500, and 5 500: the push at 8 000 is not.
        assert_eq!(
            x.pushed_before(SimTime::from_ps(15_500)),
            Some(SimTime::from_ps(10_500))
        );
        assert_eq!(
            x.pushed_before(SimTime::from_ps(15_499)),
            Some(SimTime::from_ps(5_500))
        );
        // A push at 0 ps is counted from the second NAND edge, 5 500 ps; before it, none is.
        assert_eq!(
            x.pushed_before(SimTime::from_ps(5_500)),
            Some(SimTime::from_ps(500))
        );
        assert_eq!(x.pushed_before(SimTime::from_ps(5_499)), None);
        // Every write edge of a window, against every read time of it, both directions.
        for x in [
            pcie_to_nand(),
            ClockCrossing {
                from: x.to,
                to: x.from,
            },
        ] {
            for p in (0..200_000u64).filter(|&p| x.from.is_edge(SimTime::from_ps(p))) {
                let seen = x.visible_at(SimTime::from_ps(p));
                for t in (0..200_000u64).step_by(250) {
                    let t = SimTime::from_ps(t);
                    let counted = x.pushed_before(t).is_some_and(|b| p < b.as_ps());
                    assert_eq!(counted, seen <= t, "push {p} ps, read time {t:?}");
                }
            }
        }
    }

    #[test]
    fn edges_at_or_around_a_time() {
        let nand = ClockDomain::new(5_000, 500);
        let ps = SimTime::from_ps;
        assert_eq!(nand.edge_at_or_after(ps(500)), ps(500));
        assert_eq!(nand.edge_at_or_after(ps(501)), ps(5_500));
        assert_eq!(nand.edge_at_or_before(ps(5_499)), Some(ps(500)));
        assert_eq!(nand.edge_at_or_before(ps(5_500)), Some(ps(5_500)));
        assert_eq!(nand.edge_at_or_before(ps(499)), None);
    }
}
