//! The report table: one line per (block, family) with LUT / LUTRAM / FF / BRAM, the yosys CPU
//! seconds that produced it and a note (iCE40 fit, "whole datapath"), under a header naming the
//! command, the date and the yosys version. `render` and `parse` are inverses (test).

use super::stat::{Counts, Family};

/// One line of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Verilog file stem of the exported block (`nand_channel`, `datapath`, ...).
    pub block: String,
    /// Synthesis target.
    pub family: Family,
    /// Resources; None when the block is not synthesized for this family (note says why).
    pub counts: Option<Counts>,
    /// yosys CPU seconds (user + system) for this line; not compared (load-dependent).
    pub cpu_s: Option<f64>,
    /// Free text: iCE40 fit, "whole datapath (TOTAL)", why not synthesized.
    pub note: String,
}

/// A whole report: header fields and rows sorted by (block, family).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// `YYYY-MM-DD` of the run.
    pub date: String,
    /// `yosys -V` of the run.
    pub yosys: String,
    /// The command that produced it.
    pub command: String,
    /// Lines, sorted by block then family.
    pub rows: Vec<Row>,
}

/// Column titles; the parser skips this line.
const TITLES: &str = "# block              family      LUT   LUTRAM       FF   BRAM   cpu_s  note";

impl Report {
    /// Sorts the rows by (block, family): the order of `render` and of comparisons.
    pub fn sort(&mut self) {
        self.rows
            .sort_by(|a, b| (a.block.as_str(), a.family).cmp(&(b.block.as_str(), b.family)));
    }

    /// The row of `block` on `family`.
    pub fn row(&self, block: &str, family: Family) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.block == block && r.family == family)
    }

    /// The report as checked in: header, titles, one line per row, then TOTAL lines (the whole
    /// datapath's row against the xcku040, and the yosys CPU time of the run).
    pub fn render(&self) -> String {
        let mut s = String::new();
        s.push_str(
            "# ssdlab synthesis report: LUT / FF / BRAM of every exported block (make verilog)\n",
        );
        s.push_str(&format!("# command: {}\n", self.command));
        let preset = self
            .command
            .split_whitespace()
            .find_map(|w| w.strip_prefix("PRESET="));
        match preset {
            None => s.push_str(
                "# refresh: UPDATE_EXPECT=1 make synth  (or UPDATE_EXPECT=1 make test-slow)\n",
            ),
            Some(p) => s.push_str(&format!(
                "# refresh: UPDATE_EXPECT=1 make synth PRESET={p}\n"
            )),
        }
        s.push_str(&format!("# date: {}\n", self.date));
        s.push_str(&format!("# yosys: {}\n", self.yosys));
        s.push_str("# xcu: synth_xilinx -flatten -family xcu (Kintex UltraScale, KCU105 xcku040); LUT = LUT1-6\n");
        s.push_str("#   + INV + LUTs used as memory (LUTRAM), FF = FD*, BRAM in RAMB18 units (RAMB36E2 = 2);\n");
        s.push_str("#   TOTAL % of the xcku040's 242400 LUT / 484800 FF / 1200 RAMB18 (AMD DS890, not re-checked here)\n");
        s.push_str("# ice40: synth_ice40 -abc9; LUT = SB_LUT4, FF = SB_DFF*, BRAM = SB_RAM40_4K; fit = max(LUT, FF)\n");
        s.push_str("#   within the logic cells and BRAM within the EBRs (HX8K 7680 / 32, UP5K 5280 / 30)\n");
        s.push_str(&format!(
            "# check: a line fails when its LUT, FF or BRAM is more than {} % above this report, or\n",
            super::TOLERANCE_PCT
        ));
        s.push_str("#   when a block is missing from it or from the build; cpu_s (yosys user + sys s) is not compared\n");
        s.push_str("#\n");
        s.push_str(TITLES);
        s.push('\n');
        for r in &self.rows {
            s.push_str(&render_row(r));
            s.push('\n');
        }
        for line in self.total_lines() {
            s.push_str(&format!("# {line}\n"));
        }
        s
    }

    /// Summary lines: the whole datapath on the xcku040, and the yosys CPU time of all lines.
    pub fn total_lines(&self) -> Vec<String> {
        use super::{devices as d, pct};
        let mut out = vec![];
        for r in self
            .rows
            .iter()
            .filter(|r| super::is_top(&r.block) && r.family == Family::Xcu)
        {
            if let Some(c) = r.counts {
                out.push(format!(
                    "TOTAL (whole datapath `{}`, xcu, flattened): {} LUT ({} of xcku040), {} FF ({}), {} RAMB18 ({})",
                    r.block,
                    c.lut,
                    pct(c.lut, d::XCKU040_LUTS),
                    c.ff,
                    pct(c.ff, d::XCKU040_FFS),
                    c.bram,
                    pct(c.bram, d::XCKU040_RAMB18)
                ));
            }
        }
        if !self.rows.iter().any(|r| super::is_top(&r.block)) {
            out.push("TOTAL: no whole-datapath block (datapath.v) was exported".to_string());
        }
        let cpu: f64 = self.rows.iter().filter_map(|r| r.cpu_s).sum();
        out.push(format!("yosys CPU time of all lines: {cpu:.0} s"));
        out
    }

    /// Parses a rendered report. Err names the line.
    pub fn parse(text: &str) -> Result<Report, String> {
        let mut rep = Report {
            date: String::new(),
            yosys: String::new(),
            command: String::new(),
            rows: vec![],
        };
        for (i, line) in text.lines().enumerate() {
            let at = |e: String| format!("line {}: {e}", i + 1);
            if let Some(h) = line.strip_prefix("# ") {
                if let Some(v) = h.strip_prefix("date: ") {
                    rep.date = v.trim().to_string();
                } else if let Some(v) = h.strip_prefix("yosys: ") {
                    rep.yosys = v.trim().to_string();
                } else if let Some(v) = h.strip_prefix("command: ") {
                    rep.command = v.trim().to_string();
                }
                continue;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let row = parse_row(line).map_err(at)?;
            if rep.row(&row.block, row.family).is_some() {
                return Err(at(format!(
                    "second line for {} {}",
                    row.block,
                    row.family.name()
                )));
            }
            rep.rows.push(row);
        }
        for (field, v) in [
            ("date", &rep.date),
            ("yosys", &rep.yosys),
            ("command", &rep.command),
        ] {
            if v.is_empty() {
                return Err(format!("header has no `# {field}:` line"));
            }
        }
        rep.sort();
        Ok(rep)
    }
}

