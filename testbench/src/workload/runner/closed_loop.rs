//! The closed loop of one stonewall group: clones issue into free slots, the device runs to the
//! next completion or timer, completions free slots, until every clone finished.

use super::{Clone, Observer, TimeOverflow, Timers};
use crate::workload::device::{Completion, Device};
use crate::workload::occupancy::OccupancySeries;
use crate::workload::result::BusyMeter;
use ssdlab_model::SimTime;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The closed loop: clones issue into free slots, the device runs to the next completion or
/// timer (thinktime end, end of ramp_time when the statistics are reset), completions free
/// slots; until every clone finished and nothing is outstanding. Returns the time inside the
/// window with commands outstanding; samples the device's flash state into `occupancy` from the
/// window start on, after every step.
pub(super) fn run_clones(
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
        fire_timers(now, clones, &mut timers, &mut wakes);
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
        let window = (!reset_done).then_some(window_start);
        match next_timer(clones, &timers, &wakes, window) {
            Some(t) => dev.run_until_completion_or(t.max(now), &mut done),
            None if inflight.is_empty() => break,
            None => assert!(
                dev.run_until_completion(&mut done),
                "device lost {} outstanding IOs",
                inflight.len()
            ),
        }
        let last = deliver(now, &mut done, &mut inflight, clones, &mut host_bytes);
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

/// Frees the slots of thinktime waits that ended by `now`, and drops the rate wake-ups that are
/// due (their clone retries its held IO) or whose clone finished.
fn fire_timers(now: SimTime, clones: &mut [Clone], timers: &mut Timers, wakes: &mut Timers) {
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
}

/// The earliest timer: a thinktime end, a rate wake-up, a steady-state check, or the window
/// start while the statistics have not been reset (`window`).
fn next_timer(
    clones: &[Clone],
    timers: &Timers,
    wakes: &Timers,
    window: Option<SimTime>,
) -> Option<SimTime> {
    let steady_due = clones
        .iter()
        .filter(|c| !c.finished)
        .filter_map(|c| c.steady.as_ref().map(|s| s.due()))
        .min();
    let next = [timers.peek(), wakes.peek()]
        .into_iter()
        .flatten()
        .map(|r| r.0 .0)
        .chain(steady_due)
        .min();
    match window {
        Some(w) => Some(next.map_or(w, |t| t.min(w))),
        None => next,
    }
}

/// Hands the completions in `done` to their clones; returns the latest completion time (at
/// least `now`).
fn deliver(
    now: SimTime,
    done: &mut Vec<Completion>,
    inflight: &mut HashMap<u64, usize>,
    clones: &mut [Clone],
    host_bytes: &mut u64,
) -> SimTime {
    let mut last = now;
    for comp in done.drain(..) {
        let ci = inflight
            .remove(&comp.id)
            .unwrap_or_else(|| panic!("completion of unknown IO {}", comp.id));
        *host_bytes += comp.len;
        last = last.max(comp.completed);
        clones[ci].arrived(comp);
    }
    last
}
