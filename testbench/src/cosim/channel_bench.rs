//! Test bench of one NAND channel: feeds a timed op list to a [`ChannelDut`] through its command
//! port (one op per cycle, in order), plays four [`NandTarget`]s on its PHY boundary (R/B#, data
//! in/out with one cycle of PHY read latency), records the bus-cycle trace in the model's
//! [`BusEvent`] form, checks read data against what was programmed, and returns completions and
//! bus occupancy so tests can compare them with the behavioural model
//! (`ssdlab_model::nand::sequencer::run_op_list_traced`).

mod bus;
mod check;
mod mix;
mod pins;

pub use check::{compare_with_model, first_event};
pub use mix::{random_mix, MixParams};
pub use pins::PinSide;

use super::channel_dut::{ChanIn, ChannelDut};
use crate::devices::nand_target::NandTarget;
pub use crate::devices::nand_target::TargetSuspend;
use crate::devices::read_return::ReadReturn;
use check::check_completion;
use ssdlab_hdl::nand::op::{pack_op, HdlOp};
use ssdlab_model::nand::sequencer::{BusEvent, SeqOp, SeqTiming};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::SimTime;
use std::collections::{HashMap, VecDeque};

pub const WAYS: usize = 4;

/// One op of a bench run: the model's op plus the row address the HDL needs.
#[derive(Clone, Copy, Debug)]
pub struct BenchOp {
    pub issue: SimTime,
    pub op: SeqOp,
    pub row: u32,
    /// Column (byte address in each plane's page) the op's data starts at.
    pub column: u16,
}

impl BenchOp {
    /// `op` at `row`, column 0, issued at sequencer cycle `cycle`.
    pub fn at_cycle(t: &SeqTiming, cycle: u64, op: SeqOp, row: u32) -> Self {
        BenchOp {
            issue: t.to_time(cycle),
            op,
            row,
            column: 0,
        }
    }
    /// The row of the op's `load`-th page on the bus: every plane of a page (the same page at
    /// `row + plane * stride`) before the next page (`+ k`: a one-shot program's, a cache read's).
    pub fn load_row(&self, load: u32, stride: u32) -> u32 {
        let planes = self.op.planes as u32;
        self.row + (load % planes) * stride + load / planes
    }
}

/// What a run produced.
#[derive(Debug, Default)]
pub struct BenchResult {
    /// (op id, completion cycle), in completion order.
    pub completions: Vec<(u64, u64)>,
    pub trace: Vec<BusEvent>,
    /// Cycles with a chip enable asserted (a phase on the bus).
    pub bus_cycles: u64,
    pub cycles: u64,
    /// At the pins: what the pin target saw of each phase (empty on the beat-level bench).
    pub pin_phases: Vec<crate::devices::onfi_pins::PinPhase>,
}

/// Deterministic page content of a program: a function of way, row and byte index.
pub fn page_byte(way: u8, row: u32, k: usize) -> u8 {
    (row.wrapping_mul(131)
        ^ (way as u32).wrapping_mul(7)
        ^ (k as u32).wrapping_mul(13)
        ^ (k as u32 >> 8)) as u8
}

/// Runs `ops` (issue times non-decreasing) on `dut` until every op completed; `Err` names the
/// first violation, data mismatch or stall (with the cycle).
pub fn run_bench(
    dut: &mut dyn ChannelDut,
    t: &SeqTiming,
    plane_stride: u32,
    page_bytes: usize,
    ops: &[BenchOp],
    max_cycles: u64,
) -> Result<BenchResult, String> {
    run_bench_suspend(dut, t, None, plane_stride, page_bytes, ops, max_cycles)
}

/// [`run_bench`] with targets that accept program/erase suspend and resume (`sus`: the command
/// bytes and tSUS and resume latency in cycles).
pub fn run_bench_suspend(
    dut: &mut dyn ChannelDut,
    t: &SeqTiming,
    sus: Option<TargetSuspend>,
    plane_stride: u32,
    page_bytes: usize,
    ops: &[BenchOp],
    max_cycles: u64,
) -> Result<BenchResult, String> {
    let mut bench = Bench::new(t, plane_stride, page_bytes, ops);
    if let Some(s) = sus {
        for tg in &mut bench.targets {
            tg.set_suspend(s);
        }
    }
    for n in 0..max_cycles {
        bench.cycle(dut, n)?;
        if bench.done == ops.len() {
            bench.res.cycles = n + 1;
            return Ok(bench.res);
        }
    }
    Err(format!(
        "{} of {} ops incomplete after {max_cycles} cycles",
        ops.len() - bench.done,
        ops.len()
    ))
}

