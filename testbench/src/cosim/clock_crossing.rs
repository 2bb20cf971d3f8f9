//! The clock-crossing FIFO (`ssdlab_hdl::top::clock_crossing::ClockCrossingFifo`, 16-bit
//! words, any depth) driven by two clocks at their real ratio, in rust_hdl's simulation and
//! under Verilator, and checked edge by edge against its behavioural model
//! (`ssdlab_model::ctrl::clock_crossing`): at every rising edge the block's `full` (write side) or `empty` (read side) is the model's,
//! and the words come out in the order they went in. The clocks' rising edges must never
//! coincide (the model's "strictly after" is then the simulators' too): `transitions` checks.

use crate::verilator::{PortId, RunnerError, VerilatorModel};
use rand::Rng;
use rust_hdl::prelude::*;
use ssdlab_hdl::top::clock_crossing::ClockCrossingFifo;
use ssdlab_model::ctrl::clock_crossing::ClockCrossing;
use ssdlab_model::rng::SeedTree;
use ssdlab_model::time::SimTime;

/// The FIFO of 16-bit words under test, `D` = 2^`A` words, `P` = `A` + 1-bit pointers.
pub type Fifo16<const D: usize, const A: usize, const P: usize> = ClockCrossingFifo<16, D, A, P>;

/// The block behind its ports, in one of two executions.
pub trait CrossingDut {
    /// Sets the write side's `push`/`data_in` and the read side's `pop`, and settles.
    fn inputs(&mut self, push: bool, data: u16, pop: bool);
    /// Drives the write (or read) clock to `high`, and settles.
    fn clock(&mut self, write: bool, high: bool);
    /// (`full`, `empty`, `data_out`) as of the last settle.
    fn flags(&self) -> (bool, bool, u16);
    /// Words the FIFO holds.
    fn depth(&self) -> usize;
}

/// rust_hdl's simulation of the block.
pub struct RustHdlCrossing<const D: usize, const A: usize, const P: usize>(Fifo16<D, A, P>);

impl<const D: usize, const A: usize, const P: usize> RustHdlCrossing<D, A, P> {
    pub fn new() -> Self {
        let mut u = Fifo16::<D, A, P>::default();
        u.connect_all();
        ssdlab_hdl::settle(&mut u, 16, "clock crossing fifo");
        RustHdlCrossing(u)
    }
}

impl<const D: usize, const A: usize, const P: usize> Default for RustHdlCrossing<D, A, P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const D: usize, const A: usize, const P: usize> CrossingDut for RustHdlCrossing<D, A, P> {
    fn inputs(&mut self, push: bool, data: u16, pop: bool) {
        let u = &mut self.0;
        u.push.next = push;
        u.data_in.next = bits::<16>(data as u64);
        u.pop.next = pop;
        ssdlab_hdl::settle(u, 16, "clock crossing fifo");
    }
    fn clock(&mut self, write: bool, high: bool) {
        let u = &mut self.0;
        if write {
            u.write_clock.next = Clock { clk: high };
        } else {
            u.read_clock.next = Clock { clk: high };
        }
        ssdlab_hdl::settle(u, 16, "clock crossing fifo");
    }
    fn flags(&self) -> (bool, bool, u16) {
        let u = &self.0;
        (
            u.full.val(),
            u.empty.val(),
            u.data_out.val().to_u64() as u16,
        )
    }
    fn depth(&self) -> usize {
        D
    }
}

/// The block's generated Verilog under Verilator.
pub struct VerilatedCrossing {
    m: VerilatorModel,
    /// write_clock, push, data_in, full, read_clock, pop, data_out, empty.
    p: [PortId; 8],
    depth: usize,
}

impl VerilatedCrossing {
    /// The Verilog of `Fifo16<D, A, P>`, built and loaded.
    pub fn new<const D: usize, const A: usize, const P: usize>() -> Result<Self, RunnerError> {
        let m = VerilatorModel::build(
            &format!("clock_crossing_{D}"),
            &ssdlab_hdl::verilog_of(Fifo16::<D, A, P>::default()),
        )?;
        let names = [
            "write_clock",
            "push",
            "data_in",
            "full",
            "read_clock",
            "pop",
            "data_out",
            "empty",
        ];
        let mut p = [PortId(0); 8];
        for (slot, n) in p.iter_mut().zip(names) {
            *slot = m.port(n)?;
        }
        let mut v = VerilatedCrossing { m, p, depth: D };
        v.m.eval();
        Ok(v)
    }
}

