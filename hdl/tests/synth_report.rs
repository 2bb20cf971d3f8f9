//! The checked-in synthesis report (`hdl/synth-report.txt`) and the constraint files against the
//! current build. Fast tier (`make test`): the report parses, covers exactly the blocks that
//! `export-verilog` writes, its whole-datapath line contains its parts, and every port named in
//! `constraints/` exists in the generated Verilog of the block the file constrains. Slow tier
//! (`make test-slow`, `#[ignore]`): yosys on every block (`scripts/synth.sh`, about 20 min of
//! CPU) and the +5 % comparison; `UPDATE_EXPECT=1` rewrites the report instead.

#[path = "synth_report/constraints.rs"]
mod constraints;

use ssdlab_hdl::pnr::harness::SecondClockUse;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ssdlab_hdl::synth_report::collect::{
    checked_in_path, collect, exported_blocks, today_utc, update_requested, yosys_version,
};
use ssdlab_hdl::synth_report::{compare, is_top, Family, Report};

/// Removes this test's folders (`synth-report-*`) that earlier runs left in the target's tmp
/// folder more than an hour ago (a running test's folder is younger).
fn remove_old_runs(tmp: &Path) {
    let Ok(rd) = std::fs::read_dir(tmp) else {
        return;
    };
    for e in rd.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok());
        if e.file_name().to_string_lossy().starts_with("synth-report-")
            && old.is_some_and(|a| a.as_secs() > 3600)
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Verilog of every exported block, written once per test process by the `export-verilog` binary.
fn verilog_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        remove_old_runs(Path::new(env!("CARGO_TARGET_TMPDIR")));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("synth-report-verilog-{}", std::process::id()));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_export-verilog"))
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "export-verilog failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

fn checked_in() -> Report {
    let path = checked_in_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Report::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn report_names_its_command_date_and_yosys() {
    let r = checked_in();
    assert!(
        r.command.starts_with("make synth"),
        "command: {}",
        r.command
    );
    let d = r.date.as_bytes();
    assert!(
        d.len() == 10 && d[4] == b'-' && d[7] == b'-' && r.date.as_str() >= "2026-11-30",
        "date: {}",
        r.date
    );
    assert!(r.yosys.starts_with("Yosys "), "yosys: {}", r.yosys);
}

#[test]
fn report_covers_exactly_the_exported_blocks() {
    let r = checked_in();
    let exported = exported_blocks(verilog_dir()).unwrap();
    let mut in_report: Vec<String> = r.rows.iter().map(|row| row.block.clone()).collect();
    in_report.dedup();
    assert_eq!(
        in_report, exported,
        "refresh with UPDATE_EXPECT=1 make synth"
    );
    for b in &exported {
        let xcu = r
            .row(b, Family::Xcu)
            .unwrap_or_else(|| panic!("{b}: no xcu line"));
        assert!(xcu.counts.is_some(), "{b}: every block has xcu figures");
        let ice = r
            .row(b, Family::Ice40)
            .unwrap_or_else(|| panic!("{b}: no ice40 line"));
        // The page buffer's regions are true dual-port RAM with a clock per port, which iCE40
        // block RAM cannot hold (scripts/synth.sh says so on the line).
        let two_clock_ram = b == "page_buffer" && ice.note.contains("true dual-port RAM");
        assert!(
            ice.counts.is_some() || is_top(b) || two_clock_ram,
            "{b}: only the whole datapath and the page buffer may skip iCE40"
        );
        assert!(
            !ice.note.is_empty(),
            "{b}: the ice40 line says whether it fits or why it was skipped"
        );
    }
}

/// The blocks the datapath is made of (docs/hdl.md, hdl/src/top.rs), each exported on its own.
const TOP_PARTS: [&str; 4] = ["nvme_frontend", "nand_array", "map_cache", "page_buffer"];

#[test]
fn whole_datapath_line_contains_its_parts() {
    let r = checked_in();
    let Some(top) = r
        .rows
        .iter()
        .find(|row| is_top(&row.block) && row.family == Family::Xcu)
    else {
        panic!("no whole-datapath line (datapath.v) in the report");
    };
    let t = top.counts.unwrap();
    let parts: Vec<_> = TOP_PARTS
        .iter()
        .map(|p| r.row(p, Family::Xcu).and_then(|x| x.counts).unwrap())
        .collect();
    let (ff, bram): (u64, u64) = (
        parts.iter().map(|c| c.ff).sum(),
        parts.iter().map(|c| c.bram).sum(),
    );
    // Flattening may drop a register with no load, never add one: the whole has at least 95 %
    // of its parts' FFs, and at least their block RAM (a RAM is not optimized into logic).
    assert!(t.ff * 100 >= ff * 95, "top has {} FF, its parts {ff}", t.ff);
    assert!(
        t.bram >= bram,
        "top has {} RAMB18, its parts {bram}",
        t.bram
    );
}

#[test]
fn constraint_ports_exist_in_the_generated_verilog() {
    let files = constraints::constraint_files();
    assert!(
        files.len() >= 3,
        "constraints/ holds the iCE40 .pcf, the KCU105 .xdc and the ECP5 .lpf: {files:?}"
    );
    for f in &files {
        let c = constraints::read(f);
        let Some(block) = &c.block else { continue };
        // The place-and-route harness has the same four pins whatever block it wraps, and two
        // more for a second clock of its own: the datapath's on a two-clock preset, wrapped here
        // as one (the default export runs it on one clock).
        let of = if block == "pnr_harness" {
            "datapath"
        } else {
            block
        };
        let v = verilog_dir().join(format!("{of}.v"));
        let mut text = std::fs::read_to_string(&v)
            .unwrap_or_else(|e| panic!("{}: block {of}: {e}", f.display()));
        if block == "pnr_harness" {
            let (name, ports) = ssdlab_hdl::pnr::ports(&text).unwrap();
            text = format!(
                "\n{}",
                ssdlab_hdl::pnr::harness(&name, &ports, "clock", SecondClockUse::Own)
                    .unwrap()
                    .verilog
            );
        }
        let ports = constraints::verilog_ports(&text);
        assert!(!c.ports.is_empty(), "{}: names no port", f.display());
        for p in &c.ports {
            assert!(
                ports.contains(p),
                "{}: port `{p}` is not a port of {block}.v",
                f.display()
            );
        }
    }
}

#[test]
#[ignore = "slow tier: yosys on every block, ~20 min CPU (make test-slow)"]
fn current_build_matches_the_checked_in_report() {
    let vdir = verilog_dir();
    let sdir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("synth-report-out-{}", std::process::id()));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/synth.sh");
    let st = std::process::Command::new("bash")
        .arg(&script)
        .arg(vdir)
        .arg(&sdir)
        .env("SSDLAB_PNR_SEEDS", "")
        .status()
        .unwrap();
    let blocks = exported_blocks(vdir).unwrap();
    let (now, problems) = collect(&blocks, &sdir, today_utc(), yosys_version().unwrap()).unwrap();
    assert!(
        st.success() && problems.is_empty(),
        "synth.sh: {st}; {problems:?} (logs in {})",
        sdir.display()
    );
    if update_requested() {
        std::fs::write(checked_in_path(), now.render()).unwrap();
        return;
    }
    let report = checked_in();
    let findings = compare(&report, &now);
    for f in &findings {
        println!("{}", f.describe());
    }
    let failures: Vec<String> = findings
        .iter()
        .filter(|f| f.is_failure())
        .map(|f| f.describe())
        .collect();
    assert!(
        failures.is_empty(),
        "report {} vs this build ({}):\n{}",
        report.yosys,
        now.yosys,
        failures.join("\n")
    );
}

