//! The frame every ssdlab SVG chart shares (`plot.rs`, `plot_throughput.rs`, `plot_qos.rs`): a
//! title and a second line naming the drive, its config hash and the seed; the legend in a
//! panel of its own right of the plot area, so that it never covers data; axis ticks on a
//! 1-2-5 ladder for log axes, printed without float noise.

use plotters::coord::Shift;
use plotters::prelude::*;

pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
pub(crate) type PlotResult = Result<(), String>;

pub(crate) fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// What produced a chart: named in its second title line.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotMeta {
    pub drive: String,
    pub config_hash: String,
    pub seed: u64,
}

impl PlotMeta {
    pub fn subtitle(&self) -> String {
        format!(
            "{}, config {}, seed {}",
            self.drive, self.config_hash, self.seed
        )
    }
}

/// One legend line: a label and the colour of its series.
pub(crate) struct LegendEntry {
    pub label: String,
    pub color: RGBAColor,
}

impl LegendEntry {
    /// One entry per named series, series k in palette colour k (as the charts draw them).
    pub(crate) fn per_series<T>(series: &[(String, T)]) -> Vec<LegendEntry> {
        series
            .iter()
            .enumerate()
            .map(|(k, (name, _))| LegendEntry {
                label: name.clone(),
                color: Palette99::pick(k).to_rgba(),
            })
            .collect()
    }
}

/// The legend panel's background (the tests find the panel in the SVG by it).
pub(crate) const LEGEND_FILL: RGBColor = RGBColor(250, 250, 250);
const LEGEND_ROW_PX: i32 = 18;
const TITLE_PX: u32 = 52;

/// Fills `path` with the title, the subtitle of `meta` and the legend panel; `draw` gets the
/// plot area, which the legend panel does not overlap.
pub(crate) fn chart_svg(
    path: &std::path::Path,
    size: (u32, u32),
    title: &str,
    meta: &PlotMeta,
    legend: &[LegendEntry],
    draw: impl FnOnce(&Area) -> PlotResult,
) -> PlotResult {
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (top, body) = root.split_vertically(TITLE_PX);
    top.draw(&Text::new(
        title.to_string(),
        (15, 8),
        ("sans-serif", 20).into_font(),
    ))
    .map_err(err)?;
    top.draw(&Text::new(
        meta.subtitle(),
        (15, 32),
        ("sans-serif", 13).into_font().color(&RGBColor(80, 80, 80)),
    ))
    .map_err(err)?;
    let longest = legend.iter().map(|e| e.label.chars().count()).max();
    let panel = longest.map_or(0, |n| (n as u32 * 7 + 50).clamp(120, size.0 / 3));
    let (plot, side) = body.split_horizontally(size.0 - panel);
    if !legend.is_empty() {
        draw_legend(&side, legend)?;
    }
    draw(&plot)?;
    root.present().map_err(err)
}

