//! Results of a job file run: one [`JobResult`] per job clone (or per reporting group with
//! `group_reporting`), grouped by stonewall into [`GroupResult`]s with the device's extras.

use super::device::Extras;
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
    /// From the end of ramp_time to this job's last completion.
    pub runtime: SimTime,
}

impl JobResult {
    pub fn merge(&mut self, o: &JobResult) {
        self.read.merge(&o.read);
        self.write.merge(&o.write);
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
    pub extras: Extras,
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
