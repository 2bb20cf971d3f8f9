//! Builds a stonewall group's clones (`numjobs` per job): each clone's region, files, random
//! streams (from the job's `randseed` or the run's seed tree), limits and rate schedule.

use super::regions::{clone_region, file_regions};
use super::{latency, time_overflow, verify, Clone, DirGen};
use crate::error::InputError;
use crate::fio::{JobSpec, SizeSpec};
use crate::workload::device::Device;
use crate::workload::rate::{MinRate, RateLimiter};
use crate::workload::stats::DirStats;
use ssdlab_model::rng::ModelRng;
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
    let (read_gen, write_gen, mix) = (
        clone_gens(j, &files, true, &stream),
        clone_gens(j, &files, false, &stream),
        stream("mix"),
    );
    let fresh = (j.loops > 1 && !j.time_based)
        .then(|| Box::new((read_gen.clone(), write_gen.clone(), mix.clone())));
    Ok(Clone {
        job: ji,
        idx: k,
        queue,
        read_gen,
        write_gen,
        file: 0,
        mix,
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
        read_pct: j.rw.read_pct(j.rwmixread),
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

/// The random streams of clone `k` of job `ji`, named by purpose: from the job's `randseed`, or
/// the run's seed tree.
fn clone_stream(j: &JobSpec, (ji, k): (usize, u32), seeds: &SeedTree) -> impl Fn(&str) -> ModelRng {
    let tree = match j.randseed {
        Some(s) => SeedTree::new(s),
        None => *seeds,
    };
    let name = j.name.clone();
    move |what: &str| tree.stream(&format!("fio/{name}/{what}"), ji as u64 * 4096 + k as u64)
}

/// One direction's generators of a clone, one per file; file 0 keeps the job's stream names.
fn clone_gens(
    j: &JobSpec,
    files: &[(u64, u64)],
    read: bool,
    stream: &impl Fn(&str) -> ModelRng,
) -> Vec<DirGen> {
    files
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let s = move |what: &str| match i {
                0 => stream(what),
                _ => stream(&format!("{what}/file{i}")),
            };
            DirGen::new(j, *r, read, s)
        })
        .collect()
}
