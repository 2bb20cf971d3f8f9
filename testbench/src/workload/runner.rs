//! The closed-loop fio workload runner.
//!
//! Each job clone (`numjobs`) keeps `iodepth` commands outstanding on its own NVMe queue
//! (clone k of a group uses queue k mod io_queues). A completion frees a slot, immediately or
//! after `thinktime`; with `rate`/`rate_iops` an IO waits in its slot for its start time
//! (`rate.rs`). A clone stops issuing when it has moved `size` bytes (unless
//! `time_based`), issued `number_ios` commands, or passed `ramp_time + runtime`; commands already
//! outstanding complete and count. Completions before the end of `ramp_time` are not counted and
//! the device's statistics are reset at that instant. Jobs up to a `stonewall` run together as
//! one group; the next group starts when every command of the previous one has completed.

use super::device::{Completion, Device, Io, Op};
use super::occupancy::OccupancySeries;
use super::offsets::OffsetGen;
use super::rate::{MinRate, RateLimiter};
use super::result::{BusyMeter, GroupResult, JobResult};
use super::stats::DirStats;
use crate::error::InputError;
use crate::fio::{JobSpec, SizeSpec};
use rand::Rng;
use ssdlab_model::rng::ModelRng;
use ssdlab_model::{SeedTree, SimTime};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

mod latency;
mod reap;
mod verify;
pub use verify::VERIFY_TYPES;

/// Told about progress after every batch of completions.
pub trait Observer {
    fn progress(&mut self, now: SimTime, host_bytes: u64);
    /// A new phase (protocol step) starts.
    fn label(&mut self, _label: &str) {}
    /// A line for the user's log (a finished protocol step).
    fn note(&mut self, _line: &str) {}
}

/// Ignores progress.
pub struct Quiet;
impl Observer for Quiet {
    fn progress(&mut self, _: SimTime, _: u64) {}
}

struct Clone {
    job: usize,
    idx: u32,
    queue: u16,
    /// One generator per file (`nrfiles`) and direction; `file` is the next IO's file (fio's
    /// default `file_service_type=roundrobin`: one IO per file in turn).
    read_gen: Vec<DirGen>,
    write_gen: Vec<DirGen>,
    file: usize,
    mix: ModelRng,
    read_pct: u32,
    limit_bytes: Option<u64>,
    number_ios: Option<u64>,
    deadline: Option<SimTime>,
    thinktime: SimTime,
    free_slots: u32,
    /// Commands of this clone inside the device.
    outstanding: u32,
    issued_ios: u64,
    issued_bytes: u64,
    finished: bool,
    /// `loops`: passes still to start after this one, the generators each starts from (fio
    /// reseeds them per loop with its default `randrepeat=1`, so every pass repeats the first),
    /// and whether this pass ended and waits for its commands to complete.
    loops_left: u32,
    fresh: Option<Box<PassStart>>,
    draining: bool,
    /// Completed commands not yet reaped (by completion time), the batch options, and whether
    /// the clone reaps down to `iodepth_low` before issuing again (`runner/reap.rs`).
    unreaped: Vec<Completion>,
    /// Counted completions for the job's fio logs (`None` without logs).
    samples: Option<Vec<super::iolog::Sample>>,
    /// `verify`: the pass's writes and the read-back phase (`runner/verify.rs`).
    verify: Option<verify::Verify>,
    /// `steadystate` detector and the totals it samples (IOs, bytes, clat sum ns, clat count).
    steady: Option<super::steady::Steady>,
    totals: (u64, u64, u128, u64),
    /// `latency_target` search (`runner/latency.rs`) and when the statistics restarted (its
    /// final window resets them, as fio's `reset_all_stats`).
    lat_target: Option<latency::LatTarget>,
    stats_from: SimTime,
    batch: crate::fio::batch::BatchSpec,
    low_drain: bool,
    last_completion: SimTime,
    read: DirStats,
    write: DirStats,
    /// `rate` / `rate_iops` schedule, the IO drawn and waiting for its start time (op, offset,
    /// len, due), and the `rate_min` check with its failure.
    rate: Option<RateLimiter>,
    held: Option<(Op, u64, u64, SimTime)>,
    min_rate: Option<MinRate>,
    failed: Option<String>,
}

/// The generators a pass starts from: reads and writes per file, the read/write mix.
type PassStart = (Vec<DirGen>, Vec<DirGen>, ModelRng);

