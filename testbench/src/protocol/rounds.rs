//! The `rounds` step: a matrix of fio jobs run round after round until the SNIA steady-state
//! criterion ([`super::steady_state`]) holds on one cell's figure (the tracking variable), or a
//! round cap. This is the shape of the SNIA Solid State Storage Performance Test Specification's
//! IOPS, throughput and latency tests (PTS v2.0.x sections 7, 8 and 9): a round is one sweep of
//! the test's R/W mix x block size matrix; the test ends when the measurement window of the
//! last five rounds is steady, and reports the window's averages per cell.
//!
//! Here the checks made when the protocol loads: the axes, the cells' fio jobs (the step's `job`
//! with `option=value` lines appended, one per axis), the tracked cell, the metrics and the
//! round rule. Running is in [`run`], the text and JSON report in [`report`].

pub mod report;
pub mod run;
#[cfg(test)]
mod tests;

use super::schema::{Metric, RoundsDef};
use super::steady_state::SteadyRule;
use crate::error::InputError;
use crate::fio::JobSpec;

/// Most cells a round may have (the PTS IOPS matrix has 56).
pub const MAX_CELLS: usize = 1000;
/// Highest round cap accepted (the PTS's is 25).
pub const MAX_ROUNDS: u32 = 1000;

/// One job set of the matrix.
#[derive(Clone, Debug)]
pub struct Cell {
    /// "rwmixread=0 bs=4k" (the job's own name when the step has no axis).
    pub label: String,
    /// The value of each axis, in axis order.
    pub values: Vec<String>,
    pub jobs: Vec<JobSpec>,
}

/// A checked `rounds` step.
#[derive(Clone, Debug)]
pub struct RoundsStep {
    pub id: Option<String>,
    pub label: String,
    /// The fio option of each axis, first the outermost.
    pub axes: Vec<String>,
    /// Run order: the last axis varies fastest.
    pub cells: Vec<Cell>,
    /// Figures recorded per cell and round; the first is the tracking variable's.
    pub metrics: Vec<Metric>,
    /// Index into `cells` of the tracked cell.
    pub track: usize,
    pub rule: SteadyRule,
}

/// An axis value as fio text: a string or an integer, one line, no `=`.
fn value_text(option: &str, v: &toml::Value) -> Result<String, String> {
    let t = match v {
        toml::Value::String(s) => s.trim().to_string(),
        toml::Value::Integer(i) => i.to_string(),
        other => {
            return Err(format!(
                "axis `{option}`: value {other} must be a string or an integer"
            ))
        }
    };
    if t.is_empty() || t.contains(['\n', '\r', '=', '[', ']', '#', ';']) {
        return Err(format!(
            "axis `{option}`: value `{t}` must be one fio value (not empty, no `=`, `[`, `]`, `#`, `;` or line break)"
        ));
    }
    Ok(t)
}

/// The axes as (option, values), checked: option names as fio spells them, no axis twice, no
/// value twice within an axis.
fn axes_of(d: &RoundsDef) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for a in &d.axes {
        let o = a.option.trim();
        if o.is_empty() || !o.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("axis option `{o}` is not a fio option name"));
        }
        if axes.iter().any(|(n, _)| n == o) {
            return Err(format!("axis `{o}` is given twice"));
        }
        if a.values.is_empty() {
            return Err(format!("axis `{o}` has no values"));
        }
        let mut vals: Vec<String> = Vec::new();
        for v in &a.values {
            let t = value_text(o, v)?;
            if vals.contains(&t) {
                return Err(format!("axis `{o}`: value `{t}` is given twice"));
            }
            vals.push(t);
        }
        axes.push((o.to_string(), vals));
    }
    let cells = axes
        .iter()
        .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()));
    match cells {
        Some(n) if n <= MAX_CELLS => Ok(axes),
        _ => Err(format!("the axes make more than {MAX_CELLS} cells")),
    }
}

