//! Flash translation layer knobs: over-provisioning, garbage collection, SLC cache, mapping caches,
//! read-ahead. Sources: MQSim defaults (Tavakkol et al., FAST'18), AnandTech SLC cache analyses;
//! fitted values are marked in the presets.

use super::{ControllerConfig, GeometryConfig};
use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GcPolicyKind {
    Greedy,
    CostBenefit,
}

/// Hybrid SLC cache: a static part plus a dynamic part carved from free native blocks.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SlcCacheConfig {
    pub enabled: bool,
    /// Blocks per plane reserved permanently as SLC (taken from over-provisioning).
    pub static_blocks_per_plane: u32,
    /// Fraction (0..1) of the free native blocks that may be used in SLC mode.
    pub dynamic_fraction: f64,
    /// Idle time after which folding (SLC -> TLC migration) starts, ms.
    pub idle_fold_threshold_ms: f64,
}

/// The on-chip SRAM cache of mapping entries in front of DRAM (mirrored by `hdl::ftl::map_cache`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MapCacheConfig {
    pub sets: u32,
    pub ways: u32,
    /// Mapping entries (4 B each) per cache line.
    pub line_entries: u32,
    /// DRAM bytes devoted to the cached logical-to-physical table (translation pages), MiB.
    /// A drive with 1 MiB per GiB of capacity holds the whole table.
    pub dram_table_mb: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FtlConfig {
    /// Over-provisioning: physical capacity not exported, as a percentage of raw capacity.
    pub over_provisioning_pct: f64,
    pub gc_policy: GcPolicyKind,
    /// Foreground GC runs when free blocks per plane fall below this.
    pub gc_threshold_free_blocks: u32,
    /// Background GC runs in idle time when free blocks per plane are below this.
    pub bg_gc_threshold_free_blocks: u32,
    /// Idle time before background GC starts, ms.
    pub bg_gc_idle_ms: f64,
    /// Static wear levelling triggers when max - min erase count exceeds this.
    pub wear_level_delta: u32,
    pub slc_cache: SlcCacheConfig,
    pub map_cache: MapCacheConfig,
    /// Sequential read-ahead: prefetch window in KiB (0 disables).
    pub read_ahead_kib: u32,
}

impl FtlConfig {
    pub fn validate(&self, geo: &GeometryConfig, ctrl: &ControllerConfig) -> Result<(), ConfigError> {
        check(
            self.over_provisioning_pct.is_finite() && (0.0..60.0).contains(&self.over_provisioning_pct),
            "ftl.over_provisioning_pct",
            "must be in [0, 60)",
        )?;
        check(
            self.over_provisioning_pct > 0.0,
            "ftl.over_provisioning_pct",
            "must be above 0: garbage collection needs spare blocks",
        )?;
        check(self.gc_threshold_free_blocks >= 1, "ftl.gc_threshold_free_blocks", "must be at least 1")?;
        check(
            self.gc_threshold_free_blocks < geo.blocks_per_plane / 2,
            "ftl.gc_threshold_free_blocks",
            "must be below half of geometry.blocks_per_plane",
        )?;
        check(
            self.bg_gc_threshold_free_blocks >= self.gc_threshold_free_blocks,
            "ftl.bg_gc_threshold_free_blocks",
            "must be at least ftl.gc_threshold_free_blocks",
        )?;
        check(self.bg_gc_idle_ms.is_finite() && self.bg_gc_idle_ms >= 0.0, "ftl.bg_gc_idle_ms", "must be non-negative")?;
        let s = &self.slc_cache;
        check(
            s.dynamic_fraction.is_finite() && (0.0..=1.0).contains(&s.dynamic_fraction),
            "ftl.slc_cache.dynamic_fraction",
            "must be in [0, 1]",
        )?;
        check(
            s.static_blocks_per_plane < geo.blocks_per_plane / 2,
            "ftl.slc_cache.static_blocks_per_plane",
            "must be below half of geometry.blocks_per_plane (the SLC cache cannot exceed the drive)",
        )?;
        check(
            s.idle_fold_threshold_ms.is_finite() && s.idle_fold_threshold_ms >= 0.0,
            "ftl.slc_cache.idle_fold_threshold_ms",
            "must be non-negative",
        )?;
        let m = &self.map_cache;
        check(m.sets.is_power_of_two(), "ftl.map_cache.sets", "must be a power of two")?;
        check(matches!(m.ways, 1 | 2 | 4 | 8 | 16), "ftl.map_cache.ways", "must be 1, 2, 4, 8 or 16")?;
        check(
            m.line_entries.is_power_of_two() && m.line_entries <= 64,
            "ftl.map_cache.line_entries",
            "must be a power of two up to 64",
        )?;
        check(
            m.dram_table_mb <= ctrl.dram_mb,
            "ftl.map_cache.dram_table_mb",
            "the mapping cache cannot be larger than controller.dram_mb",
        )?;
        Ok(())
    }
}
