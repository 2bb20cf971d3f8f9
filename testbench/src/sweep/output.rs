//! A sweep's output directory: `sweep.json` (the manifest: grid, workload, drive, root seed; a
//! resumed or merged sweep must match it), `points.jsonl` (one JSON row per point, appended as
//! points finish and rewritten in point order at the end) and `points.csv` (the same rows as a
//! table: point, status, seed, config hash, the swept keys, the bottleneck, every metric).

use super::grid::Grid;
use crate::error::InputError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;

pub const MANIFEST: &str = "sweep.json";
pub const ROWS: &str = "points.jsonl";
pub const CSV: &str = "points.csv";

/// What a sweep ran; two output directories can be merged only when these are equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub grid: Grid,
    pub workload: String,
    pub drive: String,
    pub base_sets: Vec<String>,
    pub seed: u64,
    /// Every point runs at `seed` itself (common random numbers) instead of its own seed.
    #[serde(default)]
    pub common_seed: bool,
    pub points: usize,
}

fn io(path: &Path, e: std::io::Error) -> InputError {
    InputError::file(&path.display().to_string(), format!("cannot write: {e}"))
}

pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>, InputError> {
    let p = dir.join(MANIFEST);
    if !p.exists() {
        return Ok(None);
    }
    let text =
        std::fs::read_to_string(&p).map_err(|e| InputError::io(&p.display().to_string(), &e))?;
    serde_json::from_str(&text).map(Some).map_err(|e| {
        InputError::file(
            &p.display().to_string(),
            format!("not a sweep manifest: {e}"),
        )
    })
}

pub fn write_manifest(dir: &Path, m: &Manifest) -> Result<(), InputError> {
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let p = dir.join(MANIFEST);
    let text = serde_json::to_string_pretty(m).expect("manifests serialize");
    std::fs::write(&p, text + "\n").map_err(|e| io(&p, e))
}

/// The rows of a directory by point index (the last row of a point wins, so a point re-run
/// after an error replaces it).
pub fn read_rows(dir: &Path) -> Result<BTreeMap<usize, Value>, InputError> {
    let p = dir.join(ROWS);
    let mut rows = BTreeMap::new();
    if !p.exists() {
        return Ok(rows);
    }
    let name = p.display().to_string();
    let text = std::fs::read_to_string(&p).map_err(|e| InputError::io(&name, &e))?;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: Value = serde_json::from_str(line)
            .map_err(|e| InputError::at(&name, i + 1, format!("not a JSON row: {e}")))?;
        let idx = v["point"]
            .as_u64()
            .ok_or_else(|| InputError::at(&name, i + 1, "row without a point index"))?;
        rows.insert(idx as usize, v);
    }
    Ok(rows)
}

/// Appends one row (a finished point) to `points.jsonl`.
pub fn append_row(dir: &Path, row: &Value) -> Result<(), InputError> {
    let p = dir.join(ROWS);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&p)
        .map_err(|e| io(&p, e))?;
    writeln!(f, "{row}").map_err(|e| io(&p, e))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => format!("{f:.4}"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// The CSV text of `rows` (in point order).
pub fn csv(grid: &Grid, rows: &BTreeMap<usize, Value>) -> String {
    let metrics: BTreeSet<String> = rows
        .values()
        .filter_map(|r| r["metrics"].as_object())
        .flat_map(|m| m.keys().cloned())
        .collect();
    let mut head: Vec<String> = ["point", "status", "seed", "config_hash"]
        .map(String::from)
        .to_vec();
    head.extend(grid.keys.iter().cloned());
    head.push("bottleneck".into());
    head.extend(metrics.iter().cloned());
    head.push("error".into());
    let mut out = head
        .iter()
        .map(|h| csv_field(h))
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for r in rows.values() {
        let mut line = vec![
            cell(&r["point"]),
            cell(&r["status"]),
            cell(&r["seed"]),
            cell(&r["config_hash"]),
        ];
        line.extend(grid.keys.iter().map(|k| cell(&r["set"][k])));
        line.push(cell(&r["bottleneck"]));
        line.extend(metrics.iter().map(|m| cell(&r["metrics"][m])));
        line.push(cell(&r["error"]));
        out += &(line
            .iter()
            .map(|c| csv_field(c))
            .collect::<Vec<_>>()
            .join(",")
            + "\n");
    }
    out
}

/// Rewrites `points.jsonl` in point order and writes `points.csv`.
pub fn finish(dir: &Path, grid: &Grid, rows: &BTreeMap<usize, Value>) -> Result<(), InputError> {
    let p = dir.join(ROWS);
    let text: String = rows.values().map(|r| format!("{r}\n")).collect();
    std::fs::write(&p, text).map_err(|e| io(&p, e))?;
    let c = dir.join(CSV);
    std::fs::write(&c, csv(grid, rows)).map_err(|e| io(&c, e))
}

/// `sweep merge`: the shards' rows into `out`, refusing different manifests or a point twice.
pub fn merge(dirs: &[std::path::PathBuf], out: &Path) -> Result<usize, InputError> {
    let mut manifest: Option<(Manifest, String)> = None;
    let mut rows: BTreeMap<usize, Value> = BTreeMap::new();
    let mut from: BTreeMap<usize, String> = BTreeMap::new();
    for d in dirs {
        let name = d.display().to_string();
        let m = read_manifest(d)?
            .ok_or_else(|| InputError::file(&name, format!("no {MANIFEST}: not a sweep output")))?;
        match &manifest {
            None => manifest = Some((m, name.clone())),
            Some((first, first_dir)) if *first != m => {
                return Err(InputError::file(
                    &name,
                    format!("its sweep (grid, workload, drive or seed) differs from {first_dir}'s; refusing to merge"),
                ))
            }
            Some(_) => {}
        }
        for (i, r) in read_rows(d)? {
            if let Some(prev) = from.insert(i, name.clone()) {
                return Err(InputError::file(
                    &name,
                    format!("point {i} is also in {prev}; refusing to merge duplicate points"),
                ));
            }
            rows.insert(i, r);
        }
    }
    let Some((m, _)) = manifest else {
        return Err(InputError::file("sweep merge", "no directories given"));
    };
    write_manifest(out, &m)?;
    finish(out, &m.grid, &rows)?;
    Ok(rows.len())
}
