//! SVG plots (plotters): latency percentiles per job, throughput against queue depth for
//! protocol sweeps, and the set of plots of a run or a protocol (throughput over time with the
//! flash state is `plot_throughput.rs`, read latency against load `plot_qos.rs`; the shared
//! frame, legend panel and ticks `plot_frame.rs`).

pub use crate::plot_frame::PlotMeta;
use crate::plot_frame::{chart_svg, err, fmt_tick, framed, log_ticks, LegendEntry, PlotResult};
use crate::plot_throughput::throughput_over_time;
use crate::protocol::run::StepOutcome;
use crate::protocol::Step;
use crate::workload::stats::FIO_PERCENTILES;
use crate::workload::GroupResult;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// The legend label of each (group, job) line: the job's name, with the group ("burst 3" in a
/// burst step, "group 2" otherwise) and the clone when the name alone repeats.
fn job_labels(groups: &[GroupResult], group_word: &str) -> Vec<Vec<String>> {
    let names: Vec<&str> = groups
        .iter()
        .flat_map(|g| g.jobs.iter().map(|j| j.name.as_str()))
        .collect();
    let repeats = |n: &str| names.iter().filter(|m| **m == n).count() > 1;
    let mut out = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        let in_group = |n: &str| g.jobs.iter().filter(|j| j.name == n).count() > 1;
        out.push(
            g.jobs
                .iter()
                .map(|j| {
                    let mut l = j.name.clone();
                    if repeats(&j.name) && groups.len() > 1 {
                        l.push_str(&format!(" {group_word} {}", k + 1));
                    }
                    if let (true, Some(c)) = (in_group(&j.name), j.clone) {
                        l.push_str(&format!(" clone {c}"));
                    }
                    l
                })
                .collect(),
        );
    }
    out
}

/// Completion-latency percentiles (fio's list, up to p99.99) and the maximum of each job and
/// direction; log-scale latency when the spread is wide. `group_word` names a group in labels.
pub fn latency_percentiles(
    path: &Path,
    title: &str,
    meta: &PlotMeta,
    groups: &[GroupResult],
    group_word: &str,
) -> PlotResult {
    let mut lines: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (g, labels) in groups.iter().zip(job_labels(groups, group_word)) {
        for (j, label) in g.jobs.iter().zip(labels) {
            for (dir, d) in [("read", &j.read), ("write", &j.write)] {
                if d.lat.count() > 0 {
                    let mut pts: Vec<(f64, f64)> = FIO_PERCENTILES
                        .iter()
                        .enumerate()
                        .map(|(i, p)| (i as f64, d.lat.percentile_ns(*p).max(1) as f64 / 1e3))
                        .collect();
                    // The last point is the largest latency (the x axis labels it "max").
                    pts.push((
                        FIO_PERCENTILES.len() as f64,
                        d.lat.max_ns().max(1) as f64 / 1e3,
                    ));
                    lines.push((format!("{label} {dir}"), pts));
                }
            }
        }
    }
    let hi = lines
        .iter()
        .flat_map(|l| l.1.iter().map(|p| p.1))
        .fold(1.0, f64::max);
    let lo = lines
        .iter()
        .flat_map(|l| l.1.iter().map(|p| p.1))
        .fold(f64::INFINITY, f64::min)
        .min(hi);
    let legend = LegendEntry::per_series(&lines);
    chart_svg(path, (1000, 500), title, meta, &legend, |area| {
        let (lo, hi) = (lo / 1.5, hi * 1.5);
        if hi / lo.max(1e-3) > 45.0 {
            let y = (lo..hi).log_scale().with_key_points(log_ticks(lo, hi));
            latency_chart(area, lines, y)
        } else {
            latency_chart(area, lines, 0.0..hi / 1.5 * 1.15)
        }
    })
}

fn latency_chart<Y>(
    area: &crate::plot_frame::Area,
    lines: Vec<(String, Vec<(f64, f64)>)>,
    y: Y,
) -> PlotResult
where
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    // fio's percentiles at x = 0..17, then the maximum at x = 17.
    let n = FIO_PERCENTILES.len() as f64 + 1.0;
    let mut chart = framed(area)
        .build_cartesian_2d(-0.5..n - 0.5, y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_labels(FIO_PERCENTILES.len() + 1)
        .x_label_formatter(&|x| {
            let i = x.round() as usize;
            match FIO_PERCENTILES.get(i) {
                Some(p) => format!("{p}"),
                None if i == FIO_PERCENTILES.len() => "max".to_string(),
                None => String::new(),
            }
        })
        .y_label_formatter(&|v| fmt_tick(*v))
        .x_desc("percentile")
        .y_desc("completion latency (us)")
        .draw()
        .map_err(err)?;
    for (k, (_, pts)) in lines.into_iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(err)?;
    }
    Ok(())
}

