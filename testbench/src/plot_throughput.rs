//! SVG plot of a run over simulated time: read and write throughput (decimal MB/s, 10^6 bytes
//! per second, as every ssdlab report) in the upper panel; below it, when the device reports
//! its flash state, the SLC cache's valid data (GiB, left axis) and the free die-blocks (right
//! axis) per time bin (`workload::occupancy`). SLC cache exhaustion shows as a step down in
//! throughput where the SLC curve stops rising and the free blocks reach their floor.

use crate::plot_frame::{
    chart_svg, err, fmt_tick, framed, Area, LegendEntry, PlotMeta, PlotResult,
};
use crate::workload::stats::DirStats;
use crate::workload::GroupResult;
use plotters::prelude::*;
use ssdlab_model::SimTime;
use std::path::Path;

/// (x, y) points of one curve.
type Points = Vec<(f64, f64)>;
type Line = (Points, RGBColor);

const SLC_COLOR: RGBColor = RGBColor(44, 160, 44);
const FREE_COLOR: RGBColor = RGBColor(148, 103, 189);

/// MB/s (10^6 bytes per second) per series bin of one direction, at absolute times (s) from
/// `t0`. Re-binned to at most 250 points of at least 10 mean latencies each, so that every bin
/// holds many completions (no aliasing between the bin width and the service time).
pub(crate) fn mbps_points(d: &DirStats, g: &GroupResult, t0: SimTime) -> Vec<(f64, f64)> {
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

/// (time s, SLC valid GiB) and (time s, free blocks) of every group, at most 250 points each.
pub(crate) fn occupancy_points(groups: &[GroupResult], t0: SimTime) -> (Points, Points) {
    let (mut slc, mut free) = (Vec::new(), Vec::new());
    for g in groups {
        let mut o = g.occupancy.clone();
        while o.samples.len() > 250 {
            o.coarsen();
        }
        let start = (g.window_start - t0).as_secs_f64();
        for (t, s) in o.points(g.window()) {
            let x = start + t.as_secs_f64();
            slc.push((x, s.slc_bytes as f64 / (1u64 << 30) as f64));
            free.push((x, s.free_blocks as f64));
        }
    }
    (slc, free)
}

/// Throughput against simulated time across every group of a run, with the flash state below.
pub fn throughput_over_time(
    path: &Path,
    title: &str,
    meta: &PlotMeta,
    groups: &[GroupResult],
) -> PlotResult {
    let t0 = groups.first().map_or(SimTime::ZERO, |g| g.window_start);
    let mut series: Vec<Line> = Vec::new();
    let mut legend: Vec<LegendEntry> = Vec::new();
    for g in groups {
        let (r, w) = g.totals();
        for (name, d, color) in [("read", r, BLUE), ("write", w, RED)] {
            let pts = mbps_points(&d, g, t0);
            if pts.is_empty() {
                continue;
            }
            if !legend.iter().any(|e| e.label == format!("{name} (MB/s)")) {
                legend.push(LegendEntry {
                    label: format!("{name} (MB/s)"),
                    color: color.to_rgba(),
                });
            }
            series.push((pts, color));
        }
    }
    let (slc, free) = occupancy_points(groups, t0);
    if !slc.is_empty() {
        legend.push(LegendEntry {
            label: "SLC cache valid data (GiB, left)".into(),
            color: SLC_COLOR.to_rgba(),
        });
        legend.push(LegendEntry {
            label: "free blocks (right)".into(),
            color: FREE_COLOR.to_rgba(),
        });
    }
    let x_max = series
        .iter()
        .flat_map(|s| s.0.iter().map(|p| p.0))
        .chain(slc.iter().map(|p| p.0))
        .fold(1e-6, f64::max)
        * 1.02;
    let size = (1000, if slc.is_empty() { 500 } else { 720 });
    chart_svg(path, size, title, meta, &legend, |area| {
        if slc.is_empty() {
            return throughput_panel(area, x_max, series);
        }
        let h = area.dim_in_pixel().1;
        let (upper, lower) = area.split_vertically(h * 3 / 5);
        throughput_panel(&upper, x_max, series)?;
        occupancy_panel(&lower, x_max, &slc, &free)
    })
}

fn throughput_panel(area: &Area, x_max: f64, series: Vec<Line>) -> PlotResult {
    let y_max = series
        .iter()
        .flat_map(|s| s.0.iter().map(|p| p.1))
        .fold(1.0, f64::max)
        * 1.1;
    // The right margin matches the flash-state panel's right axis, so the time axes line up.
    let mut chart = framed(area)
        .margin_right(85)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_label_formatter(&|v| fmt_tick(*v))
        .y_label_formatter(&|v| fmt_tick(*v))
        .x_desc("simulated time (s)")
        .y_desc("throughput (MB/s)")
        .draw()
        .map_err(err)?;
    for (pts, color) in series {
        if pts.len() < 3 {
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 3, color.filled())))
                .map_err(err)?;
        }
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(err)?;
    }
    Ok(())
}

fn occupancy_panel(area: &Area, x_max: f64, slc: &[(f64, f64)], free: &[(f64, f64)]) -> PlotResult {
    let slc_max = slc.iter().map(|p| p.1).fold(1e-3, f64::max) * 1.1;
    let free_max = free.iter().map(|p| p.1).fold(1.0, f64::max) * 1.1;
    let mut chart = framed(area)
        .right_y_label_area_size(70)
        .build_cartesian_2d(0.0..x_max, 0.0..slc_max)
        .map_err(err)?
        .set_secondary_coord(0.0..x_max, 0.0..free_max);
    chart
        .configure_mesh()
        .x_label_formatter(&|v| fmt_tick(*v))
        .y_label_formatter(&|v| fmt_tick(*v))
        .x_desc("simulated time (s)")
        .y_desc("SLC cache valid data (GiB)")
        .draw()
        .map_err(err)?;
    chart
        .configure_secondary_axes()
        .y_label_formatter(&|v| fmt_tick(*v))
        .y_desc("free blocks")
        .draw()
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new(slc.to_vec(), SLC_COLOR.stroke_width(2)))
        .map_err(err)?;
    chart
        .draw_secondary_series(LineSeries::new(free.to_vec(), FREE_COLOR.stroke_width(2)))
        .map_err(err)?;
    Ok(())
}