fn draw_legend(side: &Area, legend: &[LegendEntry]) -> PlotResult {
    let (w, _) = side.dim_in_pixel();
    let h = LEGEND_ROW_PX * legend.len() as i32 + 10;
    side.draw(&Rectangle::new(
        [(4, 20), (w as i32 - 6, 20 + h)],
        LEGEND_FILL.filled(),
    ))
    .map_err(err)?;
    side.draw(&Rectangle::new(
        [(4, 20), (w as i32 - 6, 20 + h)],
        BLACK.stroke_width(1),
    ))
    .map_err(err)?;
    for (i, e) in legend.iter().enumerate() {
        let y = 20 + 14 + LEGEND_ROW_PX * i as i32;
        side.draw(&Rectangle::new(
            [(12, y - 1), (32, y + 1)],
            e.color.filled(),
        ))
        .map_err(err)?;
        side.draw(&Text::new(
            e.label.clone(),
            (38, y - 6),
            ("sans-serif", 12).into_font(),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// A chart builder on the plot area with the margins and label areas every ssdlab chart uses.
pub(crate) fn framed<'a, 'b>(area: &'a Area<'b>) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(area);
    b.margin(15).x_label_area_size(40).y_label_area_size(70);
    b
}

/// Ticks of a log axis over `lo..hi` (both > 0): 1-2-5 per decade, or decades alone when
/// that would give more than 12 ticks.
pub(crate) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut out = Vec::new();
    if !(lo > 0.0 && hi > lo) {
        return out;
    }
    let decades = (hi / lo).log10().ceil() as i32 + 1;
    let steps: &[f64] = if decades * 3 > 12 {
        &[1.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let mut e = lo.log10().floor() as i32;
    while 10f64.powi(e) <= hi {
        for m in steps {
            let v = tick_value(*m, e);
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        e += 1;
    }
    out
}

/// m x 10^e from its decimal text, so that 0.2 is 0.2 and not 0.20000000000000004.
fn tick_value(m: f64, e: i32) -> f64 {
    format!("{m}e{e}").parse().unwrap_or(m * 10f64.powi(e))
}

/// A tick label without float noise: at most 4 significant digits, no trailing zeros.
pub(crate) fn fmt_tick(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".to_string();
    }
    let digits = (3 - v.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Reads back what a chart drew (the tests of `plot.rs`, `plot_qos.rs` and the report): the
/// legend panel's box and every plotted point.
#[doc(hidden)]
pub mod svg_check {

    fn attr(tag: &str, name: &str) -> Option<f64> {
        let key = format!(" {name}=\"");
        let i = tag.find(&key)? + key.len();
        tag[i..].split('"').next()?.parse().ok()
    }

    /// (x0, y0, x1, y1) of the rectangle filled with the legend colour (`LEGEND_FILL`).
    pub fn legend_box(svg: &str) -> (f64, f64, f64, f64) {
        let tag = svg
            .split('<')
            .find(|t| t.starts_with("rect") && t.to_ascii_uppercase().contains("FILL=\"#FAFAFA\""))
            .expect("a legend panel");
        let (x, y) = (attr(tag, "x").unwrap(), attr(tag, "y").unwrap());
        let (w, h) = (attr(tag, "width").unwrap(), attr(tag, "height").unwrap());
        (x, y, x + w, y + h)
    }

    /// Every vertex of every polyline and the centre of every circle.
    pub fn points(svg: &str) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        for tag in svg.split('<') {
            if tag.starts_with("polyline") {
                let i = tag.find(" points=\"").unwrap() + 9;
                for p in tag[i..].split('"').next().unwrap().split_whitespace() {
                    let (x, y) = p.split_once(',').unwrap();
                    out.push((x.parse().unwrap(), y.parse().unwrap()));
                }
            } else if tag.starts_with("circle") {
                out.push((attr(tag, "cx").unwrap(), attr(tag, "cy").unwrap()));
            }
        }
        out
    }

    /// Panics when a plotted point lies inside the legend panel.
    pub fn assert_legend_clear(svg: &str) {
        let (x0, y0, x1, y1) = legend_box(svg);
        let pts = points(svg);
        assert!(!pts.is_empty(), "no plotted points");
        for (x, y) in pts {
            assert!(
                !(x >= x0 && x <= x1 && y >= y0 && y <= y1),
                "point ({x}, {y}) under the legend ({x0}, {y0})-({x1}, {y1})"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_are_one_two_five_or_decades() {
        assert_eq!(
            log_ticks(0.15, 60.0),
            vec![0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
        );
        // 0.7 us .. 40 ms: eight decades, decades only.
        assert_eq!(
            log_ticks(0.7, 40_000.0),
            vec![1.0, 10.0, 100.0, 1000.0, 10_000.0]
        );
        assert!(log_ticks(5.0, 5.0).is_empty());
    }

    #[test]
    fn tick_labels_have_no_float_noise() {
        assert_eq!(fmt_tick(0.1 + 0.2), "0.3");
        assert_eq!(fmt_tick(20.000000000000004), "20");
        assert_eq!(fmt_tick(1500.0), "1500");
        assert_eq!(fmt_tick(0.25), "0.25");
        assert_eq!(fmt_tick(0.0), "0");
    }
}
