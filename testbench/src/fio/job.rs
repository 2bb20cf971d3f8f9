//! fio job semantics: the options ssdlab models, their defaults, and the options it accepts but
//! ignores because they cannot change what the modelled device does.
//!
//! Source: fio HOWTO (fio 3.x), sections "Job file format" and "Job file parameters". Options in
//! `[global]` apply to every job section that follows them; a job section may override them.

use super::batch::{apply_batch, BatchSpec, BATCH_OPTIONS};
use super::bs::{apply_bs, apply_bsrange, apply_bssplit};
use super::distribution::{parse_distribution, Distribution};
use super::ini::{parse_sections, IniOption};
use super::latency::{apply_latency, LatencySpec, LATENCY_OPTIONS};
use super::logs::{apply_log, LogSpec, LOG_OPTIONS};
use super::rate::{apply_rate, RateSpec, RATE_OPTIONS};
use super::steady::{apply_steady, SteadySpec, STEADY_OPTIONS};
use super::value::{
    parse_bool, parse_bytes, parse_int, parse_size, parse_time, SizeSpec, TimeUnit,
};
use crate::error::InputError;
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
    fn defaults(name: &str, file: &str, line: usize) -> JobSpec {
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

/// Parses a whole job file into its jobs, in file order.
pub fn parse_job_file(text: &str, file: &str) -> Result<Vec<JobSpec>, InputError> {
    let sections = parse_sections(text, file)?;
    let mut global: Vec<IniOption> = Vec::new();
    let mut jobs = Vec::new();
    for s in &sections {
        if s.name == "global" {
            // Check global options now, so an error is reported even with no job after it.
            let mut probe = JobSpec::defaults("global", &s.file, s.line);
            for o in &s.options {
                apply(&mut probe, o).map_err(|r| option_error(o, r))?;
            }
            global.extend(s.options.iter().cloned());
            continue;
        }
        let mut spec = JobSpec::defaults(&s.name, &s.file, s.line);
        for o in global.iter().chain(&s.options) {
            apply(&mut spec, o).map_err(|r| option_error(o, r))?;
        }
        check_job(&spec)
            .map_err(|r| InputError::at(&s.file, s.line, format!("job `{}`: {r}", s.name)))?;
        super::batch::fixup(&mut spec);
        spec.options = as_written(&s.options);
        spec.global_options = as_written(&global);
        jobs.push(spec);
    }
    if jobs.is_empty() {
        return Err(InputError::file(
            file,
            "no job sections (only [global] or nothing)",
        ));
    }
    Ok(jobs)
}

/// An option's error at its file and line, naming any `${VAR}` on the line that was unset.
fn option_error(o: &IniOption, reason: String) -> InputError {
    let reason = if o.unset.is_empty() {
        reason
    } else {
        format!(
            "{reason} ({} unset: fio substitutes the empty string)",
            o.unset.join(", ")
        )
    };
    InputError::at(&o.file, o.line, reason)
}

/// `direct=0` / `buffered=1`: run as direct IO, with a warning naming the line.
fn buffered_io(j: &mut JobSpec, o: &IniOption, buffered: bool) {
    if buffered {
        j.warnings.push(format!(
            "{}:{}: {}={}: no host page cache is modelled; the job runs as direct=1",
            o.file,
            o.line,
            o.key,
            o.value.as_deref().unwrap_or("1")
        ));
    }
}

/// `bwavgtime=` / `iopsavgtime=`: a sample window, ms by default, at least 1 ms as in fio.
fn avg_window(o: &IniOption) -> Result<SimTime, String> {
    let t = parse_time(need(o)?, TimeUnit::Millis).map_err(|e| format!("{}: {e}", o.key))?;
    if t < SimTime::from_ms(1) {
        return Err(format!("{}: must be at least 1 ms", o.key));
    }
    Ok(t)
}

fn as_written(opts: &[IniOption]) -> Vec<(String, String)> {
    opts.iter()
        .map(|o| (o.key.clone(), o.value.clone().unwrap_or_default()))
        .collect()
}

fn check_job(j: &JobSpec) -> Result<(), String> {
    if j.runtime.is_none() && j.time_based {
        return Err("time_based needs a runtime".into());
    }
    super::steady::check(&j.steady)?;
    Ok(())
}

fn need(o: &IniOption) -> Result<&str, String> {
    o.value
        .as_deref()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("option `{}` needs a value", o.key))
}

