//! Resolving a drive config from what the user gave: a preset or a file (which may name a
//! `base` preset or file and give only the keys it changes), then `--set KEY=VALUE` overrides,
//! then the derived keys (`derive.rs`). Overrides work on `toml::Value` and the result is
//! deserialized into the typed `DriveConfig` (`deny_unknown_fields`) and validated, so the key
//! list is always the config types' own. The resolved config's hash and one-line summary are
//! the provenance every output carries.

pub mod derive;
pub mod keys;
pub mod show;

use crate::error::InputError;
use crate::presets;
use serde::Deserialize;
use ssdlab_model::DriveConfig;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Value;

/// Where the keys of a resolved config were given, for `presets show`.
pub const MARK_SET: &str = "set by --set";

/// A config ready to run, with where its keys came from.
#[derive(Clone, Debug)]
pub struct ResolvedDrive {
    /// The preset name or file path the user named (JSON `ssdlab.preset`).
    pub label: String,
    pub cfg: DriveConfig,
    /// Per dotted key given above the root preset/file: "set by --set", "from FILE", "derived
    /// from ...".
    pub marks: BTreeMap<String, String>,
    /// The text of the chain's root (the preset or complete file the others build on), whose
    /// comments `presets show` keeps for keys nobody changed.
    pub root_text: String,
}

/// A chain of config files resolved to one table.
struct Loaded {
    value: Value,
    marks: BTreeMap<String, String>,
    root_text: String,
}

const MAX_BASE_DEPTH: usize = 8;

fn load_preset(name: &str) -> Result<Loaded, InputError> {
    let p = presets::find(name).ok_or_else(|| presets::unknown(name))?;
    let cfg = presets::load(name)?;
    Ok(Loaded {
        value: Value::try_from(&cfg).expect("configs serialize"),
        marks: BTreeMap::new(),
        root_text: p.toml.to_string(),
    })
}

fn load_file(path: &str, depth: usize) -> Result<Loaded, InputError> {
    // Regular files only, size-capped: a FIFO would block open(), /dev/zero never ends.
    let text = crate::input_file::read_text(Path::new(path), path)?;
    let mut table: Value = toml::from_str(&text).map_err(|e| {
        let message = e.to_string();
        InputError::config(
            path,
            ssdlab_model::ConfigError::Parse {
                origin: path.to_string(),
                message,
            },
        )
    })?;
    let base = table.as_table_mut().and_then(|t| t.remove("base"));
    let Some(base) = base else {
        let cfg = DriveConfig::from_toml_str(&text, path).map_err(|e| {
            let e = InputError::config(path, e);
            if e.to_string().contains("missing field") {
                InputError::file(
                    path,
                    format!(
                        "{e} (a partial config starts with base = \"{}\")",
                        presets::DEFAULT_PRESET
                    ),
                )
            } else {
                e
            }
        })?;
        return Ok(Loaded {
            value: Value::try_from(&cfg).expect("configs serialize"),
            marks: BTreeMap::new(),
            root_text: text,
        });
    };
    let Value::String(base) = base else {
        return Err(InputError::file(
            path,
            "`base` must be a preset name or a file path",
        ));
    };
    if depth >= MAX_BASE_DEPTH {
        return Err(InputError::file(
            path,
            format!("`base` chain deeper than {MAX_BASE_DEPTH} files (a cycle?)"),
        ));
    }
    let mut loaded = if presets::find(&base).is_some() {
        load_preset(&base)?
    } else {
        let dir = Path::new(path).parent().unwrap_or(Path::new("."));
        let p = dir.join(&base);
        if !p.exists() {
            return Err(InputError::file(
                path,
                format!(
                    "base `{base}` is neither a preset ({}) nor a file",
                    presets::names().join(", ")
                ),
            ));
        }
        load_file(&p.display().to_string(), depth + 1)?
    };
    let schema = keys::schema_leaves();
    for (key, v) in keys::leaves_of(&table) {
        let like = schema
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, d)| d)
            .ok_or_else(|| keys::unknown_key(path, &key, &schema))?;
        let v = keys::check_type(&key, &v, like, path)?;
        keys::set_dotted(&mut loaded.value, &key, v);
        loaded.marks.insert(key, format!("from {path}"));
    }
    Ok(loaded)
}