/// [`run_bench`] with the NAND at the pins: the channel's beat port through the ONFI PHY into
/// the pin-level target `pins` holds (module `pins`); an ONFI timing violation at the pins is an
/// error like any other.
pub fn run_bench_pins<'a>(
    dut: &mut dyn ChannelDut,
    t: &'a SeqTiming,
    pins: PinSide<'a>,
    plane_stride: u32,
    page_bytes: usize,
    ops: &'a [BenchOp],
    max_cycles: u64,
) -> Result<BenchResult, String> {
    let mut bench = Bench::new(t, plane_stride, page_bytes, ops);
    bench.targets.clear();
    bench.pins = Some(pins);
    for n in 0..max_cycles {
        bench.cycle(dut, n)?;
        if bench.done == ops.len() {
            bench.res.cycles = bench.res.completions.last().map_or(n, |c| c.1) + 1;
            if let Some(p) = bench.pins.take() {
                bench.res.pin_phases = p.chan.target.phases;
            }
            return Ok(bench.res);
        }
    }
    Err(format!(
        "{} of {} ops incomplete after {max_cycles} cycles",
        ops.len() - bench.done,
        ops.len()
    ))
}

/// The bench's state during a run: the four targets, each way's ops in flight, the data
/// programmed so far (shadow pages) and the read data gathered for the op on the bus.
struct Bench<'a> {
    t: &'a SeqTiming,
    plane_stride: u32,
    page_bytes: usize,
    ops: &'a [BenchOp],
    /// Bytes per bus beat.
    bpc: usize,
    targets: Vec<NandTarget>,
    outstanding: Vec<VecDeque<usize>>,
    shadow: Vec<HashMap<u32, Vec<u8>>>,
    read_buf: Vec<Vec<u8>>,
    prog_pos: Vec<usize>,
    res: BenchResult,
    /// Index of the next op to offer on the command port; ops completed.
    next: usize,
    done: usize,
    /// (way, word) of the data-out beats whose words are on their way back through the PHY.
    returning: ReadReturn<(u8, u32)>,
    /// (cycle, is_write) of the previous data beat.
    last_data: Option<(u64, bool)>,
    /// The PHY and the pin-level target, when the NAND is at the pins (`targets` is then empty:
    /// the ways' targets are the pin target's).
    pins: Option<PinSide<'a>>,
}

impl<'a> Bench<'a> {
    fn new(t: &'a SeqTiming, plane_stride: u32, page_bytes: usize, ops: &'a [BenchOp]) -> Self {
        Bench {
            t,
            plane_stride,
            page_bytes,
            ops,
            bpc: t.bytes_per_cycle as usize,
            targets: (0..WAYS)
                .map(|w| NandTarget::new(*t, plane_stride, w as u8, page_bytes))
                .collect(),
            outstanding: vec![VecDeque::new(); WAYS],
            shadow: vec![HashMap::new(); WAYS],
            read_buf: vec![Vec::new(); WAYS],
            prog_pos: vec![0; WAYS],
            res: BenchResult::default(),
            next: 0,
            done: 0,
            returning: ReadReturn::new(t.rd_return),
            last_data: None,
            pins: None,
        }
    }

    /// The target of way `w` (the pin target's at the pins).
    fn target(&mut self, w: usize) -> &mut NandTarget {
        match &mut self.pins {
            Some(p) => &mut p.chan.target.ways[w],
            None => &mut self.targets[w],
        }
    }

    /// One clock cycle `n`: drive the DUT's inputs, play the targets on its outputs, check the
    /// bus, record the trace and completions, then clock the DUT.
    fn cycle(&mut self, dut: &mut dyn ChannelDut, n: u64) -> Result<(), String> {
        let mut inp = self.inputs(n);
        let beat_in = match &mut self.pins {
            Some(p) => p.read_port(&mut inp),
            None => self.returning.take(n),
        };
        if let Some((_, d)) = beat_in {
            inp.dq_in = d;
            inp.dq_in_valid = true;
        }
        dut.apply(&inp);
        let o = dut.outputs();
        if o.wr_beat {
            // Program data for the way on the bus (write-buffer stream).
            inp.wr_data = self.program_word(o.data_way as usize, n)?;
            dut.apply(&inp);
        }
        let o = dut.outputs();
        if inp.cmd_valid {
            self.accept(n, &inp, o.cmd_ready)?;
        }
        let way = self.check_bus(n, &o)?;
        // Read data of the previous cycle's beat, through the PHY and the channel's read port.
        match (beat_in, o.rd_valid) {
            (Some((w, _)), true) if (w as usize) < WAYS => {
                self.read_buf[w as usize].extend_from_slice(&o.rd_data.to_le_bytes()[..self.bpc])
            }
            (None, false) => {}
            (b, v) => return Err(format!("cycle {n}: read port valid {v} for PHY beat {b:?}")),
        }
        self.latch(n, way, &o);
        if o.wr_beat || o.rd_beat {
            self.data_beat(n, way, &o);
        }
        if o.done_valid {
            self.complete(n, o.done_way as usize)?;
        }
        if let Some(p) = &mut self.pins {
            p.drive(&o);
            if let Some(v) = p.violation() {
                return Err(format!("cycle {n}: at the pins: {v}"));
            }
            p.phy.tick();
        }
        for tg in &self.targets {
            if let Some(v) = tg.violations.first() {
                return Err(format!("ONFI violation: {v}"));
            }
        }
        dut.tick();
        Ok(())
    }

