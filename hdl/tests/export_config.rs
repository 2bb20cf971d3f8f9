//! `export-verilog --config FILE` (`make verilog CONFIG=FILE`): every block elaborated for a drive
//! config the user wrote, and a file that does not parse refused with exit 2 naming it.

use std::process::{Command, Output};
use tempfile::TempDir;

fn export(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_export-verilog"))
        .args(args)
        .output()
        .expect("export-verilog runs")
}

/// A scratch directory, removed when the returned guard drops.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ssdlab-export-config-{name}-"))
        .tempdir()
        .unwrap()
}

/// The default preset with 4 channels on one 250 MHz clock (1000 MT/s): the datapath has
/// channels 0-3 and no channel 4, and its header names the file.
#[test]
fn a_what_if_config_file_elaborates_its_geometry() {
    let (_, text) = ssdlab_model::config::builtin_preset("sm2262-512g").unwrap();
    let mut edited = String::new();
    for line in text.lines() {
        let l = if line.starts_with("channels = 8 ") {
            "channels = 4".to_string()
        } else if line.starts_with("core_clock_mhz = 200 ") {
            "core_clock_mhz = 250".to_string()
        } else if line.starts_with("transfer_mts = 800 ") {
            "transfer_mts = 1000".to_string()
        } else {
            line.to_string()
        };
        edited.push_str(&l);
        edited.push('\n');
    }
    assert_ne!(edited, text, "the preset's lines were found");
    let tmp = scratch("ok");
    let dir = tmp.path();
    let file = dir.join("four-channels.toml");
    std::fs::write(&file, edited).unwrap();
    let out_dir = dir.join("v");
    let o = export(&[
        "--config",
        file.to_str().unwrap(),
        out_dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = std::fs::read_to_string(out_dir.join("datapath.v")).unwrap();
    assert!(v.contains(&format!(
        "// Elaborated for: config file {}",
        file.display()
    )));
    assert!(
        v.contains("phy_3_ce") && !v.contains("phy_4_ce"),
        "4 channels"
    );
    // Two ways per channel; the CE vector is 8 bits whatever the way count.
    assert!(
        v.contains("output wire  [7:0] phy_0_ce;"),
        "8-bit CE vector"
    );
}

#[test]
fn a_bad_config_file_exits_2_naming_it() {
    let tmp = scratch("bad");
    let dir = tmp.path();
    let file = dir.join("bad.toml");
    std::fs::write(&file, "[geometry]\nchannels = \"eight\"\n").unwrap();
    let o = export(&[
        "--config",
        file.to_str().unwrap(),
        dir.join("v").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains(file.to_str().unwrap()), "{e}");
    assert!(o.stdout.is_empty());
    let o = export(&["--config", "/nonexistent/drive.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/drive.toml"));
}
