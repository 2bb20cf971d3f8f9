//! How the FTL's mapping table reaches NAND, and the power-loss protection capacitors.
//!
//! Firmware keeps the logical-to-physical table in DRAM and persists it as periodic checkpoints
//! (the whole table) plus a journal of mapping updates (one record per update, appended in
//! order); after a sudden power loss it mounts by reading the last checkpoint, replaying the
//! journal and scanning the spare areas of the blocks programmed after the last journal page
//! (Ban, US 5,404,485 "flash file system"; Chang et al., "Efficient management for large-scale
//! flash-memory storage systems", 2004; Micron TN-29-61 on power-loss protection).

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

/// Bytes one journal record takes in a journal page (logical unit + physical unit, 4 B each).
pub const JOURNAL_RECORD_BYTES: u32 = 8;

/// `[ftl.persistence]`: the mapping journal and checkpoints (off by default: the presets'
/// calibrated figures carry no journal traffic). Off, the firmware persists no table and a mount
/// after a power loss scans the spare area of every block holding data.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PersistenceConfig {
    /// Journal mapping updates into reserved SLC blocks and checkpoint the table. Moves: mount
    /// time after a power loss, WA (journal and checkpoint pages).
    #[serde(default)]
    pub enabled: bool,
    /// Journal written since the last checkpoint that triggers the next checkpoint (the whole
    /// table, `4 B x logical units`, written as SLC pages). Unit: MiB. Range: 1..=4096.
    /// Moves: mount time after a power loss, journal and checkpoint NAND traffic.
    #[serde(default = "default_checkpoint_journal_mib")]
    pub checkpoint_journal_mib: u32,
}

fn default_checkpoint_journal_mib() -> u32 {
    64
}

impl Default for PersistenceConfig {
    fn default() -> Self {
        PersistenceConfig {
            enabled: false,
            checkpoint_journal_mib: default_checkpoint_journal_mib(),
        }
    }
}

impl PersistenceConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            (1..=4096).contains(&self.checkpoint_journal_mib),
            "ftl.persistence.checkpoint_journal_mib",
            "must be in 1..=4096 (MiB of journal between checkpoints)",
        )
    }

    /// Journal pages (of `page_bytes`) written between checkpoints.
    pub fn journal_pages_per_checkpoint(&self, page_bytes: u32) -> u64 {
        (self.checkpoint_journal_mib as u64 * (1 << 20)).div_ceil(page_bytes as u64)
    }

    /// Die-blocks per die reserved for checkpoints and the journal when enabled: a ring of SLC
    /// pages twice (the table + one checkpoint interval of journal) plus one block being
    /// recycled, so the live checkpoint and the journal after it are never overwritten.
    pub fn system_blocks(
        &self,
        table_pages: u64,
        page_bytes: u32,
        slc_pages: u64,
        dies: u64,
    ) -> u32 {
        if !self.enabled {
            return 0;
        }
        let live = table_pages + self.journal_pages_per_checkpoint(page_bytes);
        ((2 * live).div_ceil(slc_pages) + 1).div_ceil(dies) as u32
    }
}
