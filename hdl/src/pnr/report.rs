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

/// One clock's figures in one placement seed.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockRun {
    /// The clock's net name (`clock`, `nand_clock`).
    pub clock: String,
    /// Its achieved Fmax, MHz.
    pub fmax_mhz: f64,
    /// Start and end register of its worst register-to-register path, when it has one.
    pub critical: Option<(String, String)>,
}

/// One placement seed's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedRun {
    pub seed: u32,
    /// Per clock, in the report's order.
    pub clocks: Vec<ClockRun>,
    pub luts: u64,
    pub ffs: u64,
    pub ebr: u64,
}

impl SeedRun {
    /// The figures of clock `name`.
    pub fn clock(&self, name: &str) -> Option<&ClockRun> {
        self.clocks.iter().find(|c| c.clock == name)
    }
}

/// Our name of a nextpnr clock net: `$glbnet$clock` -> `clock`.
fn clock_name(net: &str) -> String {
    let n = net.strip_prefix("$glbnet$").unwrap_or(net);
    n.split('$').next().unwrap_or(n).to_string()
}

/// Figures of nextpnr-ecp5's JSON report (`--report`).
pub fn parse_seed(seed: u32, json: &str) -> Result<SeedRun, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let fmax = v["fmax"].as_object().ok_or("no `fmax` object")?;
    let paths = v["critical_paths"]
        .as_array()
        .ok_or("no `critical_paths` array")?;
    let cell = |e: Option<&Value>, end: &str| {
        e.and_then(|s| s[end]["cell"].as_str())
            .map(register_name)
            .ok_or_else(|| "critical path without cells".to_string())
    };
    // The worst path within one clock's domain: from and to `posedge <net>`.
    let critical = |net: &str| -> Result<Option<(String, String)>, String> {
        let edge = format!("posedge {net}");
        let Some(path) = paths
            .iter()
            .find(|p| p["from"].as_str() == Some(&edge) && p["to"].as_str() == Some(&edge))
            .and_then(|p| p["path"].as_array())
        else {
            return Ok(None);
        };
        Ok(Some((
            cell(path.first(), "from")?,
            cell(path.last(), "to")?,
        )))
    };
    let mut clocks = Vec::new();
    for (net, c) in fmax {
        let Some(f) = c["achieved"].as_f64() else {
            continue;
        };
        clocks.push(ClockRun {
            clock: clock_name(net),
            fmax_mhz: f,
            critical: critical(net)?,
        });
    }
    if clocks.is_empty() {
        return Err("no clock in `fmax`".to_string());
    }
    let used = |k: &str| v["utilization"][k]["used"].as_u64().unwrap_or(0);
    Ok(SeedRun {
        seed,
        clocks,
        luts: used("TRELLIS_COMB"),
        ffs: used("TRELLIS_FF"),
        ebr: used("DP16KD"),
    })
}

/// The register a packed cell name stands for: `dut.cq.wsq.q_TRELLIS_FF_Q_3` -> `cq.wsq.q`.
fn register_name(cell: &str) -> String {
    let c = cell.strip_prefix("dut.").unwrap_or(cell);
    c.split("_TRELLIS").next().unwrap_or(c).to_string()
}

/// The clock targets of a `<block>.target` file: one `<clock> <MHz>` line per clock, `clock`
/// first.
fn targets(text: &str) -> Result<Vec<(String, u32)>, String> {
    let t: Vec<(String, u32)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            match (w.next(), w.next().and_then(|m| m.parse().ok()), w.next()) {
                (Some(c), Some(m), None) => Ok((c.to_string(), m)),
                _ => Err(format!("bad target line `{l}` (want `<clock> <MHz>`)")),
            }
        })
        .collect::<Result<_, _>>()?;
    if t.is_empty() {
        return Err("no target line".to_string());
    }
    Ok(t)
}