/// Offsets and sizes of one direction of a clone: one block size, or a `bssplit` or `bsrange`
/// drawn per IO from its own stream (offsets then on the smallest size).
#[derive(Clone)]
struct DirGen {
    offsets: OffsetGen,
    bs: u64,
    split: Vec<(u64, u32)>,
    range: Option<(u64, u64)>,
    unaligned: bool,
    pick: ModelRng,
}

impl DirGen {
    fn new(
        j: &JobSpec,
        region: (u64, u64),
        read: bool,
        stream: impl Fn(&str) -> ModelRng,
    ) -> DirGen {
        let (bs, split, range, name) = if read {
            (j.bs_read, &j.bssplit_read, j.bsrange_read, "read")
        } else {
            (j.bs_write, &j.bssplit_write, j.bsrange_write, "write")
        };
        let granule = split.iter().map(|e| e.0).min().unwrap_or(bs);
        let offsets = OffsetGen::new(
            region.0,
            region.1,
            granule,
            j.rw.is_random(),
            j.norandommap,
            stream(name),
        );
        let offsets = if j.rw.is_random() {
            offsets.skewed(&j.distribution)
        } else {
            offsets
        };
        DirGen {
            offsets,
            bs,
            split: split.clone(),
            range,
            unaligned: j.bs_unaligned,
            pick: stream(&format!("{name}/bssplit")),
        }
    }
    fn next(&mut self) -> (u64, u64) {
        let len = if let Some(r) = self.range {
            crate::fio::bs::range_len(r, self.unaligned, self.pick.gen::<f64>())
        } else if self.split.is_empty() {
            self.bs
        } else {
            let mut x = self.pick.gen_range(0..100u32);
            let e = self.split.iter().find(|e| {
                x < e.1 || {
                    x -= e.1;
                    false
                }
            });
            e.map_or(self.split[self.split.len() - 1].0, |e| e.0)
        };
        (self.offsets.next_offset_len(len), len)
    }
}

