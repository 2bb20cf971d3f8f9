//! Flash translation layer knobs: over-provisioning, garbage collection, SLC cache, mapping caches,
//! read-ahead. Sources: MQSim defaults (Tavakkol et al., FAST'18), AnandTech SLC cache analyses;
//! fitted values are marked in the presets.

use super::{ControllerConfig, GeometryConfig, PersistenceConfig};
use crate::error::{check, check_idle_ms, ConfigError};
use serde::{Deserialize, Serialize};

/// Smallest `ftl.gc_threshold_free_blocks` the FTL can run with: when a die opens a host
/// block at the threshold it has `threshold - 1` left, and the foreground GC that runs next may
/// need one to relocate into (`Ftl::reloc_block`). Static SLC and mapping-log blocks are
/// reserved outside the general pool, so they do not count here.
pub const MIN_GC_THRESHOLD_FREE_BLOCKS: u32 = 2;

/// `ftl.gc_policy`: how a die chooses its GC victim.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GcPolicyKind {
    /// The closed block with the fewest valid units.
    Greedy,
    /// Cost-benefit, `(1 - u) x age / (1 + u)` (Rosenblum and Ousterhout's LFS cleaning).
    CostBenefit,
    /// Greedy among the `gc_window_blocks` oldest closed blocks of a die.
    WindowedGreedy,
}

/// `ftl.free_block_order`: which free block a die opens next.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FreeBlockOrder {
    /// The least-worn free block; on equal wear the one freed last.
    #[default]
    LeastWorn,
    /// A queue: the block freed longest ago.
    OldestFreed,
}

/// `[ftl.slc_cache]`: a static SLC part plus a dynamic part carved from free native blocks.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SlcCacheConfig {
    /// Host writes go to SLC-mode blocks first and are folded to the native mode later.
    /// Moves: fresh writes, and everything written after the cache fills.
    pub enabled: bool,
    /// Blocks per plane reserved permanently as SLC (taken from over-provisioning).
    /// Unit: blocks. Range: below half of `geometry.blocks_per_plane`. Moves: SLC cache size.
    pub static_blocks_per_plane: u32,
    /// Fraction of the free native blocks that may be used in SLC mode.
    /// Unit: fraction. Range: 0..=1. Moves: SLC cache size on an empty drive.
    pub dynamic_fraction: f64,
    /// Idle time after which folding (SLC -> native migration) starts.
    /// Unit: ms. Range: >= 0. Moves: writes after idle (how much cache has been freed).
    pub idle_fold_threshold_ms: f64,
    /// When the cache is used up (a die would open a native block for host data), fold the
    /// die's oldest closed static SLC block first, in the foreground, and keep writing host
    /// data to SLC: every unit is written twice, SLC then fold, and the fold shares the
    /// relocation stream (and its blocks) with GC, starting on a word-line boundary of it
    /// (whole SLC pages into whole TLC word lines). false (the default): host data goes to
    /// native blocks once the cache is used up, and static SLC is folded in idle time only.
    /// Moves: steady-state writes (write cost per host unit, and which data shares a block).
    #[serde(default)]
    pub fold_when_full: bool,
    /// With `fold_when_full`, once the dynamic cache is used up: when a die opens a static SLC
    /// block for host data and fewer than this many of its static SLC blocks are left free, it folds its oldest closed one at once,
    /// so that the fold (paced over host programs, `controller.relocation_spread_blocks`) runs
    /// while the host fills the blocks still free instead of the host waiting for the whole
    /// fold when it needs the block. 0 (the default): fold only when no static block is free.
    /// Unit: die-blocks. Range: 0..=static_blocks_per_plane, 0 unless fold_when_full.
    /// Moves: steady-state writes with fold_when_full (how long the host waits on a fold).
    #[serde(default)]
    pub fold_ahead_blocks: u32,
}

