//! Protocol results beside published figures: the metric of each reported step, the setting it
//! ran with (queue depth x jobs, block size), the published value and the signed error.

use super::run::StepOutcome;
use super::schema::{Metric, ReportDef};
use super::Protocol;
use crate::fio::JobSpec;
use crate::output::json::{document, group_extras};
use crate::workload::stats::DirStats;
use crate::workload::GroupResult;
use serde_json::{json, Value};
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq)]
pub struct ReportRow {
    pub id: Option<String>,
    pub label: String,
    /// E.g. "QD32x4 4KiB randread".
    pub setting: String,
    pub metric: Metric,
    pub model: f64,
    pub published: Option<f64>,
    pub source: Option<String>,
    pub note: Option<String>,
}

impl ReportRow {
    pub fn new(id: &Option<String>, label: &str, setting: &str, r: &ReportDef, model: f64) -> Self {
        ReportRow {
            id: id.clone(),
            label: label.to_string(),
            setting: setting.to_string(),
            metric: r.metric,
            model,
            published: r.published,
            source: r.source.clone(),
            note: r.note.clone(),
        }
    }
    /// The mean of earlier rows (all of one metric, as AnandTech scores QD1-4).
    pub fn score(
        id: &Option<String>,
        label: &str,
        rows: &[&ReportRow],
        published: Option<f64>,
        source: Option<String>,
        note: Option<String>,
    ) -> Self {
        assert!(!rows.is_empty());
        let model = rows.iter().map(|r| r.model).sum::<f64>() / rows.len() as f64;
        let ids: Vec<&str> = rows.iter().filter_map(|r| r.id.as_deref()).collect();
        ReportRow {
            id: id.clone(),
            label: label.to_string(),
            setting: format!("mean of {}", ids.join(", ")),
            metric: rows[0].metric,
            model,
            published,
            source,
            note,
        }
    }
    /// Signed error of the model against the published figure, percent.
    pub fn error_pct(&self) -> Option<f64> {
        self.published
            .filter(|p| *p != 0.0)
            .map(|p| (self.model - p) / p * 100.0)
    }
    /// Judged by validation and outside `tol` percent of the published figure (a published 0
    /// has no relative error and counts as outside).
    pub fn outside(&self, tol: f64) -> bool {
        self.published.is_some() && self.error_pct().is_none_or(|e| e.abs() > tol)
    }
}

fn kib(b: u64) -> String {
    if b.is_multiple_of(1 << 20) {
        format!("{}MiB", b >> 20)
    } else {
        format!("{}KiB", b / 1024)
    }
}

/// "QD32x4 4KiB randread" for the first job of a step (and "+N jobs" when there are more).
pub fn setting_of(jobs: &[JobSpec]) -> String {
    let j = &jobs[0];
    let bs = if j.rw.read_pct(j.rwmixread) > 0 {
        j.bs_read
    } else {
        j.bs_write
    };
    let more = if jobs.len() > 1 {
        format!(" +{} jobs", jobs.len() - 1)
    } else {
        String::new()
    };
    format!(
        "QD{}x{} {} {}{more}",
        j.iodepth,
        j.numjobs,
        kib(bs),
        j.rw.fio_name()
    )
}

/// A metric over all groups of a step; windows add up (bursts: the busy time only).
pub fn metric_value(m: Metric, groups: &[GroupResult]) -> f64 {
    let (mut r, mut w) = (DirStats::default(), DirStats::default());
    let mut secs = 0.0;
    let mut energy = 0.0;
    for g in groups {
        let (gr, gw) = g.totals();
        r.merge(&gr);
        w.merge(&gw);
        secs += g.window().as_secs_f64();
        energy += g.extras.energy_j;
    }
    let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
    let power = per_s(energy);
    match m {
        Metric::ReadMbps => per_s(r.bytes as f64) / 1e6,
        Metric::WriteMbps => per_s(w.bytes as f64) / 1e6,
        Metric::ReadIops => per_s(r.ios as f64),
        Metric::WriteIops => per_s(w.ios as f64),
        Metric::ReadLatAvgUs => r.lat.mean_ns() / 1e3,
        Metric::WriteLatAvgUs => w.lat.mean_ns() / 1e3,
        Metric::ReadLatP99Us => r.lat.percentile_ns(99.0) as f64 / 1e3,
        Metric::WriteLatP99Us => w.lat.percentile_ns(99.0) as f64 / 1e3,
        Metric::ReadLatP999Us => r.lat.percentile_ns(99.9) as f64 / 1e3,
        Metric::WriteLatP999Us => w.lat.percentile_ns(99.9) as f64 / 1e3,
        Metric::ReadLatP9999Us => r.lat.percentile_ns(99.99) as f64 / 1e3,
        Metric::WriteLatP9999Us => w.lat.percentile_ns(99.99) as f64 / 1e3,
        Metric::ReadLatMaxUs => r.lat.max_ns() as f64 / 1e3,
        Metric::WriteLatMaxUs => w.lat.max_ns() as f64 / 1e3,
        Metric::Iops => per_s((r.ios + w.ios) as f64),
        Metric::Mbps => per_s((r.bytes + w.bytes) as f64) / 1e6,
        Metric::LatAvgUs => {
            let mut all = r.clone();
            all.merge(&w);
            all.lat.mean_ns() / 1e3
        }
        Metric::LatMaxUs => r.lat.max_ns().max(w.lat.max_ns()) as f64 / 1e3,
        Metric::AvgPowerW => power,
        Metric::MbpsPerW => {
            if power > 0.0 {
                per_s((r.bytes + w.bytes) as f64) / 1e6 / power
            } else {
                0.0
            }
        }
    }
}

