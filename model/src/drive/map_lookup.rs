//! The mapping-lookup hierarchy as the drive times it: the on-chip SRAM cache of mapping entries
//! ([`MapCache`], the block `ssdlab_hdl::ftl::map_cache` is checked against) in front of the
//! DRAM table of translation pages (the FTL's `trans_cache`), in front of the translation
//! pages in NAND (`MapRead`/`MapWrite` ops the FTL returns when the table does not fit).
//!
//! Each host command's mapping accesses (a read looks up every unit, a write updates every unit)
//! go through the SRAM cache in order. A hit costs nothing beyond the firmware's per-unit work
//! (`controller.cpu_*`); each miss fills a line from DRAM and a dirty victim writes one back:
//! `MapDecision::dram_bursts` bursts of `line_entries x 4` bytes through the controller DRAM
//! (`ctrl::dram`: bandwidth, then `controller.dram_latency_ns`). A read's page reads wait for its
//! lookups; a write's updates take DRAM time without holding its completion. The DRAM table's
//! misses are the FTL's translation-page reads, timed as NAND ops. Entry values live in the FTL's
//! table (`l2p`): the cache here carries tags, valid and dirty bits, so an update writes
//! `UNMAPPED` and the DRAM table stores nothing.

use super::Drive;
use crate::ftl::map_cache::{MapAccess, MapCacheStats, UNMAPPED};
use crate::time::SimTime;

/// Accesses and hits of one level of the mapping hierarchy in the stats window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapLevelStats {
    pub accesses: u64,
    pub hits: u64,
}

impl MapLevelStats {
    /// Hits / accesses (None without accesses).
    pub fn hit_rate(&self) -> Option<f64> {
        (self.accesses > 0).then(|| self.hits as f64 / self.accesses as f64)
    }
}

/// The hierarchy's per-level counters: SRAM cache, DRAM table (its accesses are the SRAM
/// misses; its misses the translation pages read from NAND, `OpPurpose::MapRead`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapHierarchyStats {
    pub sram: MapLevelStats,
    pub dram: MapLevelStats,
}

impl MapHierarchyStats {
    /// From the SRAM cache's counters over the window and the translation pages read in it.
    pub fn from_window(now: &MapCacheStats, base: &MapCacheStats, tp_reads: u64) -> Self {
        let sram_acc = (now.lookups + now.updates) - (base.lookups + base.updates);
        let sram_hits = now.hits - base.hits;
        let misses = sram_acc - sram_hits;
        MapHierarchyStats {
            sram: MapLevelStats {
                accesses: sram_acc,
                hits: sram_hits,
            },
            dram: MapLevelStats {
                accesses: misses,
                hits: misses.saturating_sub(tp_reads),
            },
        }
    }
}

impl Drive {
    /// Runs `units` mapping accesses from `lpn` (updates when `update`) through the SRAM cache
    /// at `now`; returns when the DRAM line transfers they caused are done (`now` on all hits).
    pub(super) fn map_lookups(
        &mut self,
        now: SimTime,
        lpn: u64,
        units: u32,
        update: bool,
    ) -> SimTime {
        let mut bursts = 0u64;
        let value = update.then_some(UNMAPPED);
        for k in 0..units as u64 {
            let d = self.map_sram.access(MapAccess {
                lpn: lpn + k,
                update: value,
            });
            bursts += d.dram_bursts() as u64;
        }
        if bursts == 0 {
            return now;
        }
        self.dram
            .access(now, bursts * self.map_sram.line_entries() * 4)
    }
}
