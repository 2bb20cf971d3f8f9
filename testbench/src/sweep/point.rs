//! One sweep point: its resolved drive, the workload run on it, and the result row (swept
//! values, every reported metric, utilisation and bottleneck per measured window, config hash).

use super::grid::Point;
use crate::cli::{DriveArgs, OpenDevice};
use crate::drive_cfg::{self, config_hash, ResolvedDrive};
use crate::error::InputError;
use crate::fio::JobSpec;
use crate::protocol::{run::run_protocol, Protocol};
use crate::workload::{run_jobs, runner::Quiet, GroupResult};
use serde_json::{json, Map, Value};
use ssdlab_model::SeedTree;

/// What every point runs.
pub enum Workload {
    Jobs { file: String, jobs: Vec<JobSpec> },
    Protocol(Box<Protocol>),
}

impl Workload {
    /// `job:FILE` or `protocol:NAME`, recorded in the sweep manifest.
    pub fn describe(&self) -> String {
        match self {
            Workload::Jobs { file, .. } => format!("job:{file}"),
            Workload::Protocol(p) => format!("protocol:{}", p.name),
        }
    }
}

/// The point's drive: the base drive arguments, then the point's assignments.
pub fn resolve_point(base: &DriveArgs, p: &Point) -> Result<ResolvedDrive, InputError> {
    let mut sets = base.set.clone();
    sets.extend(p.sets());
    drive_cfg::resolve(base.preset.as_deref(), base.config.as_deref(), &sets).map_err(|e| {
        InputError::file(
            &format!("sweep point {} ({})", p.index, p.label()),
            e.to_string(),
        )
    })
}

/// A figure rounded to 4 decimals: short enough that JSON text and back is exact, so rows read
/// back by `--resume` and `sweep merge` are written out byte for byte as they were.
fn r4(x: f64) -> Value {
    json!((x * 1e4).round() / 1e4)
}

/// "rr" for a group: its first job's name.
fn group_label(g: &GroupResult) -> String {
    g.jobs
        .first()
        .map_or(format!("group{}", g.groupid), |j| j.name.clone())
}

fn group_metrics(label: &str, g: &GroupResult, m: &mut Map<String, Value>, bn: &mut Vec<String>) {
    for j in &g.jobs {
        for (dir, d) in [("read", &j.read), ("write", &j.write)] {
            if d.ios == 0 {
                continue;
            }
            m.insert(
                format!("{}.{dir}_mbs", j.name),
                r4(d.bw_bytes(j.runtime) / 1e6),
            );
            m.insert(format!("{}.{dir}_iops", j.name), r4(d.iops(j.runtime)));
            m.insert(
                format!("{}.{dir}_lat_mean_us", j.name),
                r4(d.lat.mean_ns() / 1e3),
            );
        }
    }
    if let Some(wa) = g.extras.write_amplification() {
        m.insert(format!("{label}.write_amplification"), r4(wa));
    }
    m.insert(format!("{label}.slc_blocks"), json!(g.extras.slc_blocks));
    m.insert(format!("{label}.free_blocks"), json!(g.extras.free_blocks));
    if let Some(u) = g.extras.utilisation() {
        for (name, busy) in [
            (
                "channel_bus_max",
                u.channel_bus.iter().copied().fold(0.0, f64::max),
            ),
            (
                "die_array_max",
                u.die_array.iter().copied().fold(0.0, f64::max),
            ),
            ("firmware", u.firmware),
            (
                "firmware_core_max",
                u.firmware_core.iter().copied().fold(0.0, f64::max),
            ),
            (
                "plane_array_max",
                u.plane_array.iter().copied().fold(0.0, f64::max),
            ),
            ("dram", u.dram),
            ("pcie_up", u.pcie_up),
            ("pcie_down", u.pcie_down),
            ("write_buffer_peak", u.write_buffer_peak),
        ] {
            m.insert(format!("{label}.busy_pct.{name}"), r4(busy * 100.0));
        }
        let (name, busy) = u.bottleneck();
        bn.push(format!("{label}: {name} {:.1} %", busy * 100.0));
    }
}

/// Runs the workload on one point's drive and returns its row. A failure at run time (bad input
/// the run discovers, or a panic in the model) is the row's `error`; the sweep goes on.
pub fn run_point(
    w: &Workload,
    rd: &ResolvedDrive,
    p: &Point,
    seed: u64,
    open: OpenDevice,
) -> Value {
    let set: Map<String, Value> = p.set.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    let mut row = json!({
        "point": p.index, "set": set, "seed": seed, "config_hash": config_hash(&rd.cfg),
        "drive": drive_cfg::summary_line(&rd.cfg),
    });
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_workload(w, rd, seed, open)
    }));
    match outcome {
        Ok(Ok((metrics, bn))) => {
            row["status"] = json!("ok");
            row["metrics"] = Value::Object(metrics);
            row["bottleneck"] = json!(bn.join("; "));
        }
        Ok(Err(e)) => {
            row["status"] = json!("error");
            row["error"] = json!(e.to_string());
        }
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "the model panicked".to_string());
            row["status"] = json!("error");
            row["error"] = json!(format!("panic: {msg}"));
        }
    }
    row
}

type Measured = (Map<String, Value>, Vec<String>);

fn run_workload(
    w: &Workload,
    rd: &ResolvedDrive,
    seed: u64,
    open: OpenDevice,
) -> Result<Measured, InputError> {
    let mut dev = open(&rd.cfg, seed)?;
    let seeds = SeedTree::new(seed);
    let mut m = Map::new();
    let mut bn = Vec::new();
    match w {
        Workload::Jobs { file, jobs } => {
            let groups = run_jobs(dev.as_mut(), jobs, file, &seeds, &mut Quiet)?;
            for g in &groups {
                group_metrics(&group_label(g), g, &mut m, &mut bn);
            }
        }
        Workload::Protocol(p) => {
            let steps = run_protocol(dev.as_mut(), p, &seeds, &mut Quiet, &mut |_, _| {})?;
            for s in &steps {
                if let Some(r) = &s.report {
                    m.insert(
                        r.id.clone().unwrap_or_else(|| r.label.clone()),
                        json!(r.model),
                    );
                }
                if let Some(u) = s.ftl.utilisation().filter(|_| !s.groups.is_empty()) {
                    let (name, busy) = u.bottleneck();
                    bn.push(format!("{}: {name} {:.1} %", s.label, busy * 100.0));
                }
            }
        }
    }
    Ok((m, bn))
}
