//! The mapping-lookup hierarchy as the drive times it: the on-chip SRAM cache of mapping entries
//! ([`MapCache`], the block `ssdlab_hdl::ftl::map_cache` is checked against) in front of the
//! DRAM table of translation pages (the FTL's `map_table`, a `DramTable`), in front of the
//! translation pages in NAND (`MapRead`/`MapWrite` ops the FTL returns when the table does not
//! fit).
//!
//! Each host command's mapping accesses (a read looks up every unit, a write updates every unit)
//! go through the SRAM cache in order. A hit costs nothing beyond the firmware's per-unit work
//! (`controller.cpu_*`); each miss fills a line from DRAM and a dirty victim writes one back:
//! `MapDecision::dram_bursts` bursts of `line_entries x 4` bytes through the controller DRAM
//! (`ctrl::dram`: bandwidth, then `controller.dram_latency_ns`). A read's page reads wait for its
//! lookups; a write's updates take DRAM time without holding its completion. The DRAM table's
//! fetches are the FTL's translation-page reads, timed as NAND ops; a read's page reads wait for
//! them (`ftl::read_path`). The cache here carries tags, valid and dirty bits only
//! ([`TagsOnly`]): entry values live in the FTL's table (`l2p`) and its DRAM level is the FTL's.

use super::Drive;
use crate::ftl::dram_table::DramTableStats;
use crate::ftl::map_cache::{MapAccess, MapCacheStats, UNMAPPED};
#[cfg(doc)]
use crate::ftl::map_cache::{MapCache, TagsOnly};
use crate::time::SimTime;

/// The counters the stats window starts from: SRAM cache, DRAM table.
pub(super) type MapBase = (MapCacheStats, DramTableStats);

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

/// The hierarchy's per-level counters. `sram`: the host commands' lookups and updates.
/// `dram`: when the table does not fit, every access the FTL makes to it (host lookups and
/// updates, read-ahead lookups, relocation's checks and updates; the SRAM cache filters none of
/// them) and the accesses that found their translation page resident (the rest are fetches: a
/// MapRead when the page has a flash copy); when it fits the FTL makes no access, and the level
/// counts the SRAM misses, all hits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapHierarchyStats {
    pub sram: MapLevelStats,
    pub dram: MapLevelStats,
}

impl MapHierarchyStats {
    /// From the SRAM cache's and the DRAM table's counters now and at the window's start.
    pub fn from_window(
        now: (&MapCacheStats, &DramTableStats),
        base: &MapBase,
        table_fits: bool,
    ) -> Self {
        let (s, b) = (now.0, &base.0);
        let sram_acc = (s.lookups + s.updates) - (b.lookups + b.updates);
        let sram_hits = s.hits - b.hits;
        let misses = sram_acc - sram_hits;
        let dram = if table_fits {
            MapLevelStats {
                accesses: misses,
                hits: misses,
            }
        } else {
            let (t, tb) = (now.1, &base.1);
            let acc = t.accesses - tb.accesses;
            MapLevelStats {
                accesses: acc,
                hits: acc - (t.fetches - tb.fetches),
            }
        };
        MapHierarchyStats {
            sram: MapLevelStats {
                accesses: sram_acc,
                hits: sram_hits,
            },
            dram,
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
