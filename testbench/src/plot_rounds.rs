//! SVG plot of a `rounds` step's steady-state convergence, as the SNIA PTS reports draw it: the
//! tracking variable per round, and over the measurement window its mean, the band of +-10 %
//! around the mean (a window inside it has a data excursion within 20 %) and the least-squares
//! line (steady when its excursion over the window is within 10 % of the mean).

use crate::plot_frame::{chart_svg, err, fmt_tick, framed, LegendEntry, PlotMeta};
use crate::protocol::rounds::report::metric_name;
use crate::protocol::rounds::run::RoundsOutcome;
use plotters::prelude::*;
use std::path::Path;

/// The window's (first round, last round, mean, best-fit value at the first and last round).
fn window_lines(o: &RoundsOutcome) -> (f64, f64, f64, f64, f64) {
    let f = &o.window;
    let (a, b) = (f.first_round as f64, (f.first_round + f.rounds - 1) as f64);
    // The least-squares line passes through (middle round, mean).
    let mid = (a + b) / 2.0;
    (
        a,
        b,
        f.mean,
        f.mean + f.slope * (a - mid),
        f.mean + f.slope * (b - mid),
    )
}

/// Writes the convergence plot of one `rounds` outcome.
pub fn convergence(
    path: &Path,
    title: &str,
    meta: &PlotMeta,
    o: &RoundsOutcome,
) -> Result<(), String> {
    let track = o.tracking();
    let (a, b, mean, fit_a, fit_b) = window_lines(o);
    let y_max = track.iter().copied().fold(mean * 1.1, f64::max) * 1.1;
    let x_max = track.len() as f64 + 0.5;
    let m = o.metrics[0];
    let colors = [0, 1, 2, 3].map(|k| Palette99::pick(k).to_rgba());
    let names = [
        format!("{} of {}", metric_name(m), o.cells[o.track]),
        "window mean".to_string(),
        "mean +-10 % (20 % excursion)".to_string(),
        "best-fit line over the window".to_string(),
    ];
    let legend: Vec<LegendEntry> = names
        .iter()
        .zip(colors)
        .map(|(n, color)| LegendEntry {
            label: n.clone(),
            color,
        })
        .collect();
    chart_svg(path, (1000, 500), title, meta, &legend, |area| {
        let mut chart = framed(area)
            .build_cartesian_2d(0.5..x_max, 0.0..y_max)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| fmt_tick(*v))
            .y_label_formatter(&|v| fmt_tick(*v))
            .x_desc("round")
            .y_desc(format!("{} ({})", metric_name(m), m.unit()))
            .draw()
            .map_err(err)?;
        let pts: Vec<(f64, f64)> = track
            .iter()
            .enumerate()
            .map(|(i, v)| (i as f64 + 1.0, *v))
            .collect();
        chart
            .draw_series(pts.iter().map(|p| Circle::new(*p, 4, colors[0].filled())))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(pts, colors[0].stroke_width(2)))
            .map_err(err)?;
        let flat = |y: f64| vec![(a, y), (b, y)];
        let lines = [
            (flat(mean), colors[1]),
            (flat(mean * 0.9), colors[2]),
            (flat(mean * 1.1), colors[2]),
            (vec![(a, fit_a), (b, fit_b)], colors[3]),
        ];
        for (l, c) in lines {
            chart
                .draw_series(LineSeries::new(l, c.stroke_width(2)))
                .map_err(err)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::steady_state::window_figures;

    #[test]
    fn the_window_lines_follow_the_hand_figures() {
        // Rounds 3-7 of 300 200 100 102 98 101 99: mean 100, slope -0.3 per round, so the line
        // runs from 100 + 0.6 at round 3 to 100 - 0.6 at round 7.
        let series = [300.0, 200.0, 100.0, 102.0, 98.0, 101.0, 99.0];
        let o = RoundsOutcome {
            rule: crate::protocol::steady_state::SteadyRule::new(25, 5).unwrap(),
            cells: vec!["bs=4k".into()],
            axes: vec!["bs".into()],
            settings: vec![vec!["4k".into()]],
            track: 0,
            metrics: vec![crate::protocol::schema::Metric::Iops],
            values: series.iter().map(|v| vec![vec![*v]]).collect(),
            window: window_figures(&series, 2).unwrap(),
        };
        let (a, b, mean, fa, fb) = window_lines(&o);
        assert_eq!((a, b), (3.0, 7.0));
        assert!((mean - 100.0).abs() < 1e-9);
        assert!(
            (fa - 100.6).abs() < 1e-9 && (fb - 99.4).abs() < 1e-9,
            "{fa} {fb}"
        );
        let dir = tempfile::Builder::new()
            .prefix("ssdlab-rounds-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("rounds.svg");
        let meta = PlotMeta {
            drive: "d".into(),
            config_hash: "0123456789abcdef".into(),
            seed: 1,
        };
        convergence(&path, "t", &meta, &o).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("iops of bs=4k") && svg.contains("best-fit line"));
        // Seven round markers.
        assert_eq!(svg.matches("<circle").count(), 7);
        crate::plot_frame::svg_check::assert_legend_clear(&svg);
    }
}