/// A flag option: bare `key` means true, `key=0/1` sets it.
fn flag(o: &IniOption) -> Result<bool, String> {
    match o.value.as_deref() {
        None => Ok(true),
        Some(v) => parse_bool(v).map_err(|e| format!("{}: {e}", o.key)),
    }
}

fn apply(j: &mut JobSpec, o: &IniOption) -> Result<(), String> {
    let key = o.key.as_str();
    match key {
        "name" => j.name = need(o)?.to_string(),
        "rw" | "readwrite" => j.rw = parse_rw(need(o)?)?,
        "bs" | "blocksize" => apply_bs(j, key, need(o)?)?,
        "bssplit" => apply_bssplit(j, need(o)?)?,
        "bsrange" | "blocksize_range" => apply_bsrange(j, key, need(o)?)?,
        "bs_unaligned" | "blocksize_unaligned" => j.bs_unaligned = flag(o)?,
        "verify" => {
            let v = need(o)?;
            if !crate::workload::runner::VERIFY_TYPES.contains(&v) {
                return Err(format!(
                    "verify={v}: not one of fio's verify types ({})",
                    crate::workload::runner::VERIFY_TYPES.join(", ")
                ));
            }
            j.verify = (v != "0" && v != "null").then(|| v.to_string());
        }
        "nrfiles" | "nr_files" => {
            j.nrfiles = parse_int(need(o)?, 1, 65_536).map_err(|e| format!("{key}: {e}"))? as u32
        }
        "filesize" => {
            let v = need(o)?;
            if v.contains('-') || v.contains(':') {
                return Err(format!(
                    "filesize={v}: a range of file sizes is not supported; give one size"
                ));
            }
            let b = parse_bytes(v, j.kb_base).map_err(|e| format!("filesize: {e}"))?;
            if b == 0 {
                return Err("filesize: must be at least 1 byte".into());
            }
            j.filesize = Some(b);
        }
        "filename" => {
            need(o)?;
            j.filename_given = true;
        }
        "loops" => {
            j.loops =
                parse_int(need(o)?, 1, u32::MAX as u64).map_err(|e| format!("loops: {e}"))? as u32
        }
        "iodepth" => {
            j.iodepth = parse_int(need(o)?, 1, 65_536).map_err(|e| format!("iodepth: {e}"))? as u32
        }
        "numjobs" => {
            j.numjobs = parse_int(need(o)?, 1, 256).map_err(|e| format!("numjobs: {e}"))? as u32
        }
        "size" => j.size = Some(parse_size(need(o)?, j.kb_base).map_err(|e| format!("size: {e}"))?),
        "offset" => {
            j.offset = parse_size(need(o)?, j.kb_base).map_err(|e| format!("offset: {e}"))?
        }
        "offset_increment" => {
            j.offset_increment =
                parse_size(need(o)?, j.kb_base).map_err(|e| format!("offset_increment: {e}"))?;
        }
        "io_size" | "io_limit" => {
            // fio: 0 (the default) means "the region size".
            j.io_size =
                Some(parse_bytes(need(o)?, j.kb_base).map_err(|e| format!("io_size: {e}"))?)
                    .filter(|b| *b > 0);
        }
        "runtime" | "timeout" => {
            let t = parse_time(need(o)?, TimeUnit::Secs).map_err(|e| format!("runtime: {e}"))?;
            j.runtime = (t > SimTime::ZERO).then_some(t);
        }
        "time_based" => j.time_based = flag(o)?,
        "ramp_time" => {
            j.ramp_time =
                parse_time(need(o)?, TimeUnit::Secs).map_err(|e| format!("ramp_time: {e}"))?
        }
        "rwmixread" => {
            j.rwmixread = parse_int(need(o)?, 0, 100).map_err(|e| format!("rwmixread: {e}"))? as u32
        }
        "rwmixwrite" => {
            j.rwmixread =
                100 - parse_int(need(o)?, 0, 100).map_err(|e| format!("rwmixwrite: {e}"))? as u32
        }
        "direct" => buffered_io(j, o, !flag(o)?),
        "buffered" => buffered_io(j, o, flag(o)?),
        "stonewall" | "wait_for_previous" => j.stonewall = flag(o)?,
        "thinktime" => {
            j.thinktime =
                parse_time(need(o)?, TimeUnit::Micros).map_err(|e| format!("thinktime: {e}"))?
        }
        // fio: 0 (the default) means no limit.
        "number_ios" => {
            j.number_ios =
                Some(parse_int(need(o)?, 0, u64::MAX).map_err(|e| format!("number_ios: {e}"))?)
                    .filter(|n| *n > 0)
        }
        "randseed" => {
            j.randseed =
                Some(parse_int(need(o)?, 0, u64::MAX).map_err(|e| format!("randseed: {e}"))?)
        }
        "norandommap" => j.norandommap = flag(o)?,
        "group_reporting" => j.group_reporting = flag(o)?,
        "kb_base" => j.kb_base = parse_kb_base(need(o)?)?,
        "percentile_list" => j.percentiles = parse_percentile_list(need(o)?)?,
        "bwavgtime" => j.bw_avg = avg_window(o)?,
        "iopsavgtime" => j.iops_avg = avg_window(o)?,
        k if IGNORED_OPTIONS.contains(&k) => {}
        "random_distribution" => j.distribution = parse_distribution(need(o)?, j.kb_base)?,
        k if LATENCY_OPTIONS.contains(&k) => apply_latency(j, k, need(o)?)?,
        k if STEADY_OPTIONS.contains(&k) => apply_steady(j, k, need(o)?)?,
        k if LOG_OPTIONS.contains(&k) => apply_log(j, k, o.value.as_deref())?,
        k if BATCH_OPTIONS.contains(&k) => apply_batch(j, k, need(o)?)?,
        k if RATE_OPTIONS.contains(&k) => apply_rate(j, k, need(o)?, (&o.file, o.line))?,
        k => {
            return Err(format!(
                "unsupported option `{k}` (docs/fio.md lists the supported and ignored options)"
            ))
        }
    }
    Ok(())
}

