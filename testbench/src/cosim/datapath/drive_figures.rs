//! The drive's own host figures for a co-simulated job, to set beside the Verilated datapath's
//! (`make sim PRESET=NAME`): what `ssdlab run --precondition sequential` reports for the same
//! fio job file on the same drive config and seed, typically run for a fixed span of simulated
//! time after a ramp ([`timed_job`]: fio `time_based`, `ramp_time`, `runtime`,
//! `group_reporting`: all clones as one). The drive is the calibrated
//! `Drive`, whose data moves through DRAM; the datapath's through its page buffer, so the
//! two differ where DRAM matters (docs/hdl.md, "A preset's datapath").

use crate::fio::parse_job_file;
use crate::protocol::schema::Pattern;
use crate::workload::drive_adapter::open_drive;
use crate::workload::unwritten::precondition_jobs;
use crate::workload::{run_jobs, Quiet};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::rng::SeedTree;

/// A job's figures over its run, all clones together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostFigures {
    /// I/O commands completed per second of simulated time.
    pub iops: f64,
    /// Completion latency, mean and 99th percentile, microseconds.
    pub mean_us: f64,
    pub p99_us: f64,
}

/// The fio job file `job` run on a drive of `cfg` from `seed` after a sequential functional
/// fill of its region: the first group's reads and writes together, over its measurement
/// window (from the end of `ramp_time` to the last completion).
pub fn drive_figures(cfg: &DriveConfig, job: &str, seed: u64) -> Result<HostFigures, String> {
    let jobs = parse_job_file(job, "co-simulated job").map_err(|e| e.to_string())?;
    let seeds = SeedTree::new(seed);
    let mut dev = open_drive(cfg, seed, "co-simulated drive").map_err(|e| e.to_string())?;
    precondition_jobs(&mut dev, &jobs, Pattern::Sequential, &seeds, &mut Quiet)
        .map_err(|e| e.to_string())?;
    let groups = run_jobs(&mut dev, &jobs, "co-simulated job", &seeds, &mut Quiet)
        .map_err(|e| e.to_string())?;
    let g = groups.first().ok_or("the job file ran no group")?;
    let (mut all, w) = g.totals();
    all.merge(&w);
    let runtime = g.jobs.iter().map(|j| j.runtime).max().unwrap_or_default();
    Ok(HostFigures {
        iops: all.iops(runtime),
        mean_us: all.lat.mean_ns() / 1e3,
        p99_us: all.lat.percentile_ns(99.0) as f64 / 1e3,
    })
}

/// `job` with timing options after every section header: `time_based=1`, `ramp_time` of
/// `ramp_us` (when not 0: fio counts nothing before its end, and the runtime starts there),
/// `runtime` of `runtime_us` and `group_reporting=1`. The job file `make sim` gives both the
/// co-simulation and [`drive_figures`], and `ssdlab run` for the same figures.
pub fn timed_job(job: &str, ramp_us: u64, runtime_us: u64) -> String {
    let ramp = match ramp_us {
        0 => String::new(),
        r => format!("ramp_time={r}us\n"),
    };
    let opts = format!("time_based=1\n{ramp}runtime={runtime_us}us\ngroup_reporting=1\n");
    job.lines()
        .flat_map(|l| {
            let header = l.trim_start().starts_with('[');
            [
                l.to_string() + "\n",
                if header { opts.clone() } else { String::new() },
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_options_follow_each_section_header() {
        let j = timed_job("[a]\nrw=read\n[b]\nrw=write\n", 0, 5000);
        assert_eq!(
            j,
            "[a]\ntime_based=1\nruntime=5000us\ngroup_reporting=1\nrw=read\n[b]\ntime_based=1\nruntime=5000us\ngroup_reporting=1\nrw=write\n"
        );
        let j = timed_job("[a]\nrw=read\n", 300, 5000);
        assert_eq!(
            j,
            "[a]\ntime_based=1\nramp_time=300us\nruntime=5000us\ngroup_reporting=1\nrw=read\n"
        );
    }
}
