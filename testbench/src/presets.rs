//! Named drive presets, embedded in the binary from `presets/*.toml` (each parameter in those
//! files carries its source: datasheet, review, specification or fitted with a plausible range).

use crate::error::InputError;
use ssdlab_model::DriveConfig;

/// A built-in drive config.
pub struct Preset {
    pub name: &'static str,
    pub file: &'static str,
    pub toml: &'static str,
    pub summary: &'static str,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "sm2262-512g",
        file: "presets/sm2262-512g.toml",
        toml: ssdlab_model::config::DEFAULT_PRESET_TOML,
        summary: "SMI SM2262, 512 GB, 16 Micron B16A 64L TLC dies on 8 channels, 512 MB DDR3 (SSDFans board)",
    },
    Preset {
        name: "sm2262-1t",
        file: "presets/sm2262-1t.toml",
        toml: ssdlab_model::config::BUILTIN_PRESETS[1].2,
        summary: "SMI SM2262, 1 TB, 32 Micron B16A dies on 8 channels, 1 GB DDR3 (HP EX920-like)",
    },
    Preset {
        name: "e12-960g",
        file: "presets/e12-960g.toml",
        toml: ssdlab_model::config::BUILTIN_PRESETS[2].2,
        summary: "Phison E12 reference, 960 GB, 32 Toshiba BiCS3 64L TLC dies on 8 channels, 1 GB DDR4",
    },
];

/// The default preset (`make run`).
pub const DEFAULT_PRESET: &str = "sm2262-512g";

pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The built-in preset names.
pub fn names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

/// The error for a preset name that is not built in; it lists the known ones.
pub fn unknown(name: &str) -> InputError {
    InputError::file(
        "--preset",
        format!("unknown preset `{name}` (known: {})", names().join(", ")),
    )
}

/// Loads a preset by name; an unknown name lists the known ones.
pub fn load(name: &str) -> Result<DriveConfig, InputError> {
    let p = find(name).ok_or_else(|| unknown(name))?;
    DriveConfig::from_toml_str(p.toml, p.file).map_err(|e| InputError::config(p.file, e))
}

/// Loads a drive config file.
pub fn load_file(path: &str) -> Result<DriveConfig, InputError> {
    let text = crate::input_file::read_text(std::path::Path::new(path), path)?;
    DriveConfig::from_toml_str(&text, path).map_err(|e| InputError::config(path, e))
}

/// Raw NAND bytes of a config (all dies, native mode).
pub fn raw_bytes(c: &DriveConfig) -> u64 {
    let g = &c.geometry;
    let pages = g.wordlines_per_block as u64 * g.bits_per_cell as u64;
    let dies = g.channels as u64 * g.ways_per_channel as u64 * g.dies_per_way as u64;
    dies * g.planes_per_die as u64 * g.blocks_per_plane as u64 * pages * g.page_bytes as u64
}

/// The `ssdlab presets` listing.
pub fn listing() -> Result<String, InputError> {
    let mut out = String::new();
    for p in PRESETS {
        let c = load(p.name)?;
        let g = &c.geometry;
        let raw = raw_bytes(&c) as f64;
        let exported = raw * (1.0 - c.ftl.over_provisioning_pct / 100.0);
        out.push_str(&format!(
            "{:<12} {}\n             {} ch x {} ways x {} dies, raw {:.0} GB, exported ~{:.0} GB, ONFI {} MT/s; file {}\n",
            p.name,
            p.summary,
            g.channels,
            g.ways_per_channel,
            g.dies_per_way,
            raw / 1e9,
            exported / 1e9,
            c.onfi.transfer_mts,
            p.file
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_loads_with_its_documented_geometry() {
        // (name, dies, page bytes): from the issue and the preset headers.
        for (name, dies) in [("sm2262-512g", 16), ("sm2262-1t", 32), ("e12-960g", 32)] {
            let c = load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let g = &c.geometry;
            assert_eq!(
                g.channels * g.ways_per_channel * g.dies_per_way,
                dies,
                "{name}"
            );
            assert_eq!(g.channels, 8, "{name}");
        }
    }

    #[test]
    fn raw_capacity_of_the_512g_board() {
        // 16 dies x 2 planes x 940 blocks x 1152 pages x 16 KiB = 567.74 GB (calibrated
        // blocks_per_plane, docs/calibration.md).
        let raw = raw_bytes(&load("sm2262-512g").unwrap());
        assert_eq!(raw, 16 * 2 * 940 * 1152 * 16384);
    }

    #[test]
    fn every_parameter_line_names_its_source() {
        for p in PRESETS {
            for (i, l) in p.toml.lines().enumerate() {
                let l = l.trim();
                let is_param = l.contains('=') && !l.starts_with('#') && !l.starts_with("name");
                let exempt = [
                    "t_read_csb_us",
                    "t_read_msb_us",
                    "encoding_total_bits",
                    "irq_coalesce_time_us",
                    "enabled",
                ];
                if is_param && !exempt.iter().any(|e| l.starts_with(e)) {
                    assert!(
                        l.contains("# ["),
                        "{}:{}: `{l}` lacks a [source] comment",
                        p.file,
                        i + 1
                    );
                }
            }
        }
    }

    #[test]
    fn unknown_preset_lists_known() {
        let e = load("sm9999").unwrap_err().to_string();
        assert_eq!(
            e,
            "--preset: unknown preset `sm9999` (known: sm2262-512g, sm2262-1t, e12-960g)"
        );
    }
}