/// `rw=`: the access pattern.
fn parse_rw(v: &str) -> Result<RwMode, String> {
    Ok(match v {
        "read" => RwMode::Read,
        "write" => RwMode::Write,
        "randread" => RwMode::RandRead,
        "randwrite" => RwMode::RandWrite,
        "rw" | "readwrite" => RwMode::SeqMixed,
        "randrw" => RwMode::RandMixed,
        _ => {
            return Err(format!(
                "rw={v} is not supported (read, write, randread, randwrite, rw, randrw)"
            ))
        }
    })
}

/// `percentile_list=99:99.9:99.99`: up to 20 percentiles in (0, 100], sorted as fio sorts them.
fn parse_percentile_list(v: &str) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for p in v.split(':') {
        let x: f64 = p
            .trim()
            .parse()
            .map_err(|_| format!("percentile_list: `{p}` is not a number"))?;
        if !(x > 0.0 && x <= 100.0) {
            return Err(format!("percentile_list: {x} is outside (0, 100]"));
        }
        out.push(x);
    }
    if out.len() > 20 {
        return Err(format!(
            "percentile_list: {} values, fio allows at most 20",
            out.len()
        ));
    }
    out.sort_by(f64::total_cmp);
    Ok(out)
}

/// `kb_base=`: 1024 (fio's default) or 1000.
fn parse_kb_base(v: &str) -> Result<u64, String> {
    match v {
        "1024" => Ok(1024),
        "1000" => Ok(1000),
        _ => Err(format!("kb_base={v}: must be 1024 or 1000")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "[global]\nioengine=libaio\ndirect=1\nbs=4k\nruntime=30\ntime_based\n\n\
        [rr]\nrw=randread\niodepth=32\nnumjobs=4\nsize=20g\n\n[sw]\nstonewall\nrw=write\nbs=128k\n";

    #[test]
    fn global_defaults_and_overrides() {
        let jobs = parse_job_file(FILE, "t.fio").unwrap();
        assert_eq!(jobs.len(), 2);
        let rr = &jobs[0];
        assert_eq!(
            (rr.rw, rr.bs_read, rr.iodepth, rr.numjobs),
            (RwMode::RandRead, 4096, 32, 4)
        );
        assert_eq!(rr.size, Some(SizeSpec::Bytes(20 << 30)));
        assert_eq!(rr.runtime, Some(SimTime::from_secs(30)));
        assert!(rr.time_based && !rr.stonewall);
        let sw = &jobs[1];
        assert_eq!(
            (sw.rw, sw.bs_write, sw.iodepth, sw.line),
            (RwMode::Write, 131_072, 1, 14)
        );
        assert!(sw.stonewall && sw.time_based);
        // As written, for fio's JSON "job options" / "global options".
        assert_eq!(
            sw.options,
            [
                ("stonewall".into(), String::new()),
                ("rw".into(), "write".into()),
                ("bs".into(), "128k".into())
            ]
        );
        assert_eq!(
            sw.global_options[1],
            ("direct".to_string(), "1".to_string())
        );
        assert_eq!(sw.global_options.len(), 5);
    }

    #[test]
    fn unsupported_option_names_option_and_line() {
        let e = parse_job_file("[a]\nrw=read\nexec_prerun=ls\n", "x.fio").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.fio:3: unsupported option `exec_prerun`"),
            "{e}"
        );
        let e = parse_job_file("[a]\nrw=trimwrite\n", "x.fio").unwrap_err();
        assert!(e.to_string().starts_with("x.fio:2: rw=trimwrite"), "{e}");
        let e = parse_job_file("[global]\nbs=4k\n", "x.fio").unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.fio: no job sections (only [global] or nothing)"
        );
    }

    #[test]
    fn rwmix_and_thinktime_units() {
        let j = &parse_job_file("[a]\nrw=randrw\nrwmixwrite=30\nthinktime=250\n", "x").unwrap()[0];
        assert_eq!(j.rwmixread, 70);
        assert_eq!(j.rw.read_pct(j.rwmixread), 70);
        assert_eq!(j.thinktime, SimTime::from_us(250));
    }

    #[test]
    fn zero_means_unset_as_in_fio() {
        // fio HOWTO: number_ios and io_size default to 0 = no limit / the region size;
        // runtime=0 = no time limit.
        let j = &parse_job_file("[a]\nnumber_ios=0\nio_size=0\nruntime=0\n", "x").unwrap()[0];
        assert_eq!((j.number_ios, j.io_size, j.runtime), (None, None, None));
    }

    #[test]
    fn buffered_io_runs_direct_with_a_warning_naming_the_line() {
        let text = "[global]\ndirect=0\n[a]\nrw=read\n[b]\nbuffered=1\n[c]\ndirect=1\nbuffered=0\n";
        let jobs = parse_job_file(text, "x.fio").unwrap();
        let want = "x.fio:2: direct=0: no host page cache is modelled; the job runs as direct=1";
        assert_eq!(jobs[0].warnings, [want]);
        assert_eq!(jobs[1].warnings.len(), 2);
        assert!(jobs[1].warnings[1].starts_with("x.fio:6: buffered=1: no host page cache"));
        // The global warning once, then b's own; c's direct=1 / buffered=0 add nothing.
        assert_eq!(crate::fio::warnings(&jobs).len(), 2);
        assert!(parse_job_file("[a]\ndirect=2\n", "x.fio").is_err());
    }

    #[test]
    fn an_unset_variable_is_named_in_the_options_error() {
        let e = parse_job_file("[a]\nsize=${SSDLAB_TEST_SURELY_UNSET}\n", "x.fio")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "x.fio:2: option `size` needs a value (${SSDLAB_TEST_SURELY_UNSET} unset: fio substitutes the empty string)"
        );
    }

    #[test]
    fn percentile_list_is_sorted_and_bounded() {
        let j = &parse_job_file("[a]\npercentile_list=99.999:50:99\n", "x").unwrap()[0];
        assert_eq!(j.percentiles, [50.0, 99.0, 99.999]);
        let e = parse_job_file("[a]\npercentile_list=50:101\n", "x").unwrap_err();
        assert!(
            e.to_string().starts_with("x:2: percentile_list: 101"),
            "{e}"
        );
    }
}
