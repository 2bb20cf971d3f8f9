//! `ssdlab report DIR`: one self-contained HTML file over a sweep's results (no network, no
//! external files): the drive and workload, per metric a chart against each swept key (one
//! line per combination of the other keys, legend beside the plot, never over it), and the
//! table of points with their bottleneck, sortable by clicking a column head.

use super::output::{read_manifest, read_rows, Manifest};
use crate::error::InputError;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The metrics charted: throughput, IOPS, latency, write amplification and protocol figures;
/// the busy fractions and block counts are in the table.
fn charted(name: &str) -> bool {
    !(name.contains(".busy_pct.")
        || name.ends_with(".slc_blocks")
        || name.ends_with(".free_blocks"))
}

fn unit(name: &str) -> &'static str {
    if name.ends_with("_mbs") {
        "MB/s"
    } else if name.ends_with("_iops") {
        "IO/s"
    } else if name.ends_with("_us") {
        "us"
    } else {
        ""
    }
}

fn nice_max(v: f64) -> f64 {
    if v <= 0.0 {
        return 1.0;
    }
    let mag = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|m| *m >= v)
        .unwrap_or(10.0 * mag)
}

/// One chart: `metric` against swept key `k`, a line per combination of the other keys.
fn chart(m: &Manifest, rows: &BTreeMap<usize, Value>, metric: &str, k: usize) -> String {
    let xs = &m.grid.values[k];
    let key = &m.grid.keys[k];
    let mut series: BTreeMap<String, Vec<(usize, f64)>> = BTreeMap::new();
    for r in rows.values().filter(|r| r["status"] == "ok") {
        let Some(y) = r["metrics"][metric].as_f64() else {
            continue;
        };
        let Some(x) = r["set"][key]
            .as_str()
            .and_then(|v| xs.iter().position(|x| x == v))
        else {
            continue;
        };
        let others: Vec<String> = m
            .grid
            .keys
            .iter()
            .filter(|o| *o != key)
            .map(|o| {
                format!(
                    "{}={}",
                    o.rsplit('.').next().unwrap_or(o),
                    r["set"][o].as_str().unwrap_or("")
                )
            })
            .collect();
        let label = if others.is_empty() {
            metric.to_string()
        } else {
            others.join(" ")
        };
        series.entry(label).or_default().push((x, y));
    }
    let ymax = nice_max(series.values().flatten().map(|p| p.1).fold(0.0, f64::max));
    let (l, t, w, h) = (70.0, 46.0, 330.0, 190.0);
    let xpos = |i: usize| l + w * (i as f64 + 0.5) / xs.len() as f64;
    let ypos = |y: f64| t + h - h * y / ymax;
    let mut s = String::new();
    let _ = write!(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"286\" font-family=\"sans-serif\" font-size=\"11\">");
    let u = unit(metric);
    let _ = write!(
        s,
        "<text x=\"{l}\" y=\"16\" font-size=\"13\">{} {} vs {}</text>",
        esc(metric),
        if u.is_empty() {
            String::new()
        } else {
            format!("({u})")
        },
        esc(key)
    );
    let _ = write!(
        s,
        "<text x=\"{l}\" y=\"32\" fill=\"#555\">{}, root seed {}, config hash per point in the table</text>",
        esc(&m.drive),
        m.seed
    );
    // The legend panel right of the plot area (x from l + w + 10): it never covers a point.
    if !series.is_empty() {
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{t}\" width=\"{}\" height=\"{}\" fill=\"#FAFAFA\" stroke=\"#888\"/>",
            l + w + 10.0,
            800.0 - (l + w + 10.0) - 4.0,
            16.0 * series.len() as f64 + 6.0
        );
    }
    for i in 0..=5 {
        let y = ymax * i as f64 / 5.0;
        let py = ypos(y);
        let _ = write!(s, "<line x1=\"{l}\" x2=\"{}\" y1=\"{py}\" y2=\"{py}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", l + w, l - 6.0, py + 4.0, tick(y, ymax / 5.0));
    }
    for (i, x) in xs.iter().enumerate() {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            xpos(i),
            t + h + 16.0,
            esc(x)
        );
    }
    let _ = write!(
        s,
        "<rect x=\"{l}\" y=\"{t}\" width=\"{w}\" height=\"{h}\" fill=\"none\" stroke=\"#444\"/>"
    );
    for (n, (label, pts)) in series.iter().enumerate() {
        let c = PALETTE[n % PALETTE.len()];
        let path: Vec<String> = pts
            .iter()
            .map(|(x, y)| format!("{:.1},{:.1}", xpos(*x), ypos(*y)))
            .collect();
        let _ = write!(
            s,
            "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"{}\"/>",
            path.join(" ")
        );
        for (x, y) in pts {
            let _ = write!(s, "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{c}\"><title>{} = {}</title></circle>", xpos(*x), ypos(*y), esc(label), fmt_num(*y));
        }
        let ly = t + 15.0 + 16.0 * n as f64;
        let _ = write!(s, "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"3\" fill=\"{c}\"/><text x=\"{}\" y=\"{}\">{}</text>", l + w + 14.0, ly - 4.0, l + w + 30.0, ly, esc(label));
    }
    s.push_str("</svg>");
    s
}