/// `[ftl.map_cache]`: the on-chip SRAM cache of mapping entries in front of DRAM (mirrored by
/// `hdl::ftl::map_cache`), and the DRAM share of the mapping table.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MapCacheConfig {
    /// Sets of the SRAM mapping cache.
    /// Unit: sets. Range: power of two. Moves: random-read latency through lookup misses.
    pub sets: u32,
    /// Ways of the SRAM mapping cache.
    /// Unit: ways. Range: 1, 2, 4, 8 or 16. Moves: lookup hit rate.
    pub ways: u32,
    /// Mapping entries (4 B each) per cache line.
    /// Unit: entries. Range: power of two, up to 64. Moves: sequential lookup hit rate.
    pub line_entries: u32,
    /// DRAM devoted to the cached logical-to-physical table (translation pages). A drive with
    /// 1 MiB per GiB of capacity holds the whole table.
    /// Unit: MiB. Range: 0..=controller.dram_mb. Moves: random reads over a wide span.
    pub dram_table_mb: u32,
}

impl MapCacheConfig {
    /// Sets, ways and line size the SRAM cache (model and HDL) can be built with. Shared by
    /// `FtlConfig::validate` and `ftl::map_cache::MapCache::new`.
    pub fn validate_geometry(&self) -> Result<(), ConfigError> {
        check(
            self.sets.is_power_of_two() && self.sets <= 1 << 20,
            "ftl.map_cache.sets",
            "must be a power of two up to 1048576",
        )?;
        check(
            matches!(self.ways, 1 | 2 | 4 | 8 | 16),
            "ftl.map_cache.ways",
            "must be 1, 2, 4, 8 or 16",
        )?;
        check(
            self.line_entries.is_power_of_two() && self.line_entries <= 64,
            "ftl.map_cache.line_entries",
            "must be a power of two up to 64",
        )
    }
}

