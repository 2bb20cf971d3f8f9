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
use super::rate::{MinRate, RateLimiter};

use super::stats::DirStats;
use crate::error::InputError;
use crate::fio::JobSpec;
use ssdlab_model::SimTime;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

mod build;
mod closed_loop;
mod draws;
mod group;
mod latency;
mod reap;
mod regions;
mod verify;
pub use draws::Draws;
pub use group::run_jobs;
pub use regions::{check_jobs, clone_region, file_regions, groups, job_region, region};
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
    /// The clone's I/O sequence: direction, offset and size of each command in turn.
    draws: Draws,
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
    fresh: Option<Box<Draws>>,
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
            self.draws = *self
                .fresh
                .clone()
                .expect("loops > 1 keeps the first generators");
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
            let (op, offset, len, due) = self.next_io(ci, dev.now(), wakes);
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
    /// The IO to issue next: the one held for its start time, or a new draw with its start time
    /// from the rate schedule (a wake-up timer pushed when that is after `now`).
    fn next_io(&mut self, ci: usize, now: SimTime, wakes: &mut Timers) -> (Op, u64, u64, SimTime) {
        if let Some(h) = self.held.take() {
            return h;
        }
        let (op, offset, len) = self.draws.next_io();
        let due = self
            .rate
            .as_mut()
            .map_or(SimTime::ZERO, |r| r.due(usize::from(op != Op::Read)));
        if due > now {
            wakes.push(Reverse((due, ci)));
        }
        (op, offset, len, due)
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