impl Clone {
    /// The latency-target search holds the depth below `iodepth` or quiesces.
    fn lat_blocks(&self) -> bool {
        self.lat_target
            .as_ref()
            .is_some_and(|l| l.quiesce || self.outstanding >= l.qd)
    }
    /// This pass moved its bytes or issued its IOs.
    fn pass_done(&self) -> bool {
        self.number_ios.is_some_and(|n| self.issued_ios >= n)
            || self.limit_bytes.is_some_and(|b| self.issued_bytes >= b)
    }
    /// The job is over: its runtime passed, or its last pass is done.
    fn limit_reached(&self, now: SimTime) -> bool {
        self.deadline.is_some_and(|d| now >= d) || (self.loops_left == 0 && self.pass_done())
    }
    /// The next pass starts once this one's commands completed (fio's `keep_running` loop:
    /// `do_io` drains, then `clear_io_state` restarts the offsets; counters start again).
    fn next_pass(&mut self) {
        if self.draining && self.outstanding == 0 {
            let (r, w, m) = *self
                .fresh
                .clone()
                .expect("loops > 1 keeps the first generators");
            (self.read_gen, self.write_gen, self.mix, self.file) = (r, w, m, 0);
            (self.issued_ios, self.issued_bytes) = (0, 0);
            self.verify_next_pass();
            self.loops_left -= 1;
            self.draining = false;
        }
    }
    /// A command of this clone completed: counted when inside the measurement window; its
    /// slot is freed (after `thinktime`) unless the clone is finished. Err when the end of the
    /// thinktime lies past the simulated-time range.
    fn complete(
        &mut self,
        ci: usize,
        comp: &Completion,
        window_start: SimTime,
        timers: &mut Timers,
    ) -> Result<(), TimeOverflow> {
        if let Some(m) = &mut self.min_rate {
            let d = usize::from(comp.op != Op::Read);
            if let Err(e) = m.completed(d, comp.len, comp.completed) {
                self.failed.get_or_insert(e);
                self.finished = true;
            }
        }
        if comp.completed >= window_start {
            let since = comp.completed - window_start;
            let lat = comp.completed - comp.submitted;
            match comp.op {
                Op::Read => self.read.record(comp.len, lat, since),
                _ => self.write.record(comp.len, lat, since),
            }
            if let Some(s) = &mut self.samples {
                s.push(super::iolog::Sample {
                    at: since,
                    dir: u8::from(comp.op != Op::Read),
                    len: comp.len,
                    lat_ns: lat.as_ps() / 1000,
                });
            }
        }
        self.last_completion = self.last_completion.max(comp.completed);
        self.outstanding -= 1;
        let t = &mut self.totals;
        let lat_ns = (comp.completed - comp.submitted).as_ps() / 1000;
        *t = (t.0 + 1, t.1 + comp.len, t.2 + lat_ns as u128, t.3 + 1);
        if let Err(e) = self.latency_sample(comp.completed - comp.submitted, comp.completed) {
            self.failed.get_or_insert(e);
            self.finished = true;
        }
        if self.finished || (self.limit_reached(comp.completed) && !self.verify_open()) {
            self.finished = true;
        } else if self.thinktime > SimTime::ZERO {
            let end = comp
                .completed
                .add_limited(self.thinktime)
                .ok_or(TimeOverflow(ci))?;
            timers.push(Reverse((end, ci)));
        } else {
            self.free_slots += 1;
        }
        Ok(())
    }
    /// The next IO: its direction by `rwmixread`, then offset and size.
    fn draw(&mut self) -> (Op, u64, u64) {
        let read = self.read_pct == 100
            || (self.read_pct > 0 && self.mix.gen_range(0..100) < self.read_pct);
        let f = self.file;
        self.file = (f + 1) % self.read_gen.len();
        let (op, (offset, len)) = if read {
            (Op::Read, self.read_gen[f].next())
        } else {
            (Op::Write, self.write_gen[f].next())
        };
        (op, offset, len)
    }
    /// Issues into free slots; an IO whose rate schedule starts it later is held, with a
    /// wake-up timer at its start time.
    fn issue(
        &mut self,
        ci: usize,
        dev: &mut dyn Device,
        inflight: &mut HashMap<u64, usize>,
        wakes: &mut Timers,
    ) {
        self.next_pass();
        while self.free_slots > 0
            && !self.finished
            && !self.draining
            && !self.low_drain
            && !self.lat_blocks()
        {
            match self.verify_step() {
                Some(verify::Step::Wait) => break,
                Some(verify::Step::Read(o, l)) => {
                    self.submit(ci, dev, inflight, (Op::Read, o, l));
                    continue;
                }
                Some(verify::Step::Done) | None => {}
            }
            if self.limit_reached(dev.now()) || self.pass_done() {
                if self.verify_pending() {
                    self.begin_verify();
                } else if self.limit_reached(dev.now()) {
                    self.finished = true;
                    break;
                } else {
                    self.draining = true;
                    self.next_pass();
                }
                continue;
            }
            let (op, offset, len, due) = match self.held.take() {
                Some(h) => h,
                None => {
                    let (op, offset, len) = self.draw();
                    let due = self
                        .rate
                        .as_mut()
                        .map_or(SimTime::ZERO, |r| r.due(usize::from(op != Op::Read)));
                    if due > dev.now() {
                        wakes.push(Reverse((due, ci)));
                    }
                    (op, offset, len, due)
                }
            };
            if self.deadline.is_some_and(|d| due >= d) {
                // Its start time is past the runtime: the clone is done (after verifying).
                if self.verify_pending() {
                    self.begin_verify();
                    continue;
                }
                self.finished = true;
                break;
            }
            if due > dev.now() {
                self.held = Some((op, offset, len, due));
                break;
            }
            if let Some(r) = &mut self.rate {
                r.issued(usize::from(op != Op::Read), len);
            }
            self.submit(ci, dev, inflight, (op, offset, len));
            if op == Op::Write {
                self.wrote(offset, len);
            }
            self.issued_ios += 1;
            self.issued_bytes += len;
        }
    }
    /// Puts one command of this clone on the device.
    fn submit(
        &mut self,
        ci: usize,
        dev: &mut dyn Device,
        inflight: &mut HashMap<u64, usize>,
        (op, offset, len): (Op, u64, u64),
    ) {
        let id = dev.submit(Io {
            op,
            offset,
            len,
            queue: self.queue,
        });
        let prev = inflight.insert(id, ci);
        assert!(prev.is_none(), "device reused IO id {id}");
        self.free_slots -= 1;
        self.outstanding += 1;
    }
}

