//! Builds the current report from a `scripts/synth.sh` output folder: one line per exported
//! block (`<stem>.v` in the Verilog folder) and family, from `<stem>.<family>.stat` (counts),
//! `.time` (bash `time`: wall, user, sys seconds) and `.skip` (why a family was not run).
//! Also the small outside facts a report header needs (yosys version, date) and the
//! `UPDATE_EXPECT` switch.

use std::path::{Path, PathBuf};

use super::report::{Report, Row};
use super::stat::{parse_stat, Family};

/// The command written into the header of reports made by `make synth`.
pub const COMMAND: &str = "make synth (scripts/synth.sh out/verilog out/synth, then synth-report)";

/// The checked-in report: `hdl/synth-report.txt`.
pub fn checked_in_path() -> PathBuf {
    checked_in_path_for(None)
}

/// The checked-in report of `make synth PRESET=NAME`: `hdl/synth-report.NAME.txt` (every block
/// elaborated for that built-in preset); without a preset, [`checked_in_path`].
pub fn checked_in_path_for(preset: Option<&str>) -> PathBuf {
    let file = preset.map_or("synth-report.txt".to_string(), |p| {
        format!("synth-report.{p}.txt")
    });
    Path::new(env!("CARGO_MANIFEST_DIR")).join(file)
}

/// The command written into the header of a report, for `make synth` or `make synth PRESET=`.
pub fn command_for(preset: Option<&str>) -> String {
    match preset {
        None => COMMAND.to_string(),
        Some(p) => format!(
            "make synth PRESET={p} (scripts/synth.sh out/verilog out/synth, then synth-report --preset {p})"
        ),
    }
}

/// `UPDATE_EXPECT=1` (rust-analyzer's expect-test convention): rewrite the checked-in report.
/// Takes `--preset NAME` out of a tool's arguments: `Ok(None)` without it, an error for a
/// missing or unknown name (the tools exit 2 with it).
pub fn take_preset_arg(args: &mut Vec<String>) -> Result<Option<String>, String> {
    let Some(i) = args.iter().position(|a| a == "--preset") else {
        return Ok(None);
    };
    if i + 1 >= args.len() {
        return Err("--preset needs a preset name".to_string());
    }
    let p = args.remove(i + 1);
    args.remove(i);
    if ssdlab_model::config::builtin_preset(&p).is_none() {
        return Err(format!(
            "--preset {p}: not a built-in preset (ssdlab presets)"
        ));
    }
    Ok(Some(p))
}

pub fn update_requested() -> bool {
    std::env::var("UPDATE_EXPECT")
        .map(|v| v == "1")
        .unwrap_or(false)
}

