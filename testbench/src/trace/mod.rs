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
use crate::input_file;
use crate::workload::device::{Completion, Device, Io, Op};
use crate::workload::result::BusyMeter;
use crate::workload::runner::Observer;
use crate::workload::stats::DirStats;
use crate::workload::{GroupResult, JobResult};
use ssdlab_model::SimTime;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader};
use std::path::Path;

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

/// Reads and checks a whole trace; errors name the file and line. Records are replayed in time
/// order (a stable sort: blkparse output is sorted, MSR files nearly so), times measured from
/// the earliest record.
pub fn load(path: &str, format: Option<Format>) -> Result<Vec<TraceIo>, InputError> {
    input_file::check_regular(Path::new(path), path, input_file::MAX_TRACE_BYTES)?;
    let f = std::fs::File::open(path).map_err(|e| InputError::io(path, &e))?;
    let mut ios = Vec::new();
    let mut fmt = format;
    // MSR records keep their raw FILETIME ticks until the earliest one is known.
    let mut ticks = Vec::new();
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| InputError::at(path, n, format!("cannot read: {e}")))?;
        let line = if n == 1 {
            input_file::strip_bom(&line)
        } else {
            &line
        };
        if line.trim().is_empty() {
            continue;
        }
        let fmt = *fmt.get_or_insert_with(|| detect(line));
        let io = match fmt {
            Format::Msr => match msr::parse_line(line).map_err(|r| InputError::at(path, n, r))? {
                None => continue,
                Some((t, io)) => {
                    ticks.push(t);
                    io
                }
            },
            Format::Blkparse => {
                match blkparse::parse_line(line).map_err(|r| InputError::at(path, n, r))? {
                    blkparse::Line::Io(io) => io,
                    blkparse::Line::Other => continue,
                    blkparse::Line::Summary => break,
                }
            }
        };
        check_record(&io).map_err(|r| InputError::at(path, n, r))?;
        ios.push(TraceIo { line: n, ..io });
    }
    if ios.is_empty() {
        return Err(InputError::file(path, "no IO records"));
    }
    if let Some(&first) = ticks.iter().min() {
        for (io, &t) in ios.iter_mut().zip(&ticks) {
            io.t = msr::ticks_to_time(t, first).map_err(|r| InputError::at(path, io.line, r))?;
        }
    }
    let base = ios.iter().map(|io| io.t).min().unwrap_or(SimTime::ZERO);
    for io in &mut ios {
        io.t -= base;
    }
    ios.sort_by_key(|io| io.t);
    Ok(ios)
}

/// A record's size and place: 512-byte aligned, 1 byte to 16 MiB (a flush: none), and an end
/// that fits in 64 bits.
fn check_record(io: &TraceIo) -> Result<(), String> {
    if io.len == 0 && io.op != Op::Flush {
        return Err(format!(
            "{:?} of 0 bytes (a read, write or discard needs a size)",
            io.op
        ));
    }
    if !io.offset.is_multiple_of(512) || !io.len.is_multiple_of(512) || io.len > 16 << 20 {
        return Err(format!(
            "IO at {} of {} bytes is not 512-aligned or is over 16 MiB",
            io.offset, io.len
        ));
    }
    if io.offset.checked_add(io.len).is_none() {
        return Err(format!(
            "IO at {} of {} bytes ends past 2^64 bytes",
            io.offset, io.len
        ));
    }
    Ok(())
}

#[derive(Clone, Copy, Debug)]
pub struct ReplayOptions {
    /// Arrival times are divided by this (2.0 = twice as fast as traced).
    pub speed: f64,
    /// Offsets beyond the drive wrap around instead of being an error.
    pub wrap: bool,
}

/// Where and when each record goes on `dev`: its command (offset wrapped with `opts.wrap`, queue
/// by stream) and its arrival time from now at `opts.speed`. Every record is checked against
/// the device before anything is submitted.
pub fn place(
    dev: &dyn Device,
    ios: &[TraceIo],
    file: &str,
    opts: ReplayOptions,
) -> Result<(Vec<Io>, Vec<SimTime>), InputError> {
    let cap = dev.capacity_bytes();
    let mut placed = Vec::with_capacity(ios.len());
    for io in ios {
        let mut offset = io.offset;
        let beyond = io.offset.checked_add(io.len).is_none_or(|end| end > cap);
        if beyond {
            if !opts.wrap || io.len > cap {
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
    // Arrival times at the speed-up, checked once: the last record's is the largest.
    let arrivals: Vec<SimTime> = ios
        .iter()
        .map(|io| {
            SimTime::from_ps_f64_limited(io.t.as_ps() as f64 / opts.speed)
                .and_then(|t| t0.add_limited(t))
                .ok_or_else(|| {
                    InputError::at(
                        file,
                        io.line,
                        format!(
                            "at --speed {:e} this record arrives past the model's {} days of simulated time",
                            opts.speed,
                            SimTime::LIMIT_DAYS
                        ),
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    Ok((placed, arrivals))
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
    let t0 = dev.now();
    let (placed, arrivals) = place(dev, ios, file, opts)?;
    let arrival = |k: usize| arrivals[k];
    dev.reset_stats();
    let slots = dev.queue_entries() - 1;
    let nq = dev.io_queues() as usize;
    let mut backlog: Vec<VecDeque<usize>> = vec![VecDeque::new(); nq];
    let mut outstanding = vec![0u32; nq];
    let mut inflight: HashMap<u64, usize> = HashMap::new();
    let (mut read, mut write, mut trim) = (
        DirStats::default(),
        DirStats::default(),
        DirStats::default(),
    );
    let mut done: Vec<Completion> = Vec::new();
    let (mut next, mut host_bytes, mut last) = (0usize, 0u64, t0);
    let mut meter = BusyMeter::new(t0);
    let mut occupancy = crate::workload::occupancy::OccupancySeries::default();
    while next < ios.len() || !inflight.is_empty() {
        let now = dev.now();
        if let Some(s) = dev.flash_state() {
            occupancy.sample(now - t0, s);
        }
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
                Op::Trim => trim.record(c.len, lat, c.completed - t0),
                Op::Flush => {}
            }
            host_bytes += c.len;
            last = last.max(c.completed);
        }
        if inflight.is_empty() {
            meter.idle_at(last);
        }
        obs.progress(dev.now(), host_bytes);
        if dev.now() > SimTime::LIMIT {
            return Err(InputError::file(
                file,
                format!(
                    "the replay passes the model's {} days of simulated time",
                    SimTime::LIMIT_DAYS
                ),
            ));
        }
    }
    if let Some(s) = dev.flash_state() {
        occupancy.sample(dev.now() - t0, s);
    }
    let spec = parse_job_file(
        &format!("[{}]\nrw=randrw\n", file.replace([']', '['], "_")),
        "replay",
    )
    .expect("synthetic job");
    let job = JobResult {
        extra: Default::default(),
        name: file.to_string(),
        groupid: 0,
        clone: None,
        spec: spec[0].clone(),
        read,
        write,
        trim,
        runtime: last - t0,
    };
    Ok(GroupResult {
        logs: Vec::new(),
        groupid: 0,
        jobs: vec![job],
        window_start: t0,
        window_end: last,
        busy: meter.busy,
        extras: dev.extras(),
        occupancy,
    })
}

#[cfg(test)]
mod tests;
