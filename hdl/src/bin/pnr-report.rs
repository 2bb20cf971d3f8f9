//! `pnr-report [--preset NAME] <pnr dir> <block>...`: the `pnr` section of
//! `hdl/synth-report.txt` (with `--preset`, of `hdl/synth-report.NAME.txt`: `make pnr
//! PRESET=NAME`) from the files `scripts/pnr.sh` left in `<pnr dir>`
//! (`ssdlab_hdl::pnr::report`), printed and written to `<pnr dir>/pnr.txt`; with
//! `UPDATE_EXPECT=1` it also replaces the section of the checked-in report. Exit 0: written; 2:
//! bad input (a missing or unreadable file, a report it cannot parse, an unknown preset).
use std::path::PathBuf;
use std::process::exit;

use ssdlab_hdl::pnr::report::{section, with_section};
use ssdlab_hdl::synth_report::collect::{checked_in_path_for, take_preset_arg, update_requested};

fn bad(msg: String) -> ! {
    eprintln!("pnr-report: {msg}");
    exit(2)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let preset = take_preset_arg(&mut args).unwrap_or_else(|e| bad(e));
    if args.len() < 2 {
        bad("usage: pnr-report [--preset NAME] <pnr dir> <block>...".to_string());
    }
    let dir = PathBuf::from(&args[0]);
    let blocks: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    let sec = section(&dir, &blocks, preset.as_deref()).unwrap_or_else(|e| bad(e));
    print!("{sec}");
    let out = dir.join("pnr.txt");
    std::fs::write(&out, &sec).unwrap_or_else(|e| bad(format!("{}: {e}", out.display())));
    if update_requested() {
        let path = checked_in_path_for(preset.as_deref());
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| bad(format!("{}: {e}", path.display())));
        std::fs::write(&path, with_section(&text, &sec))
            .unwrap_or_else(|e| bad(format!("{}: {e}", path.display())));
        println!(
            "pnr-report: UPDATE_EXPECT=1: wrote the pnr section of {}",
            path.display()
        );
    }
}
