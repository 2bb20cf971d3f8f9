//! `synth-report <verilog dir> <synth dir> [--preset NAME]`: the resource table of a
//! `scripts/synth.sh` run (written to `<synth dir>/resources.txt`), the whole-datapath TOTAL, and
//! the comparison with the checked-in `hdl/synth-report.txt` — `hdl/synth-report.NAME.txt` for
//! a run of `make synth PRESET=NAME` — (a line fails above +5 % LUT/FF/BRAM, or when a block is
//! on one side only). `UPDATE_EXPECT=1` rewrites the checked-in report instead of failing.
//! Exit 0: no failure; 1: a regression or a missing line; 2: bad input (unreadable folder,
//! unparseable stat or report).
use std::path::PathBuf;
use std::process::exit;

use ssdlab_hdl::synth_report::collect::{
    checked_in_path_for, collect, command_for, exported_blocks, take_preset_arg, today_utc,
    update_requested, yosys_version,
};
use ssdlab_hdl::synth_report::{compare, Report};

fn bad(msg: String) -> ! {
    eprintln!("synth-report: {msg}");
    exit(2)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let preset = take_preset_arg(&mut args).unwrap_or_else(|e| bad(e));
    if args.len() != 2 {
        bad("usage: synth-report <verilog dir> <synth dir> [--preset NAME]".to_string());
    }
    let (vdir, sdir) = (PathBuf::from(&args[0]), PathBuf::from(&args[1]));
    let blocks = exported_blocks(&vdir).unwrap_or_else(|e| bad(e));
    if blocks.is_empty() {
        bad(format!(
            "no Verilog in {} (run make verilog)",
            vdir.display()
        ));
    }
    let yosys = yosys_version().unwrap_or_else(|e| bad(e));
    let (mut now, problems) =
        collect(&blocks, &sdir, today_utc(), yosys).unwrap_or_else(|e| bad(e));
    now.command = command_for(preset.as_deref());
    let table = now.render();
    let resources = sdir.join("resources.txt");
    if let Err(e) = std::fs::write(&resources, &table) {
        bad(format!("cannot write {}: {e}", resources.display()));
    }
    // The rows under their column titles, then the TOTAL lines (the header is in the file).
    for l in table
        .lines()
        .filter(|l| !l.starts_with('#') || l.starts_with("# block"))
    {
        println!("{l}");
    }
    for l in now.total_lines() {
        println!("{l}");
    }
    for p in &problems {
        println!("synth-report: {p}");
    }
    let path = checked_in_path_for(preset.as_deref());
    if update_requested() {
        if !problems.is_empty() {
            bad("not refreshing the report from an incomplete run".to_string());
        }
        // The place-and-route section (`make pnr`, default report only) is kept as it was.
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let text = ssdlab_hdl::pnr::report::with_section(
            &table,
            ssdlab_hdl::pnr::report::section_of(&old),
        );
        if let Err(e) = std::fs::write(&path, &text) {
            bad(format!("cannot write {}: {e}", path.display()));
        }
        println!("synth-report: UPDATE_EXPECT=1: wrote {}", path.display());
        return;
    }
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| bad(format!("{}: {e}", path.display())));
    let report = Report::parse(&text).unwrap_or_else(|e| bad(format!("{}: {e}", path.display())));
    let findings = compare(&report, &now);
    let failures = findings.iter().filter(|f| f.is_failure()).count();
    println!(
        "comparison with {} ({}, {}): {} failure(s), {} note(s)",
        path.display(),
        report.date,
        report.yosys,
        failures,
        findings.len() - failures
    );
    if report.yosys != now.yosys {
        println!(
            "note: the report was made with {}, this run with {}",
            report.yosys, now.yosys
        );
    }
    for f in &findings {
        println!("  {}", f.describe());
    }
    if failures > 0 {
        let again = preset.map_or(String::new(), |p| format!(" PRESET={p}"));
        println!("a size regression or a missing block: fix it, or refresh with UPDATE_EXPECT=1 make synth{again}");
        exit(1);
    }
}
