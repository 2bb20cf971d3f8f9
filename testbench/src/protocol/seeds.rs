//! `ssdlab validate --seeds N`: one protocol on one drive at N consecutive root seeds, each a
//! whole independent run on its own modelled drive (threads, `--jobs` at a time), then every
//! reported figure's spread over the seeds beside the published value.
//!
//! Why: a figure that passes at one seed and not at the next is not calibrated, only lucky.
//! A simulated drive's steady state has phases (GC debt falling inside or outside a 30 s window,
//! where the range's blocks land on the dies) that the seed moves; the spread says how far a
//! single run can be trusted. Each run is exactly `ssdlab --seed S validate ...` (same seed, same
//! figures, whatever the thread count), so any one of them can be re-run alone.

use super::report::{self, num, ReportRow};
use super::run::{run_protocol, StepOutcome};
use super::Protocol;
use crate::error::InputError;
use crate::workload::runner::Quiet;
use crate::workload::{Device, Integrity};
use serde_json::{json, Value};
use ssdlab_model::{DriveConfig, SeedTree};
use std::fmt::Write;
use std::sync::Mutex;

/// One seed's whole protocol run.
pub struct SeedRun {
    pub seed: u64,
    pub steps: Vec<StepOutcome>,
    pub wall_s: f64,
    /// The drive's integrity verdict at the end of the run.
    pub integrity: Integrity,
}

impl SeedRun {
    pub fn rows(&self) -> Vec<&ReportRow> {
        self.steps
            .iter()
            .filter_map(|s| s.report.as_ref())
            .collect()
    }
}

/// Makes a run's device (Sync: runs open their drives from worker threads).
pub type OpenSync<'a> =
    &'a (dyn Fn(&DriveConfig, u64) -> Result<Box<dyn Device>, InputError> + Sync);

/// Runs `p` at seeds `first..first + n` with at most `jobs` runs at once; results in seed order.
/// `done` is told of each finished run (from its worker thread). The first error wins and no
/// result is returned: a partial set of seeds is never shown as whole.
pub fn run_seeds(
    p: &Protocol,
    cfg: &DriveConfig,
    open: OpenSync,
    first: u64,
    n: u32,
    jobs: u32,
    done: &(dyn Fn(&SeedRun) + Sync),
) -> Result<Vec<SeedRun>, InputError> {
    assert!(n >= 1 && jobs >= 1);
    let seeds: Vec<u64> = (0..n as u64).map(|k| first.wrapping_add(k)).collect();
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<Result<SeedRun, InputError>>>> =
        Mutex::new((0..seeds.len()).map(|_| None).collect());
    let worker = || loop {
        let i = {
            let mut g = next.lock().expect("no worker panics holding the lock");
            if *g >= seeds.len() {
                break;
            }
            *g += 1;
            *g - 1
        };
        let r = run_one(p, cfg, open, seeds[i]);
        if let Ok(run) = &r {
            done(run);
        }
        results.lock().expect("no worker panics holding the lock")[i] = Some(r);
    };
    std::thread::scope(|s| {
        for _ in 0..jobs.min(n) {
            s.spawn(worker);
        }
    });
    results
        .into_inner()
        .expect("workers joined")
        .into_iter()
        .map(|r| r.expect("every seed ran"))
        .collect()
}

fn run_one(
    p: &Protocol,
    cfg: &DriveConfig,
    open: OpenSync,
    seed: u64,
) -> Result<SeedRun, InputError> {
    let wall = std::time::Instant::now();
    let mut dev = open(cfg, seed)?;
    let steps = run_protocol(
        dev.as_mut(),
        p,
        &SeedTree::new(seed),
        &mut Quiet,
        &mut |_, _| {},
    )?;
    Ok(SeedRun {
        seed,
        steps,
        wall_s: wall.elapsed().as_secs_f64(),
        integrity: dev.integrity(),
    })
}

/// One reported figure over every seed (rows matched by position: every run has the same steps).
pub struct Spread<'a> {
    pub row: &'a ReportRow,
    pub models: Vec<f64>,
    /// Signed errors against the published figure, one per seed (empty without a figure).
    pub errors: Vec<f64>,
    /// Seeds (positions in the runs) at which the figure is outside the tolerance
    /// ([`ReportRow::outside`]).
    pub outside: Vec<usize>,
}

impl Spread<'_> {
    pub fn mean(&self) -> f64 {
        self.models.iter().sum::<f64>() / self.models.len() as f64
    }
}

/// The figures with a published value (the ones validation judges), across runs, judged
/// against `tol` percent.
pub fn spreads(runs: &[SeedRun], tol: f64) -> Vec<Spread<'_>> {
    let first = runs[0].rows();
    let all: Vec<Vec<&ReportRow>> = runs.iter().map(|r| r.rows()).collect();
    first
        .iter()
        .enumerate()
        .filter(|(_, r)| r.published.is_some())
        .map(|(i, row)| {
            let models: Vec<f64> = all.iter().map(|rows| rows[i].model).collect();
            let errors: Vec<f64> = all.iter().filter_map(|rows| rows[i].error_pct()).collect();
            let errors = if errors.len() == runs.len() {
                errors
            } else {
                Vec::new()
            };
            let outside = (0..runs.len())
                .filter(|&k| all[k][i].outside(tol))
                .collect();
            Spread {
                row,
                models,
                errors,
                outside,
            }
        })
        .collect()
}

