//! fio's steady-state detection (`steadystate.c`), per job clone: every `ss_interval` from
//! the job's start (after `ss_ramp`, from one interval past it), the interval's IOPS
//! (completions x 1 s / interval), bandwidth (bytes/s) and mean clat (ns) go into a rolling
//! window of `ss_dur / ss_interval` samples. With the window full, the criterion is the largest
//! deviation of a sample from the window's mean, or the least-squares slope over sample indices
//! 0, 1, ... (fio assumes equal spacing), either as is or as a percentage of the mean; when its
//! magnitude is below the limit the job stops (its commands in flight complete) and reports
//! `attained`. The JSON block is fio's `steadystate` object.

use crate::fio::steady::{SteadyMetric, SteadySpec};
use serde_json::{json, Value};
use ssdlab_model::SimTime;
use std::collections::VecDeque;

/// One clone's detector.
#[derive(Clone, Debug)]
pub struct Steady {
    spec: SteadySpec,
    next: SimTime,
    start_at: SimTime,
    prev: (u64, u64, u128, u64),
    iops: VecDeque<u64>,
    bw: VecDeque<u64>,
    lat: VecDeque<u64>,
    pub attained: bool,
    criterion: f64,
    deviation: f64,
    slope: f64,
}

impl Steady {
    /// For a job starting at `t0`; `None` when `ss_dur` is 0.
    pub fn new(spec: &SteadySpec, t0: SimTime) -> Option<Steady> {
        (spec.dur > SimTime::ZERO).then(|| Steady {
            spec: spec.clone(),
            next: t0.add_limited(spec.interval).unwrap_or(SimTime::LIMIT),
            // fio: with no ramp every check collects; after a ramp, from one interval later.
            start_at: if spec.ramp == SimTime::ZERO {
                t0
            } else {
                t0.add_limited(spec.ramp)
                    .and_then(|t| t.add_limited(spec.interval))
                    .unwrap_or(SimTime::LIMIT)
            },
            prev: (0, 0, 0, 0),
            iops: VecDeque::new(),
            bw: VecDeque::new(),
            lat: VecDeque::new(),
            attained: false,
            criterion: 0.0,
            deviation: 0.0,
            slope: 0.0,
        })
    }
    /// The next check time.
    pub fn due(&self) -> SimTime {
        self.next
    }
    /// Runs the checks due by `now` from the clone's totals (IOs, bytes, clat sum ns, clat
    /// samples); true once steady state is attained.
    pub fn check(&mut self, now: SimTime, totals: (u64, u64, u128, u64)) -> bool {
        while !self.attained && self.next <= now {
            let at = self.next;
            self.next = at.add_limited(self.spec.interval).unwrap_or(SimTime::LIMIT);
            let (ios, bytes, lat_sum, lat_n) = totals;
            let p = self.prev;
            self.prev = totals;
            if at < self.start_at {
                continue;
            }
            let per_s = 1e12 / self.spec.interval.as_ps() as f64;
            self.push(
                ((ios - p.0) as f64 * per_s) as u64,
                ((bytes - p.1) as f64 * per_s) as u64,
                if lat_n > p.3 {
                    ((lat_sum - p.2) / (lat_n - p.3) as u128) as u64
                } else {
                    0
                },
            );
        }
        self.attained
    }
    fn push(&mut self, iops: u64, bw: u64, lat: u64) {
        let n = self.spec.intervals();
        for (q, v) in [
            (&mut self.iops, iops),
            (&mut self.bw, bw),
            (&mut self.lat, lat),
        ] {
            q.push_back(v);
            if q.len() > n {
                q.pop_front();
            }
        }
        if self.iops.len() < n {
            return;
        }
        let y: Vec<f64> = match self.spec.metric {
            SteadyMetric::Iops => &self.iops,
            SteadyMetric::Bw => &self.bw,
            SteadyMetric::Lat => &self.lat,
        }
        .iter()
        .map(|v| *v as f64)
        .collect();
        let (c, mean) = criterion(&y, self.spec.slope);
        if self.spec.slope {
            self.slope = c;
        } else {
            self.deviation = c;
        }
        self.criterion = if self.spec.pct { 100.0 * c / mean } else { c };
        self.attained = self.criterion.abs() < self.spec.limit;
    }
    /// fio's JSON `steadystate` object.
    pub fn json(&self) -> Value {
        let mean = |q: &VecDeque<u64>| {
            if q.is_empty() {
                0
            } else {
                q.iter().sum::<u64>() / q.len() as u64
            }
        };
        let pct = if self.spec.pct { "%" } else { "" };
        let mut data = json!({
            "bw_mean": mean(&self.bw),
            "iops_mean": mean(&self.iops),
            "iops": self.iops,
            "bw": self.bw,
        });
        if self.spec.metric == SteadyMetric::Lat {
            data["lat_mean"] = json!(mean(&self.lat));
            data["lat_ns"] = json!(self.lat);
        }
        json!({
            "ss": self.spec.label(),
            "duration": self.spec.dur.as_ps() / 1_000_000_000_000,
            "attained": u8::from(self.attained),
            "criterion": format!("{:.6}{pct}", self.criterion),
            "max_deviation": self.deviation,
            "slope": self.slope,
            "data": data,
        })
    }
}

/// (largest |y - mean| or least-squares slope over x = 0, 1, ..., mean of y).
fn criterion(y: &[f64], slope: bool) -> (f64, f64) {
    let n = y.len() as f64;
    let mean = y.iter().sum::<f64>() / n;
    if !slope {
        return (y.iter().map(|v| (v - mean).abs()).fold(0.0, f64::max), mean);
    }
    let sx: f64 = (0..y.len()).map(|i| i as f64).sum();
    let sxx: f64 = (0..y.len()).map(|i| (i * i) as f64).sum();
    let sxy: f64 = y.iter().enumerate().map(|(i, v)| i as f64 * v).sum();
    ((sxy - sx * mean) / (sxx - sx * sx / n), mean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criteria_by_hand() {
        // 100, 110, 90, 100: mean 100, largest deviation 10; slope over x = 0..3:
        // sxy = 0 + 110 + 180 + 300 = 590, sx = 6, sxx = 14: (590 - 600) / (14 - 9) = -2.
        assert_eq!(
            criterion(&[100.0, 110.0, 90.0, 100.0], false),
            (10.0, 100.0)
        );
        assert_eq!(criterion(&[100.0, 110.0, 90.0, 100.0], true), (-2.0, 100.0));
    }
}
