//! fio job semantics: the options ssdlab models, their defaults, and the options it accepts but
//! ignores because they cannot change what the modelled device does.
//!
//! Source: fio HOWTO (fio 3.x), sections "Job file format" and "Job file parameters". Options in
//! `[global]` apply to every job section that follows them; a job section may override them.
//! The parser that applies them is `parse.rs`.

use super::batch::BatchSpec;
use super::distribution::Distribution;
use super::latency::LatencySpec;
use super::logs::LogSpec;
use super::rate::RateSpec;
use super::steady::SteadySpec;
use super::value::SizeSpec;
use crate::workload::stats::FIO_PERCENTILES;
use ssdlab_model::SimTime;

/// fio's `rw=` patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RwMode {
    Read,
    Write,
    RandRead,
    RandWrite,
    /// Sequential mixed reads and writes (`rw=rw` / `readwrite`).
    SeqMixed,
    RandMixed,
}

impl RwMode {
    pub fn is_random(self) -> bool {
        matches!(
            self,
            RwMode::RandRead | RwMode::RandWrite | RwMode::RandMixed
        )
    }
    /// Percent of IOs that are reads, given `rwmixread`.
    pub fn read_pct(self, rwmixread: u32) -> u32 {
        match self {
            RwMode::Read | RwMode::RandRead => 100,
            RwMode::Write | RwMode::RandWrite => 0,
            RwMode::SeqMixed | RwMode::RandMixed => rwmixread,
        }
    }
    pub fn fio_name(self) -> &'static str {
        match self {
            RwMode::Read => "read",
            RwMode::Write => "write",
            RwMode::RandRead => "randread",
            RwMode::RandWrite => "randwrite",
            RwMode::SeqMixed => "rw",
            RwMode::RandMixed => "randrw",
        }
    }
}

/// One job section with `[global]` defaults applied.
#[derive(Clone, Debug, PartialEq)]
pub struct JobSpec {
    pub name: String,
    /// File and line of the section header (for errors found when the device is known).
    pub file: String,
    pub line: usize,
    pub rw: RwMode,
    pub bs_read: u64,
    pub bs_write: u64,
    /// `bssplit` per direction: (block size, percent of IOs), percents summing to 100; empty =
    /// every IO is `bs_read`/`bs_write`. With a split, `bs_*` is its smallest size.
    pub bssplit_read: Vec<(u64, u32)>,
    pub bssplit_write: Vec<(u64, u32)>,
    /// `bsrange` per direction (min, max): sizes drawn as fio's `get_next_buflen` draws them;
    /// with a range, `bs_*` is its minimum. `bs_unaligned`: sizes not rounded to the minimum.
    pub bsrange_read: Option<(u64, u64)>,
    pub bsrange_write: Option<(u64, u64)>,
    pub bs_unaligned: bool,
    /// `nrfiles` and `filesize` (one size; `None`: the region split evenly), and whether
    /// `filename` was given (then fio has one file: the device).
    pub nrfiles: u32,
    pub filesize: Option<u64>,
    pub filename_given: bool,
    /// `verify=` (one of fio's types, not `0`/`null`): a read-back of each pass's writes,
    /// checked by the drive's integrity checker (`workload/runner/verify.rs`).
    pub verify: Option<String>,
    /// `loops`: passes over the job's IO pattern (1 = once), each after the previous drained.
    pub loops: u32,
    pub iodepth: u32,
    /// `iodepth_batch*`, `iodepth_low` (`fio/batch.rs`).
    pub batch: BatchSpec,
    pub numjobs: u32,
    /// Region size per job; `None` = from `offset` to the end of the device.
    pub size: Option<SizeSpec>,
    pub offset: SizeSpec,
    /// Added to `offset` once per clone index (`offset_increment`): clone k starts at
    /// offset + k x increment.
    pub offset_increment: SizeSpec,
    /// Bytes to transfer (`io_size`), when different from the region size.
    pub io_size: Option<u64>,
    pub runtime: Option<SimTime>,
    pub time_based: bool,
    pub ramp_time: SimTime,
    pub rwmixread: u32,
    pub stonewall: bool,
    pub thinktime: SimTime,
    pub number_ios: Option<u64>,
    pub randseed: Option<u64>,
    pub norandommap: bool,
    pub group_reporting: bool,
    pub kb_base: u64,
    /// Completion-latency percentiles reported (`percentile_list`), ascending, in percent.
    pub percentiles: Vec<f64>,
    /// Averaging windows of the bandwidth and IOPS samples (`bwavgtime`, `iopsavgtime`; fio's
    /// default 500 ms each).
    pub bw_avg: SimTime,
    pub iops_avg: SimTime,
    /// `latency_target`, `latency_window`, `latency_percentile`, `latency_run`.
    pub latency: LatencySpec,
    /// `steadystate`, `ss_dur`, `ss_ramp`, `ss_interval` (`fio/steady.rs`).
    pub steady: SteadySpec,
    /// `write_bw_log`, `write_iops_log`, `write_lat_log`, `log_avg_msec` (`fio/logs.rs`).
    pub logs: LogSpec,
    /// `rate`, `rate_iops`, `rate_min`, `rate_process`, `rate_cycle` (`fio/rate.rs`).
    pub rate: RateSpec,
    /// `random_distribution` (`fio/distribution.rs`): how random offsets are drawn.
    pub distribution: Distribution,
    /// This section's own options as written (`key`, `value`; "" for a bare flag), in file
    /// order: fio's JSON "job options".
    pub options: Vec<(String, String)>,
    /// The `[global]` options in effect for this job, as written: fio's "global options".
    pub global_options: Vec<(String, String)>,
    /// `file:line: text` warnings about options run differently from fio (`direct=0`), for
    /// stderr; a `[global]` option's warning is in every job it applies to.
    pub warnings: Vec<String>,
}