/// `[ftl]`: the flash translation layer: spare area, garbage collection, wear levelling,
/// read-ahead and the flush of a partly filled write buffer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FtlConfig {
    /// Over-provisioning: physical capacity not exported, as a percentage of raw capacity.
    /// Unit: %. Range: (0, 60). Moves: steady-state writes (write amplification), capacity.
    pub over_provisioning_pct: f64,
    /// GC victim selection. Range: greedy, cost_benefit, windowed_greedy.
    /// Moves: steady-state writes (which blocks pay for relocation).
    pub gc_policy: GcPolicyKind,
    /// Which free block a die opens next: `least_worn` (the default; on equal wear the one
    /// freed last) or `oldest_freed` (a queue: the block freed longest ago, wear left to static
    /// wear levelling). Blocks the FTL frees are erased by the drive after their relocation,
    /// so with `least_worn` a host block is often a victim whose erase is still queued.
    /// Range: least_worn, oldest_freed. Moves: steady-state write throughput over time.
    #[serde(default)]
    pub free_block_order: FreeBlockOrder,
    /// With `gc_policy = "windowed_greedy"`: how many of a die's closed blocks, oldest first by
    /// last write, the policy chooses among. Must be 0 (absent) with other policies.
    /// Unit: blocks. Range: >= 1 with windowed_greedy, else 0. Moves: steady-state writes.
    #[serde(default)]
    pub gc_window_blocks: u32,
    /// Foreground GC runs when free blocks per plane fall below this: the reserve that carries
    /// GC debt. Unit: blocks. Range: 2..blocks_per_plane/2. Moves: steady-state writes.
    pub gc_threshold_free_blocks: u32,
    /// Background GC runs in idle time when free blocks per plane are below this.
    /// Unit: blocks. Range: >= gc_threshold_free_blocks. Moves: writes after idle.
    pub bg_gc_threshold_free_blocks: u32,
    /// Idle time before background GC starts.
    /// Unit: ms. Range: >= 0. Moves: writes after idle.
    pub bg_gc_idle_ms: f64,
    /// Static wear levelling moves a die's least-erased closed native block's (cold) data once
    /// the die's most-erased block is more than this many erases ahead of it.
    /// Unit: P/E cycles. Range: >= 0. Moves: long write runs slightly (extra relocation).
    #[serde(alias = "wear_level_delta")]
    pub wear_level_delta_pe_cycles: u32,
    pub slc_cache: SlcCacheConfig,
    pub map_cache: MapCacheConfig,
    /// Sequential read-ahead: prefetch window (0 disables).
    /// Unit: KiB. Range: >= 0. Moves: QD1 sequential and burst reads.
    pub read_ahead_kib: u32,
    /// Host idle time after which a partly filled write buffer is programmed (padded); 1 when
    /// absent. Unit: ms. Range: >= 0. Moves: QD1 writes with gaps, write amplification.
    #[serde(default = "default_flush_idle_ms")]
    pub write_buffer_flush_idle_ms: f64,
    /// Out-of-band integrity checker (lpn + write sequence per physical unit, verified on every
    /// read). Costs 8 B of host memory per 4 KiB unit; on by default. Moves: no figure (a
    /// model self-check; simulation speed only).
    #[serde(default = "default_true")]
    pub integrity_check: bool,
    /// Reads of a sequential stream (a host read continuing the previous one, and its
    /// read-ahead) read and transfer whole multi-plane pages into the DRAM read cache, the unit
    /// sequentially written data occupies, instead of only the 4 KiB units asked for. Free on
    /// sequentially written data (every unit of the page is wanted); on fragmented data each
    /// wanted unit costs a whole multi-plane page transfer. Off by default.
    /// Moves: sequential reads of fragmented data.
    #[serde(default, alias = "stream_reads_whole_pages")]
    pub stream_read_page_cache: bool,
    /// Read-ahead engine budget: prefetch data its NAND reads may have in flight at once;
    /// further prefetch reads of the window wait in the engine's queue and start as earlier ones
    /// finish. 0 = unbounded (the whole window at once).
    /// Unit: KiB. Range: 0, or a multiple of 4 up to read_ahead_kib. Moves: QD1 sequential reads.
    #[serde(default)]
    pub read_ahead_inflight_kib: u32,
    /// Read-ahead engine issue cost per 4 KiB unit: the engine starts its prefetch reads one
    /// after another, each after `units x` this (its serial rate, whatever the data's layout).
    /// 0 = free (every prefetch read starts when the window is topped up).
    /// Unit: ns. Range: 0..=100000. Moves: QD1 sequential reads.
    #[serde(default)]
    pub read_ahead_issue_ns_per_unit: f64,
    /// Reach of the read-ahead engine's queue: a host read whose prefetch is still queued (not
    /// yet issued) further than this behind the engine's next issue reads it itself.
    /// 0 = `read_ahead_kib`. Matters only with a budget or an issue cost.
    /// Unit: KiB. Range: 0..=read_ahead_kib. Moves: QD1 sequential reads.
    #[serde(default)]
    pub read_ahead_queue_kib: u32,
    /// Power-loss protection: hold-up capacitors that, when power fails, finish the NAND
    /// operations under way and program the write buffer and the mapping journal, so every
    /// acknowledged write survives. Off by default.
    #[serde(default)]
    pub plp: bool,
    /// How the mapping table reaches NAND (`[ftl.persistence]`).
    #[serde(default)]
    pub persistence: PersistenceConfig,
}

fn default_flush_idle_ms() -> f64 {
    1.0
}
fn default_true() -> bool {
    true
}

