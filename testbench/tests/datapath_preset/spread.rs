//! How far the datapath and the drive are apart on a job whose figures depend on the order of
//! events, beyond one run's luck. A random-read p99 at QD128 is set by the few dozen commands
//! behind the longest die queues of the window, and which commands those are moves with any
//! timing: on sm2262-512g one nanosecond more of firmware time per command moved the drive's
//! own p99 by up to 12.6 % (651.3 to 733.2 us) over a 10 ms window. So one `make sim` row says
//! little about such a figure; the spread of the errors over a set of such nudges, given to
//! both sides alike, says how the two compare.
//!
//! `sim_spread` (a test of `datapath_preset`, whose `make sim` helpers it shares) runs the job
//! on the datapath's model execution (which the Verilated RTL matches event by event in `make
//! sim`: this skips Verilator) and on the drive, at
//! `controller.cpu_ns_per_cmd` = the preset's value + k ns for k in -N..=N, and prints each
//! point's errors and their mean, smallest and largest:
//!
//!     SSDLAB_SIM_PRESET=sm2262-512g SSDLAB_SPREAD_JOB=randread SSDLAB_SPREAD_NS=10 \
//!       cargo test --release -p ssdlab-testbench --test datapath_preset -- --ignored sim_spread --nocapture
//!
//! `SSDLAB_SPREAD_JOB` is one of `make sim`'s jobs (default randread); `SSDLAB_SPREAD_NS` is N
//! (default 10); `SSDLAB_SEED`, `SSDLAB_SIM_RAMP_US` and `SSDLAB_SIM_RUNTIME_US` as for
//! `make sim`.

use super::{clones, env_in, pct_err, sim_limits, us, SIM_JOBS};
use ssdlab_testbench::cosim::datapath::drive_figures::{drive_figures, timed_job};
use ssdlab_testbench::cosim::datapath::setup::{preset_config_with, run_model};
use ssdlab_testbench::cosim::datapath::sim::IoFigures;

/// Errors of the datapath against the drive, in %: IO/s, mean latency, p99 latency.
type Errors = [f64; 3];

#[test]
#[ignore]
fn sim_spread() {
    let preset = std::env::var("SSDLAB_SIM_PRESET").unwrap_or_else(|_| "sm2262-512g".into());
    let rw = std::env::var("SSDLAB_SPREAD_JOB").unwrap_or_else(|_| "randread".into());
    let &(rw, bs_kib, numjobs) = SIM_JOBS
        .iter()
        .find(|j| j.0 == rw)
        .unwrap_or_else(|| panic!("SSDLAB_SPREAD_JOB: no job `{rw}` (jobs: {SIM_JOBS:?})"));
    let n = env_in("SSDLAB_SPREAD_NS", 10, 0..=1000) as i64;
    let ramp_us = env_in("SSDLAB_SIM_RAMP_US", 10_000, 0..=1_000_000);
    let runtime_us = env_in("SSDLAB_SIM_RUNTIME_US", 10_000, 1..=1_000_000);
    let seed = env_in("SSDLAB_SEED", 1, 0..=u64::MAX);
    let job = clones(rw, bs_kib, 32, numjobs, 1 << 20);
    let timed = timed_job(&job, ramp_us, runtime_us);
    let base = preset_config_with(&preset, &[]).unwrap_or_else(|e| panic!("{e}"));
    let base_ns = base.controller.cpu_ns_per_cmd;
    println!("{preset}, seed {seed}, {rw} {bs_kib} KiB QD32 x {numjobs}, {ramp_us} us ramp + {runtime_us} us: the datapath's model execution against the drive");
    println!("| cpu_ns_per_cmd | drive IO/s | datapath IO/s | drive mean / p99 | datapath mean / p99 | error IO/s / mean / p99 |");
    println!("|---|---|---|---|---|---|");
    let mut all: Vec<Errors> = Vec::new();
    for k in -n..=n {
        let ns = base_ns + k as f64;
        let sets = [format!("controller.cpu_ns_per_cmd={ns}")];
        let cfg = preset_config_with(&preset, &sets).unwrap_or_else(|e| panic!("{e}"));
        let lim = sim_limits(ramp_us, runtime_us, seed);
        let s = run_model(&cfg, &timed, lim, true).unwrap_or_else(|e| panic!("{e}"));
        let io = IoFigures::of(&s.cpl, ramp_us * 250);
        let d = drive_figures(&cfg, &timed, seed).unwrap_or_else(|e| panic!("{e}"));
        let (mean, p99) = (us(io.mean_cycles), io.p99_ns as f64 / 1e3);
        let e = [
            pct_err(io.iops(), d.iops),
            pct_err(mean, d.mean_us),
            pct_err(p99, d.p99_us),
        ];
        println!(
            "| {ns} | {:.0} | {:.0} | {:.1} / {:.1} us | {mean:.1} / {p99:.1} us | {:+.1} / {:+.1} / {:+.1} % |",
            d.iops,
            io.iops(),
            d.mean_us,
            d.p99_us,
            e[0],
            e[1],
            e[2]
        );
        all.push(e);
    }
    println!(
        "\n| error over {} points | mean | smallest | largest |",
        all.len()
    );
    println!("|---|---|---|---|");
    for (i, name) in ["IO/s", "mean latency", "p99 latency"].iter().enumerate() {
        let v: Vec<f64> = all.iter().map(|e| e[i]).collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        println!("| {name} | {mean:+.1} % | {lo:+.1} % | {hi:+.1} % |");
    }
}
