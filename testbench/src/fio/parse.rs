//! Parses a fio job file into [`JobSpec`]s: `[global]` inheritance, each option's value with
//! fio's syntax and ranges, and the options ssdlab accepts but ignores.
//!
//! Source: fio HOWTO (fio 3.x), sections "Job file format" and "Job file parameters".

use super::batch::{apply_batch, BATCH_OPTIONS};
use super::bs::{apply_bs, apply_bsrange, apply_bssplit};
use super::distribution::parse_distribution;
use super::ini::{parse_sections, IniOption};
use super::job::{JobSpec, RwMode, IGNORED_OPTIONS};
use super::latency::{apply_latency, LATENCY_OPTIONS};
use super::logs::{apply_log, LOG_OPTIONS};
use super::rate::{apply_rate, RATE_OPTIONS};
use super::steady::{apply_steady, STEADY_OPTIONS};
use super::value::{parse_bool, parse_bytes, parse_int, parse_size, parse_time, TimeUnit};
use crate::error::InputError;
use ssdlab_model::SimTime;

#[cfg(test)]
mod tests;

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
        k if REGION_OPTIONS.contains(&k) => apply_region(j, o)?,
        "iodepth" => {
            j.iodepth = parse_int(need(o)?, 1, 65_536).map_err(|e| format!("iodepth: {e}"))? as u32
        }
        "numjobs" => {
            j.numjobs = parse_int(need(o)?, 1, 256).map_err(|e| format!("numjobs: {e}"))? as u32
        }
        k if TIME_OPTIONS.contains(&k) => apply_time(j, o)?,
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

/// The options that place a job's IO on the device.
const REGION_OPTIONS: &[&str] = &[
    "verify",
    "nrfiles",
    "nr_files",
    "filesize",
    "filename",
    "size",
    "offset",
    "offset_increment",
    "io_size",
    "io_limit",
];

/// `verify` and the options of the job's region and files: size, offset, files, IO amount.
fn apply_region(j: &mut JobSpec, o: &IniOption) -> Result<(), String> {
    let key = o.key.as_str();
    match key {
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
        _ => unreachable!("only REGION_OPTIONS reach apply_region"),
    }
    Ok(())
}

/// The options of a job's duration and pacing.
const TIME_OPTIONS: &[&str] = &[
    "loops",
    "runtime",
    "timeout",
    "time_based",
    "ramp_time",
    "thinktime",
    "number_ios",
    "randseed",
];

/// How long a job runs and how it is paced: loops, runtime, ramp, thinktime, IO count, seed.
fn apply_time(j: &mut JobSpec, o: &IniOption) -> Result<(), String> {
    match o.key.as_str() {
        "loops" => {
            j.loops =
                parse_int(need(o)?, 1, u32::MAX as u64).map_err(|e| format!("loops: {e}"))? as u32
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
        _ => unreachable!("only TIME_OPTIONS reach apply_time"),
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