fn seed_list(runs: &[SeedRun], idx: &[usize]) -> String {
    idx.iter()
        .map(|&i| runs[i].seed.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text table: per figure the published value, the mean and range of the model over the
/// seeds, the error of the mean and the error range, and in how many seeds it is inside.
pub fn table(p: &Protocol, preset: &str, runs: &[SeedRun], tol: f64) -> String {
    let mut out = String::new();
    let seeds = seed_list(runs, &(0..runs.len()).collect::<Vec<_>>());
    let _ = writeln!(
        out,
        "protocol {} on {preset} (seeds {seeds}): {}",
        p.name, p.description
    );
    if let Some(s) = &p.source {
        let _ = writeln!(out, "published figures: {s}");
    }
    let _ = writeln!(
        out,
        "{:<44} {:>14} {:>14} {:>20} {:>8} {:>17} {:>7}",
        "test", "published", "model mean", "model min-max", "error", "error min-max", "inside"
    );
    let sp = spreads(runs, tol);
    for s in &sp {
        // A published 0 has no relative error (as in the one-seed table).
        let err_range = if s.errors.is_empty() {
            "-".to_string()
        } else {
            let (elo, ehi) = min_max(&s.errors);
            format!("{elo:+.1}..{ehi:+.1} %")
        };
        let inside = runs.len() - s.outside.len();
        let _ = writeln!(
            out,
            "{} {err_range:>17} {:>7}",
            figure_cells(s),
            format!("{inside}/{}", runs.len())
        );
    }
    let pass_runs = (0..runs.len())
        .filter(|&i| sp.iter().all(|s| !s.outside.contains(&i)))
        .count();
    let pass_figs = sp.iter().filter(|s| s.outside.is_empty()).count();
    let _ = write!(out, "validation: {pass_runs} of {} seeds with every figure within ±{tol} %; {pass_figs} of {} figures within at every seed", runs.len(), sp.len());
    let outside: Vec<String> = sp
        .iter()
        .filter(|s| !s.outside.is_empty())
        .map(|s| {
            let worst =
                s.errors
                    .iter()
                    .copied()
                    .fold(0.0f64, |a, e| if e.abs() > a.abs() { e } else { a });
            format!(
                "{} (seeds {}; worst {worst:+.2} %)",
                s.row.id.as_deref().unwrap_or(&s.row.label),
                seed_list(runs, &s.outside)
            )
        })
        .collect();
    if !outside.is_empty() {
        let _ = write!(out, "; outside: {}", outside.join(", "));
    }
    let _ = writeln!(out);
    out
}

/// A figure's first columns in both tables: test, published value, the model's mean and
/// range over the seeds, and the error of the mean (`-` for a published 0).
fn figure_cells(s: &Spread) -> String {
    let unit = s.row.metric.unit();
    let (lo, hi) = min_max(&s.models);
    let pubd = s.row.published.expect("spreads keep published figures");
    let err = if s.errors.is_empty() {
        "-".to_string()
    } else {
        format!("{:+.1} %", (s.mean() - pubd) / pubd * 100.0)
    };
    format!(
        "{:<44} {:>14} {:>14} {:>20} {:>8}",
        s.row.label,
        format!("{} {unit}", num(pubd)),
        format!("{} {unit}", num(s.mean())),
        format!("{}-{}", num(lo), num(hi)),
        err
    )
}

/// The figures of a protocol run for comparison beside a validation (its `compare`): per
/// figure the published value, the model's mean and range over the seeds and the error of the
/// mean, with no tolerance and no verdict.
pub fn compare_table(p: &Protocol, runs: &[SeedRun]) -> String {
    let mut out = String::new();
    let seeds = seed_list(runs, &(0..runs.len()).collect::<Vec<_>>());
    let _ = writeln!(
        out,
        "\nbeside it, not judged: protocol {} (seeds {seeds}): {}",
        p.name, p.description
    );
    let _ = writeln!(
        out,
        "{:<44} {:>14} {:>14} {:>20} {:>8}",
        "test", "published", "model mean", "model min-max", "error"
    );
    for s in spreads(runs, f64::INFINITY) {
        let _ = writeln!(out, "{}", figure_cells(&s));
    }
    out
}

/// JSON: every run's own document (as `validate --seed S` prints it, without its validation
/// block) and each figure's values across the seeds.
pub fn json(p: &Protocol, preset: &str, runs: &[SeedRun], tol: f64) -> Value {
    let sp = spreads(runs, tol);
    let figures: Vec<Value> = sp
        .iter()
        .map(|s| {
            let outside: Vec<u64> = s.outside.iter().map(|&i| runs[i].seed).collect();
            json!({"id": s.row.id, "label": s.row.label, "unit": s.row.metric.unit(), "published": s.row.published,
                   "model": s.models, "error_pct": s.errors, "model_mean": s.mean(), "outside_at_seeds": outside})
        })
        .collect();
    let failed: Vec<&Option<String>> = sp
        .iter()
        .filter(|s| !s.outside.is_empty())
        .map(|s| &s.row.id)
        .collect();
    json!({"protocol": p.name, "preset": preset, "seeds": runs.iter().map(|r| r.seed).collect::<Vec<_>>(),
           "figures": figures,
           "runs": runs.iter().map(|r| {
               let mut doc = report::json(p, preset, r.seed, &r.steps);
               doc["integrity"] = r.integrity.json();
               doc
           }).collect::<Vec<_>>(),
           "validation": {"tolerance_pct": tol, "failed": failed, "pass": failed.is_empty()}})
}

/// Every figure inside the tolerance at every seed.
pub fn all_pass(runs: &[SeedRun], tol: f64) -> bool {
    spreads(runs, tol).iter().all(|s| s.outside.is_empty())
}

fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}
