//! Shared QD-N closed loop for the simulation-speed benchmark and the `simrate` example.

use rand::Rng;
use ssdlab_model::drive::{Drive, HostIo, IoCompletion, IoOp};
use ssdlab_model::rng::ModelRng;
use ssdlab_model::{DriveConfig, SeedTree};
use std::time::Instant;

/// Span the random IOs cover (preconditioned with functional writes so reads hit NAND).
pub const SPAN_BYTES: u64 = 8 << 30;

#[allow(dead_code)] // used by the criterion bench
pub fn prepared_drive(seed: u64) -> (Drive, u64) {
    prepared_drive_with(DriveConfig::default_drive(), seed)
}

/// The default drive with the FTL's out-of-band integrity checker off (a verification aid that
/// costs simulation time, not part of the modelled hardware).
pub fn unchecked_config() -> DriveConfig {
    let mut c = DriveConfig::default_drive();
    c.ftl.integrity_check = false;
    c
}

pub fn prepared_drive_with(cfg: DriveConfig, seed: u64) -> (Drive, u64) {
    let mut d = Drive::new(&cfg, seed).expect("default drive is valid");
    d.functional_write(0, SPAN_BYTES)
        .expect("the IO lies inside the drive");
    (d, SPAN_BYTES)
}

/// Keeps `qd` 4 KiB IOs of `op` outstanding until `n` completed; returns completions seen.
pub fn run_qd(d: &mut Drive, op: IoOp, qd: u32, n: u64, span: u64, rng: &mut ModelRng) -> u64 {
    let mut done: Vec<IoCompletion> = Vec::with_capacity(64);
    let mut submitted = 0u64;
    let mut completed = 0u64;
    let queues = d.config().nvme.io_queues as u64;
    while submitted < qd as u64 {
        d.submit(HostIo {
            op,
            offset: rng.gen_range(0..span / 4096) * 4096,
            len: 4096,
            queue: (submitted % queues) as u16,
        })
        .expect("the IO lies inside the drive");
        submitted += 1;
    }
    while completed < n {
        done.clear();
        if !d.run_until_completion(&mut done) {
            break;
        }
        for c in &done {
            completed += 1;
            if submitted < n {
                let q = (c.id.0 % queues) as u16;
                d.submit(HostIo {
                    op,
                    offset: rng.gen_range(0..span / 4096) * 4096,
                    len: 4096,
                    queue: q,
                })
                .expect("the IO lies inside the drive");
                submitted += 1;
            }
        }
    }
    completed
}

pub struct Rate {
    pub label: &'static str,
    pub op: IoOp,
    pub ios: u64,
    pub wall_s: f64,
    /// CPU time this thread got (Linux /proc/self/schedstat), when available: on a shared
    /// machine wall time overstates the cost.
    pub cpu_s: Option<f64>,
    pub sim_s: f64,
    /// Drive events handled per IO (`Drive::events_handled`).
    pub events_per_io: f64,
}

/// Nanoseconds this process has run on a CPU (Linux); None elsewhere.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

impl Rate {
    pub fn line(&self) -> String {
        let cpu = match self.cpu_s {
            Some(c) if c > 0.0 => {
                format!("{:.0} simulated IO/s per CPU-second, ", self.ios as f64 / c)
            }
            _ => String::new(),
        };
        format!(
            "4KiB rand{} QD32{}: {:.0} simulated IO/s per wall-second ({cpu}{} IOs in {:.3} s wall; simulated drive {:.0} IOPS, {:.1} events per IO)",
            if self.op == IoOp::Read { "read " } else { "write" },
            self.label,
            self.ios as f64 / self.wall_s,
            self.ios,
            self.wall_s,
            self.ios as f64 / self.sim_s,
            self.events_per_io
        )
    }
}

pub fn measure(op: IoOp, n: u64) -> Rate {
    measure_with(DriveConfig::default_drive(), "", op, n)
}

pub fn measure_with(cfg: DriveConfig, label: &'static str, op: IoOp, n: u64) -> Rate {
    let (mut d, span) = prepared_drive_with(cfg, 1);
    let mut rng = SeedTree::new(1).stream("bench", 0);
    // Warm the loop (allocations, caches) before timing.
    run_qd(&mut d, op, 32, 5_000, span, &mut rng);
    d.reset_stats();
    let t0 = d.now();
    let ev0 = d.events_handled();
    let cpu0 = cpu_ns();
    let start = Instant::now();
    let ios = run_qd(&mut d, op, 32, n, span, &mut rng);
    let wall_s = start.elapsed().as_secs_f64();
    let cpu_s = cpu0.zip(cpu_ns()).map(|(a, b)| (b - a) as f64 / 1e9);
    Rate {
        label,
        op,
        ios,
        wall_s,
        cpu_s,
        sim_s: (d.now() - t0).as_secs_f64(),
        events_per_io: (d.events_handled() - ev0) as f64 / ios.max(1) as f64,
    }
}