/// How the FTL divides the physical blocks of each die; derived from the config at load.
/// A "die-block" is block `b` on every plane of one die, erased and programmed together
/// (multi-plane), the FTL's unit of allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapacityPlan {
    /// 4 KiB units in one die-block in the native mode.
    pub block_units: u64,
    /// Die-blocks per die reserved for the static SLC cache.
    pub static_slc_blocks: u32,
    /// Die-blocks per die reserved for the translation-page log (0 when the table fits in DRAM).
    pub map_blocks: u32,
    /// Die-blocks per die reserved for mapping checkpoints and the journal (0 unless
    /// `ftl.persistence.enabled`), after the translation-page log.
    pub system_blocks: u32,
    /// Die-blocks per die in the general pool (TLC data and the dynamic SLC cache).
    pub general_blocks: u32,
    /// Exported capacity, 4 KiB units.
    pub logical_units: u64,
    /// Translation pages (page_bytes / 4 entries each) covering the logical space.
    pub table_pages: u64,
    /// Translation pages the DRAM table cache holds.
    pub cached_table_pages: u64,
}

impl FtlConfig {
    /// Splits the raw capacity into exported space, over-provisioning, static SLC and the
    /// translation-page log; errors name the field that makes the split impossible.
    pub fn capacity_plan(&self, geo: &GeometryConfig) -> Result<CapacityPlan, ConfigError> {
        let dies = geo.dies() as u64;
        let upp = geo.units_per_page() as u64;
        let block_units = geo.pages_per_block() as u64 * geo.planes_per_die as u64 * upp;
        // u128: the geometry's bounds allow products beyond u64 before this check.
        let raw_units_wide = dies as u128 * geo.blocks_per_plane as u128 * block_units as u128;
        let raw_units = raw_units_wide.min(u64::MAX as u128) as u64;
        check(
            raw_units_wide < u32::MAX as u128,
            "geometry",
            "more than 2^32 - 1 physical 4 KiB units",
        )?;
        let logical_units =
            ((raw_units as f64) * (1.0 - self.over_provisioning_pct / 100.0)).floor() as u64;
        let entries_per_page = geo.page_bytes as u64 / 4;
        let table_pages = logical_units.div_ceil(entries_per_page);
        // At least one table page is cached (in controller SRAM on a DRAM-less drive).
        let cached_table_pages =
            (self.map_cache.dram_table_mb as u64 * (1 << 20) / geo.page_bytes as u64).max(1);
        let slc_pages_per_block = geo.wordlines_per_block as u64 * geo.planes_per_die as u64;
        let map_blocks = if cached_table_pages >= table_pages {
            0
        } else {
            // A log twice the table plus one block being recycled, spread over the dies.
            ((2 * table_pages).div_ceil(slc_pages_per_block) + 1).div_ceil(dies) as u32
        };
        let static_slc_blocks = if self.slc_cache.enabled {
            self.slc_cache.static_blocks_per_plane
        } else {
            0
        };
        let system_blocks =
            self.persistence
                .system_blocks(table_pages, geo.page_bytes, slc_pages_per_block, dies);
        let reserved = static_slc_blocks as u64 + map_blocks as u64 + system_blocks as u64;
        check(
            reserved < geo.blocks_per_plane as u64,
            "ftl.slc_cache.static_blocks_per_plane",
            "static SLC blocks plus the mapping-table log and the checkpoint/journal area exceed \
             geometry.blocks_per_plane",
        )?;
        let general_blocks = geo.blocks_per_plane - reserved as u32;
        // Blocks a die must keep beyond the data it holds: foreground-GC threshold, the open host,
        // relocation and cold-data blocks, and one to relocate into.
        let keep = self.gc_threshold_free_blocks as u64 + 4;
        let data_blocks_per_die = logical_units.div_ceil(block_units).div_ceil(dies);
        check(
            data_blocks_per_die + keep <= general_blocks as u64,
            "ftl.over_provisioning_pct",
            &format!(
                "too small for ftl.slc_cache.static_blocks_per_plane = {static_slc_blocks}, {map_blocks} mapping-log \
                 blocks and ftl.gc_threshold_free_blocks = {}: {} data blocks + {keep} spare needed per die, {} available",
                self.gc_threshold_free_blocks, data_blocks_per_die, general_blocks
            ),
        )?;
        Ok(CapacityPlan {
            block_units,
            static_slc_blocks,
            map_blocks,
            system_blocks,
            general_blocks,
            logical_units,
            table_pages,
            cached_table_pages,
        })
    }

