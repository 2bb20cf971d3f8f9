//! The workloads of `make bench` (`examples/bench.rs`): a drive of the default preset
//! (`sm2262-512g`) preconditioned with functional writes, then a closed loop at a fixed queue
//! depth of one access pattern, timed in wall and CPU seconds.

use rand::Rng;
use ssdlab_model::drive::{Drive, HostIo, IoCompletion, IoOp};
use ssdlab_model::rng::ModelRng;
use ssdlab_model::{DriveConfig, SeedTree};
use std::time::Instant;

/// How a drive is preconditioned before the timed loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precondition {
    /// One sequential write of the whole exported capacity: reads hit NAND, laid out in order.
    Filled,
    /// Filled, then `n` passes of 4 KiB random overwrites (one pass = capacity / 4 KiB writes):
    /// one pass scatters the mapping, two reach steady state (GC at its long-run WA).
    Overwritten(u32),
}

/// One access pattern at a fixed queue depth.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Percent of IOs that are reads (the rest are writes).
    pub read_pct: u32,
    pub block_bytes: u64,
    /// Sequential (each IO starts where the previous one ended) or uniform random.
    pub sequential: bool,
    pub qd: u32,
}

/// One row of the benchmark table.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub name: &'static str,
    pub what: &'static str,
    pub pre: Precondition,
    pub pattern: Pattern,
    /// Simulated IOs timed (after a warm-up of `ios / 20`, at least 1000).
    pub ios: u64,
}

const fn pat(read_pct: u32, block_bytes: u64, sequential: bool) -> Pattern {
    Pattern {
        read_pct,
        block_bytes,
        sequential,
        qd: 32,
    }
}

/// The table's workloads, in order.
pub const WORKLOADS: [Workload; 6] = [
    Workload {
        name: "randread-fresh",
        what: "4 KiB random read QD32, filled drive",
        pre: Precondition::Filled,
        pattern: pat(100, 4096, false),
        ios: 300_000,
    },
    Workload {
        name: "randread-overwritten",
        what: "4 KiB random read QD32, after a random overwrite",
        pre: Precondition::Overwritten(1),
        pattern: pat(100, 4096, false),
        ios: 300_000,
    },
    Workload {
        name: "randwrite-steady",
        what: "4 KiB random write QD32, steady state (GC on)",
        pre: Precondition::Overwritten(2),
        pattern: pat(0, 4096, false),
        ios: 300_000,
    },
    Workload {
        name: "seqread-128k",
        what: "128 KiB sequential read QD32, filled drive",
        pre: Precondition::Filled,
        pattern: pat(100, 128 << 10, true),
        ios: 40_000,
    },
    Workload {
        name: "seqwrite-128k",
        what: "128 KiB sequential write QD32, filled drive",
        pre: Precondition::Filled,
        pattern: pat(0, 128 << 10, true),
        ios: 40_000,
    },
    Workload {
        name: "mix-70-30",
        what: "4 KiB random 70 % read / 30 % write QD32, after a random overwrite",
        pre: Precondition::Overwritten(1),
        pattern: pat(70, 4096, false),
        ios: 300_000,
    },
];

/// What one timed loop measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measured {
    pub ios: u64,
    pub wall_s: f64,
    pub cpu_s: f64,
    pub sim_s: f64,
    /// NAND units written / host units written in the timed loop (0 without writes).
    pub wa: f64,
    /// Wall and CPU seconds of drive construction and preconditioning.
    pub setup_s: f64,
    pub setup_cpu_s: f64,
    pub integrity_violations: u64,
}

