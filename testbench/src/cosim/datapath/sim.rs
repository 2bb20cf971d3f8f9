//! The randomized three-way co-simulation run (`make sim`, and its short form in `make test`):
//! a fio job drawn from the seed, the behavioural execution as reference, the Verilator
//! execution checked against it by the scoreboard, with cycles per wall-second, transactions
//! checked and mismatches reported. Wall time is measured here only to print the speed figure.

use super::exec::{run, RunLimits};
use super::hw_exec::VerilatorExec;
use super::model_exec::{map_cache_config, ModelExec};
use super::port::{CplRec, Streams};
use super::scoreboard::{compare, Divergence};
use super::setup::{preload_precondition, stimulus};
use crate::workload::stats::LatencyHist;
use rand::Rng;
use ssdlab_hdl::nand::op::{unpack_op, HdlOp};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::nvme::frontend::tlp::CLOCK_PS;
use ssdlab_model::rng::SeedTree;
use std::fmt;
use std::path::Path;
use std::time::Instant;

/// Queue depths the randomized runs draw from.
pub const QUEUE_DEPTHS: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// A random mixed job from `seed`: randrw, 30-90 % reads, 4-32 KiB blocks, over the whole
/// drive (preconditioned), at a queue depth drawn from [`QUEUE_DEPTHS`].
pub fn random_job(seed: u64) -> String {
    let mut r = SeedTree::new(seed).stream("cosim_job", 0);
    let bs = [4, 8, 16, 32][r.gen_range(0..4)];
    let mix = r.gen_range(30..=90);
    let qd = QUEUE_DEPTHS[r.gen_range(0..QUEUE_DEPTHS.len())];
    job(bs, mix, qd)
}

/// The random job of `seed` at queue depth `iodepth` instead of the drawn one.
pub fn random_job_at(seed: u64, iodepth: u32) -> String {
    let mut r = SeedTree::new(seed).stream("cosim_job", 0);
    let bs = [4, 8, 16, 32][r.gen_range(0..4)];
    job(bs, r.gen_range(30..=90), iodepth)
}

fn job(bs_k: u32, read_pct: u32, iodepth: u32) -> String {
    format!("[rand]\nrw=randrw\nrwmixread={read_pct}\nbs={bs_k}k\niodepth={iodepth}\nnumber_ios=100000000\n")
}

/// What a co-simulation run measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub seed: u64,
    pub job: String,
    pub cycles: u64,
    pub wall_s: f64,
    pub transactions: usize,
    pub completions: usize,
    pub worst_time: f64,
    pub worst_nand: f64,
    /// Program/erase suspends of the reference (the scoreboard checks the other's count).
    pub suspends: u64,
    pub divergence: Option<Divergence>,
    /// The host's view of the hardware execution's I/O commands.
    pub io: IoFigures,
    /// 4 KiB units of read data compared end to end ([`three_way_reading_data`]).
    pub units_checked: u64,
    /// NAND programs of the hardware execution: all, and those one-shot (a TLC program's
    /// pages, the op word's page field above 1).
    pub programs: (usize, usize),
}

/// I/O commands (queues other than the admin queue) as the host saw them complete, counted
/// as fio counts them: from the end of the job's `ramp_time` on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IoFigures {
    /// Commands completed inside the window.
    pub ios: usize,
    /// From the start of the window (the first I/O submission plus the ramp) to the last I/O
    /// completion, cycles.
    pub span_cycles: u64,
    /// Completion latency (submission to completion) of the commands counted: the mean, cycles,
    /// and the 99th percentile, ns, as `ssdlab run` and fio report it (nearest rank in a
    /// histogram of 64 buckets per power of two, its bucket's midpoint: `workload::stats`).
    pub mean_cycles: f64,
    pub p99_ns: u64,
}

