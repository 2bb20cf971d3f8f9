//! The report of a `rounds` step: a line per round for the log, the step's row in the results
//! table (the window mean of the tracking variable), a block under the table (rounds run,
//! steady state or the round cap, the window's values and criterion figures, the window
//! averages per cell: a grid when the matrix has two axes) and its JSON.

use super::run::RoundsOutcome;
use super::RoundsStep;
use crate::protocol::report::{num, ReportRow};
use crate::protocol::schema::Metric;
use crate::protocol::steady_state::{
    window_figures, Tracker, Verdict, WindowFigures, MAX_EXCURSION_PCT, MAX_FIT_EXCURSION_PCT,
};
use serde_json::{json, Value};
use std::fmt::Write;

/// `write_lat_p99_us` for `Metric::WriteLatP99Us`: the name protocol files use.
pub fn metric_name(m: Metric) -> String {
    let mut out = String::new();
    for (i, ch) in format!("{m:?}").chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

fn pct(part: f64, mean: f64) -> f64 {
    if mean > 0.0 {
        part / mean * 100.0
    } else {
        f64::INFINITY
    }
}

/// "window rounds 3-7: excursion 4.0 % (<= 20 %), best-fit line 1.2 % (<= 10 %)".
pub fn criterion_text(f: &WindowFigures) -> String {
    format!(
        "window rounds {}-{}: excursion {:.1} % of the mean (limit {MAX_EXCURSION_PCT} %), best-fit line excursion {:.1} % (limit {MAX_FIT_EXCURSION_PCT} %)",
        f.first_round,
        f.first_round + f.rounds - 1,
        pct(f.excursion, f.mean),
        pct(f.fit_excursion, f.mean)
    )
}

/// The log line of round `r`.
pub fn round_line(s: &RoundsStep, r: u32, value: f64, verdict: &Verdict, t: &Tracker) -> String {
    let m = s.metrics[0];
    let mut line = format!(
        "        round {r}/{}: {} {} {} {}",
        s.rule.max_rounds,
        s.cells[s.track].label,
        metric_name(m),
        num(value),
        m.unit()
    );
    let w = s.rule.window as usize;
    let n = t.values().len();
    if let Some(f) = (n >= w)
        .then(|| window_figures(t.values(), n - w))
        .flatten()
    {
        let _ = write!(line, "; {}", criterion_text(&f));
    }
    let _ = write!(
        line,
        "{}",
        match verdict {
            Verdict::Continue => "",
            Verdict::Steady(_) => ": steady state",
            Verdict::Capped(_) => ": round cap hit",
        }
    );
    line
}

/// "steady state at round 7" or "round cap hit (25 rounds)".
pub fn status(o: &RoundsOutcome) -> String {
    if o.steady() {
        format!("steady state at round {}", o.rounds_run())
    } else {
        format!("round cap hit ({} rounds), not steady", o.rounds_run())
    }
}

/// The step's row in the results table: the window mean of the tracking variable.
pub fn report_row(s: &RoundsStep, o: &RoundsOutcome) -> ReportRow {
    ReportRow {
        id: s.id.clone(),
        label: s.label.clone(),
        setting: status(o),
        metric: s.metrics[0],
        model: o.window.mean,
        published: None,
        source: None,
        note: None,
    }
}

/// The window averages of one metric: a grid (rows: the second axis, columns: the first) for a
/// two-axis matrix, else one line per cell.
fn averages(out: &mut String, o: &RoundsOutcome, m: usize) {
    let metric = o.metrics[m];
    let what = if matches!(
        metric,
        Metric::ReadLatMaxUs | Metric::WriteLatMaxUs | Metric::LatMaxUs
    ) {
        "largest"
    } else {
        "mean"
    };
    let _ = writeln!(
        out,
        "  {} over the window ({what}, {}):",
        metric_name(metric),
        metric.unit()
    );
    if o.axes.len() != 2 {
        for (c, label) in o.cells.iter().enumerate() {
            let _ = writeln!(out, "    {label:<40} {:>12}", num(o.window_value(c, m)));
        }
        return;
    }
    let (cols, rows) = (distinct(o, 0), distinct(o, 1));
    let mut head = format!("    {:<14}", format!("{}\\{}", o.axes[1], o.axes[0]));
    for c in &cols {
        let _ = write!(head, " {c:>10}");
    }
    let _ = writeln!(out, "{head}");
    for r in &rows {
        let mut line = format!("    {r:<14}");
        for c in &cols {
            let i = o
                .settings
                .iter()
                .position(|v| v[0] == *c && v[1] == *r)
                .expect("a full matrix");
            let _ = write!(line, " {:>10}", num(o.window_value(i, m)));
        }
        let _ = writeln!(out, "{line}");
    }
}

/// An axis's values in run order.
fn distinct(o: &RoundsOutcome, axis: usize) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for s in &o.settings {
        if !v.contains(&s[axis]) {
            v.push(s[axis].clone());
        }
    }
    v
}

