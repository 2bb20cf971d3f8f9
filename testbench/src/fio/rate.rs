//! fio's rate options (fio HOWTO, "I/O rate"): `rate` and `rate_iops` cap a job's issue rate
//! per direction, `rate_min` and `rate_iops_min` fail the job when a direction falls below them
//! over a `rate_cycle`, and `rate_process` spaces the IOs evenly (`linear`) or as a Poisson
//! process (`poisson`: exponential gaps of the same mean).
//!
//! Values are `READ[,WRITE[,TRIM]]` with the comma rules of `bs`: a value not ended by a comma
//! applies to the directions after it, an empty one is 0 (no cap): `rate_iops=500` caps reads
//! and writes at 500 each, `rate_iops=,200` only writes, `rate_iops=700,300` both. The trim
//! value is checked and unused (ssdlab's `rw` modes issue no trims). When a direction has both
//! `rate` and `rate_iops`, `rate` wins, as in fio's `setup_rate`.

use super::job::JobSpec;
use super::value::{parse_bytes, parse_int, parse_time, TimeUnit};
use ssdlab_model::SimTime;

/// `rate_process=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateProcess {
    Linear,
    Poisson,
}

/// A job's rate options; index 0 is reads, 1 writes; 0 = not set.
#[derive(Clone, Debug, PartialEq)]
pub struct RateSpec {
    pub bps: [u64; 2],
    pub iops: [u64; 2],
    pub min_bps: [u64; 2],
    pub min_iops: [u64; 2],
    pub process: RateProcess,
    /// `rate_cycle`: the averaging window of the `rate_min` check (fio's default 1000 ms).
    pub cycle: SimTime,
    /// File and line of the `rate_min` / `rate_iops_min` option, for the error when not met.
    pub min_at: Option<(String, usize)>,
}

impl Default for RateSpec {
    fn default() -> Self {
        RateSpec {
            bps: [0; 2],
            iops: [0; 2],
            min_bps: [0; 2],
            min_iops: [0; 2],
            process: RateProcess::Linear,
            cycle: SimTime::from_ms(1000),
            min_at: None,
        }
    }
}

impl RateSpec {
    /// Any cap on issuing.
    pub fn caps(&self) -> bool {
        self.bps.iter().chain(&self.iops).any(|v| *v > 0)
    }
    /// Any minimum to check.
    pub fn has_min(&self) -> bool {
        self.min_bps.iter().chain(&self.min_iops).any(|v| *v > 0)
    }
}

/// The largest value fio's unsigned rate fields take (32 bits for IOPS).
const MAX_IOPS: u64 = u32::MAX as u64;

/// `READ[,WRITE[,TRIM]]` by the comma rules, each through `one`.
fn per_dir(
    key: &str,
    v: &str,
    one: impl Fn(&str) -> Result<u64, String>,
) -> Result<[u64; 2], String> {
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!(
            "{key}={v}: at most three values (reads, writes, trims)"
        ));
    }
    let val = |s: &str| {
        if s.is_empty() {
            Ok(0)
        } else {
            one(s).map_err(|e| format!("{key}: {e}"))
        }
    };
    let read = val(parts[0])?;
    let write = match parts.get(1) {
        Some(w) => val(w)?,
        None => read,
    };
    if let Some(t) = parts.get(2) {
        val(t)?;
    }
    Ok([read, write])
}

/// The options [`apply_rate`] takes (fio's spellings, old aliases included).
pub(super) const RATE_OPTIONS: &[&str] = &[
    "rate",
    "rate_iops",
    "rate_min",
    "ratemin",
    "rate_iops_min",
    "rate_process",
    "rate_cycle",
    "ratecycle",
];

/// Applies one of [`RATE_OPTIONS`]; `at` is the option's file and line.
pub(super) fn apply_rate(
    j: &mut JobSpec,
    key: &str,
    v: &str,
    at: (&str, usize),
) -> Result<(), String> {
    let kb = j.kb_base;
    let bytes = |s: &str| parse_bytes(s, kb);
    let iops = |s: &str| parse_int(s, 0, MAX_IOPS);
    match key {
        "rate" => j.rate.bps = per_dir(key, v, bytes)?,
        "rate_iops" => j.rate.iops = per_dir(key, v, iops)?,
        "rate_min" | "ratemin" => {
            j.rate.min_bps = per_dir(key, v, bytes)?;
            j.rate.min_at = Some((at.0.to_string(), at.1));
        }
        "rate_iops_min" => {
            j.rate.min_iops = per_dir(key, v, iops)?;
            j.rate.min_at = Some((at.0.to_string(), at.1));
        }
        "rate_process" => {
            j.rate.process = match v.trim() {
                "linear" => RateProcess::Linear,
                "poisson" => RateProcess::Poisson,
                o => return Err(format!("rate_process={o}: must be linear or poisson")),
            }
        }
        "rate_cycle" | "ratecycle" => {
            let t = parse_time(v, TimeUnit::Millis).map_err(|e| format!("{key}: {e}"))?;
            if t < SimTime::from_ms(1) {
                return Err(format!("{key}: must be at least 1 ms"));
            }
            j.rate.cycle = t;
        }
        _ => unreachable!("apply_rate called with `{key}`, not in RATE_OPTIONS"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::fio::parse_job_file;
    use ssdlab_model::SimTime;

    fn rate_of(opts: &str) -> super::RateSpec {
        parse_job_file(&format!("[a]\nrw=randrw\n{opts}"), "t.fio").unwrap()[0]
            .rate
            .clone()
    }

    #[test]
    fn comma_rules_as_bs() {
        assert_eq!(rate_of("rate_iops=500\n").iops, [500, 500]);
        assert_eq!(rate_of("rate_iops=,200\n").iops, [0, 200]);
        assert_eq!(rate_of("rate_iops=700,\n").iops, [700, 0]);
        assert_eq!(rate_of("rate_iops=700,300,9\n").iops, [700, 300]);
        assert_eq!(rate_of("rate=1m,2m\n").bps, [1 << 20, 2 << 20]);
        let r = rate_of("rate_min=1m\nrate_cycle=250\nrate_process=poisson\n");
        assert_eq!(r.min_bps, [1 << 20, 1 << 20]);
        assert_eq!(r.cycle, SimTime::from_ms(250));
        assert_eq!(r.process, super::RateProcess::Poisson);
        assert_eq!(r.min_at, Some(("t.fio".to_string(), 3)));
    }

    #[test]
    fn bad_values_name_the_line() {
        for (opt, want) in [
            ("rate_iops=-1", "t.fio:3: rate_iops: `-1` is not an integer"),
            (
                "rate=1m,2m,3m,4m",
                "t.fio:3: rate=1m,2m,3m,4m: at most three values",
            ),
            (
                "rate_process=bursty",
                "t.fio:3: rate_process=bursty: must be linear or poisson",
            ),
            ("rate_cycle=0", "t.fio:3: rate_cycle: must be at least 1 ms"),
            (
                "rate_iops=4294967296",
                "t.fio:3: rate_iops: 4294967296 is out of range",
            ),
        ] {
            let e = parse_job_file(&format!("[a]\nrw=randrw\n{opt}\n"), "t.fio")
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{opt}: {e}");
        }
    }
}