/// Byte region `[start, start+len)` given fio-style offset and size on a device of `cap` bytes,
/// as fio's `setup_files`/`get_start_offset` compute them: `offset=N%` is N % of the device
/// rounded up to a block (`min_len`, the job's largest block size); `size=N%` is N % of the space
/// from the offset to the end; `size` absent or 0 is everything from the offset to the end.
pub fn region(
    offset: SizeSpec,
    size: Option<SizeSpec>,
    min_len: u64,
    cap: u64,
) -> Result<(u64, u64), String> {
    assert!(min_len > 0, "block size 0");
    let start = offset_bytes(offset, min_len, cap);
    if !start.is_multiple_of(512) || start >= cap {
        return Err(format!(
            "offset {start} must be 512-aligned and inside the {cap}-byte device"
        ));
    }
    let len = match size {
        None | Some(SizeSpec::Bytes(0)) => cap - start,
        Some(SizeSpec::Bytes(b)) => b,
        Some(SizeSpec::Percent(p)) => pct_of(cap - start, p),
    };
    if start.checked_add(len).is_none_or(|end| end > cap) {
        return Err(format!(
            "offset {start} + size {len} exceed the device's {cap} bytes"
        ));
    }
    if len < min_len {
        return Err(format!(
            "size {len} is smaller than one {min_len}-byte block"
        ));
    }
    Ok((start, len))
}

/// `p` % of `v` bytes, rounded down.
fn pct_of(v: u64, p: u32) -> u64 {
    (v as u128 * p as u128 / 100) as u64
}

/// An offset (or offset increment) in bytes: `N%` is N % of the `cap`-byte device rounded up to a
/// block of `block` bytes, as fio's `get_start_offset` computes it.
fn offset_bytes(s: SizeSpec, block: u64, cap: u64) -> u64 {
    match s {
        SizeSpec::Bytes(b) => b,
        SizeSpec::Percent(p) => pct_of(cap, p).div_ceil(block).saturating_mul(block),
    }
}

/// The files of a clone's region `(start, len)`: `nrfiles` regions back to back, each
/// `filesize` or the region split evenly (rounded down to the job's largest block); one file
/// when `filename` names the device, as fio caps `nrfiles` at the files named.
pub fn file_regions(j: &JobSpec, region: (u64, u64)) -> Result<Vec<(u64, u64)>, String> {
    let n = if j.filename_given {
        1
    } else {
        j.nrfiles as u64
    };
    let bs = j.max_bs();
    let fs = match j.filesize {
        Some(fs) if n > 1 => fs / 512 * 512,
        Some(fs) => fs.min(region.1),
        None => region.1 / n / bs * bs,
    };
    if fs < bs {
        return Err(format!(
            "nrfiles {n}: each file of {fs} bytes is smaller than one {bs}-byte block"
        ));
    }
    Ok((0..n).map(|i| (region.0 + i * fs, fs)).collect())
}

/// Region of a job (its first clone) on a device of `cap` bytes.
pub fn job_region(j: &JobSpec, cap: u64) -> Result<(u64, u64), String> {
    clone_region(j, 0, cap)
}

/// Region of clone `k` of a job: fio's `get_start_offset` adds k x `offset_increment` to the
/// offset (a percentage is of the device, rounded up to a block); the size is then taken from
/// that start as for any offset.
pub fn clone_region(j: &JobSpec, k: u32, cap: u64) -> Result<(u64, u64), String> {
    let bs = j.max_bs();
    let start = offset_bytes(j.offset, bs, cap)
        .saturating_add(offset_bytes(j.offset_increment, bs, cap).saturating_mul(k as u64));
    let clone = if k > 0 {
        format!("clone {k}: ")
    } else {
        String::new()
    };
    // With `filesize` the files make the region: nrfiles x filesize from the start.
    let files = if j.filename_given {
        1
    } else {
        j.nrfiles as u64
    };
    let size = match j.filesize {
        Some(fs) => Some(SizeSpec::Bytes(
            (fs / 512 * 512)
                .checked_mul(files)
                .ok_or_else(|| format!("{clone}nrfiles x filesize overflows"))?,
        )),
        None => j.size,
    };
    let r = region(SizeSpec::Bytes(start), size, bs, cap).map_err(|e| format!("{clone}{e}"))?;
    file_regions(j, r).map_err(|e| format!("{clone}{e}"))?;
    Ok(r)
}

