//! The clocked device port in front of one direction of a [`super::Link`] (the NVMe front
//! end's requester port): it hands the link one TLP at a time, on an edge of its clock, and is
//! busy a whole number of cycles (beats) from the edge at or after the TLP's start. A TLP
//! starts crossing when both the port has handed it over and the link is free.
//!
//! For a train of TLPs, each ready as soon as the port is free after the one before, the next
//! start is `max(edge(c + b), s + d)` for a TLP that started at `s` (edge `c` at or after it)
//! and takes `b` beats and `d` on the link. Keeping `s` as `c` edges less a gap `g`, that is
//! `c + b` edges plus `max(0, d - b edges - g)`: a comparison and an addition, no division.

use crate::time::SimTime;

/// A device port feeding a train.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    /// Clock period in picoseconds.
    pub period: u64,
    /// No TLP of the train leaves before this cycle.
    pub ready: u64,
    /// The cycle from which the port is free: the next TLP leaves at this edge or later.
    pub free: u64,
}

impl Port {
    /// The edge of cycle `c`.
    pub(super) fn edge(&self, c: u64) -> SimTime {
        SimTime(c * self.period)
    }
}

/// A TLP of a train as it paces the next: its time on the link and beats on the port.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub dur: SimTime,
    pub beats: u64,
    /// How much longer than `beats` edges the TLP takes on the link (zero if not longer), as
    /// whole periods `q` and a remainder `r`.
    q: u64,
    r: u64,
}

impl Step {
    pub fn new(dur: SimTime, beats: u64, period: u64) -> Step {
        assert!(beats >= 1, "a TLP takes at least one beat on the port");
        let excess = dur.0.saturating_sub(beats * period);
        Step {
            dur,
            beats,
            q: excess / period,
            r: excess % period,
        }
    }
}

/// When a TLP started: `period * cycle - gap` ps, `gap < period`: the edge at or after its
/// start, and how long before that edge it started.
#[derive(Clone, Copy, Debug)]
pub(super) struct Start {
    pub cycle: u64,
    gap: u64,
}

impl Start {
    /// A TLP handed over at edge `e` of `port`'s clock, on a link free from `free`.
    pub fn at(port: &Port, e: u64, free: SimTime) -> Start {
        let t = port.edge(e).max(free).0;
        let cycle = t.div_ceil(port.period);
        Start {
            cycle,
            gap: cycle * port.period - t,
        }
    }

    pub fn time(&self, port: &Port) -> SimTime {
        SimTime(self.cycle * port.period - self.gap)
    }

    /// The start of the next TLP, ready at the edge the port is free after this one (which
    /// took `step`), on a link free when this one ends.
    #[inline(always)]
    pub fn next(&self, step: &Step, port: &Port) -> Start {
        let e = self.cycle + step.beats;
        // The link frees `dur - beats edges - gap` after edge `e`; at or before it, `e` wins.
        if step.q == 0 && step.r <= self.gap {
            Start { cycle: e, gap: 0 }
        } else if step.r > self.gap {
            Start {
                cycle: e + step.q + 1,
                gap: self.gap + port.period - step.r,
            }
        } else {
            Start {
                cycle: e + step.q,
                gap: self.gap - step.r,
            }
        }
    }

    /// [`Start::next`], the next TLP also ready no earlier than the edge of cycle `ready`.
    pub fn next_from(&self, step: &Step, port: &Port, ready: u64) -> Start {
        match ready > self.cycle + step.beats {
            true => Start::at(port, ready, self.time(port) + step.dur),
            false => self.next(step, port),
        }
    }
}