/// A figure as the tables print it: whole numbers from 100 up, two decimals below.
pub(crate) fn num(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// One line per reported step, for the progress log and the final table.
pub fn row_line(r: &ReportRow) -> String {
    let unit = r.metric.unit();
    let published = r
        .published
        .map_or("-".to_string(), |p| format!("{} {unit}", num(p)));
    let err = r
        .error_pct()
        .map_or(String::new(), |e| format!("{e:+.1} %"));
    let mut line = format!(
        "{:<44} {:<24} {:>14} {:>14} {:>8}",
        r.label,
        r.setting,
        format!("{} {unit}", num(r.model)),
        published,
        err
    );
    if let Some(n) = &r.note {
        let _ = write!(line, "  ({n})");
    }
    line
}

/// The results table of a protocol run.
pub fn table(p: &Protocol, preset: &str, seed: u64, steps: &[StepOutcome]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "protocol {} on {preset} (seed {seed}): {}",
        p.name, p.description
    );
    if let Some(s) = &p.source {
        let _ = writeln!(out, "published figures: {s}");
    }
    let _ = writeln!(
        out,
        "{:<44} {:<24} {:>14} {:>14} {:>8}",
        "test", "setting", "model", "published", "error"
    );
    for s in steps {
        if let Some(r) = &s.report {
            let _ = writeln!(out, "{}", row_line(r));
        }
    }
    for s in steps {
        if let Some(o) = &s.power_loss {
            let _ = writeln!(out, "{}: {}", s.label, super::power::summary(o));
            if let Some(v) = &o.first_violation {
                let _ = writeln!(out, "  first integrity violation: {v}");
            }
        }
    }
    for s in steps {
        if let Some(o) = &s.rounds {
            let _ = write!(out, "{}", super::rounds::report::text(&s.label, o));
        }
    }
    let sim: f64 = steps.last().map_or(0.0, |s| s.sim_end.as_secs_f64());
    let _ = writeln!(out, "simulated time: {sim:.1} s");
    out
}

/// JSON of a protocol run: each step with its fio-shaped document and report row.
pub fn json(p: &Protocol, preset: &str, seed: u64, steps: &[StepOutcome]) -> Value {
    let steps: Vec<Value> = steps
        .iter()
        .map(|s| {
            let report = s.report.as_ref().map(|r| {
                json!({"id": r.id, "label": r.label, "setting": r.setting, "metric": format!("{:?}", r.metric),
                       "unit": r.metric.unit(), "model": r.model, "published": r.published,
                       "error_pct": r.error_pct(), "source": r.source, "note": r.note})
            });
            let fio = (!s.groups.is_empty()).then(|| document(&s.groups, json!({})));
            let power_loss = s.power_loss.as_ref().map(|o| {
                json!({"at_s": o.at.as_secs_f64(), "plp": o.plp, "commands_lost": o.commands_lost,
                       "nand_ops_lost": o.nand_ops_lost, "buffered_units_lost": o.buffered_units_lost,
                       "program_units_lost": o.program_units_lost, "interrupted_programs": o.interrupted_programs,
                       "interrupted_erases": o.interrupted_erases, "units_rolled_back": o.units_rolled_back,
                       "mount": {"time_s": o.mount_time.as_secs_f64(), "nand_reads": o.mount_reads(),
                                 "checkpoint_pages": o.checkpoint_pages_read, "journal_pages": o.journal_pages_read,
                                 "spare_reads": o.spare_reads, "scanned_blocks": o.scanned_blocks},
                       "integrity": {"violations": o.violations, "first": o.first_violation}})
            });
            json!({"index": s.index, "kind": s.kind, "label": s.label,
                   "sim_start_s": s.sim_start.as_secs_f64(), "sim_end_s": s.sim_end.as_secs_f64(),
                   "report": report, "fio": fio, "power_loss": power_loss,
                   "rounds": s.rounds.as_ref().map(super::rounds::report::json),
                   "ssdlab": s.groups.iter().map(group_extras).collect::<Vec<_>>(),
                   "ftl": {"write_amplification": s.ftl.write_amplification(), "gc_blocks": s.ftl.gc_blocks,
                           "gc_victim_valid_fraction": s.ftl.gc_victim_valid_fraction, "fold_blocks": s.ftl.fold_blocks,
                           "slc_blocks": s.ftl.slc_blocks, "slc_used_bytes": s.ftl.slc_used_bytes, "free_blocks": s.ftl.free_blocks},
                   "utilisation": s.ftl.utilisation().map(|u| u.json())})
        })
        .collect();
    json!({"protocol": p.name, "description": p.description, "source": p.source, "preset": preset, "seed": seed, "steps": steps})
}
