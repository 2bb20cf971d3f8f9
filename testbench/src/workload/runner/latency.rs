//! fio's latency-target queue-depth search (`io_u.c` `lat_target_check`,
//! `lat_target_success`, `__lat_target_failed`): a clone starts at depth 1; each
//! `latency_window` it checks the share of its IOs within `latency_target` against
//! `latency_percentile`. Success raises the depth (doubling until a failure, then bisecting
//! between the last good and the first bad depth, with fio's slow rise of the upper bound after
//! three stable successes); failure bisects down and quiesces (in-flight commands complete
//! before more issue). At percentile 100 every late IO fails the window at once, and one at
//! depth 1 ends the job with fio's ETIMEDOUT error. When a success leaves the depth unchanged
//! the clone quiesces, resets its statistics and runs one more window at that depth; after
//! it the job ends (unless `latency_run`). The depth found is fio's `latency_depth`.

use super::Clone;
use crate::fio::latency::LatencySpec;
use crate::workload::stats::DirStats;
use ssdlab_model::SimTime;

#[derive(Clone, Debug)]
pub(super) struct LatTarget {
    spec: LatencySpec,
    pub(super) qd: u32,
    qd_low: u32,
    qd_high: u32,
    iodepth: u32,
    stable: u32,
    cycle_start: SimTime,
    cycle_ios: u64,
    failed: u64,
    end_run: bool,
    /// Issue nothing until the clone's commands have completed.
    pub(super) quiesce: bool,
}

impl LatTarget {
    pub(super) fn new(spec: &LatencySpec, iodepth: u32, t0: SimTime) -> Option<LatTarget> {
        spec.target.map(|_| LatTarget {
            spec: spec.clone(),
            qd: 1,
            qd_low: 1,
            qd_high: iodepth,
            iodepth,
            stable: 0,
            cycle_start: t0,
            cycle_ios: 0,
            failed: 0,
            end_run: false,
            quiesce: false,
        })
    }
    /// fio's JSON keys of the search: depth, target (ns), percentile, window (us).
    pub(super) fn json(&self) -> [(&'static str, serde_json::Value); 4] {
        let t = self.spec.target.unwrap_or(SimTime::ZERO);
        [
            ("latency_depth", self.qd.into()),
            ("latency_target", (t.as_ps() / 1000).into()),
            ("latency_percentile", self.spec.percentile.into()),
            (
                "latency_window",
                (self.spec.window.as_ps() / 1_000_000).into(),
            ),
        ]
    }
    fn new_cycle(&mut self, now: SimTime, ios: u64) {
        (self.cycle_start, self.cycle_ios, self.failed) = (now, ios, 0);
    }
    /// `__lat_target_failed`; true when the job must end (depth 1 already).
    fn ramp_down(&mut self, now: SimTime, ios: u64) -> bool {
        if self.qd == 1 {
            return true;
        }
        self.qd_high = self.qd;
        if self.qd == self.qd_low {
            self.qd_low -= 1;
        }
        self.qd = (self.qd + self.qd_low) / 2;
        self.stable = 0;
        self.quiesce = true;
        self.new_cycle(now, ios);
        false
    }
    /// `lat_target_success`; Some(true) = the job is done, Some(false) = final window starts.
    fn ramp_up(&mut self, now: SimTime, ios: u64) -> Option<bool> {
        let qd = self.qd;
        self.qd_low = self.qd;
        if self.qd + 1 == self.qd_high {
            self.stable += 1;
            if self.stable >= 3 {
                self.qd_high += 1;
                self.stable = 0;
            }
        }
        self.qd = if self.qd_high != self.iodepth {
            (self.qd + self.qd_high) / 2
        } else {
            self.qd * 2
        }
        .min(self.iodepth);
        let mut out = None;
        if !self.spec.run && self.qd == qd {
            out = Some(self.end_run);
            if !self.end_run {
                self.quiesce = true;
                self.end_run = true;
            }
        }
        self.new_cycle(now, ios);
        out
    }
}

impl Clone {
    /// A reaped command took `lat`; Err with fio's message when it ends the job.
    pub(super) fn latency_sample(&mut self, lat: SimTime, now: SimTime) -> Result<(), String> {
        let ios = self.totals.0;
        let Some(l) = self.lat_target.as_mut() else {
            return Ok(());
        };
        let target = l.spec.target.unwrap_or(SimTime::ZERO);
        if lat <= target {
            return Ok(());
        }
        if l.spec.percentile < 100.0 {
            l.failed += 1;
            return Ok(());
        }
        if l.ramp_down(now, ios) {
            return Err(format!(
                "latency of {} nsec exceeds specified max ({} nsec) at queue depth 1: ETIMEDOUT",
                lat.as_ps() / 1000,
                target.as_ps() / 1000
            ));
        }
        Ok(())
    }
    /// `lat_target_check` after reaping, at `now`.
    pub(super) fn latency_check(&mut self, now: SimTime) {
        let ios_total = self.totals.0;
        let Some(l) = self.lat_target.as_mut() else {
            return;
        };
        if l.quiesce && self.outstanding == 0 {
            l.quiesce = false;
            if l.end_run {
                // fio's reset_all_stats before the final window.
                (self.read, self.write) = (DirStats::default(), DirStats::default());
                self.stats_from = now;
            }
        }
        if now.saturating_sub(l.cycle_start) < l.spec.window || l.quiesce {
            return;
        }
        let ios = ios_total - l.cycle_ios;
        if ios == 0 {
            return;
        }
        let ok = (ios - l.failed) as f64 / ios as f64 * 100.0;
        if ok >= l.spec.percentile {
            if l.ramp_up(now, ios_total) == Some(true) {
                self.finished = true;
            }
        } else {
            // fio ignores the depth-1 case here: the search stays at depth 1.
            l.ramp_down(now, ios_total);
        }
    }
}