/// First line of `yosys -V`, or Err if yosys cannot be run.
pub fn yosys_version() -> Result<String, String> {
    let out = std::process::Command::new("yosys")
        .arg("-V")
        .output()
        .map_err(|e| format!("yosys -V: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string())
}

/// Today's UTC date, `YYYY-MM-DD` (civil-from-days, H. Hinnant's algorithm).
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Sorted stems of the `.v` files in `verilog_dir`.
pub fn exported_blocks(verilog_dir: &Path) -> Result<Vec<String>, String> {
    let rd =
        std::fs::read_dir(verilog_dir).map_err(|e| format!("{}: {e}", verilog_dir.display()))?;
    let mut v: Vec<String> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    v.sort();
    Ok(v)
}

/// CPU seconds (user + sys) of a `.time` file (`wall user sys`).
fn cpu_seconds(path: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    let t: Vec<f64> = text
        .split_whitespace()
        .filter_map(|v| v.parse().ok())
        .collect();
    (t.len() == 3).then(|| t[1] + t[2])
}

/// The current report of `blocks` from `synth_dir`, and one problem line per (block, family)
/// that has neither a stat nor a skip file (yosys failed: the comparison will say NotBuilt).
/// Err: a stat file that does not parse (named).
pub fn collect(
    blocks: &[String],
    synth_dir: &Path,
    date: String,
    yosys: String,
) -> Result<(Report, Vec<String>), String> {
    let mut rows = vec![];
    let mut problems = vec![];
    for b in blocks {
        for family in Family::ALL {
            let file = |ext: &str| synth_dir.join(format!("{b}.{}.{ext}", family.name()));
            let (stat, skip) = (file("stat"), file("skip"));
            if let Ok(text) = std::fs::read_to_string(&stat) {
                let c =
                    parse_stat(family, &text).map_err(|e| format!("{}: {e}", stat.display()))?;
                let note = match family {
                    Family::Ice40 => super::ice40_fit(&c),
                    Family::Xcu if super::is_top(b) => "whole datapath (TOTAL)".to_string(),
                    Family::Xcu => String::new(),
                };
                let cpu_s = cpu_seconds(&file("time"));
                rows.push(Row {
                    block: b.clone(),
                    family,
                    counts: Some(c),
                    cpu_s,
                    note,
                });
            } else if let Ok(why) = std::fs::read_to_string(&skip) {
                rows.push(Row {
                    block: b.clone(),
                    family,
                    counts: None,
                    cpu_s: None,
                    note: why.trim().to_string(),
                });
            } else {
                problems.push(format!(
                    "no {} result for {b} (see {}.{}.log)",
                    family.name(),
                    b,
                    family.name()
                ));
            }
        }
    }
    let mut rep = Report {
        date,
        yosys,
        command: COMMAND.to_string(),
        rows,
    };
    rep.sort();
    Ok((rep, problems))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preset's report is a file of its own whose header names the preset's command and
    /// refresh, and which parses back to the same command.
    #[test]
    fn a_preset_report_has_its_own_file_command_and_refresh() {
        assert!(checked_in_path().ends_with("hdl/synth-report.txt"));
        let p = checked_in_path_for(Some("sm2262-512g"));
        assert!(p.ends_with("hdl/synth-report.sm2262-512g.txt"), "{p:?}");
        let rep = Report {
            date: "2026-01-01".into(),
            yosys: "Yosys 0.23".into(),
            command: command_for(Some("sm2262-512g")),
            rows: vec![],
        };
        let text = rep.render();
        assert!(
            text.contains("# command: make synth PRESET=sm2262-512g ("),
            "{text}"
        );
        assert!(text.contains("# refresh: UPDATE_EXPECT=1 make synth PRESET=sm2262-512g\n"));
        assert_eq!(Report::parse(&text).map(|r| r.command), Ok(rep.command));
    }

    #[test]
    fn today_is_a_plausible_date() {
        let d = today_utc();
        assert_eq!(d.len(), 10, "{d}");
        assert!(
            d.as_str() >= "2026-01-01" && &d[4..5] == "-" && &d[7..8] == "-",
            "{d}"
        );
    }

    #[test]
    fn collect_reads_stat_time_and_skip_files() {
        let tmp = tempfile::Builder::new()
            .prefix("ssdlab-collect-")
            .tempdir()
            .unwrap();
        let dir = tmp.path();
        let stat = "=== top ===\n Number of cells: 2\n LUT6 10\n FDRE 4\n";
        std::fs::write(dir.join("a.xcu.stat"), stat).unwrap();
        std::fs::write(dir.join("a.xcu.time"), "2.0 1.5 0.25\n").unwrap();
        std::fs::write(dir.join("a.ice40.skip"), "not run: too big\n").unwrap();
        let (rep, problems) = collect(
            &["a".to_string(), "b".to_string()],
            dir,
            "d".into(),
            "y".into(),
        )
        .unwrap();
        let a = rep.row("a", Family::Xcu).unwrap();
        assert_eq!(
            (a.counts.unwrap().lut, a.counts.unwrap().ff, a.cpu_s),
            (10, 4, Some(1.75))
        );
        assert_eq!(
            rep.row("a", Family::Ice40).unwrap().note,
            "not run: too big"
        );
        assert_eq!(
            problems,
            vec![
                "no xcu result for b (see b.xcu.log)",
                "no ice40 result for b (see b.ice40.log)"
            ]
        );
    }
}
