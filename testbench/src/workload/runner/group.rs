//! Runs a job file group by group (`stonewall`) and gathers each group's per-clone results
//! over its measurement window (merged with `group_reporting`).

use super::build::make_clones;
use super::closed_loop::run_clones;
use super::regions::{check_jobs, groups};
use super::{time_overflow, Clone, Observer, TimeOverflow};
use crate::error::InputError;
use crate::fio::JobSpec;
use crate::workload::device::Device;
use crate::workload::occupancy::OccupancySeries;
use crate::workload::result::{GroupResult, JobResult};
use crate::workload::stats::DirStats;
use ssdlab_model::{SeedTree, SimTime};

/// Runs all jobs of a job file on `dev`. Errors found against the device name each job's own file
/// and line (`JobSpec::file`, which may be an included file); `_file` is kept for callers.
pub fn run_jobs(
    dev: &mut dyn Device,
    jobs: &[JobSpec],
    _file: &str,
    seeds: &SeedTree,
    obs: &mut dyn Observer,
) -> Result<Vec<GroupResult>, InputError> {
    // Check every job against the device before running anything: no partial results.
    check_jobs(dev, jobs)?;
    let mut out = Vec::new();
    for (gid, members) in groups(jobs).into_iter().enumerate() {
        out.push(run_group(dev, jobs, &members, gid, seeds, obs)?);
    }
    Ok(out)
}

/// Runs one stonewall group: its clones from now until every command completed.
fn run_group(
    dev: &mut dyn Device,
    jobs: &[JobSpec],
    members: &[usize],
    gid: usize,
    seeds: &SeedTree,
    obs: &mut dyn Observer,
) -> Result<GroupResult, InputError> {
    let t0 = dev.now();
    let ramp = members
        .iter()
        .map(|&i| jobs[i].ramp_time)
        .max()
        .unwrap_or(SimTime::ZERO);
    let late = |i: usize| time_overflow(&jobs[i]);
    let window_start = t0.add_limited(ramp).ok_or_else(|| late(members[0]))?;
    let mut clones = make_clones(dev, jobs, members, seeds, t0)?;
    let mut occupancy = OccupancySeries::default();
    let busy = run_clones(dev, &mut clones, window_start, &mut occupancy, obs)
        .map_err(|TimeOverflow(ci)| late(clones[ci].job))?;
    // fio ends a job whose rate fell below `rate_min` with an error naming the shortfall.
    if let Some(c) = clones.iter().find(|c| c.failed.is_some()) {
        let j = &jobs[c.job];
        let (file, line) = j.rate.min_at.clone().unwrap_or((j.file.clone(), j.line));
        let why = c.failed.as_deref().unwrap_or_default();
        return Err(InputError::at(
            &file,
            line,
            format!("job `{}`: {why}", j.name),
        ));
    }
    let mut g = group_result(dev, jobs, clones, gid, window_start);
    g.busy = busy;
    g.occupancy = occupancy;
    Ok(g)
}

/// Per-clone results over the measurement window (merged into one with `group_reporting`).
fn group_result(
    dev: &dyn Device,
    jobs: &[JobSpec],
    clones: Vec<Clone>,
    gid: usize,
    window_start: SimTime,
) -> GroupResult {
    let window_end = clones
        .iter()
        .map(|c| c.last_completion)
        .max()
        .unwrap_or(window_start)
        .max(window_start);
    let logs = clone_logs(jobs, &clones);
    let mut results: Vec<JobResult> = clones
        .into_iter()
        .map(|c| JobResult {
            extra: c
                .steady
                .iter()
                .map(|s| ("steadystate".to_string(), s.json()))
                .chain(
                    c.lat_target
                        .iter()
                        .flat_map(|l| l.json().map(|(k, v)| (k.to_string(), v))),
                )
                .collect(),
            name: jobs[c.job].name.clone(),
            groupid: gid,
            clone: Some(c.idx),
            spec: jobs[c.job].clone(),
            read: c.read,
            write: c.write,
            trim: DirStats::default(),
            runtime: c
                .last_completion
                .saturating_sub(window_start.max(c.stats_from)),
        })
        .collect();
    if results.iter().any(|r| r.spec.group_reporting) {
        let mut merged = results.remove(0);
        for r in &results {
            merged.merge(r);
        }
        merged.clone = None;
        results = vec![merged];
    }
    GroupResult {
        groupid: gid,
        jobs: results,
        window_start,
        window_end,
        busy: SimTime::ZERO,
        extras: dev.extras(),
        occupancy: OccupancySeries::default(),
        logs,
    }
}

/// The fio log files (`write_*_log`) of the clones that keep samples.
fn clone_logs(jobs: &[JobSpec], clones: &[Clone]) -> Vec<(String, String)> {
    let mut logs = Vec::new();
    for c in clones {
        if let Some(s) = &c.samples {
            // fio's thread_number: clones of the whole job file counted from 1.
            let n = jobs[..c.job]
                .iter()
                .map(|j| j.numjobs as usize)
                .sum::<usize>();
            let j = &jobs[c.job];
            logs.extend(crate::workload::iolog::log_files(
                &j.logs,
                &j.name,
                n + c.idx as usize + 1,
                s,
            ));
        }
    }
    logs
}
