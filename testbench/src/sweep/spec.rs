//! A sweep TOML (`ssdlab sweep --spec FILE`): the workload, the drive and the grid in one file.
//!
//! ```toml
//! job = "four.fio"            # a fio job file (relative to this file), or
//! # protocol = "ssdfans"      # a built-in protocol or protocol file
//! preset = "sm2262-512g"      # or config = "drive.toml" (relative to this file)
//! set = ["ftl.read_ahead_kib=256"]   # overrides at every point
//! zip = false                 # true pairs the lists instead of taking their product
//! [grid]
//! "geometry.channels" = [4, 8]
//! ```

use super::grid::Grid;
use crate::error::InputError;
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecFile {
    job: Option<String>,
    protocol: Option<String>,
    preset: Option<String>,
    config: Option<String>,
    #[serde(default)]
    set: Vec<String>,
    #[serde(default)]
    zip: bool,
    grid: toml::Table,
}

/// A parsed sweep TOML, paths made relative to the current directory.
#[derive(Debug)]
pub struct Spec {
    pub job: Option<String>,
    pub protocol: Option<String>,
    pub preset: Option<String>,
    pub config: Option<String>,
    pub set: Vec<String>,
    pub grid: Grid,
}

pub fn load(path: &str) -> Result<Spec, InputError> {
    // Regular files only, size-capped: a FIFO would block open(), /dev/zero never ends.
    let text = crate::input_file::read_text(Path::new(path), path)?;
    let f: SpecFile = toml::from_str(&text).map_err(|e| InputError::toml(path, &text, &e))?;
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    let rel = |p: Option<String>| p.map(|p| dir.join(p).display().to_string());
    if f.job.is_some() == f.protocol.is_some() {
        return Err(InputError::file(
            path,
            "give exactly one of `job` and `protocol`",
        ));
    }
    if f.preset.is_some() && f.config.is_some() {
        return Err(InputError::file(
            path,
            "give at most one of `preset` and `config`",
        ));
    }
    let grid = Grid::from_table(&f.grid, f.zip, path)?;
    // A protocol file path is relative to the spec; a built-in name stays a name.
    let protocol = f.protocol.map(|p| {
        let local = dir.join(&p);
        if local.exists() {
            local.display().to_string()
        } else {
            p
        }
    });
    Ok(Spec {
        job: rel(f.job),
        protocol,
        preset: f.preset,
        config: rel(f.config),
        set: f.set,
        grid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::DriveArgs;

    #[test]
    fn sensitivity_spec_plans_the_one_at_a_time_variants() {
        let s = load("../calibration/sensitivity.toml").unwrap();
        assert_eq!(s.protocol.as_deref(), Some("ssdfans-30s"));
        let drive = DriveArgs {
            preset: s.preset.clone(),
            config: None,
            set: s.set.clone(),
        };
        let p = crate::protocol::resolve("ssdfans-30s").unwrap();
        let w = super::super::point::Workload::Protocol(Box::new(p));
        let plan = super::super::plan(s.grid, w, &drive, 1, true, None).unwrap();
        // The preset, then x0.8 / x1.2 of 15 parameters.
        assert_eq!(plan.points.len(), 31);
        let base = crate::presets::load("sm2262-512g").unwrap();
        assert_eq!(plan.points[0].1.cfg, base, "point 0 is the preset itself");
        // Point 1: TLC tPROG x0.8 = 1080 us, nothing else moved.
        let mut want = base.clone();
        want.nand.tlc.t_prog_us = 1080.0;
        assert_eq!(plan.points[1].1.cfg, want);
        // Points 13/14: ONFI 600 MT/s keeps the 200 MHz clock (3 bytes per cycle); 1000 MT/s
        // needs 250 MHz (4 bytes per cycle).
        let (lo, hi) = (&plan.points[13].1.cfg.onfi, &plan.points[14].1.cfg.onfi);
        assert_eq!((lo.transfer_mts, lo.core_clock_mhz), (600, 200));
        assert_eq!((hi.transfer_mts, hi.core_clock_mhz), (1000, 250));
    }
}
