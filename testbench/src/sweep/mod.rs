//! `ssdlab sweep`: a job file or protocol run at every point of a grid over config keys, points
//! in parallel within a memory budget, results in an output directory (`output.rs`), sliced
//! into shards for a cluster and merged back, and `ssdlab report` (`report.rs`) over the result.

pub mod cmd;
pub mod grid;
pub mod output;
pub mod point;
pub mod report;
pub mod spec;

use crate::cli::{DriveArgs, OpenDevice};
use crate::drive_cfg::ResolvedDrive;
use crate::error::InputError;
use grid::{Grid, Point, Shard};
use output::Manifest;
use point::{resolve_point, run_point, Workload};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::{mpsc, Condvar, Mutex};

/// A sweep ready to run: every point's config resolved and validated.
pub struct Plan {
    pub manifest: Manifest,
    pub workload: Workload,
    pub points: Vec<(Point, ResolvedDrive)>,
}

/// Resolves every point (of the shard) before anything runs; a point whose config fails
/// validation is an error naming the point and key.
pub fn plan(
    grid: Grid,
    workload: Workload,
    drive: &DriveArgs,
    seed: u64,
    common_seed: bool,
    shard: Option<Shard>,
) -> Result<Plan, InputError> {
    let all = grid.points();
    let mut points = Vec::new();
    for p in all.iter().filter(|p| shard.is_none_or(|s| s.contains(p))) {
        points.push((p.clone(), resolve_point(drive, p)?));
    }
    let manifest = Manifest {
        points: all.len(),
        grid,
        workload: workload.describe(),
        drive: drive
            .config
            .clone()
            .or(drive.preset.clone())
            .unwrap_or_else(|| crate::presets::DEFAULT_PRESET.to_string()),
        base_sets: drive.set.clone(),
        seed,
        common_seed,
    };
    Ok(Plan {
        manifest,
        workload,
        points,
    })
}

/// Host memory the sweep may hold in drives: `MemAvailable` (Linux) x 0.8, else 4 GiB.
pub fn default_memory_budget() -> u64 {
    crate::workload::drive_adapter::mem_available_bytes().map_or(4 << 30, |b| b / 10 * 8)
}

struct Gate {
    next: usize,
    held_bytes: u64,
    running: usize,
}

/// Runs the plan's points not already in `dir` (with `resume`), `jobs` at a time, starting a
/// point only when its memory estimate fits beside the running ones (one always runs). Rows are
/// appended as points finish; returns (rows of the shard, points that failed).
pub fn execute(
    plan: &Plan,
    dir: &Path,
    jobs: usize,
    budget: u64,
    done_before: &BTreeMap<usize, Value>,
    open: OpenDevice,
) -> Result<BTreeMap<usize, Value>, InputError> {
    let todo: Vec<&(Point, ResolvedDrive)> = plan
        .points
        .iter()
        .filter(|(p, _)| {
            done_before
                .get(&p.index)
                .is_none_or(|r| r["status"] != "ok")
        })
        .collect();
    let est: Vec<u64> = todo
        .iter()
        // The model's own estimate (`DriveConfig::memory_estimate_bytes`, what `run` checks);
        // every point's config is already validated, so the plan cannot fail here.
        .map(|(_, rd)| rd.cfg.memory_estimate_bytes().unwrap_or(64 << 20))
        .collect();
    let peak = est.iter().copied().max().unwrap_or(0);
    eprintln!(
        "sweep: {} points to run ({} done before), {jobs} at a time, up to {:.2} GB per drive, budget {:.1} GB",
        todo.len(),
        plan.points.len() - todo.len(),
        peak as f64 / 1e9,
        budget as f64 / 1e9
    );
    let gate = Mutex::new(Gate {
        next: 0,
        held_bytes: 0,
        running: 0,
    });
    let freed = Condvar::new();
    let (tx, rx) = mpsc::channel::<Value>();
    let mut rows: BTreeMap<usize, Value> = done_before.clone();
    let mut progress = Progress::new(todo.len());
    let mut write_err = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (gate, freed, todo, est) = (&gate, &freed, &todo, &est);
            let (w, root, common) = (
                &plan.workload,
                plan.manifest.seed,
                plan.manifest.common_seed,
            );
            scope.spawn(move || loop {
                let i = {
                    let mut g = gate.lock().expect("sweep gate");
                    loop {
                        if g.next >= todo.len() {
                            return;
                        }
                        let need = est[g.next];
                        if g.running == 0 || g.held_bytes + need <= budget {
                            break;
                        }
                        g = freed.wait(g).expect("sweep gate");
                    }
                    g.next += 1;
                    g.running += 1;
                    g.held_bytes += est[g.next - 1];
                    g.next - 1
                };
                let (p, rd) = todo[i];
                let seed = if common { root } else { p.seed(root) };
                let row = run_point(w, rd, p, seed, open);
                {
                    let mut g = gate.lock().expect("sweep gate");
                    g.running -= 1;
                    g.held_bytes -= est[i];
                }
                freed.notify_all();
                if tx.send(row).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for row in rx {
            if write_err.is_none() {
                write_err = output::append_row(dir, &row).err();
            }
            progress.step();
            rows.insert(row["point"].as_u64().unwrap_or(0) as usize, row);
        }
    });
    progress.finish();
    match write_err {
        Some(e) => Err(e),
        None => Ok(rows),
    }
}

/// `point 3 [geometry.channels=8 ...]: rr: die 5 array 97.1 %; sw: ...` (or the error).
pub fn bottleneck_line(row: &Value) -> String {
    let set: Vec<String> = row["set"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    let what = if row["status"] == "ok" {
        format!("bottleneck {}", row["bottleneck"].as_str().unwrap_or("-"))
    } else {
        format!("error: {}", row["error"].as_str().unwrap_or("?"))
    };
    format!("point {} [{}]: {what}", row["point"], set.join(" "))
}

/// Points done and the estimated time left, on stderr when it is a terminal.
struct Progress {
    total: usize,
    done: usize,
    start: std::time::Instant,
    tty: bool,
}

impl Progress {
    fn new(total: usize) -> Self {
        Progress {
            total,
            done: 0,
            start: std::time::Instant::now(),
            tty: std::io::stderr().is_terminal(),
        }
    }
    fn step(&mut self) {
        self.done += 1;
        if !self.tty {
            return;
        }
        let per = self.start.elapsed().as_secs_f64() / self.done as f64;
        let left = per * (self.total - self.done) as f64;
        let width = 30;
        let filled = width * self.done / self.total.max(1);
        eprint!(
            "\r[{}{}] {}/{} points, ETA {:.0}m{:02.0}s ",
            "#".repeat(filled),
            "-".repeat(width - filled),
            self.done,
            self.total,
            (left / 60.0).floor(),
            left % 60.0
        );
    }
    fn finish(&self) {
        if self.tty && self.done > 0 {
            eprintln!();
        }
    }
}
