//! The randomized three-way co-simulation run (`make sim`, and its short form in `make test`):
//! a fio job drawn from the seed, the behavioural execution as reference, the Verilator
//! execution checked against it by the scoreboard, with cycles per wall-second, transactions
//! checked and mismatches reported. Wall time is measured here only to print the speed figure.

use super::exec::{run, RunLimits};
use super::hw_exec::VerilatorExec;
use super::model_exec::{map_cache_config, ModelExec};
use super::scoreboard::{compare, Divergence};
use super::setup::stimulus;
use rand::Rng;
use ssdlab_model::config::DriveConfig;
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
    let (mut fw, mut host) = stimulus(cfg, job, lim.seed, true)?;
    let mut mx = ModelExec::new(cfg)?;
    let want = run(&mut mx, &mut fw, &mut host, lim)?;
    // The hardware run issues exactly the commands the reference issued before `submit_until`
    // (a cycle cut-off would depend on its own timing).
    let ios = host.issued();
    let (mut fw, mut host) = stimulus(cfg, job, lim.seed, true)?;
    host.limit_ios(ios);
    let lim = RunLimits {
        submit_until: u64::MAX,
        ..lim
    };
    let line = map_cache_config().line_entries;
    let mut vx = VerilatorExec::verilated(cfg, verilog, line, vcd).map_err(|e| e.to_string())?;
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
    })
}