    pub fn validate(
        &self,
        geo: &GeometryConfig,
        ctrl: &ControllerConfig,
    ) -> Result<(), ConfigError> {
        check(
            self.over_provisioning_pct.is_finite()
                && (0.0..60.0).contains(&self.over_provisioning_pct),
            "ftl.over_provisioning_pct",
            "must be in [0, 60)",
        )?;
        self.persistence.validate()?;
        check(
            self.over_provisioning_pct > 0.0,
            "ftl.over_provisioning_pct",
            "must be above 0: garbage collection needs spare blocks",
        )?;
        check(
            self.gc_threshold_free_blocks >= MIN_GC_THRESHOLD_FREE_BLOCKS,
            "ftl.gc_threshold_free_blocks",
            "must be at least 2: a die opens its next host block when it is down to the threshold, and \
             the foreground GC that follows needs one more free block to relocate into (its open GC \
             block can fill in the middle of a victim, which is erased only after the move)",
        )?;
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
        match self.gc_policy {
            GcPolicyKind::WindowedGreedy => check(
                self.gc_window_blocks >= 1,
                "ftl.gc_window_blocks",
                "must be at least 1 with gc_policy = \"windowed_greedy\"",
            )?,
            _ => check(
                self.gc_window_blocks == 0,
                "ftl.gc_window_blocks",
                "is used only with gc_policy = \"windowed_greedy\"",
            )?,
        }
        check_idle_ms(self.bg_gc_idle_ms, "ftl.bg_gc_idle_ms")?;
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
            s.fold_ahead_blocks <= s.static_blocks_per_plane
                && (s.fold_when_full || s.fold_ahead_blocks == 0),
            "ftl.slc_cache.fold_ahead_blocks",
            "must be at most ftl.slc_cache.static_blocks_per_plane, and 0 unless fold_when_full",
        )?;
        check_idle_ms(
            s.idle_fold_threshold_ms,
            "ftl.slc_cache.idle_fold_threshold_ms",
        )?;
        let m = &self.map_cache;
        m.validate_geometry()?;
        check(
            m.dram_table_mb <= ctrl.dram_mb,
            "ftl.map_cache.dram_table_mb",
            "the mapping cache cannot be larger than controller.dram_mb",
        )?;
        check(
            ctrl.dram_mb == 0
                || m.dram_table_mb as u64 * 1024 + ctrl.write_buffer_kib as u64
                    <= ctrl.dram_mb as u64 * 1024,
            "ftl.map_cache.dram_table_mb",
            "the mapping cache plus controller.write_buffer_kib do not fit in controller.dram_mb",
        )?;
        check_idle_ms(
            self.write_buffer_flush_idle_ms,
            "ftl.write_buffer_flush_idle_ms",
        )?;
        check(
            self.read_ahead_inflight_kib == 0
                || (self.read_ahead_inflight_kib.is_multiple_of(4)
                    && self.read_ahead_inflight_kib <= self.read_ahead_kib),
            "ftl.read_ahead_inflight_kib",
            "must be 0 (unbounded) or a multiple of 4 KiB no larger than ftl.read_ahead_kib",
        )?;
        check(
            self.read_ahead_issue_ns_per_unit.is_finite()
                && (0.0..=100_000.0).contains(&self.read_ahead_issue_ns_per_unit),
            "ftl.read_ahead_issue_ns_per_unit",
            "must be in [0, 100000] ns",
        )?;
        check(
            self.read_ahead_queue_kib <= self.read_ahead_kib,
            "ftl.read_ahead_queue_kib",
            "must be at most ftl.read_ahead_kib (0 = the whole window)",
        )?;
        self.capacity_plan(geo)?;
        Ok(())
    }
}