impl IoFigures {
    /// The figures of the I/O completions in `cpl` at or after `ramp_cycles` past the first
    /// I/O submission (fio resets its statistics at the end of `ramp_time`).
    pub fn of(cpl: &[CplRec], ramp_cycles: u64) -> IoFigures {
        let Some(first) = cpl
            .iter()
            .filter(|c| c.sqid != 0)
            .map(|c| c.submitted)
            .min()
        else {
            return IoFigures::default();
        };
        let start = first.saturating_add(ramp_cycles);
        let io: Vec<&CplRec> = cpl
            .iter()
            .filter(|c| c.sqid != 0 && c.cycle >= start)
            .collect();
        let Some(last) = io.iter().map(|c| c.cycle).max() else {
            return IoFigures::default();
        };
        let mut hist = LatencyHist::default();
        let mut sum = 0u64;
        for c in &io {
            let lat = c.cycle - c.submitted;
            sum += lat;
            hist.record(lat * CLOCK_PS / 1000);
        }
        IoFigures {
            ios: io.len(),
            span_cycles: last - start,
            mean_cycles: sum as f64 / io.len() as f64,
            p99_ns: hist.percentile_ns(99.0),
        }
    }

    /// I/O commands per second at the PCIe clock (`CLOCK_PS` per cycle).
    pub fn iops(&self) -> f64 {
        self.ios as f64 / (self.span_cycles.max(1) as f64 * CLOCK_PS as f64 * 1e-12)
    }
}

impl Report {
    pub fn cycles_per_s(&self) -> f64 {
        self.cycles as f64 / self.wall_s.max(1e-9)
    }
    pub fn mismatches(&self) -> usize {
        self.divergence.is_some() as usize
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "seed {}, job: {}",
            self.seed,
            self.job.replace('\n', " ")
        )?;
        writeln!(
            f,
            "verilator: {} cycles in {:.2} s wall = {:.0} cycles/s",
            self.cycles,
            self.wall_s,
            self.cycles_per_s()
        )?;
        writeln!(f, "transactions checked: {} ({} completions); worst completion-latency difference {:.3} %, NAND op time {:.3} %", self.transactions, self.completions, 100.0 * self.worst_time, 100.0 * self.worst_nand)?;
        if self.suspends > 0 {
            writeln!(f, "program/erase suspends: {}", self.suspends)?;
        }
        let us = |c: f64| c * CLOCK_PS as f64 * 1e-6;
        writeln!(
            f,
            "host: {} I/Os, {:.0} IO/s, latency mean {:.1} us, p99 {:.1} us",
            self.io.ios,
            self.io.iops(),
            us(self.io.mean_cycles),
            self.io.p99_ns as f64 / 1e3
        )?;
        if self.programs.1 > 0 {
            writeln!(
                f,
                "NAND programs: {}, of them one-shot: {}",
                self.programs.0, self.programs.1
            )?;
        }
        if self.units_checked > 0 {
            writeln!(
                f,
                "read data: {} units compared with what was written, all equal",
                self.units_checked
            )?;
        }
        write!(f, "mismatches: {}", self.mismatches())?;
        if let Some(d) = &self.divergence {
            write!(f, "\n{d}")?;
        }
        Ok(())
    }
}

/// Runs `job` from `seed` on the model and on the Verilated `verilog` (the datapath's
/// `module top`), optionally writing a VCD waveform, and compares them.
pub fn three_way(
    cfg: &DriveConfig,
    job: &str,
    lim: RunLimits,
    verilog: &str,
    vcd: Option<&Path>,
) -> Result<Report, String> {
    three_way_inner(cfg, job, lim, verilog, vcd, false)
}

/// [`three_way`] with the data checked end to end on the Verilator side: its NAND targets
/// hold the precondition's data where the FTL put it ([`preload_precondition`]) and every read
/// command's data reaching host memory is compared with what was written there
/// (`HostDriver::check_read_data`). For jobs whose data stays where the host put it: no
/// relocation, whose data the co-simulation firmware does not move between regions.
pub fn three_way_reading_data(
    cfg: &DriveConfig,
    job: &str,
    lim: RunLimits,
    verilog: &str,
) -> Result<Report, String> {
    three_way_inner(cfg, job, lim, verilog, None, true)
}