/// Process CPU time (user + system) in seconds.
pub fn cpu_secs() -> f64 {
    // SAFETY: `rusage` is plain integers, for which all-zero bytes are a valid value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct we pass; RUSAGE_SELF is always valid.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// A default-preset drive, preconditioned as `pre` says (seed 1 for every random choice).
pub fn prepared_drive(pre: Precondition) -> Drive {
    let cfg = DriveConfig::default_drive();
    let mut d = Drive::new(&cfg, 1).expect("the default preset is valid");
    let cap = d.capacity_bytes();
    d.functional_write(0, cap)
        .expect("the whole capacity is a valid range");
    if let Precondition::Overwritten(passes) = pre {
        let mut rng = SeedTree::new(1).stream("bench-precondition", 0);
        let units = cap / 4096;
        let mut offsets = Vec::with_capacity(1 << 16);
        for _ in 0..passes {
            let mut left = units;
            while left > 0 {
                let c = left.min(1 << 16);
                offsets.clear();
                offsets.extend((0..c).map(|_| rng.gen_range(0..units) * 4096));
                d.functional_write_many(&offsets, 4096)
                    .expect("offsets drawn inside the capacity");
                left -= c;
            }
        }
    }
    d
}

/// Issues the IOs of one pattern: offsets and read/write choices from one stream.
struct Issuer {
    pattern: Pattern,
    rng: ModelRng,
    cursor: u64,
    /// Block-aligned span the IOs cover: the whole exported capacity.
    blocks: u64,
    queues: u64,
    submitted: u64,
}

impl Issuer {
    fn submit(&mut self, d: &mut Drive) {
        let p = self.pattern;
        let block = if p.sequential {
            let b = self.cursor;
            self.cursor = (self.cursor + 1) % self.blocks;
            b
        } else {
            self.rng.gen_range(0..self.blocks)
        };
        let read = p.read_pct >= 100 || (p.read_pct > 0 && self.rng.gen_range(0..100) < p.read_pct);
        d.submit(HostIo {
            op: if read { IoOp::Read } else { IoOp::Write },
            offset: block * p.block_bytes,
            len: p.block_bytes,
            queue: (self.submitted % self.queues) as u16,
        })
        .expect("a block-aligned IO inside the capacity, at most QD32 outstanding");
        self.submitted += 1;
    }
}

/// Keeps `qd` IOs outstanding until `n` more complete; returns the completions seen.
fn closed_loop(d: &mut Drive, is: &mut Issuer, n: u64) -> u64 {
    let mut done: Vec<IoCompletion> = Vec::with_capacity(64);
    let mut completed = 0u64;
    while d.outstanding() < is.pattern.qd as u64 {
        is.submit(d);
    }
    while completed < n {
        done.clear();
        if !d.run_until_completion(&mut done) {
            break;
        }
        completed += done.len() as u64;
        for _ in 0..done.len() {
            is.submit(d);
        }
    }
    completed
}

/// Builds and preconditions the drive, warms the loop, then times `w.ios` simulated IOs.
pub fn run(w: &Workload) -> Measured {
    let (t_setup, cpu_setup) = (Instant::now(), cpu_secs());
    let mut d = prepared_drive(w.pre);
    let setup_s = t_setup.elapsed().as_secs_f64();
    let setup_cpu_s = cpu_secs() - cpu_setup;
    let mut is = Issuer {
        pattern: w.pattern,
        rng: SeedTree::new(1).stream("bench", 0),
        cursor: 0,
        blocks: d.capacity_bytes() / w.pattern.block_bytes,
        queues: d.config().nvme.io_queues as u64,
        submitted: 0,
    };
    closed_loop(&mut d, &mut is, (w.ios / 20).max(1000));
    d.reset_stats();
    let t0 = d.now();
    let (wall0, cpu0) = (Instant::now(), cpu_secs());
    let ios = closed_loop(&mut d, &mut is, w.ios);
    let wall_s = wall0.elapsed().as_secs_f64();
    let cpu_s = cpu_secs() - cpu0;
    let s = d.stats();
    Measured {
        ios,
        wall_s,
        cpu_s,
        sim_s: (d.now() - t0).as_secs_f64(),
        wa: s.write_amplification,
        setup_s,
        setup_cpu_s,
        integrity_violations: d.integrity().violations,
    }
}
