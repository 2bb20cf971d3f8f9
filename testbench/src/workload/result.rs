//! Results of a job file run: one [`JobResult`] per job clone (or per reporting group with
//! `group_reporting`), grouped by stonewall into [`GroupResult`]s with the device's extras.

use super::device::Extras;
use super::occupancy::OccupancySeries;
use super::stats::DirStats;
use crate::fio::JobSpec;
use ssdlab_model::SimTime;

#[derive(Clone, Debug)]
pub struct JobResult {
    pub name: String,
    pub groupid: usize,
    /// Clone index within `numjobs`; `None` for a merged (group_reporting) entry.
    pub clone: Option<u32>,
    pub spec: JobSpec,
    pub read: DirStats,
    pub write: DirStats,
    /// Discards (Dataset Management deallocate): only trace replay issues them.
    pub trim: DirStats,
    /// From the end of ramp_time to this job's last completion.
    pub runtime: SimTime,
    /// Keys fio adds to a job's JSON for some options: `steadystate` (`workload/steady.rs`),
    /// `latency_depth`, `latency_target`, ... (`workload/runner/latency.rs`).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl JobResult {
    pub fn merge(&mut self, o: &JobResult) {
        self.read.merge(&o.read);
        self.write.merge(&o.write);
        self.trim.merge(&o.trim);
        self.runtime = self.runtime.max(o.runtime);
        self.clone = None;
    }
}

#[derive(Clone, Debug)]
pub struct GroupResult {
    pub groupid: usize,
    pub jobs: Vec<JobResult>,
    /// Measurement window in simulated time (after ramp_time to the last completion).
    pub window_start: SimTime,
    pub window_end: SimTime,
    /// Time inside the window with at least one command outstanding (fio's disk_util io_ticks).
    pub busy: SimTime,
    pub extras: Extras,
    /// SLC-cache occupancy and free blocks over the window (empty for devices without an FTL).
    pub occupancy: OccupancySeries,
    /// fio log files the jobs asked for (`write_bw_log`, ...): (file name, contents).
    pub logs: Vec<(String, String)>,
}

impl GroupResult {
    pub fn window(&self) -> SimTime {
        self.window_end.saturating_sub(self.window_start)
    }
    /// All jobs' read and write stats summed.
    pub fn totals(&self) -> (DirStats, DirStats) {
        let (mut r, mut w) = (DirStats::default(), DirStats::default());
        for j in &self.jobs {
            r.merge(&j.read);
            w.merge(&j.write);
        }
        (r, w)
    }
    /// Average power over the window, W (`None` for an empty window).
    pub fn avg_power_w(&self) -> Option<f64> {
        let s = self.window().as_secs_f64();
        (s > 0.0).then(|| self.extras.energy_j / s)
    }
}

/// Measures the time a device has at least one command outstanding, from `from` on.
#[derive(Clone, Copy, Debug)]
pub struct BusyMeter {
    from: SimTime,
    since: Option<SimTime>,
    pub busy: SimTime,
}

impl BusyMeter {
    pub fn new(from: SimTime) -> Self {
        BusyMeter {
            from,
            since: None,
            busy: SimTime::ZERO,
        }
    }
    /// Commands are outstanding at `now` (after a submission).
    pub fn outstanding(&mut self, now: SimTime) {
        self.since.get_or_insert(now);
    }
    /// The last outstanding command completed at `t`.
    pub fn idle_at(&mut self, t: SimTime) {
        if let Some(s) = self.since.take() {
            self.busy += t.saturating_sub(s.max(self.from));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_meter_counts_only_outstanding_time_inside_the_window() {
        // Window from 10 us; busy 5..20 us (10 us of it inside), idle, busy 30..35 us: 15 us.
        let mut m = BusyMeter::new(SimTime::from_us(10));
        m.outstanding(SimTime::from_us(5));
        m.outstanding(SimTime::from_us(7)); // already busy: no effect
        m.idle_at(SimTime::from_us(20));
        m.idle_at(SimTime::from_us(25)); // already idle: no effect
        m.outstanding(SimTime::from_us(30));
        m.idle_at(SimTime::from_us(35));
        assert_eq!(m.busy, SimTime::from_us(15));
    }
}
