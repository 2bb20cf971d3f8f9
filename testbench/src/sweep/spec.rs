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
    let text = std::fs::read_to_string(path).map_err(|e| InputError::io(path, &e))?;
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
