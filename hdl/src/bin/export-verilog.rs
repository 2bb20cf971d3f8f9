//! Writes the integrable Verilog of every HDL block (`ssdlab_hdl::export`, docs/hdl.md) into a
//! folder: `export-verilog [--preset NAME | --config FILE] [DIR]` (DIR defaults to out/verilog).
//!
//! Without `--preset`, the blocks are elaborated for the default drive (sm2262-512g) and the
//! whole datapath for the co-simulation geometry (`ssdlab_hdl::top::small_drive_config`), the
//! only one it elaborates for today. With `--preset NAME`, every block is elaborated for that
//! built-in preset; the blocks that elaborate are written, and each one that cannot is named on
//! stderr with the config field and the reason, and the exit status is 2 (never a silently
//! different geometry). `--config FILE` does the same for a complete drive config in TOML, such
//! as `ssdlab presets show NAME --set KEY=VALUE ...` prints (a what-if drive: `make verilog
//! CONFIG=FILE`); a file that does not parse or validate exits 2 naming it. Beside the blocks,
//! `DIR/io/` gets the ONFI PHY's io wrappers for its gearing (generic, ECP5, UltraScale).
use ssdlab_hdl::export::{blocks, Target};
use ssdlab_model::config::{builtin_preset, BUILTIN_PRESETS};
use ssdlab_model::DriveConfig;
use std::path::PathBuf;

fn fail(msg: String) -> ! {
    eprintln!("export-verilog: {msg}");
    std::process::exit(2)
}

/// Where the drive config comes from.
enum Source {
    /// The default drive, and the co-simulation geometry for the datapath.
    Default,
    Preset(String),
    /// A complete drive config in TOML.
    File(String),
}

/// `(source, dir)` from the command line.
fn parse_args() -> (Source, PathBuf) {
    let (mut source, mut dir) = (Source::Default, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |what: &str| {
            if !matches!(source, Source::Default) {
                fail("give one of --preset and --config".into());
            }
            args.next()
                .unwrap_or_else(|| fail(format!("{a} needs {what}")))
        };
        match a.as_str() {
            "--preset" => source = Source::Preset(value("a name")),
            "--config" => source = Source::File(value("a file")),
            _ if a.starts_with('-') => fail(format!(
                "unknown option `{a}` (usage: export-verilog [--preset NAME | --config FILE] [DIR])"
            )),
            _ if dir.is_none() => dir = Some(PathBuf::from(a)),
            _ => fail(format!("unexpected argument `{a}`")),
        }
    }
    (source, dir.unwrap_or_else(|| PathBuf::from("out/verilog")))
}

/// The same config for every block and the datapath, labelled `label`.
fn one_config(cfg: DriveConfig, label: String) -> Target {
    Target {
        cfg: cfg.clone(),
        label: label.clone(),
        datapath_cfg: cfg,
        datapath_label: label,
    }
}

/// The configs to elaborate for: the preset's or the file's, or the default drive's and the
/// co-simulation's.
fn target(source: &Source) -> Target {
    let name = match source {
        Source::Preset(name) => name,
        Source::File(path) => {
            let text = std::fs::read_to_string(path)
                .unwrap_or_else(|e| fail(format!("--config {path}: {e}")));
            // The error names the file.
            let cfg =
                DriveConfig::from_toml_str(&text, path).unwrap_or_else(|e| fail(e.to_string()));
            return one_config(cfg, format!("config file {path}"));
        }
        Source::Default => {
            let small =
                "the co-simulation geometry (ssdlab_hdl::top::small_drive_config: 8 channels \
                     x 4 ways x 1 die, 2 planes x (4096 + 256) B, 250 MHz, 1000 MT/s)";
            return Target {
                cfg: DriveConfig::default_drive(),
                label: "preset sm2262-512g (presets/sm2262-512g.toml, the default drive)".into(),
                datapath_cfg: ssdlab_hdl::top::small_drive_config(),
                datapath_label: small.into(),
            };
        }
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
    one_config(cfg, format!("preset {name} ({file})"))
}

fn main() {
    let (source, dir) = parse_args();
    let t = target(&source);
    let d = dir.display();
    let command = match &source {
        Source::Preset(p) => format!("make verilog PRESET={p} (export-verilog --preset {p} {d})"),
        Source::File(f) => format!("make verilog CONFIG={f} (export-verilog --config {f} {d})"),
        Source::Default => format!("make verilog (export-verilog {d})"),
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
    write_io_wrappers(&t, &dir);
    if refused > 0 {
        fail(format!("{refused} block(s) not written"));
    }
}

/// The ONFI PHY's io wrappers (`ssdlab_hdl::nand::phy::io`) for the PHY's gearing, into
/// `DIR/io/`: beside the blocks, not among them (vendor cells; `make lint`/`make synth` take
/// the blocks only). Nothing when the PHY does not elaborate (its refusal is reported above).
fn write_io_wrappers(t: &Target, dir: &std::path::Path) {
    let Ok(phy) = ssdlab_model::nand::phy::PhyTiming::new(&t.cfg.onfi) else {
        return;
    };
    let io = dir.join("io");
    if let Err(e) = std::fs::create_dir_all(&io) {
        fail(format!("cannot create {}: {e}", io.display()));
    }
    for (stem, v) in ssdlab_hdl::nand::phy::io::io_files(phy.bytes_per_cycle) {
        let path = io.join(format!("{stem}.v"));
        if let Err(e) = std::fs::write(&path, v) {
            fail(format!("cannot write {}: {e}", path.display()));
        }
        println!("wrote {}", path.display());
    }
}
