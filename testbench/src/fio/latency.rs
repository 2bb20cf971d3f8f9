//! fio's latency-target options (HOWTO "latency_target", "latency_window",
//! "latency_percentile", "latency_run"); the queue-depth search is
//! `workload/runner/latency.rs`.

use super::job::JobSpec;
use super::value::{parse_bool, parse_time, TimeUnit};
use ssdlab_model::SimTime;

/// `latency_target` (None: off), the window each depth runs, the percent of IOs that must meet
/// the target, and whether to keep adjusting after the search settles.
#[derive(Clone, Debug, PartialEq)]
pub struct LatencySpec {
    pub target: Option<SimTime>,
    pub window: SimTime,
    pub percentile: f64,
    pub run: bool,
}

impl Default for LatencySpec {
    fn default() -> Self {
        LatencySpec {
            target: None,
            window: SimTime::ZERO,
            percentile: 100.0,
            run: false,
        }
    }
}

pub(super) const LATENCY_OPTIONS: &[&str] = &[
    "latency_target",
    "latency_window",
    "latency_percentile",
    "latency_run",
];

pub(super) fn apply_latency(j: &mut JobSpec, key: &str, v: &str) -> Result<(), String> {
    let time = |v: &str| parse_time(v, TimeUnit::Micros).map_err(|e| format!("{key}: {e}"));
    match key {
        "latency_target" => j.latency.target = Some(time(v)?).filter(|t| *t > SimTime::ZERO),
        "latency_window" => j.latency.window = time(v)?,
        "latency_percentile" => {
            let p: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|p: &f64| *p > 0.0 && *p <= 100.0)
                .ok_or_else(|| format!("{key}: `{v}` is not a percentage in (0, 100]"))?;
            j.latency.percentile = p;
        }
        _ => j.latency.run = parse_bool(v).map_err(|e| format!("{key}: {e}"))?,
    }
    Ok(())
}