/// The seed reports `<block>.seed<N>.json` in `dir`, by seed.
fn seed_runs(dir: &Path, block: &str) -> Result<Vec<SeedRun>, String> {
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
        let text = std::fs::read_to_string(dir.join(&*name)).map_err(|e| format!("{name}: {e}"))?;
        runs.push(parse_seed(seed, &text).map_err(|e| format!("{name}: {e}"))?);
    }
    if runs.is_empty() {
        return Err(format!("{block}: no seed report"));
    }
    runs.sort_by_key(|r| r.seed);
    Ok(runs)
}

/// One block's line(s) of the section: per clock its target and Fmax over the seeds, then the
/// resources and the first clock's critical path. A block with a second clock names each clock
/// at the end of its line, the second with its own critical path.
fn block_lines(dir: &Path, block: &str) -> Result<Vec<String>, String> {
    let read =
        |name: String| std::fs::read_to_string(dir.join(&name)).map(|s| s.trim().to_string());
    if let Ok(why) = read(format!("{block}.fail")) {
        return Ok(vec![format!("# pnr: {block:<14} no figures: {why}")]);
    }
    let target = read(format!("{block}.target")).map_err(|e| format!("{block}.target: {e}"))?;
    let targets = targets(&target).map_err(|e| format!("{block}.target: {e}"))?;
    let bits = read(format!("{block}.harness")).map_err(|e| format!("{block}.harness: {e}"))?;
    let runs = seed_runs(dir, block)?;
    let first = &runs[0];
    let seeds: Vec<String> = runs.iter().map(|r| r.seed.to_string()).collect();
    let path = |c: &ClockRun| {
        c.critical
            .as_ref()
            .map_or("none".to_string(), |(a, b)| format!("{a} -> {b}"))
    };
    let mut lines = Vec::new();
    for (k, (clock, mhz)) in targets.iter().enumerate() {
        let mut f = runs
            .iter()
            .map(|r| {
                r.clock(clock)
                    .map(|c| c.fmax_mhz)
                    .ok_or_else(|| format!("{block}.seed{}.json: no clock `{clock}`", r.seed))
            })
            .collect::<Result<Vec<f64>, String>>()?;
        f.sort_by(f64::total_cmp);
        let name = if k == 0 { block } else { "" };
        let mut l = format!(
            "# pnr: {name:<14} {mhz:>4} MHz  Fmax {:6.1} / {:6.1} / {:6.1} MHz (min / median / max, seeds {})",
            f[0],
            f[f.len() / 2],
            f[f.len() - 1],
            seeds.join(" ")
        );
        if targets.len() > 1 {
            l += &format!(": `{clock}`");
        }
        if k > 0 {
            l += &format!(
                ", critical path (seed {}): {}",
                first.seed,
                first.clock(clock).map_or("none".to_string(), path)
            );
        }
        lines.push(l);
    }
    let main = first
        .clock(&targets[0].0)
        .ok_or_else(|| format!("{block}: no clock `{}`", targets[0].0))?;
    lines.push(format!(
        "# pnr: {:<14} LUT4 {} FF {} EBR {} (the harness's {} register bits included); critical path (seed {}): {}",
        "",
        first.luts,
        first.ffs,
        first.ebr,
        bits.split_whitespace().filter_map(|b| b.parse::<u64>().ok()).sum::<u64>(),
        first.seed,
        path(main)
    ));
    Ok(lines)
}

/// The section for `blocks`, from the files in `dir` (module doc); `preset`: the blocks were
/// elaborated for that built-in preset (`make pnr PRESET=NAME`).
pub fn section(dir: &Path, blocks: &[&str], preset: Option<&str>) -> Result<String, String> {
    let tools = std::fs::read_to_string(dir.join("tools.txt"))
        .map_err(|e| format!("{}: {e}", dir.join("tools.txt").display()))?;
    let make = preset.map_or("make pnr".to_string(), |p| format!("make pnr PRESET={p}"));
    let mut s = format!(
        "# pnr: place and route of each block in its four-pin harness (hdl/src/pnr/harness.rs)\n\
         # pnr: command: {make} (scripts/pnr.sh out/verilog out/pnr, then pnr-report);\n\
         # pnr:   refresh: UPDATE_EXPECT=1 {make}; seeds: SSDLAB_PNR_SEEDS\n",
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