    /// The command port (the next op once its issue cycle is reached) and R/B# of every target.
    fn inputs(&self, n: u64) -> ChanIn {
        let mut inp = ChanIn::default();
        let t = self.t;
        if let Some(b) = self
            .ops
            .get(self.next)
            .filter(|b| t.to_cycles_ceil(b.issue) <= n)
        {
            inp.cmd_valid = true;
            inp.cmd_way = b.op.way;
            let data_cycles = if b.op.kind == NandOpKind::Erase {
                0
            } else {
                t.unit_data_cycles(&b.op) as u16
            };
            inp.cmd_op = pack_op(&HdlOp {
                kind: b.op.kind,
                planes: b.op.planes,
                row: b.row,
                data_cycles,
                pages: b.op.pages,
                column: b.column,
            });
            inp.cmd_array = t.to_cycles_ceil(b.op.array_time) as u32;
        }
        // At the pins, R/B# comes through the PHY (`PinSide::read_port`).
        for (w, tg) in self.targets.iter().enumerate() {
            inp.rb |= (tg.ready(n) as u8) << w;
        }
        inp
    }

    /// The next program word (write-buffer stream) of the op on the bus on way `w`.
    fn program_word(&self, w: usize, n: u64) -> Result<u32, String> {
        let b = &self.ops[*self.outstanding[w]
            .front()
            .ok_or(format!("cycle {n}: data in on idle way {w}"))?];
        let (k, pb) = (self.prog_pos[w], self.page_bytes);
        Ok((0..4).fold(0u32, |acc, j| {
            let (load, col) = ((k + j) / pb, (k + j) % pb);
            let row = b.load_row(load as u32, self.plane_stride);
            acc | (page_byte(b.op.way, row, col) as u32) << (8 * j)
        }))
    }

    /// The offered op was taken (or the way queue was full, an error of the op stream).
    fn accept(&mut self, n: u64, inp: &ChanIn, cmd_ready: bool) -> Result<(), String> {
        if !cmd_ready {
            return Err(format!(
                "cycle {n}: way {} queue full: the op stream outruns the way queue",
                inp.cmd_way
            ));
        }
        let b = &self.ops[self.next];
        self.outstanding[b.op.way as usize].push_back(self.next);
        let array = self.t.to_cycles_ceil(b.op.array_time);
        self.target(b.op.way as usize).push_array_cycles(array);
        self.next += 1;
        Ok(())
    }

    /// The oldest op of way `w` completed: check its data and record the completion.
    fn complete(&mut self, n: u64, w: usize) -> Result<(), String> {
        // If the target was suspended when the op's last phase ended (the read return ago), the
        // completion is a read of the suspension (the first read behind the suspended program
        // or erase).
        let end = n.saturating_sub(self.t.return_cycles());
        let at = if self.target(w).suspended_since(end) {
            let ops = self.ops;
            self.outstanding[w]
                .iter()
                .position(|&i| ops[i].op.kind == NandOpKind::Read)
                .ok_or(format!(
                    "cycle {n}: completion on suspended way {w}, no read"
                ))?
        } else {
            0
        };
        let i = self.outstanding[w].remove(at).ok_or(format!(
            "cycle {n}: completion on way {w} with no op outstanding"
        ))?;
        self.prog_pos[w] = 0;
        self.res.completions.push((self.ops[i].op.id, n));
        // The op completes once its last byte is back through the PHY: all its data is in.
        self.check_data(i, w).map_err(|e| format!("cycle {n}: {e}"))
    }

    /// Checks op `i`'s data (read back on way `w` since its last check) and counts it done.
    fn check_data(&mut self, i: usize, w: usize) -> Result<(), String> {
        let b = &self.ops[i];
        let got = std::mem::take(&mut self.read_buf[w]);
        check_completion(
            b,
            &mut self.shadow[w],
            got,
            self.page_bytes,
            self.plane_stride,
        )
        .map_err(|e| format!("op {}: {e}", b.op.id))?;
        self.done += 1;
        Ok(())
    }
}