fn three_way_inner(
    cfg: &DriveConfig,
    job: &str,
    lim: RunLimits,
    verilog: &str,
    vcd: Option<&Path>,
    read_data: bool,
) -> Result<Report, String> {
    let (mut fw, mut host) = stimulus(cfg, job, lim.seed, true)?;
    let mut mx = ModelExec::new(cfg)?;
    let want = run(&mut mx, &mut fw, &mut host, lim)?;
    // The hardware run issues exactly the commands the reference issued before `submit_until`
    // (a cycle cut-off would depend on its own timing).
    let ios = host.issued();
    let (fw, host) = stimulus(cfg, job, lim.seed, true)?;
    let (mut fw, mut host) = if read_data {
        (fw.without_relocation(), host.check_read_data())
    } else {
        (fw, host)
    };
    host.limit_ios(ios);
    let lim = RunLimits {
        submit_until: u64::MAX,
        ..lim
    };
    let line = map_cache_config().line_entries;
    let mut vx = VerilatorExec::verilated(cfg, verilog, line, vcd).map_err(|e| e.to_string())?;
    if read_data {
        preload_precondition(&host, &fw, &mut vx);
    }
    let t0 = Instant::now();
    let got = run(&mut vx, &mut fw, &mut host, lim)?;
    let wall_s = t0.elapsed().as_secs_f64();
    let (c, divergence) = match compare(&want, &got, lim.seed) {
        Ok(c) => (c, None),
        Err(d) => (Default::default(), Some(d)),
    };
    let (transactions, worst_time, worst_nand) = (c.transactions, c.worst_time, c.worst_nand);
    Ok(Report {
        seed: lim.seed,
        job: job.to_string(),
        cycles: got.cycles,
        wall_s,
        transactions,
        completions: got.cpl.len(),
        worst_time,
        worst_nand,
        suspends: want.suspends,
        divergence,
        io: IoFigures::of(&got.cpl, host.ramp_cycles()),
        units_checked: host.units_checked,
        programs: programs(&got),
    })
}

/// NAND programs of `s`, all and one-shot ([`Report::programs`]).
fn programs(s: &Streams) -> (usize, usize) {
    let progs: Vec<HdlOp> = s
        .nand
        .iter()
        .map(|n| unpack_op(n.op))
        .filter(|o| o.kind == NandOpKind::Program)
        .collect();
    (progs.len(), progs.iter().filter(|o| o.pages > 1).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpl(sqid: u16, submitted: u64, cycle: u64) -> CplRec {
        CplRec {
            sqid,
            cid: 0,
            status: 0,
            submitted,
            cycle,
        }
    }

    /// First I/O submitted at cycle 100; with a ramp of 1000 cycles the window starts at 1100:
    /// the completion at 900 is not counted, those at 1100 and 2100 are (latencies 1000 and
    /// 1500 cycles, 4000 and 6000 ns), over 2100 - 1100 = 1000 cycles = 4 us at 4 ns, so
    /// 2 / 4 us = 500 000 IO/s. The p99 is the second latency's histogram bucket: 6000 ns lies
    /// in 4096..8192, buckets of 64 ns, 93 x 64 = 5952 .. 6015, midpoint 5952 + 31 = 5983 ns.
    /// The admin command (queue 0) counts in neither.
    #[test]
    fn completions_before_the_ramp_ends_are_not_counted() {
        let c = [
            cpl(0, 0, 50),
            cpl(1, 100, 900),
            cpl(1, 100, 1100),
            cpl(2, 600, 2100),
        ];
        let f = IoFigures::of(&c, 1000);
        assert_eq!((f.ios, f.span_cycles, f.p99_ns), (2, 1000, 5983));
        assert_eq!(f.mean_cycles, 1250.0);
        assert!((f.iops() - 500_000.0).abs() < 1e-6, "{f:?}");
        let all = IoFigures::of(&c, 0);
        assert_eq!((all.ios, all.span_cycles, all.p99_ns), (3, 2000, 5983));
    }
}
