//! SVG plots (plotters): throughput over time of a run (SLC cache exhaustion shows as a step down
//! during long writes), latency percentiles per job, and throughput against queue depth for
//! protocol sweeps.

use crate::protocol::run::StepOutcome;
use crate::protocol::Step;
use crate::workload::stats::{DirStats, FIO_PERCENTILES};
use crate::workload::GroupResult;
use plotters::prelude::*;
use ssdlab_model::SimTime;
use std::path::{Path, PathBuf};

type PlotResult = Result<(), String>;
/// A named, coloured line of (x, y) points.
type Line = (&'static str, Vec<(f64, f64)>, RGBColor);

/// A chart builder with the title, margins and label areas every ssdlab plot uses.
pub(crate) fn framed<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(root);
    b.caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70);
    b
}

pub(crate) fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// MB/s per series bin of one direction, at absolute times (s) from `t0`.
/// Re-binned to at most 250 points of at least 10 mean latencies each, so that every bin holds
/// many completions (no aliasing between the bin width and the service time).
fn mbps_points(d: &DirStats, g: &GroupResult, t0: SimTime) -> Vec<(f64, f64)> {
    let mut series = d.series.clone();
    let min_bin_ps = d.lat.mean_ns() * 1e3 * 10.0;
    while series.bytes.len() > 250
        || (series.bytes.len() > 8 && (series.bin.as_ps() as f64) < min_bin_ps)
    {
        series.coarsen();
    }
    let bin = series.bin.as_secs_f64();
    let start = (g.window_start - t0).as_secs_f64();
    let win = g.window().as_secs_f64();
    series
        .bytes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let lo = i as f64 * bin;
            let width = (win - lo).min(bin);
            // A last bin cut short by the end of the window is too noisy to show unless alone.
            (width >= bin / 2.0 || i == 0).then(|| {
                (
                    start + lo + width.max(bin * 1e-3) / 2.0,
                    *b as f64 / width.max(bin * 1e-3) / 1e6,
                )
            })
        })
        .collect()
}