fn num_or_dash(v: Option<u64>) -> String {
    v.map_or("-".to_string(), |n| n.to_string())
}

fn render_row(r: &Row) -> String {
    let c = r.counts;
    let line = format!(
        "{:<20} {:<6} {:>8} {:>8} {:>8} {:>6} {:>7}  {}",
        r.block,
        r.family.name(),
        num_or_dash(c.map(|c| c.lut)),
        num_or_dash(c.map(|c| c.lutram)),
        num_or_dash(c.map(|c| c.ff)),
        num_or_dash(c.map(|c| c.bram)),
        r.cpu_s.map_or("-".to_string(), |s| format!("{s:.1}")),
        r.note
    );
    line.trim_end().to_string()
}

fn parse_row(line: &str) -> Result<Row, String> {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.len() < 7 {
        return Err(format!(
            "expected block, family, LUT, LUTRAM, FF, BRAM, cpu_s: `{line}`"
        ));
    }
    let family = Family::from_name(t[1]).ok_or_else(|| format!("unknown family `{}`", t[1]))?;
    let nums: Vec<Option<u64>> = t[2..6]
        .iter()
        .map(|v| {
            if *v == "-" {
                Ok(None)
            } else {
                v.parse().map(Some).map_err(|_| format!("bad count `{v}`"))
            }
        })
        .collect::<Result<_, _>>()?;
    let counts = match nums.as_slice() {
        [Some(lut), Some(lutram), Some(ff), Some(bram)] => Some(Counts {
            lut: *lut,
            lutram: *lutram,
            ff: *ff,
            bram: *bram,
        }),
        [None, None, None, None] => None,
        _ => return Err("counts are all numbers or all `-`".to_string()),
    };
    let cpu_s = if t[6] == "-" {
        None
    } else {
        Some(t[6].parse().map_err(|_| format!("bad cpu_s `{}`", t[6]))?)
    };
    Ok(Row {
        block: t[0].to_string(),
        family,
        counts,
        cpu_s,
        note: t[7..].join(" "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        let c = Counts {
            lut: 1220,
            lutram: 188,
            ff: 837,
            bram: 5,
        };
        let mut r = Report {
            date: "2026-11-30".into(),
            yosys: "Yosys 0.23 (git sha1 7ce5011c24b)".into(),
            command: "make synth".into(),
            rows: vec![
                Row {
                    block: "datapath".into(),
                    family: Family::Ice40,
                    counts: None,
                    cpu_s: None,
                    note: "not synthesized".into(),
                },
                Row {
                    block: "map_cache".into(),
                    family: Family::Xcu,
                    counts: Some(c),
                    cpu_s: Some(7.8),
                    note: String::new(),
                },
                Row {
                    block: "datapath".into(),
                    family: Family::Xcu,
                    counts: Some(c),
                    cpu_s: Some(100.0),
                    note: "whole datapath".into(),
                },
            ],
        };
        r.sort();
        r
    }

    #[test]
    fn render_then_parse_gives_the_report_back() {
        let r = sample();
        let order: Vec<_> = r
            .rows
            .iter()
            .map(|w| (w.block.as_str(), w.family))
            .collect();
        assert_eq!(
            order,
            [
                ("datapath", Family::Xcu),
                ("datapath", Family::Ice40),
                ("map_cache", Family::Xcu)
            ]
        );
        assert_eq!(Report::parse(&r.render()).unwrap(), r);
    }

    #[test]
    fn total_line_is_the_top_against_the_xcku040() {
        let t = sample().total_lines();
        // 1220 / 242 400 = 0.50 %; 837 / 484 800 = 0.17 %; 5 / 1200 = 0.42 %; CPU 7.8 + 100.
        assert_eq!(t[0], "TOTAL (whole datapath `datapath`, xcu, flattened): 1220 LUT (0.5 % of xcku040), 837 FF (0.2 %), 5 RAMB18 (0.4 %)");
        assert_eq!(t[1], "yosys CPU time of all lines: 108 s");
    }

    #[test]
    fn bad_lines_are_named() {
        let text = sample()
            .render()
            .replace("map_cache            xcu", "map_cache            xc9");
        assert!(
            Report::parse(&text)
                .unwrap_err()
                .contains("unknown family `xc9`"),
            "{text}"
        );
        let text = sample().render().replace("# date: 2026-11-30\n", "");
        assert_eq!(
            Report::parse(&text).unwrap_err(),
            "header has no `# date:` line"
        );
        let dup = format!("{}map_cache xcu 1 0 1 0 -\n", sample().render());
        assert!(Report::parse(&dup)
            .unwrap_err()
            .contains("second line for map_cache xcu"));
    }
}
