//! Trace replay: block traces as workload sources, replayed open-loop at their own timestamps
//! (optionally sped up). Formats: MSR Cambridge CSV ([`msr`]) and blkparse text ([`blkparse`]).
//!
//! Each trace stream (MSR disk number, blkparse CPU) maps to NVMe queue `stream mod io_queues`.
//! An IO that arrives while its queue is full waits on the host side (as in the block layer);
//! reported latency runs from the trace's arrival time to completion, so it includes that wait.

pub mod blkparse;
pub mod msr;

use crate::error::InputError;
use crate::fio::parse_job_file;
use crate::workload::device::{Completion, Device, Io, Op};
use crate::workload::result::BusyMeter;
use crate::workload::runner::Observer;
use crate::workload::stats::DirStats;
use crate::workload::{GroupResult, JobResult};
use ssdlab_model::SimTime;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader};

/// One traced host IO, time relative to the trace's first IO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceIo {
    pub t: SimTime,
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    pub stream: u32,
    /// Line in the trace file (for errors found against the device).
    pub line: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Msr,
    Blkparse,
}

/// Guesses the format from the first non-empty line: 7 comma-separated fields is MSR.
pub fn detect(first_line: &str) -> Format {
    if first_line.split(',').count() == 7 {
        Format::Msr
    } else {
        Format::Blkparse
    }
}

/// Reads and checks a whole trace; errors name the file and line.
pub fn load(path: &str, format: Option<Format>) -> Result<Vec<TraceIo>, InputError> {
    let f = std::fs::File::open(path).map_err(|e| InputError::io(path, &e))?;
    let mut ios = Vec::new();
    let mut fmt = format;
    let mut first_ticks: Option<u64> = None;
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| InputError::at(path, n, format!("cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let fmt = *fmt.get_or_insert_with(|| detect(&line));
        let io = match fmt {
            Format::Msr => match msr::parse_line(&line).map_err(|r| InputError::at(path, n, r))? {
                None => continue,
                Some((ticks, io)) => {
                    let first = *first_ticks.get_or_insert(ticks);
                    TraceIo {
                        t: msr::ticks_to_time(ticks, first),
                        ..io
                    }
                }
            },
            Format::Blkparse => {
                match blkparse::parse_line(&line).map_err(|r| InputError::at(path, n, r))? {
                    blkparse::Line::Io(io) => io,
                    blkparse::Line::Other => continue,
                    blkparse::Line::Summary => break,
                }
            }
        };
        if io.offset % 512 != 0 || io.len % 512 != 0 || io.len > 16 << 20 {
            return Err(InputError::at(
                path,
                n,
                format!(
                    "IO at {} of {} bytes is not 512-aligned or is over 16 MiB",
                    io.offset, io.len
                ),
            ));
        }
        ios.push(TraceIo { line: n, ..io });
    }
    if ios.is_empty() {
        return Err(InputError::file(path, "no IO records"));
    }
    // blkparse sorts by time; MSR files nearly so. Replay in time order (stable).
    let base = ios.iter().map(|io| io.t).min().unwrap_or(SimTime::ZERO);
    for io in &mut ios {
        io.t -= base;
    }
    ios.sort_by_key(|io| io.t);
    Ok(ios)
}

#[derive(Clone, Copy, Debug)]
pub struct ReplayOptions {
    /// Arrival times are divided by this (2.0 = twice as fast as traced).
    pub speed: f64,
    /// Offsets beyond the drive wrap around instead of being an error.
    pub wrap: bool,
}

/// Replays `ios` on `dev`; one result "job" named after the trace.
pub fn replay(
    dev: &mut dyn Device,
    ios: &[TraceIo],
    file: &str,
    opts: ReplayOptions,
    obs: &mut dyn Observer,
) -> Result<GroupResult, InputError> {
    assert!(opts.speed > 0.0 && opts.speed.is_finite());
    let cap = dev.capacity_bytes();
    let mut placed = Vec::with_capacity(ios.len());
    for io in ios {
        let mut offset = io.offset;
        if offset + io.len > cap {
            if !opts.wrap {
                return Err(InputError::at(
                    file,
                    io.line,
                    format!(
                        "IO at byte {} + {} lies beyond the drive's {cap} bytes (use --wrap)",
                        io.offset, io.len
                    ),
                ));
            }
            offset = (offset % cap).min(cap - io.len) / 512 * 512;
        }
        placed.push(Io {
            op: io.op,
            offset,
            len: io.len,
            queue: (io.stream % dev.io_queues() as u32) as u16,
        });
    }
    let t0 = dev.now();
    let arrival = |k: usize| t0 + SimTime::from_ps((ios[k].t.as_ps() as f64 / opts.speed) as u64);
    dev.reset_stats();
    let slots = dev.queue_entries() - 1;
    let nq = dev.io_queues() as usize;
    let mut backlog: Vec<VecDeque<usize>> = vec![VecDeque::new(); nq];
    let mut outstanding = vec![0u32; nq];
    let mut inflight: HashMap<u64, usize> = HashMap::new();
    let (mut read, mut write) = (DirStats::default(), DirStats::default());
    let mut done: Vec<Completion> = Vec::new();
    let (mut next, mut host_bytes, mut last) = (0usize, 0u64, t0);
    let mut meter = BusyMeter::new(t0);
    while next < ios.len() || !inflight.is_empty() {
        let now = dev.now();
        while next < ios.len() && arrival(next) <= now {
            backlog[placed[next].queue as usize].push_back(next);
            next += 1;
        }
        for q in 0..nq {
            while outstanding[q] < slots {
                let Some(k) = backlog[q].pop_front() else {
                    break;
                };
                let id = dev.submit(placed[k]);
                inflight.insert(id, k);
                outstanding[q] += 1;
            }
        }
        if !inflight.is_empty() {
            meter.outstanding(now);
        }
        if next < ios.len() {
            dev.run_until_completion_or(arrival(next).max(now), &mut done);
        } else if !inflight.is_empty() {
            assert!(
                dev.run_until_completion(&mut done),
                "device lost outstanding IOs"
            );
        }
        for c in done.drain(..) {
            let k = inflight
                .remove(&c.id)
                .unwrap_or_else(|| panic!("completion of unknown IO {}", c.id));
            outstanding[placed[k].queue as usize] -= 1;
            let lat = c.completed - arrival(k);
            match c.op {
                Op::Read => read.record(c.len, lat, c.completed - t0),
                Op::Write => write.record(c.len, lat, c.completed - t0),
                Op::Trim | Op::Flush => {}
            }
            host_bytes += c.len;
            last = last.max(c.completed);
        }
        if inflight.is_empty() {
            meter.idle_at(last);
        }
        obs.progress(dev.now(), host_bytes);
    }
    let spec = parse_job_file(
        &format!("[{}]\nrw=randrw\n", file.replace([']', '['], "_")),
        "replay",
    )
    .expect("synthetic job");
    let job = JobResult {
        name: file.to_string(),
        groupid: 0,
        clone: None,
        spec: spec[0].clone(),
        read,
        write,
        runtime: last - t0,
    };
    Ok(GroupResult {
        groupid: 0,
        jobs: vec![job],
        window_start: t0,
        window_end: last,
        busy: meter.busy,
        extras: dev.extras(),
    })
}

#[cfg(test)]
mod tests;