/// Applies `--set KEY=VALUE` overrides to a table.
pub fn apply_sets(
    value: &mut Value,
    sets: &[String],
    marks: &mut BTreeMap<String, String>,
) -> Result<(), InputError> {
    let schema = keys::schema_leaves();
    for s in sets {
        let (key, text) = keys::split_assignment(s)?;
        let like = schema
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, d)| d)
            .ok_or_else(|| keys::unknown_key("--set", key, &schema))?;
        let v = keys::parse_as(key, text, like, "--set")?;
        keys::set_dotted(value, key, v);
        marks.insert(key.to_string(), MARK_SET.to_string());
    }
    Ok(())
}

/// Resolves `--preset` / `--config` and `--set` into a validated config.
pub fn resolve(
    preset: Option<&str>,
    config: Option<&str>,
    sets: &[String],
) -> Result<ResolvedDrive, InputError> {
    let (label, mut loaded) = match (preset, config) {
        (_, Some(path)) => (path.to_string(), load_file(path, 0)?),
        (Some(name), None) => (name.to_string(), load_preset(name)?),
        (None, None) => (
            presets::DEFAULT_PRESET.to_string(),
            load_preset(presets::DEFAULT_PRESET)?,
        ),
    };
    apply_sets(&mut loaded.value, sets, &mut loaded.marks)?;
    finish(label, loaded.value, loaded.marks, loaded.root_text)
}

/// Derives, deserializes and validates a merged table.
fn finish(
    label: String,
    mut value: Value,
    mut marks: BTreeMap<String, String>,
    root_text: String,
) -> Result<ResolvedDrive, InputError> {
    let origin = if marks.values().any(|m| m == MARK_SET) {
        "--set"
    } else {
        label.as_str()
    };
    let given = marks.clone();
    derive::derive(&mut value, &given, &mut marks, origin)?;
    let cfg =
        DriveConfig::deserialize(value).map_err(|e| InputError::file(origin, e.to_string()))?;
    cfg.validate().map_err(|e| InputError::config(origin, e))?;
    Ok(ResolvedDrive {
        label,
        cfg,
        marks,
        root_text,
    })
}

/// FNV-1a 64 over the resolved config's canonical TOML (the typed config serialized in schema
/// order): equal configs have equal hashes whatever files and overrides produced them.
pub fn config_hash(cfg: &DriveConfig) -> String {
    let text = toml::to_string(cfg).expect("configs serialize");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// "SMI SM2262 512 GB (...): 514 GB, 8 ch x 2 ways x 1 dies x 2 planes, TLC, ONFI 800 MT/s,
/// config <16 hex digits of config_hash>".
pub fn summary_line(cfg: &DriveConfig) -> String {
    let g = &cfg.geometry;
    let exported = cfg
        .ftl
        .capacity_plan(g)
        .map_or(0, |p| p.logical_units.saturating_mul(4096));
    let cell = match g.bits_per_cell {
        1 => "SLC".to_string(),
        2 => "MLC".to_string(),
        3 => "TLC".to_string(),
        4 => "QLC".to_string(),
        b => format!("{b} bits/cell"),
    };
    let slc = if cfg.ftl.slc_cache.enabled {
        " + SLC cache"
    } else {
        ""
    };
    format!(
        "drive: {}: {} GB, {} ch x {} ways x {} dies x {} planes, {cell}{slc}, ONFI {} MT/s, config {}",
        cfg.name,
        match exported as f64 / 1e9 {
            gb if gb < 10.0 => format!("{gb:.1}"),
            gb => format!("{gb:.0}"),
        },
        g.channels,
        g.ways_per_channel,
        g.dies_per_way,
        g.planes_per_die,
        cfg.onfi.transfer_mts,
        config_hash(cfg)
    )
}

/// The provenance block of JSON outputs: the resolved config, its hash and summary.
pub fn provenance_json(r: &ResolvedDrive) -> serde_json::Value {
    serde_json::json!({
        "preset": r.label,
        "config_hash": config_hash(&r.cfg),
        "drive_summary": summary_line(&r.cfg),
        "config": serde_json::to_value(&r.cfg).expect("configs serialize"),
        "overrides": r.marks,
    })
}

#[cfg(test)]
mod tests;
