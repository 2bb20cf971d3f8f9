//! Host memory a drive model needs, estimated from its config before anything is allocated, so
//! that a config too large for the machine is refused with the figure instead of aborting in
//! the allocator. The model holds per-unit tables the size of a real FTL's (ARCHITECTURE.md,
//! FTL "Mapping" and "Integrity checker"): 8 B per logical 4 KiB unit (mapping entry with the
//! checker's sequence), 8 B per physical unit (spare-area lpn and sequence), 1 bit per physical
//! unit (valid bitmap); per die-block its table entry and per translation page a few bytes.

use super::DriveConfig;
use crate::error::ConfigError;

/// Bytes per die-block: the block table entry (40 B) and the per-block free lists and
/// wear-range counters, rounded up.
const BYTES_PER_DIE_BLOCK: u64 = 64;
/// Bytes per translation page: its DRAM slot (tag, dirty flag) and the map log's location, an
/// upper figure.
const BYTES_PER_TABLE_PAGE: u64 = 16;
/// Bytes per on-chip mapping-cache line: tag and flags, plus 8 B per entry.
const BYTES_PER_CACHE_LINE: u64 = 16;
/// Everything else of a drive (queues, event heap, histograms), an upper figure.
const FIXED_BYTES: u64 = 64 << 20;

impl DriveConfig {
    /// Host memory (bytes) a `Drive` of this config allocates, within a few percent; the config
    /// must have passed `validate`. The per-unit tables are zeroed pages mapped as entries are
    /// first written (`ftl/bigvec.rs`), so this is what a drive holds once its whole capacity
    /// has been written: the most a run can need, not what a short one uses.
    pub fn memory_estimate_bytes(&self) -> Result<u64, ConfigError> {
        let g = &self.geometry;
        let plan = self.ftl.capacity_plan(g)?;
        let physical = g.dies() as u64 * g.blocks_per_plane as u64 * plan.block_units;
        let die_blocks = g.dies() as u64 * g.blocks_per_plane as u64;
        let m = &self.ftl.map_cache;
        let cache_lines = m.sets as u64 * m.ways as u64;
        Ok(plan.logical_units * 8
            + physical * 8
            + physical.div_ceil(8)
            + die_blocks * BYTES_PER_DIE_BLOCK
            + plan.table_pages * BYTES_PER_TABLE_PAGE
            + cache_lines * (BYTES_PER_CACHE_LINE + m.line_entries as u64 * 8)
            + FIXED_BYTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_preset_estimate_by_hand() {
        let cfg = DriveConfig::default_drive();
        let g = &cfg.geometry;
        let plan = cfg.ftl.capacity_plan(g).unwrap();
        // 16 dies x 2 planes x blocks x (wordlines x 3 pages) x 4 units of 4 KiB.
        let physical = g.dies() as u64
            * g.planes_per_die as u64
            * g.blocks_per_plane as u64
            * g.wordlines_per_block as u64
            * 3
            * 4;
        let est = cfg.memory_estimate_bytes().unwrap();
        // The per-unit tables dominate: 8 B per logical, 8 B + 1 bit per physical unit.
        let tables = plan.logical_units * 8 + physical * 8 + physical / 8;
        assert!(
            est >= tables && est < tables + tables / 10 + FIXED_BYTES,
            "{est} vs {tables}"
        );
        // ARCHITECTURE.md: about 2.0 GiB for the 512 GB preset.
        assert!((1.8e9..2.6e9).contains(&(est as f64)), "{est}");
    }
}