/// Throughput (MB/s) against simulated time, read and write, across every group of a run.
pub fn throughput_over_time(path: &Path, title: &str, groups: &[GroupResult]) -> PlotResult {
    let t0 = groups.first().map_or(SimTime::ZERO, |g| g.window_start);
    let mut series: Vec<Line> = Vec::new();
    for g in groups {
        let (r, w) = g.totals();
        for (name, d, color) in [("read", r, BLUE), ("write", w, RED)] {
            let pts = mbps_points(&d, g, t0);
            if !pts.is_empty() {
                series.push((name, pts, color));
            }
        }
    }
    let x_max = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .fold(1e-6, f64::max)
        * 1.02;
    let y_max = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(1.0, f64::max)
        * 1.1;
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = framed(&root, title)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .y_desc("throughput (MB/s)")
        .draw()
        .map_err(err)?;
    let mut labelled: Vec<&str> = Vec::new();
    for (name, pts, color) in series {
        if pts.len() < 3 {
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 3, color.filled())))
                .map_err(err)?;
        }
        let drawn = chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(err)?;
        if !labelled.contains(&name) {
            labelled.push(name);
            drawn
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// Completion-latency percentiles (fio's list, up to p99.99) and the maximum of each job and
/// direction; log-scale latency when the spread is wide.
pub fn latency_percentiles(path: &Path, title: &str, groups: &[GroupResult]) -> PlotResult {
    let mut lines: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for g in groups {
        for j in &g.jobs {
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
                    lines.push((format!("{} {dir}", j.name), pts));
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
    if hi / lo.max(1e-3) > 20.0 {
        latency_chart(path, title, lines, (lo / 1.5..hi * 1.5).log_scale())
    } else {
        latency_chart(path, title, lines, 0.0..hi * 1.15)
    }
}

fn latency_chart<Y>(
    path: &Path,
    title: &str,
    lines: Vec<(String, Vec<(f64, f64)>)>,
    y: Y,
) -> PlotResult
where
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    // fio's percentiles at x = 0..17, then the maximum at x = 17.
    let n = FIO_PERCENTILES.len() as f64 + 1.0;
    let mut chart = framed(&root, title)
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
        .x_desc("percentile")
        .y_desc("completion latency (us)")
        .draw()
        .map_err(err)?;
    for (k, (name, pts)) in lines.into_iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// Reported throughput against queue depth for protocol steps that differ only in `iodepth`
/// (same label before ", QD", e.g. AnandTech's sustained sweeps). Returns false with no sweep.
pub fn throughput_vs_qd(
    path: &Path,
    title: &str,
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
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = framed(&root, title)
        .build_cartesian_2d((0.8..qd_max * 1.25).log_scale(), 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_label_formatter(&|q| format!("{q:.0}"))
        .x_desc("queue depth")
        .y_desc("throughput (MB/s)")
        .draw()
        .map_err(err)?;
    for (k, (name, pts)) in sweeps.into_iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        let pts: Vec<(f64, f64)> = pts.into_iter().map(|(q, v)| (q as f64, v)).collect();
        chart
            .draw_series(pts.iter().map(|p| Circle::new(*p, 4, color.filled())))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
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
pub fn plot_run(dir: &Path, name: &str, groups: &[GroupResult]) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let tp = dir.join(format!("{}-throughput.svg", slug(name)));
    throughput_over_time(&tp, &format!("{name}: throughput over time"), groups)?;
    let lp = dir.join(format!("{}-latency.svg", slug(name)));
    latency_percentiles(
        &lp,
        &format!("{name}: completion latency percentiles"),
        groups,
    )?;
    Ok(vec![tp, lp])
}

/// Writes the plots of a protocol run into `dir`: one throughput-over-time and one latency plot
/// per reported step, and a throughput-vs-queue-depth plot when the protocol sweeps depths.
pub fn plot_protocol(
    dir: &Path,
    name: &str,
    steps: &[Step],
    outcomes: &[StepOutcome],
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for o in outcomes.iter().filter(|o| !o.groups.is_empty()) {
        let base = format!("{:02}-{}", o.index + 1, slug(&o.label));
        let tp = dir.join(format!("{base}-throughput.svg"));
        throughput_over_time(
            &tp,
            &format!("{}: throughput over time", o.label),
            &o.groups,
        )?;
        files.push(tp);
        if o.report.is_some() {
            let lp = dir.join(format!("{base}-latency.svg"));
            latency_percentiles(&lp, &format!("{}: latency percentiles", o.label), &o.groups)?;
            files.push(lp);
        }
    }
    let lp = dir.join(format!("{}-read-latency-vs-load.svg", slug(name)));
    if crate::plot_qos::latency_vs_load(&lp, &format!("{name}: read latency vs load"), outcomes)? {
        files.push(lp);
    }
    let qp = dir.join(format!("{}-throughput-vs-qd.svg", slug(name)));
    if throughput_vs_qd(
        &qp,
        &format!("{name}: throughput vs queue depth"),
        steps,
        outcomes,
    )? {
        files.push(qp);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fio::parse_job_file;
    use crate::workload::runner::{run_jobs, Quiet};
    use crate::workload::testdev::FixedLatencyDevice;
    use ssdlab_model::{SeedTree, SimTime};

    #[test]
    fn run_plots_are_svg_with_their_series() {
        let jobs = parse_job_file(
            "[w]\nrw=write\nbs=128k\niodepth=4\nsize=64m\n[r]\nstonewall\nrw=randread\nsize=8m\n",
            "t",
        )
        .unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(50));
        dev.ps_per_byte = 100; // 128 KiB -> 13.1 us extra
        let g = run_jobs(&mut dev, &jobs, "t", &SeedTree::new(1), &mut Quiet).unwrap();
        let dir = std::env::temp_dir().join(format!("ssdlab-plot-test-{}", std::process::id()));
        let files = plot_run(&dir, "demo run", &g).unwrap();
        assert_eq!(files.len(), 2);
        let tp = std::fs::read_to_string(&files[0]).unwrap();
        assert!(
            tp.starts_with("<svg") && tp.contains("write") && tp.contains("read"),
            "{}",
            &tp[..200.min(tp.len())]
        );
        let lp = std::fs::read_to_string(&files[1]).unwrap();
        assert!(lp.contains("w write") && lp.contains("r read"));
        // The tail points are labelled: p99.9, p99.99 and the maximum.
        let ticks: Vec<&str> = lp.lines().map(str::trim).collect();
        for label in ["99.9", "99.99", "max"] {
            assert!(
                ticks.contains(&label),
                "latency plot lacks the {label} tick"
            );
        }
        if std::env::var_os("SSDLAB_KEEP_PLOTS").is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        } else {
            eprintln!("plots kept in {}", dir.display());
        }
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("Fresh: sequential read"), "fresh-sequential-read");
    }
}
