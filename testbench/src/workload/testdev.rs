//! A device with a fixed service time per command and unlimited internal parallelism.
//!
//! Not a model of anything: it exists so that the workload runner's accounting (closed-loop
//! queue depth, limits, ramp, thinktime, stonewall) can be checked against hand arithmetic.
//! Latency = `base` + `len` × `ps_per_byte`. It records every command it was given.

use super::device::{Completion, Device, Extras, FlashState, Integrity, Io, Op};
use ssdlab_model::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

type Pending = (SimTime, u64, u8, u64, SimTime);

/// Runs job file `text` (seed 1) on a 1 GiB fixed-latency device with `lat_us` per command.
pub fn run_on_fixed(text: &str, lat_us: u64) -> Vec<crate::workload::GroupResult> {
    let jobs = crate::fio::parse_job_file(text, "t").expect("test job file parses");
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(lat_us));
    let seeds = ssdlab_model::SeedTree::new(1);
    crate::workload::run_jobs(&mut dev, &jobs, "t", &seeds, &mut crate::workload::Quiet)
        .expect("test job runs")
}

pub struct FixedLatencyDevice {
    pub capacity: u64,
    pub base: SimTime,
    pub ps_per_byte: u64,
    now: SimTime,
    next_id: u64,
    /// (completion time, id, op code, len, submission time), earliest first.
    pending: BinaryHeap<Reverse<Pending>>,
    /// Every command submitted, in order, with its submission time.
    pub log: Vec<(SimTime, Io)>,
    pub written_bytes: u64,
    pub functional_bytes: u64,
    pub resets: Vec<SimTime>,
    /// Report a flash state as though every write since the last `reset_stats` landed in an
    /// SLC cache of 1 MiB blocks taken from 1000 free ones (hand-checkable curves).
    pub reports_flash: bool,
}

impl FixedLatencyDevice {
    pub fn new(capacity: u64, base: SimTime) -> Self {
        FixedLatencyDevice {
            capacity,
            base,
            ps_per_byte: 0,
            now: SimTime::ZERO,
            next_id: 0,
            pending: BinaryHeap::new(),
            log: Vec::new(),
            written_bytes: 0,
            functional_bytes: 0,
            resets: Vec::new(),
            reports_flash: false,
        }
    }
    fn pop_due(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        while let Some(Reverse((at, id, op, len, sub))) = self.pending.peek().copied() {
            if at > t {
                break;
            }
            self.pending.pop();
            let op = [Op::Read, Op::Write, Op::Trim, Op::Flush][op as usize];
            done.push(Completion {
                id,
                op,
                len,
                submitted: sub,
                completed: at,
            });
        }
    }
}

impl Device for FixedLatencyDevice {
    fn capacity_bytes(&self) -> u64 {
        self.capacity
    }
    fn io_queues(&self) -> u16 {
        8
    }
    fn queue_entries(&self) -> u32 {
        1024
    }
    fn now(&self) -> SimTime {
        self.now
    }
    fn submit(&mut self, io: Io) -> u64 {
        assert!(
            io.offset + io.len <= self.capacity,
            "IO beyond capacity: {io:?}"
        );
        let id = self.next_id;
        self.next_id += 1;
        let lat = self.base + SimTime::from_ps(io.len * self.ps_per_byte);
        let op = match io.op {
            Op::Read => 0,
            Op::Write => 1,
            Op::Trim => 2,
            Op::Flush => 3,
        };
        if io.op == Op::Write {
            self.written_bytes += io.len;
        }
        self.pending
            .push(Reverse((self.now + lat, id, op, io.len, self.now)));
        self.log.push((self.now, io));
        id
    }
    fn run_until(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        assert!(t >= self.now);
        self.pop_due(t, done);
        self.now = t;
    }
    fn run_until_completion(&mut self, done: &mut Vec<Completion>) -> bool {
        let Some(Reverse((at, ..))) = self.pending.peek().copied() else {
            return false;
        };
        self.now = self.now.max(at);
        self.pop_due(at, done);
        true
    }
    fn run_until_completion_or(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        match self.pending.peek().copied() {
            Some(Reverse((at, ..))) if at <= t => {
                self.now = self.now.max(at);
                self.pop_due(at, done);
            }
            _ => self.run_until(t.max(self.now), done),
        }
    }
    fn idle(&mut self, d: SimTime, done: &mut Vec<Completion>) {
        let t = self.now + d;
        self.run_until(t, done);
    }
    fn functional_write(&mut self, _offset: u64, len: u64) {
        self.functional_bytes += len;
    }
    fn functional_trim(&mut self, _offset: u64, _len: u64) {}
    fn reset_stats(&mut self) {
        self.resets.push(self.now);
        self.written_bytes = 0;
    }
    fn flash_state(&self) -> Option<FlashState> {
        let blocks = self.written_bytes.div_ceil(1 << 20);
        self.reports_flash.then_some(FlashState {
            slc_bytes: self.written_bytes,
            slc_blocks: blocks,
            free_blocks: 1000u64.saturating_sub(blocks),
        })
    }
    fn extras(&self) -> Extras {
        Extras {
            host_bytes_written: self.written_bytes,
            nand_bytes_written: self.written_bytes,
            ..Extras::default()
        }
    }
    /// It stores no data, so it verifies none: nothing checked, nothing violated.
    fn integrity(&self) -> Integrity {
        Integrity::default()
    }
}