/// Checks every job against the device (region, queue depth) before anything runs.
pub fn check_jobs(dev: &dyn Device, jobs: &[JobSpec]) -> Result<(), InputError> {
    for j in jobs {
        for k in 0..j.numjobs {
            clone_region(j, k, dev.capacity_bytes())
                .map_err(|r| InputError::at(&j.file, j.line, format!("job `{}`: {r}", j.name)))?;
        }
        if let crate::fio::distribution::Distribution::Zoned(z) = &j.distribution {
            let (_, len) = clone_region(j, 0, dev.capacity_bytes()).expect("checked above");
            let granule = j
                .bssplit_read
                .iter()
                .chain(&j.bssplit_write)
                .map(|e| e.0)
                .min();
            let bs = granule.unwrap_or(j.bs_read.min(j.bs_write));
            super::skew::zone_blocks(z, len / bs, bs)
                .map_err(|r| InputError::at(&j.file, j.line, format!("job `{}`: {r}", j.name)))?;
        }
        if j.iodepth >= dev.queue_entries() {
            let r = format!(
                "job `{}`: iodepth {} exceeds the NVMe queue ({} entries)",
                j.name,
                j.iodepth,
                dev.queue_entries()
            );
            return Err(InputError::at(&j.file, j.line, r));
        }
    }
    Ok(())
}

/// Splits jobs into stonewall groups (a job with `stonewall` starts a new group).
pub fn groups(jobs: &[JobSpec]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        if out.is_empty() || j.stonewall {
            out.push(Vec::new());
        }
        out.last_mut().expect("pushed above").push(i);
    }
    out
}

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

