//! Writes the integrable Verilog of every HDL block (`ssdlab_hdl::export`, docs/hdl.md) into a
//! folder: `export-verilog [--preset NAME] [DIR]` (DIR defaults to out/verilog).
//!
//! Without `--preset`, the blocks are elaborated for the default drive (sm2262-512g) and the
//! whole datapath for the co-simulation geometry (`ssdlab_hdl::top::small_drive_config`), the
//! only one it elaborates for today. With `--preset NAME`, every block is elaborated for that
//! built-in preset; the blocks that elaborate are written, and each one that cannot is named on
//! stderr with the config field and the reason, and the exit status is 2 (never a silently
//! different geometry).
use ssdlab_hdl::export::{blocks, Target};
use ssdlab_model::config::{builtin_preset, BUILTIN_PRESETS};
use ssdlab_model::DriveConfig;
use std::path::PathBuf;

fn fail(msg: String) -> ! {
    eprintln!("export-verilog: {msg}");
    std::process::exit(2)
}

/// `(preset, dir)` from the command line.
fn parse_args() -> (Option<String>, PathBuf) {
    let (mut preset, mut dir) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--preset" => {
                preset = Some(
                    args.next()
                        .unwrap_or_else(|| fail("--preset needs a name".into())),
                )
            }
            _ if a.starts_with('-') => fail(format!(
                "unknown option `{a}` (usage: export-verilog [--preset NAME] [DIR])"
            )),
            _ if dir.is_none() => dir = Some(PathBuf::from(a)),
            _ => fail(format!("unexpected argument `{a}`")),
        }
    }
    (preset, dir.unwrap_or_else(|| PathBuf::from("out/verilog")))
}

/// The configs to elaborate for: the preset's, or the default drive's and the co-simulation's.
fn target(preset: Option<&str>) -> Target {
    let Some(name) = preset else {
        let small = "the co-simulation geometry (ssdlab_hdl::top::small_drive_config: 8 channels \
                     x 4 ways x 1 die, 2 planes x (4096 + 256) B, 250 MHz, 1000 MT/s)";
        return Target {
            cfg: DriveConfig::default_drive(),
            label: "preset sm2262-512g (presets/sm2262-512g.toml, the default drive)".into(),
            datapath_cfg: ssdlab_hdl::top::small_drive_config(),
            datapath_label: small.into(),
        };
    };
    let Some((file, toml)) = builtin_preset(name) else {
        let known: Vec<&str> = BUILTIN_PRESETS.iter().map(|p| p.0).collect();
        fail(format!(
            "--preset: unknown preset `{name}` (known: {})",
            known.join(", ")
        ))
    };
    let cfg = DriveConfig::from_toml_str(toml, file)
        .unwrap_or_else(|e| fail(format!("--preset {name}: {e}")));
    let label = format!("preset {name} ({file})");
    Target {
        cfg: cfg.clone(),
        label: label.clone(),
        datapath_cfg: cfg,
        datapath_label: label,
    }
}

fn main() {
    let (preset, dir) = parse_args();
    let t = target(preset.as_deref());
    let command = match &preset {
        Some(p) => format!(
            "make verilog PRESET={p} (export-verilog --preset {p} {})",
            dir.display()
        ),
        None => format!("make verilog (export-verilog {})", dir.display()),
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        fail(format!("cannot create {}: {e}", dir.display()));
    }
    let mut refused = 0;
    for b in blocks(&t, &command) {
        match b.verilog {
            Ok(v) => {
                let path = dir.join(format!("{}.v", b.stem));
                if let Err(e) = std::fs::write(&path, v) {
                    fail(format!("cannot write {}: {e}", path.display()));
                }
                println!("wrote {}", path.display());
            }
            Err(e) => {
                refused += 1;
                // One line per refused field (`top::checked_timing`).
                let why: String = e.lines().map(|l| format!("\n  {l}")).collect();
                eprintln!(
                    "export-verilog: block {} does not elaborate for {}:{why}",
                    b.stem, t.label
                );
            }
        }
    }
    if refused > 0 {
        fail(format!("{refused} block(s) not written"));
    }
}