impl CrossingDut for VerilatedCrossing {
    fn inputs(&mut self, push: bool, data: u16, pop: bool) {
        self.m.set(self.p[1], push as u64);
        self.m.set(self.p[2], data as u64);
        self.m.set(self.p[5], pop as u64);
        self.m.eval();
    }
    fn clock(&mut self, write: bool, high: bool) {
        let port = if write { self.p[0] } else { self.p[4] };
        self.m.set(port, high as u64);
        self.m.eval();
    }
    fn flags(&self) -> (bool, bool, u16) {
        (
            self.m.get(self.p[3]) != 0,
            self.m.get(self.p[7]) != 0,
            self.m.get(self.p[6]) as u16,
        )
    }
    fn depth(&self) -> usize {
        self.depth
    }
}

/// What a run saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Words that crossed (popped).
    pub moved: usize,
    /// Write edges after which the FIFO was full.
    pub full_edges: usize,
}

/// Traffic of a run: a push is offered at a write edge with probability `push_in_8` / 8, a pop
/// at a read edge with `pop_in_8` / 8, for `write_edges` write-clock cycles.
#[derive(Clone, Copy, Debug)]
pub struct Traffic {
    pub push_in_8: u64,
    pub pop_in_8: u64,
    pub seed: u64,
    pub write_edges: u64,
}

/// Every clock transition before `end_ps` in time order: (time ps, write clock, rising).
pub fn transitions(x: ClockCrossing, end_ps: u64) -> Vec<(u64, bool, bool)> {
    let mut tr = Vec::new();
    for (dom, write) in [(x.from, true), (x.to, false)] {
        let mut t = dom.phase_ps;
        while t < end_ps {
            tr.push((t, write, true));
            tr.push((t + dom.period_ps / 2, write, false));
            t += dom.period_ps;
        }
    }
    tr.sort_unstable();
    assert!(
        tr.windows(2)
            .all(|w| !(w[0].0 == w[1].0 && w[0].2 && w[1].2)),
        "two rising edges coincide: give one clock a phase offset"
    );
    tr
}

/// Runs `traffic` through `dut` with the clocks of `x`; the first disagreement with the model
/// (flag, edge, seed) is the error.
pub fn run(dut: &mut impl CrossingDut, x: ClockCrossing, traffic: Traffic) -> Result<Seen, String> {
    let Traffic {
        push_in_8,
        pop_in_8,
        seed,
        write_edges,
    } = traffic;
    let at = SimTime::from_ps;
    // Edge times (ps) of the pushes and pops the block took; word k carries k mod 2^16.
    let (mut pushes, mut pops): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
    // Pushes the reader counts and pops whose slots the writer counts free, as of the edge:
    // both crossings are monotone in time, so each count only moves forward.
    let (mut visible, mut freed) = (0usize, 0usize);
    let mut rng = SeedTree::new(seed).stream("clock-crossing-traffic", 0);
    let (mut push, mut pop) = (false, false);
    let mut seen = Seen::default();
    for (t, write, rise) in transitions(x, write_edges * x.from.period_ps) {
        // What a rising edge acts on: the flags and the head before it.
        let (was_full, was_empty, head) = dut.flags();
        dut.clock(write, rise);
        if !rise {
            continue;
        }
        let (full, empty, _) = dut.flags();
        if write {
            if push && !was_full {
                pushes.push(t);
            }
            while freed < pops.len() && x.freed_at(at(pops[freed])) <= at(t) {
                freed += 1;
            }
            let model = pushes.len() - freed == dut.depth();
            if full != model {
                return Err(format!(
                    "full {full} at write edge {t} ps, model {model} (seed {seed})"
                ));
            }
            seen.full_edges += usize::from(full);
            push = rng.gen_range(0..8) < push_in_8;
        } else {
            if pop && !was_empty {
                if head != pops.len() as u16 {
                    return Err(format!(
                        "word {head} popped at {t} ps, expected {}",
                        pops.len()
                    ));
                }
                pops.push(t);
            }
            while visible < pushes.len() && x.visible_at(at(pushes[visible])) <= at(t) {
                visible += 1;
            }
            let model = visible == pops.len();
            if empty != model {
                return Err(format!(
                    "empty {empty} at read edge {t} ps, model {model} (seed {seed})"
                ));
            }
            pop = rng.gen_range(0..8) < pop_in_8;
        }
        dut.inputs(push, pushes.len() as u16, pop);
    }
    seen.moved = pops.len();
    Ok(seen)
}
