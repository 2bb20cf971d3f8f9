//! Builds a stonewall group's clones (`numjobs` per job): each clone's region, files, random
//! streams (from the job's `randseed` or the run's seed tree), limits and rate schedule.

use super::draws::{clone_stream, Draws};
use super::regions::{clone_region, file_regions};
use super::{latency, time_overflow, verify, Clone};
use crate::error::InputError;
use crate::fio::{JobSpec, SizeSpec};
use crate::workload::device::Device;
use crate::workload::rate::{MinRate, RateLimiter};
use crate::workload::stats::DirStats;
use ssdlab_model::{SeedTree, SimTime};

pub(super) fn make_clones(
    dev: &dyn Device,
    jobs: &[JobSpec],
    members: &[usize],
    seeds: &SeedTree,
    t0: SimTime,
) -> Result<Vec<Clone>, InputError> {
    let mut clones = Vec::new();
    for &ji in members {
        for k in 0..jobs[ji].numjobs {
            let queue = (clones.len() % dev.io_queues() as usize) as u16;
            clones.push(make_clone(dev, &jobs[ji], (ji, k), queue, seeds, t0)?);
        }
    }
    Ok(clones)
}

/// Clone `k` of job `ji` (`j`), on NVMe queue `queue`, starting at `t0`.
fn make_clone(
    dev: &dyn Device,
    j: &JobSpec,
    (ji, k): (usize, u32),
    queue: u16,
    seeds: &SeedTree,
    t0: SimTime,
) -> Result<Clone, InputError> {
    let (start, len) = clone_region(j, k, dev.capacity_bytes()).expect("checked in run_jobs");
    let stream = clone_stream(j, (ji, k), seeds);
    let files = file_regions(j, (start, len)).expect("checked in run_jobs");
    let draws = Draws::new(j, &files, &stream);
    let fresh = (j.loops > 1 && !j.time_based).then(|| Box::new(draws.clone()));
    Ok(Clone {
        job: ji,
        idx: k,
        queue,
        draws,
        outstanding: 0,
        loops_left: if fresh.is_some() { j.loops - 1 } else { 0 },
        fresh,
        draining: false,
        unreaped: Vec::new(),
        samples: j.logs.any().then(Vec::new),
        verify: j.verify.is_some().then(verify::Verify::new),
        steady: crate::workload::steady::Steady::new(&j.steady, t0),
        totals: (0, 0, 0, 0),
        lat_target: latency::LatTarget::new(&j.latency, j.iodepth, t0),
        stats_from: SimTime::ZERO,
        batch: j.batch,
        low_drain: false,
        limit_bytes: (!j.time_based).then_some(j.io_size.unwrap_or(match (j.filesize, j.size) {
            (Some(_), Some(SizeSpec::Bytes(b))) if b > 0 => b,
            _ => len,
        })),
        number_ios: j.number_ios,
        deadline: j
            .runtime
            .map(|r| t0.add_limited(j.ramp_time)?.add_limited(r))
            .map(|d| d.ok_or_else(|| time_overflow(j)))
            .transpose()?,
        thinktime: j.thinktime,
        free_slots: j.iodepth,
        issued_ios: 0,
        issued_bytes: 0,
        finished: false,
        last_completion: t0,
        read: DirStats::default(),
        write: DirStats::default(),
        rate: RateLimiter::new(j, t0, stream),
        held: None,
        min_rate: MinRate::new(&j.rate, t0),
        failed: None,
    })
}
