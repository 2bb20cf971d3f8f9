//! The `pnr` section of `hdl/synth-report.txt`: per block, the target clock, the Fmax that
//! nextpnr-ecp5 reached for each placement seed, the resources of the placed design (the
//! harness's own register bits included, and stated) and the critical path's start and end
//! registers, read from the files `scripts/pnr.sh` leaves in its output folder:
//!
//! - `<block>.target`: the clock target in MHz (the block's `// Clock:` header line);
//! - `<block>.harness`: the harness's input and output register bits (`pnr-harness` output);
//! - `<block>.seed<N>.json`: nextpnr-ecp5's `--report` of placement seed N;
//! - `<block>.fail`: why a block has no figures (yosys or nextpnr failed; the reason line);
//! - `tools.txt`: the device line and tool versions.
//!
//! Every line of the section starts with `# pnr`, so the synthesis report's parser skips it,
//! and `make synth`'s refresh keeps it ([`section_of`]).

use serde_json::Value;
use std::path::Path;

/// One placement seed's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedRun {
    pub seed: u32,
    /// The worst clock's achieved Fmax, MHz.
    pub fmax_mhz: f64,
    pub luts: u64,
    pub ffs: u64,
    pub ebr: u64,
    /// Start and end register of the worst register-to-register path.
    pub critical: (String, String),
}

/// Figures of nextpnr-ecp5's JSON report (`--report`).
pub fn parse_seed(seed: u32, json: &str) -> Result<SeedRun, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let fmax = v["fmax"]
        .as_object()
        .ok_or("no `fmax` object")?
        .values()
        .filter_map(|c| c["achieved"].as_f64())
        .fold(f64::INFINITY, f64::min);
    if !fmax.is_finite() {
        return Err("no clock in `fmax`".to_string());
    }
    let used = |k: &str| v["utilization"][k]["used"].as_u64().unwrap_or(0);
    let path = v["critical_paths"]
        .as_array()
        .ok_or("no `critical_paths` array")?
        .iter()
        .find(|p| {
            let clocked = |e: &Value| e.as_str().is_some_and(|s| s.starts_with("posedge"));
            clocked(&p["from"]) && clocked(&p["to"])
        })
        .and_then(|p| p["path"].as_array())
        .ok_or("no register-to-register critical path")?;
    let cell = |e: Option<&Value>, end: &str| {
        e.and_then(|s| s[end]["cell"].as_str())
            .map(register_name)
            .ok_or_else(|| "critical path without cells".to_string())
    };
    Ok(SeedRun {
        seed,
        fmax_mhz: fmax,
        luts: used("TRELLIS_COMB"),
        ffs: used("TRELLIS_FF"),
        ebr: used("DP16KD"),
        critical: (cell(path.first(), "from")?, cell(path.last(), "to")?),
    })
}

/// The register a packed cell name stands for: `dut.cq.wsq.q_TRELLIS_FF_Q_3` -> `cq.wsq.q`.
fn register_name(cell: &str) -> String {
    let c = cell.strip_prefix("dut.").unwrap_or(cell);
    c.split("_TRELLIS").next().unwrap_or(c).to_string()
}

/// One block's line(s) of the section.
fn block_lines(dir: &Path, block: &str) -> Result<Vec<String>, String> {
    let read =
        |name: String| std::fs::read_to_string(dir.join(&name)).map(|s| s.trim().to_string());
    if let Ok(why) = read(format!("{block}.fail")) {
        return Ok(vec![format!("# pnr: {block:<14} no figures: {why}")]);
    }
    let target = read(format!("{block}.target")).map_err(|e| format!("{block}.target: {e}"))?;
    let bits = read(format!("{block}.harness")).map_err(|e| format!("{block}.harness: {e}"))?;
    let mut runs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let name = entry.map_err(|e| e.to_string())?.file_name();
        let name = name.to_string_lossy();
        let Some(seed) = name
            .strip_prefix(&format!("{block}.seed"))
            .and_then(|s| s.strip_suffix(".json"))
        else {
            continue;
        };
        let seed: u32 = seed.parse().map_err(|_| format!("{name}: bad seed"))?;
        let text = read(name.to_string()).map_err(|e| format!("{name}: {e}"))?;
        runs.push(parse_seed(seed, &text).map_err(|e| format!("{name}: {e}"))?);
    }
    if runs.is_empty() {
        return Err(format!("{block}: no seed report"));
    }
    runs.sort_by_key(|r| r.seed);
    let mut f: Vec<f64> = runs.iter().map(|r| r.fmax_mhz).collect();
    f.sort_by(f64::total_cmp);
    let first = &runs[0];
    let seeds: Vec<String> = runs.iter().map(|r| r.seed.to_string()).collect();
    Ok(vec![
        format!(
            "# pnr: {block:<14} {target:>4} MHz  Fmax {:6.1} / {:6.1} / {:6.1} MHz (min / median / max, seeds {})",
            f[0],
            f[f.len() / 2],
            f[f.len() - 1],
            seeds.join(" ")
        ),
        format!(
            "# pnr: {:<14} LUT4 {} FF {} EBR {} (the harness's {} register bits included); critical path (seed {}): {} -> {}",
            "",
            first.luts,
            first.ffs,
            first.ebr,
            bits.split_whitespace().filter_map(|b| b.parse::<u64>().ok()).sum::<u64>(),
            first.seed,
            first.critical.0,
            first.critical.1
        ),
    ])
}

/// The section for `blocks`, from the files in `dir` (module doc).
pub fn section(dir: &Path, blocks: &[&str]) -> Result<String, String> {
    let tools = std::fs::read_to_string(dir.join("tools.txt"))
        .map_err(|e| format!("{}: {e}", dir.join("tools.txt").display()))?;
    let mut s = String::from(
        "# pnr: place and route of each block in its four-pin harness (hdl/src/pnr/harness.rs)\n\
         # pnr: command: make pnr (scripts/pnr.sh out/verilog out/pnr, then pnr-report);\n\
         # pnr:   refresh: UPDATE_EXPECT=1 make pnr; seeds: SSDLAB_PNR_SEEDS\n",
    );
    for l in tools.lines().filter(|l| !l.trim().is_empty()) {
        s += &format!("# pnr: {}\n", l.trim());
    }
    for b in blocks {
        for l in block_lines(dir, b)? {
            s += &l;
            s.push('\n');
        }
    }
    Ok(s)
}

/// The `pnr` section of a report's text: from its first `# pnr` line to the end ("" if none).
pub fn section_of(text: &str) -> &str {
    match text.find("\n# pnr") {
        Some(i) => &text[i + 1..],
        None if text.starts_with("# pnr") => text,
        None => "",
    }
}

/// `text` with its `pnr` section replaced by `section` (appended when it has none).
pub fn with_section(text: &str, section: &str) -> String {
    let keep = &text[..text.len() - section_of(text).len()];
    let mut s = keep.to_string();
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s + section
}

#[cfg(test)]
mod tests;