/// The block printed under the results table.
pub fn text(label: &str, o: &RoundsOutcome) -> String {
    let mut out = String::new();
    let f = &o.window;
    let _ = writeln!(out, "{label}: {}", status(o));
    let m = o.metrics[0];
    let per_round: Vec<String> = o.tracking().iter().map(|v| num(*v)).collect();
    let _ = writeln!(
        out,
        "  tracking variable: {} of {} ({}), rounds 1-{}: {}",
        metric_name(m),
        o.cells[o.track],
        m.unit(),
        o.rounds_run(),
        per_round.join(" ")
    );
    let _ = writeln!(
        out,
        "  {}; mean {}, excursion {}, best-fit slope {} per round",
        criterion_text(f),
        num(f.mean),
        num(f.excursion),
        num(f.slope)
    );
    for k in 0..o.metrics.len() {
        averages(&mut out, o, k);
    }
    out
}

/// The JSON of a `rounds` step (`steps[].rounds`).
pub fn json(o: &RoundsOutcome) -> Value {
    let f = &o.window;
    let first = f.first_round as usize - 1;
    let names: Vec<String> = o.metrics.iter().map(|m| metric_name(*m)).collect();
    let cells: Vec<Value> = o
        .cells
        .iter()
        .enumerate()
        .map(|(c, label)| {
            let settings: serde_json::Map<String, Value> = o
                .axes
                .iter()
                .zip(&o.settings[c])
                .map(|(a, v)| (a.clone(), json!(v)))
                .collect();
            let window: serde_json::Map<String, Value> = names
                .iter()
                .enumerate()
                .map(|(k, n)| (n.clone(), json!(o.window_value(c, k))))
                .collect();
            let rounds: Vec<&Vec<f64>> = o.values.iter().map(|r| &r[c]).collect();
            json!({"label": label, "settings": settings, "rounds": rounds, "window": window})
        })
        .collect();
    json!({
        "rounds_run": o.rounds_run(), "max_rounds": o.rule.max_rounds, "window_rounds": o.rule.window,
        "steady": o.steady(), "status": if o.steady() { "steady state" } else { "round cap hit" },
        "axes": o.axes, "metrics": names,
        "tracking": {"cell": o.cells[o.track], "metric": metric_name(o.metrics[0]), "values": o.tracking()},
        "window": {"first_round": f.first_round, "last_round": f.first_round + f.rounds - 1,
                   "values": o.tracking()[first..].to_vec(), "mean": f.mean,
                   "excursion": f.excursion, "excursion_pct": pct(f.excursion, f.mean),
                   "max_excursion_pct": MAX_EXCURSION_PCT, "slope": f.slope,
                   "fit_excursion": f.fit_excursion, "fit_excursion_pct": pct(f.fit_excursion, f.mean),
                   "max_fit_excursion_pct": MAX_FIT_EXCURSION_PCT},
        "cells": cells
    })
}
