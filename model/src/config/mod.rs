//! Drive configuration: serde structs loaded from TOML, one sub-struct per hardware block.
//!
//! Every field carries its unit in its name (`t_read_us`, `transfer_mts`, `dram_mb`). Datasheet
//! floats are converted to [`crate::time::SimTime`] once, by the `resolve`/accessor methods of each
//! sub-config; the rest of the model sees only integers. Unknown fields are rejected
//! (`deny_unknown_fields`) and `validate` names the offending field of any impossible value.

mod controller;
mod ftl;
mod geometry;
mod memory;
mod nand;
mod nvme;
mod onfi;
mod onfi_pins;
mod pcie;
mod persistence;
mod power;
mod suspend;

pub use controller::ControllerConfig;
pub use ftl::{
    CapacityPlan, FreeBlockOrder, FtlConfig, GcPolicyKind, MapCacheConfig, SlcCacheConfig,
};
pub use geometry::GeometryConfig;
pub use nand::{CellTiming, NandConfig};
pub use nvme::NvmeConfig;
pub use onfi::{OnfiConfig, OnfiPinTiming};
pub use pcie::PcieConfig;
pub use persistence::{PersistenceConfig, JOURNAL_RECORD_BYTES};
pub use power::PowerConfig;
pub use suspend::{SuspendCommandSet, SuspendConfig, SuspendPolicyKind};

use crate::error::ConfigError;
use serde::{Deserialize, Serialize};

/// A whole drive. Presets are files of this shape (see `presets/`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DriveConfig {
    /// Human name, e.g. "SMI SM2262 512 GB (SSDFans board)"; printed in reports.
    /// Unit: text. Range: any. Moves: no figure.
    pub name: String,
    pub geometry: GeometryConfig,
    pub nand: NandConfig,
    pub onfi: OnfiConfig,
    pub pcie: PcieConfig,
    pub nvme: NvmeConfig,
    pub controller: ControllerConfig,
    pub ftl: FtlConfig,
    pub power: PowerConfig,
}

impl DriveConfig {
    /// Parses and validates a TOML config. `origin` (a file name) is used in error messages.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Self, ConfigError> {
        let cfg: DriveConfig = toml::from_str(text).map_err(|e| ConfigError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks every field and every cross-field constraint; the error names the field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.geometry.validate()?;
        self.nand.validate()?;
        self.onfi.validate()?;
        self.pcie.validate()?;
        self.nvme.validate()?;
        self.controller.validate()?;
        self.ftl.validate(&self.geometry, &self.controller)?;
        self.power.validate()?;
        Ok(())
    }

    /// The built-in default drive (the SSDFans SM2262 512 GB board), embedded in the binary.
    pub fn default_drive() -> Self {
        Self::from_toml_str(DEFAULT_PRESET_TOML, "presets/sm2262-512g.toml")
            .expect("embedded default preset is valid")
    }
}

#[cfg(test)]
impl DriveConfig {
    /// The default drive with the flash-management policy the model's unit tests of GC, SLC and
    /// relocation are written against, whatever the preset calibrates: host data goes to
    /// native blocks once the SLC cache is used up, static SLC is folded in idle time after
    /// 100 ms, and a die's relocation is paced by its own host programs only.
    pub(crate) fn default_drive_without_fold() -> Self {
        let mut c = Self::default_drive();
        let slc = &mut c.ftl.slc_cache;
        (slc.fold_when_full, slc.fold_ahead_blocks) = (false, 0);
        slc.idle_fold_threshold_ms = 100.0;
        c.controller.relocation_while_writes_wait = false;
        c
    }
}

/// The embedded default preset.
pub const DEFAULT_PRESET_TOML: &str = include_str!("../../../presets/sm2262-512g.toml");

/// The built-in presets, embedded from `presets/*.toml`: (name, file, TOML text). The CLI's
/// `--preset` and `export-verilog --preset` both resolve names here.
pub const BUILTIN_PRESETS: &[(&str, &str, &str)] = &[
    (
        "sm2262-512g",
        "presets/sm2262-512g.toml",
        DEFAULT_PRESET_TOML,
    ),
    (
        "sm2262-1t",
        "presets/sm2262-1t.toml",
        include_str!("../../../presets/sm2262-1t.toml"),
    ),
    (
        "e12-960g",
        "presets/e12-960g.toml",
        include_str!("../../../presets/e12-960g.toml"),
    ),
];

/// The built-in preset `name`: (file, TOML text), or None for an unknown name.
pub fn builtin_preset(name: &str) -> Option<(&'static str, &'static str)> {
    BUILTIN_PRESETS
        .iter()
        .find(|p| p.0 == name)
        .map(|&(_, file, toml)| (file, toml))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_preset_loads() {
        let cfg = DriveConfig::default_drive();
        assert_eq!(cfg.geometry.channels, 8);
    }

    #[test]
    fn unknown_field_is_named() {
        let text = DEFAULT_PRESET_TOML.replace("[onfi]", "[onfi]\nbogus_mts = 3");
        let err = DriveConfig::from_toml_str(&text, "x.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("bogus_mts") && err.contains("x.toml"), "{err}");
    }

    /// Keys renamed to say what they model are still read under their old names.
    #[test]
    fn old_key_names_still_load() {
        let mut text = DEFAULT_PRESET_TOML.to_string();
        for (new, old) in [
            ("dram_bandwidth_mb_per_s", "dram_bandwidth_mbps"),
            ("read_lookup_on_demand", "cpu_unit_work_at_lookup"),
            ("wear_level_delta_pe_cycles", "wear_level_delta"),
            ("stream_read_page_cache", "stream_reads_whole_pages"),
        ] {
            let line = text
                .lines()
                .find(|l| l.starts_with(new))
                .expect(new)
                .to_string();
            text = text.replace(&line, &line.replacen(new, old, 1));
        }
        assert!(!text.contains("wear_level_delta_pe_cycles"));
        assert_eq!(
            DriveConfig::from_toml_str(&text, "old.toml").unwrap(),
            DriveConfig::default_drive()
        );
    }

    #[test]
    fn zero_channels_is_named() {
        let text = DEFAULT_PRESET_TOML.replace("channels = 8", "channels = 0");
        let err = DriveConfig::from_toml_str(&text, "x.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("geometry.channels"), "{err}");
    }
}