/// An axis tick with as many decimals as the tick step needs (every tick of an axis alike).
fn tick(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else if step >= 0.1 {
        1
    } else {
        2
    };
    format!("{v:.decimals$}")
}

fn fmt_num(v: f64) -> String {
    if v.abs() >= 100.0 || v == 0.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

const SCRIPT: &str = r#"document.querySelectorAll('th').forEach(function(th, col) {
  th.addEventListener('click', function() {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var asc = th.dataset.asc !== '1'; th.dataset.asc = asc ? '1' : '0';
    rows.sort(function(a, b) {
      var x = a.cells[col].textContent, y = b.cells[col].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    });
    rows.forEach(function(r) { body.appendChild(r); });
  });
});"#;

fn table(m: &Manifest, rows: &BTreeMap<usize, Value>, metrics: &[String]) -> String {
    let mut s = String::from("<table><thead><tr><th>point</th>");
    for k in &m.grid.keys {
        let _ = write!(s, "<th>{}</th>", esc(k));
    }
    s.push_str("<th>bottleneck</th>");
    for mt in metrics {
        let _ = write!(s, "<th>{}</th>", esc(mt));
    }
    s.push_str("<th>config</th><th>status</th></tr></thead><tbody>");
    for r in rows.values() {
        let _ = write!(s, "<tr><td>{}</td>", r["point"]);
        for k in &m.grid.keys {
            let _ = write!(s, "<td>{}</td>", esc(r["set"][k].as_str().unwrap_or("")));
        }
        let bn: Vec<String> = r["bottleneck"]
            .as_str()
            .unwrap_or("")
            .split("; ")
            .map(esc)
            .collect();
        let _ = write!(s, "<td class=\"bn\">{}</td>", bn.join("<br>"));
        for mt in metrics {
            let _ = write!(
                s,
                "<td>{}</td>",
                r["metrics"][mt].as_f64().map_or(String::new(), fmt_num)
            );
        }
        let status = match r["error"].as_str() {
            Some(e) => format!("error: {e}"),
            None => "ok".to_string(),
        };
        let _ = write!(
            s,
            "<td>{}</td><td>{}</td></tr>",
            esc(r["config_hash"].as_str().unwrap_or("")),
            esc(&status)
        );
    }
    s.push_str("</tbody></table>");
    s
}

/// The HTML text of the report over `dir`.
pub fn render(dir: &Path) -> Result<String, InputError> {
    let name = dir.display().to_string();
    let m = read_manifest(dir)?
        .ok_or_else(|| InputError::file(&name, "no sweep.json: not a sweep output"))?;
    let rows = read_rows(dir)?;
    let mut metrics: Vec<String> = rows
        .values()
        .filter_map(|r| r["metrics"].as_object())
        .flat_map(|o| o.keys().cloned())
        .filter(|k| charted(k))
        .collect();
    metrics.sort();
    metrics.dedup();
    let drives: Vec<String> = {
        let mut d: Vec<String> = rows
            .values()
            .filter_map(|r| r["drive"].as_str().map(String::from))
            .collect();
        d.dedup();
        d
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ssdlab sweep: {}</title>",
        esc(&m.workload)
    );
    h.push_str("<style>body{font-family:sans-serif;margin:20px;color:#222}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:3px 6px}th{background:#eee;cursor:pointer}.bn{white-space:nowrap}.charts{display:flex;flex-wrap:wrap}</style></head><body>");
    let _ = write!(
        h,
        "<h1>Sweep: {} on {}</h1>",
        esc(&m.workload),
        esc(&m.drive)
    );
    let _ = write!(
        h,
        "<p>{} of {} points, root seed {}, overrides at every point: {}</p>",
        rows.len(),
        m.points,
        m.seed,
        esc(&if m.base_sets.is_empty() {
            "none".to_string()
        } else {
            m.base_sets.join(" ")
        })
    );
    let _ = write!(
        h,
        "<p>drive (first point): {}</p>",
        esc(drives.first().map_or("", String::as_str))
    );
    h.push_str("<h2>Points</h2>");
    h.push_str(&table(&m, &rows, &metrics));
    h.push_str("<h2>Charts</h2><div class=\"charts\">");
    for mt in &metrics {
        for k in 0..m.grid.keys.len() {
            h.push_str(&chart(&m, &rows, mt, k));
        }
    }
    let _ = writeln!(h, "</div><script>{SCRIPT}</script></body></html>");
    Ok(h)
}