fn make_clones(
    dev: &dyn Device,
    jobs: &[JobSpec],
    members: &[usize],
    seeds: &SeedTree,
    t0: SimTime,
) -> Result<Vec<Clone>, InputError> {
    let mut clones = Vec::new();
    for &ji in members {
        let j = &jobs[ji];
        for k in 0..j.numjobs {
            let (start, len) =
                clone_region(j, k, dev.capacity_bytes()).expect("checked in run_jobs");
            let tree = match j.randseed {
                Some(s) => SeedTree::new(s),
                None => *seeds,
            };
            let stream = |what: &str| {
                tree.stream(
                    &format!("fio/{}/{what}", j.name),
                    ji as u64 * 4096 + k as u64,
                )
            };
            let files = file_regions(j, (start, len)).expect("checked in run_jobs");
            let gens = |read: bool| -> Vec<DirGen> {
                let s = |i: usize| {
                    move |what: &str| match i {
                        0 => stream(what),
                        _ => stream(&format!("{what}/file{i}")),
                    }
                };
                files
                    .iter()
                    .enumerate()
                    .map(|(i, r)| DirGen::new(j, *r, read, s(i)))
                    .collect()
            };
            let (read_gen, write_gen, mix) = (gens(true), gens(false), stream("mix"));
            let fresh = (j.loops > 1 && !j.time_based)
                .then(|| Box::new((read_gen.clone(), write_gen.clone(), mix.clone())));
            clones.push(Clone {
                job: ji,
                idx: k,
                queue: (clones.len() % dev.io_queues() as usize) as u16,
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
                steady: super::steady::Steady::new(&j.steady, t0),
                totals: (0, 0, 0, 0),
                lat_target: latency::LatTarget::new(&j.latency, j.iodepth, t0),
                stats_from: SimTime::ZERO,
                batch: j.batch,
                low_drain: false,
                read_pct: j.rw.read_pct(j.rwmixread),
                limit_bytes: (!j.time_based).then_some(j.io_size.unwrap_or(
                    match (j.filesize, j.size) {
                        (Some(_), Some(SizeSpec::Bytes(b))) if b > 0 => b,
                        _ => len,
                    },
                )),
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
            });
        }
    }
    Ok(clones)
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

/// A clone's times (ramp_time + runtime, a thinktime's end) left the simulated-time range.
#[derive(Debug)]
struct TimeOverflow(usize);

fn time_overflow(j: &JobSpec) -> InputError {
    InputError::at(
        &j.file,
        j.line,
        format!(
            "job `{}`: the run (ramp_time, runtime, thinktime, its IOs) passes the model's {} days of simulated time",
            j.name,
            SimTime::LIMIT_DAYS
        ),
    )
}

/// Timers of `thinktime` waits: (slot freed at, clone index), earliest first.
type Timers = BinaryHeap<Reverse<(SimTime, usize)>>;

/// The closed loop: clones issue into free slots, the device runs to the next completion or
/// timer (thinktime end, end of ramp_time when the statistics are reset), completions free
/// slots; until every clone finished and nothing is outstanding. Returns the time inside the
/// window with commands outstanding; samples the device's flash state into `occupancy` from the
/// window start on, after every step.
fn run_clones(
    dev: &mut dyn Device,
    clones: &mut [Clone],
    window_start: SimTime,
    occupancy: &mut OccupancySeries,
    obs: &mut dyn Observer,
) -> Result<SimTime, TimeOverflow> {
    let mut meter = BusyMeter::new(window_start);
    let mut reset_done = false;
    let mut timers: Timers = BinaryHeap::new();
    // Start times of IOs held by their rate schedule (nothing to do when due: issue retries).
    let mut wakes: Timers = BinaryHeap::new();
    let mut inflight: HashMap<u64, usize> = HashMap::new();
    let mut done: Vec<Completion> = Vec::new();
    let mut host_bytes = 0u64;
    loop {
        let now = dev.now();
        if !reset_done && now >= window_start {
            dev.reset_stats();
            reset_done = true;
        }
        if let Some(s) = dev.flash_state().filter(|_| reset_done) {
            occupancy.sample(now - window_start, s);
        }
        while let Some(&Reverse((t, ci))) = timers.peek() {
            if t > now {
                break;
            }
            timers.pop();
            clones[ci].free_slots += 1;
        }
        while wakes
            .peek()
            .is_some_and(|&Reverse((t, ci))| t <= now || clones[ci].finished)
        {
            wakes.pop();
        }
        for (ci, c) in clones.iter_mut().enumerate() {
            let totals = c.totals;
            if let Some(s) = c.steady.as_mut().filter(|_| !c.finished) {
                // fio ends a job whose steady-state criterion holds.
                c.finished = s.check(now, totals);
            }
            c.issue(ci, dev, &mut inflight, &mut wakes);
        }
        if !inflight.is_empty() {
            meter.outstanding(now);
        }
        let steady_due = clones
            .iter()
            .filter(|c| !c.finished)
            .filter_map(|c| c.steady.as_ref().map(|s| s.due()))
            .min();
        let mut next_timer = [timers.peek(), wakes.peek()]
            .into_iter()
            .flatten()
            .map(|r| r.0 .0)
            .chain(steady_due)
            .min();
        if !reset_done {
            next_timer = Some(next_timer.map_or(window_start, |t| t.min(window_start)));
        }
        match next_timer {
            Some(t) => dev.run_until_completion_or(t.max(now), &mut done),
            None if inflight.is_empty() => break,
            None => assert!(
                dev.run_until_completion(&mut done),
                "device lost {} outstanding IOs",
                inflight.len()
            ),
        }
        let mut last = now;
        for comp in done.drain(..) {
            let ci = inflight
                .remove(&comp.id)
                .unwrap_or_else(|| panic!("completion of unknown IO {}", comp.id));
            host_bytes += comp.len;
            last = last.max(comp.completed);
            clones[ci].arrived(comp);
        }
        // A slow drive and a long job can pass the limit too; the margin above it holds the
        // commands in flight.
        if dev.now() > SimTime::LIMIT {
            return Err(TimeOverflow(0));
        }
        for (ci, c) in clones.iter_mut().enumerate() {
            while c.reap(ci, window_start, &mut timers)? > 0 {
                c.latency_check(dev.now());
                c.issue(ci, dev, &mut inflight, &mut wakes);
            }
        }
        if inflight.is_empty() {
            meter.idle_at(last);
        }
        obs.progress(dev.now(), host_bytes);
    }
    assert!(inflight.is_empty() && clones.iter().all(|c| c.finished));
    Ok(meter.busy)
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
    let mut logs = Vec::new();
    for c in &clones {
        if let Some(s) = &c.samples {
            // fio's thread_number: clones of the whole job file counted from 1.
            let n = jobs[..c.job]
                .iter()
                .map(|j| j.numjobs as usize)
                .sum::<usize>();
            let j = &jobs[c.job];
            logs.extend(super::iolog::log_files(
                &j.logs,
                &j.name,
                n + c.idx as usize + 1,
                s,
            ));
        }
    }
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