impl JobSpec {
    /// The largest block size the job issues (any direction, `bssplit` included).
    pub fn max_bs(&self) -> u64 {
        let split = self
            .bssplit_read
            .iter()
            .chain(&self.bssplit_write)
            .map(|e| e.0);
        let range = self
            .bsrange_read
            .iter()
            .chain(&self.bsrange_write)
            .map(|r| r.1);
        split
            .chain(range)
            .chain([self.bs_read, self.bs_write])
            .max()
            .expect("two sizes at least")
    }
    /// fio's defaults for a job section at `file:line`.
    pub(super) fn defaults(name: &str, file: &str, line: usize) -> JobSpec {
        JobSpec {
            name: name.to_string(),
            file: file.to_string(),
            line,
            rw: RwMode::Read,
            bs_read: 4096,
            bs_write: 4096,
            bssplit_read: Vec::new(),
            bssplit_write: Vec::new(),
            bsrange_read: None,
            bsrange_write: None,
            bs_unaligned: false,
            loops: 1,
            verify: None,
            nrfiles: 1,
            filesize: None,
            filename_given: false,
            iodepth: 1,
            batch: BatchSpec::default(),
            numjobs: 1,
            size: None,
            offset: SizeSpec::Bytes(0),
            offset_increment: SizeSpec::Bytes(0),
            io_size: None,
            runtime: None,
            time_based: false,
            ramp_time: SimTime::ZERO,
            rwmixread: 50,
            stonewall: false,
            thinktime: SimTime::ZERO,
            number_ios: None,
            randseed: None,
            norandommap: false,
            group_reporting: false,
            kb_base: 1024,
            percentiles: FIO_PERCENTILES.to_vec(),
            bw_avg: SimTime::from_ms(500),
            iops_avg: SimTime::from_ms(500),
            logs: LogSpec::default(),
            steady: SteadySpec::default(),
            latency: LatencySpec::default(),
            rate: RateSpec::default(),
            distribution: Distribution::Random,
            options: Vec::new(),
            global_options: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// Options accepted and ignored: they select host-side machinery (engines, files, CPU placement,
/// buffer contents, logging) that does not exist or has no effect in the device model.
pub const IGNORED_OPTIONS: &[&str] = &[
    "ioengine",
    "directory",
    "thread",
    "invalidate",
    "randrepeat",
    "gtod_reduce",
    "clat_percentiles",
    "lat_percentiles",
    "slat_percentiles",
    "clocksource",
    "random_generator",
    "allrandrepeat",
    "per_job_logs",
    "significant_figures",
    "numa_cpu_nodes",
    "numa_mem_policy",
    "ioscheduler",
    "continue_on_error",
    "exitall_on_error",
    "disable_lat",
    "disable_clat",
    "disable_slat",
    "disable_bw_measurement",
    "cpus_allowed",
    "cpus_allowed_policy",
    "cpumask",
    "nice",
    "prio",
    "prioclass",
    "refill_buffers",
    "scramble_buffers",
    "zero_buffers",
    "description",
    "hipri",
    "fixedbufs",
    "registerfiles",
    "sqthread_poll",
    "allow_file_create",
    "fadvise_hint",
    "exitall",
    "end_fsync",
    "fsync_on_close",
    "create_on_open",
    "unlink",
];
