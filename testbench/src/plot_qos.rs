//! SVG plot of read latency tails against load for protocol sweeps (the `read-qos` protocol):
//! read p99, p99.9 and p99.99 of every `fio` step that reports a read latency metric, against
//! the IOPS the step achieved (reads + writes), log-scale latency. `set` steps (e.g. suspend
//! off / on) switch between series by label, each drawn with its own markers.

use crate::plot_frame::{chart_svg, err, fmt_tick, framed, log_ticks, LegendEntry, PlotMeta};
use crate::protocol::run::StepOutcome;
use crate::protocol::schema::Metric;
use plotters::prelude::*;
use std::path::Path;

/// One curve: its name and its (IOPS, [p99, p99.9, p99.99] in us) points.
pub type QosSeries = (String, Vec<(f64, [f64; 3])>);

/// The points of [`qos_points`] by series: each `set` step switches to the series named by
/// its label (steps of one label, wherever they are, form one series); the points before the
/// first one are "as configured". Series in order of first appearance.
pub fn qos_series(outcomes: &[StepOutcome]) -> Vec<QosSeries> {
    let mut out: Vec<QosSeries> = vec![("as configured".into(), Vec::new())];
    let mut cur = 0;
    for o in outcomes {
        if o.kind == "set" {
            cur = match out.iter().position(|s| s.0 == o.label) {
                Some(i) => i,
                None => {
                    out.push((o.label.clone(), Vec::new()));
                    out.len() - 1
                }
            };
        }
        out[cur].1.extend(qos_points(std::slice::from_ref(o)));
    }
    out.retain(|s| !s.1.is_empty());
    out
}

/// The (IOPS, [p99, p99.9, p99.99] in us) point of each step reporting a read latency metric.
pub fn qos_points(outcomes: &[StepOutcome]) -> Vec<(f64, [f64; 3])> {
    let read_lat = [
        Metric::ReadLatAvgUs,
        Metric::ReadLatP99Us,
        Metric::ReadLatP999Us,
        Metric::ReadLatP9999Us,
        Metric::ReadLatMaxUs,
    ];
    let mut pts = Vec::new();
    for o in outcomes {
        let Some(r) = &o.report else { continue };
        if !read_lat.contains(&r.metric) || o.groups.is_empty() {
            continue;
        }
        let (mut ios, mut secs) = (0u64, 0.0);
        let mut rd = crate::workload::stats::DirStats::default();
        for g in &o.groups {
            let (gr, gw) = g.totals();
            ios += gr.ios + gw.ios;
            secs += g.window().as_secs_f64();
            rd.merge(&gr);
        }
        if secs > 0.0 && rd.lat.count() > 0 {
            let p = |q: f64| rd.lat.percentile_ns(q).max(1) as f64 / 1e3;
            pts.push((ios as f64 / secs, [p(99.0), p(99.9), p(99.99)]));
        }
    }
    pts
}

/// Writes the plot when at least two steps report a read latency; returns whether it did.
pub fn latency_vs_load(
    path: &Path,
    title: &str,
    meta: &PlotMeta,
    outcomes: &[StepOutcome],
) -> Result<bool, String> {
    let pts = qos_points(outcomes);
    if pts.len() < 2 {
        return Ok(false);
    }
    let series = qos_series(outcomes);
    let x_max = pts.iter().map(|p| p.0).fold(1.0, f64::max) * 1.1;
    let ys = pts.iter().flat_map(|p| p.1);
    let (lo, hi) = ys.fold((f64::INFINITY, 1.0f64), |(l, h), y| (l.min(y), h.max(y)));
    let (lo, hi) = (lo.min(hi) / 1.5, hi * 1.5);
    let names = ["read p99", "read p99.9", "read p99.99"];
    // Colour tells the percentile, the marker the series (circles first, triangles after).
    let marker = |si: usize| if si == 0 { "circles" } else { "triangles" };
    let mut legend = Vec::new();
    for (si, (sname, _)) in series.iter().enumerate() {
        for (k, n) in names.iter().enumerate() {
            let label = if series.len() > 1 {
                format!("{n} ({sname}, {})", marker(si))
            } else {
                n.to_string()
            };
            legend.push(LegendEntry {
                label,
                color: Palette99::pick(k).to_rgba(),
            });
        }
    }
    chart_svg(path, (1000, 500), title, meta, &legend, |area| {
        let y = (lo..hi).log_scale().with_key_points(log_ticks(lo, hi));
        let mut chart = framed(area)
            .build_cartesian_2d(0.0..x_max, y)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| fmt_tick(*v))
            .y_label_formatter(&|v| fmt_tick(*v))
            .x_desc("achieved IOPS (reads + writes)")
            .y_desc("read completion latency (us)")
            .draw()
            .map_err(err)?;
        for (si, (_, spts)) in series.iter().enumerate() {
            for k in 0..names.len() {
                let color = Palette99::pick(k).to_rgba();
                let line: Vec<(f64, f64)> = spts.iter().map(|p| (p.0, p.1[k])).collect();
                if si == 0 {
                    chart
                        .draw_series(line.iter().map(|p| Circle::new(*p, 4, color.filled())))
                        .map_err(err)?;
                } else {
                    chart
                        .draw_series(
                            line.iter()
                                .map(|p| TriangleMarker::new(*p, 5, color.filled())),
                        )
                        .map_err(err)?;
                }
                let width = if si == 0 { 2 } else { 1 };
                chart
                    .draw_series(LineSeries::new(line, color.stroke_width(width)))
                    .map_err(err)?;
            }
        }
        Ok(())
    })?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::load;
    use crate::protocol::run::run_protocol;
    use crate::workload::testdev::FixedLatencyDevice;
    use crate::workload::Quiet;
    use ssdlab_model::{SeedTree, SimTime};

    #[test]
    fn one_point_per_read_latency_step() {
        // Two capped read steps on a 100 us device: 1000 and 2000 IOPS offered (linear, QD8:
        // the device keeps up), IO k at k / rate until the 1 s runtime: 1000 and 2000 reads in
        // windows of 999.1 and 999.6 ms (last start + 100 us), every read at 100 us.
        let step = |id: &str, iops: u32| {
            format!(
                "[[step]]\nkind = \"fio\"\nid = \"{id}\"\nlabel = \"{id}\"\n\
                 job = \"[q]\\nrw=randread\\niodepth=8\\nrate_iops={iops}\\nruntime=1\\ntime_based\\n\"\n\
                 report = {{ metric = \"read_lat_p999_us\" }}\n"
            )
        };
        let text = format!(
            "name = \"q\"\ndescription = \"d\"\n{}{}",
            step("a", 1000),
            step("b", 2000)
        );
        let p = load(&text, "q.toml", None).unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
        let o = run_protocol(&mut dev, &p, &SeedTree::new(1), &mut Quiet, &mut |_, _| {}).unwrap();
        let pts = qos_points(&o);
        assert_eq!(pts.len(), 2);
        for (pt, want) in pts.iter().zip([1000.0 / 0.9991, 2000.0 / 0.9996]) {
            assert!((pt.0 - want).abs() < 0.01, "{} vs {want}", pt.0);
            assert_eq!(pt.1, [100.0; 3]);
        }
        let dir = tempfile::Builder::new()
            .prefix("ssdlab-qos-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("qos.svg");
        let meta = PlotMeta {
            drive: "d".into(),
            config_hash: "0123456789abcdef".into(),
            seed: 1,
        };
        assert!(latency_vs_load(&path, "t", &meta, &o).unwrap());
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("read p99.99"));
        crate::plot_frame::svg_check::assert_legend_clear(&svg);
    }
}