/// `make verilog` writes the ONFI PHY's io wrappers for the default drive's gearing (800 MT/s
/// on 200 MHz: 4 bytes per cycle, X2) into `io/`, one per family, each file its module.
#[test]
fn the_phy_io_wrappers_are_written_beside_the_blocks() {
    for stem in [
        "nand_phy_io_x2",
        "nand_phy_io_ecp5_x2",
        "nand_phy_io_xcu_x2",
    ] {
        let path = verilog_dir().join("io").join(format!("{stem}.v"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            text.contains(&format!("module ssdlab_{stem} (")),
            "{}: module ssdlab_{stem}",
            path.display()
        );
    }
    assert!(
        !verilog_dir().join("io/nand_phy_io.v").exists(),
        "only the preset's gearing"
    );
}

/// `testbench/cpp/raw_eval.cpp` (the last step of `make sim`) drives the exported datapath's
/// ports by name in C++ (`m->name = ...`), which no Rust compiler checks: every name it sets
/// must be a port of `datapath.v`.
#[test]
fn raw_eval_sets_only_ports_of_the_exported_datapath() {
    let cpp = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench/cpp/raw_eval.cpp");
    let src = std::fs::read_to_string(&cpp).unwrap();
    let text = std::fs::read_to_string(verilog_dir().join("datapath.v")).unwrap();
    let ports = constraints::verilog_ports(&text);
    let mut set = Vec::new();
    for part in src.split("m->").skip(1) {
        let name: String = part
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if part[name.len()..].trim_start().starts_with('=') {
            set.push(name);
        }
    }
    assert!(
        set.len() >= 8,
        "raw_eval.cpp sets its inputs with `m->port = `: {set:?}"
    );
    for p in &set {
        assert!(
            ports.contains(p),
            "{}: `m->{p}` is not a port of datapath.v",
            cpp.display()
        );
    }
}