/// Every combination of the axes' values, the last axis varying fastest.
fn combinations(axes: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for (_, vals) in axes {
        out = out
            .into_iter()
            .flat_map(|pre| {
                vals.iter().map(move |v| {
                    let mut c = pre.clone();
                    c.push(v.clone());
                    c
                })
            })
            .collect();
    }
    out
}

/// The cell the `track` table names: every axis given once, with one of its values.
fn tracked_cell(
    track: Option<&toml::Table>,
    axes: &[(String, Vec<String>)],
    cells: &[Vec<String>],
) -> Result<usize, String> {
    let Some(t) = track.filter(|t| !t.is_empty()) else {
        return match cells.len() {
            1 => Ok(0),
            n => Err(format!(
                "`track` must name the tracked cell (one value per axis) among the {n} cells"
            )),
        };
    };
    if let Some(k) = t.keys().find(|k| !axes.iter().any(|(o, _)| o == *k)) {
        return Err(format!("track: `{k}` is not an axis of this step"));
    }
    let mut want = Vec::new();
    for (o, vals) in axes {
        let v = t
            .get(o)
            .ok_or_else(|| format!("track: no value for axis `{o}`"))?;
        let v = value_text(o, v).map_err(|e| format!("track: {e}"))?;
        if !vals.contains(&v) {
            return Err(format!(
                "track: `{o}` = `{v}` is not one of the axis's values"
            ));
        }
        want.push(v);
    }
    Ok(cells
        .iter()
        .position(|c| *c == want)
        .expect("every combination is a cell"))
}

/// Checks a `rounds` step; `base` parses its job with the protocol file's line numbers, `err`
/// names the step in errors that have no line of their own.
pub fn convert(
    d: RoundsDef,
    base: impl Fn(&str) -> Result<Vec<JobSpec>, InputError>,
    err: impl Fn(String) -> InputError,
) -> Result<RoundsStep, InputError> {
    let base_jobs = base(&d.job)?;
    let axes = axes_of(&d).map_err(&err)?;
    if d.metrics.is_empty() {
        return Err(err("`metrics` lists no metric".into()));
    }
    if let Some((i, m)) = d
        .metrics
        .iter()
        .enumerate()
        .find(|(i, m)| d.metrics[..*i].contains(m))
    {
        return Err(err(format!(
            "metrics: `{m:?}` is given twice (entry {})",
            i + 1
        )));
    }
    let r = &d.steady_state;
    if r.max_rounds > MAX_ROUNDS {
        return Err(err(format!(
            "steady_state: max_rounds {} is above {MAX_ROUNDS}",
            r.max_rounds
        )));
    }
    let rule = SteadyRule::new(r.max_rounds, r.window).map_err(&err)?;
    let combos = combinations(&axes);
    let track = tracked_cell(d.track.as_ref(), &axes, &combos).map_err(&err)?;
    let mut cells = Vec::with_capacity(combos.len());
    for values in combos {
        let label = if axes.is_empty() {
            base_jobs[0].name.clone()
        } else {
            let kv: Vec<String> = axes
                .iter()
                .zip(&values)
                .map(|((o, _), v)| format!("{o}={v}"))
                .collect();
            kv.join(" ")
        };
        let jobs = if axes.is_empty() {
            base_jobs.clone()
        } else {
            let extra: String = axes
                .iter()
                .zip(&values)
                .map(|((o, _), v)| format!("{o}={v}\n"))
                .collect();
            let text = format!("{}\n{extra}", d.job.trim_end());
            base(&text).map_err(|e| err(format!("cell `{label}`: {}", e.reason())))?
        };
        cells.push(Cell {
            label,
            values,
            jobs,
        });
    }
    Ok(RoundsStep {
        id: d.id,
        label: d.label,
        axes: axes.into_iter().map(|(o, _)| o).collect(),
        cells,
        metrics: d.metrics,
        track,
        rule,
    })
}
