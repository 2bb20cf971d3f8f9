//! fio's steady-state options (HOWTO "steadystate", "ss_dur", "ss_ramp", "ss_interval"):
//! the criterion, its limit, the rolling window and the ramp before collecting; the detection is
//! `workload/steady.rs`.

use super::job::JobSpec;
use super::value::{parse_time, TimeUnit};
use ssdlab_model::SimTime;

/// What is measured per interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SteadyMetric {
    Iops,
    Bw,
    Lat,
}

/// `steadystate=METRIC[_slope]:LIMIT[%]` with its window.
#[derive(Clone, Debug, PartialEq)]
pub struct SteadySpec {
    pub metric: SteadyMetric,
    /// Least-squares slope instead of the largest deviation from the mean.
    pub slope: bool,
    pub limit: f64,
    /// The limit is a percentage of the window's mean.
    pub pct: bool,
    /// `ss_dur` (0: detection off), `ss_ramp`, `ss_interval` (fio's default 1 s).
    pub dur: SimTime,
    pub ramp: SimTime,
    pub interval: SimTime,
}

impl Default for SteadySpec {
    fn default() -> Self {
        SteadySpec {
            metric: SteadyMetric::Iops,
            slope: true,
            limit: 0.01,
            pct: true,
            dur: SimTime::ZERO,
            ramp: SimTime::ZERO,
            interval: SimTime::from_secs(1),
        }
    }
}

impl SteadySpec {
    /// fio's `ss` string: `iops_slope:0.010000%`.
    pub fn label(&self) -> String {
        let m = match self.metric {
            SteadyMetric::Iops => "iops",
            SteadyMetric::Bw => "bw",
            SteadyMetric::Lat => "lat",
        };
        let slope = if self.slope { "_slope" } else { "" };
        let pct = if self.pct { "%" } else { "" };
        format!("{m}{slope}:{:.6}{pct}", self.limit)
    }
    /// Samples in the rolling window.
    pub fn intervals(&self) -> usize {
        (self.dur.as_ps() / self.interval.as_ps()) as usize
    }
}

/// The options [`apply_steady`] takes, fio's long and short names.
pub(super) const STEADY_OPTIONS: &[&str] = &[
    "steadystate",
    "ss",
    "steadystate_duration",
    "ss_dur",
    "steadystate_ramp_time",
    "ss_ramp",
    "steadystate_check_interval",
    "ss_interval",
];

pub(super) fn apply_steady(j: &mut JobSpec, key: &str, v: &str) -> Result<(), String> {
    let s = &mut j.steady;
    let time = |v: &str| parse_time(v, TimeUnit::Secs).map_err(|e| format!("{key}: {e}"));
    match key {
        "steadystate" | "ss" => {
            let (m, lim) = v
                .split_once(':')
                .ok_or_else(|| format!("{key}={v}: expected METRIC:LIMIT, e.g. iops_slope:0.1%"))?;
            let (metric, slope) = match m.trim() {
                "iops" => (SteadyMetric::Iops, false),
                "iops_slope" => (SteadyMetric::Iops, true),
                "bw" => (SteadyMetric::Bw, false),
                "bw_slope" => (SteadyMetric::Bw, true),
                "lat" => (SteadyMetric::Lat, false),
                "lat_slope" => (SteadyMetric::Lat, true),
                o => {
                    return Err(format!(
                        "{key}: `{o}` is not iops, iops_slope, bw, bw_slope, lat or lat_slope"
                    ))
                }
            };
            let lim = lim.trim();
            let (num, pct) = match lim.strip_suffix('%') {
                Some(n) => (n, true),
                None => (lim, false),
            };
            let limit: f64 = num
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{key}: limit `{lim}` is not a number >= 0"))?;
            (s.metric, s.slope, s.limit, s.pct) = (metric, slope, limit, pct);
        }
        "steadystate_duration" | "ss_dur" => s.dur = time(v)?,
        "steadystate_ramp_time" | "ss_ramp" => s.ramp = time(v)?,
        _ => {
            let t = time(v)?;
            if t < SimTime::from_ms(1) {
                return Err(format!("{key}: must be at least 1 ms"));
            }
            s.interval = t;
        }
    }
    Ok(())
}

/// fio's `steadystate` checks once the options are known: a window of whole intervals.
pub(super) fn check(s: &SteadySpec) -> Result<(), String> {
    if s.dur == SimTime::ZERO {
        return Ok(());
    }
    if !s.dur.as_ps().is_multiple_of(s.interval.as_ps()) || s.intervals() < 2 {
        return Err(format!(
            "ss_dur {} s must be a multiple of ss_interval {} s, at least two of them",
            s.dur.as_secs_f64(),
            s.interval.as_secs_f64()
        ));
    }
    Ok(())
}