/// Reported throughput against queue depth for protocol steps that differ only in `iodepth`
/// (same label before ", QD", e.g. AnandTech's sustained sweeps). Returns false with no sweep.
pub fn throughput_vs_qd(
    path: &Path,
    title: &str,
    meta: &PlotMeta,
    steps: &[Step],
    outcomes: &[StepOutcome],
) -> Result<bool, String> {
    let mut sweeps: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for (s, o) in steps.iter().zip(outcomes) {
        let (Step::Fio { jobs, .. }, Some(r)) = (s, &o.report) else {
            continue;
        };
        let Some((base, _)) = r.label.rsplit_once(", QD") else {
            continue;
        };
        let qd = jobs[0].iodepth;
        match sweeps.iter_mut().find(|(b, _)| b == base) {
            Some((_, pts)) => pts.push((qd, r.model)),
            None => sweeps.push((base.to_string(), vec![(qd, r.model)])),
        }
    }
    sweeps.retain(|(_, p)| p.len() >= 2);
    if sweeps.is_empty() {
        return Ok(false);
    }
    let qd_max = sweeps
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .max()
        .unwrap_or(1)
        .max(2) as f64;
    let y_max = sweeps
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(1.0, f64::max)
        * 1.15;
    let legend = LegendEntry::per_series(&sweeps);
    // Ticks at the depths measured (powers of two in the built-in sweeps).
    let mut qds: Vec<f64> = sweeps
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0 as f64))
        .collect();
    qds.sort_by(f64::total_cmp);
    qds.dedup();
    chart_svg(path, (1000, 500), title, meta, &legend, |area| {
        let mut chart = framed(area)
            .build_cartesian_2d(
                (0.8..qd_max * 1.25).log_scale().with_key_points(qds),
                0.0..y_max,
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_label_formatter(&|q| fmt_tick(*q))
            .y_label_formatter(&|v| fmt_tick(*v))
            .x_desc("queue depth")
            .y_desc("throughput (MB/s)")
            .draw()
            .map_err(err)?;
        for (k, (_, pts)) in sweeps.into_iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let pts: Vec<(f64, f64)> = pts.into_iter().map(|(q, v)| (q as f64, v)).collect();
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 4, color.filled())))
                .map_err(err)?;
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map_err(err)?;
        }
        Ok(())
    })?;
    Ok(true)
}

/// File-name-safe slug of a label.
pub fn slug(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    out.trim_matches('-').to_string()
}

/// Writes the plots of a job-file run into `dir`; returns the files written.
pub fn plot_run(
    dir: &Path,
    name: &str,
    meta: &PlotMeta,
    groups: &[GroupResult],
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let tp = dir.join(format!("{}-throughput.svg", slug(name)));
    throughput_over_time(&tp, &format!("{name}: throughput over time"), meta, groups)?;
    let lp = dir.join(format!("{}-latency.svg", slug(name)));
    latency_percentiles(
        &lp,
        &format!("{name}: completion latency percentiles"),
        meta,
        groups,
        "group",
    )?;
    Ok(vec![tp, lp])
}

/// Writes the plots of a protocol run into `dir`: one throughput-over-time and one latency plot
/// per reported step, a steady-state convergence plot per `rounds` step, and a
/// throughput-vs-queue-depth plot when the protocol sweeps depths.
pub fn plot_protocol(
    dir: &Path,
    name: &str,
    meta: &PlotMeta,
    steps: &[Step],
    outcomes: &[StepOutcome],
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for o in outcomes.iter().filter(|o| !o.groups.is_empty()) {
        let base = format!("{:02}-{}", o.index + 1, slug(&o.label));
        let tp = dir.join(format!("{base}-throughput.svg"));
        let title = format!("{}: throughput over time", o.label);
        throughput_over_time(&tp, &title, meta, &o.groups)?;
        files.push(tp);
        if o.report.is_some() {
            let lp = dir.join(format!("{base}-latency.svg"));
            let word = if o.kind == "burst" { "burst" } else { "group" };
            let title = format!("{}: latency percentiles", o.label);
            latency_percentiles(&lp, &title, meta, &o.groups, word)?;
            files.push(lp);
        }
    }
    for o in outcomes {
        if let Some(r) = &o.rounds {
            let cp = dir.join(format!(
                "{:02}-{}-convergence.svg",
                o.index + 1,
                slug(&o.label)
            ));
            let title = format!("{}: steady-state convergence", o.label);
            crate::plot_rounds::convergence(&cp, &title, meta, r)?;
            files.push(cp);
        }
    }
    let lp = dir.join(format!("{}-read-latency-vs-load.svg", slug(name)));
    let title = format!("{name}: read latency vs load");
    if crate::plot_qos::latency_vs_load(&lp, &title, meta, outcomes)? {
        files.push(lp);
    }
    let qp = dir.join(format!("{}-throughput-vs-qd.svg", slug(name)));
    let title = format!("{name}: throughput vs queue depth");
    if throughput_vs_qd(&qp, &title, meta, steps, outcomes)? {
        files.push(qp);
    }
    Ok(files)
}

#[cfg(test)]
mod tests;
