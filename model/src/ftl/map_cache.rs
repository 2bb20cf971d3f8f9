//! On-chip SRAM cache of logical-to-physical mapping entries, in front of the DRAM table.
//! Mirrored decision-for-decision by `ssdlab_hdl::ftl::map_cache`.
//!
//! Hardware modelled: a set-associative, write-back cache of 32-bit mapping entries (one per 4 KiB
//! logical unit), `sets` x `ways` lines of `line_entries` entries (`ftl.map_cache`), with tree
//! pseudo-LRU replacement ([`tree_plru`]) behind the [`Replacement`] trait, the first level of
//! the mapping hierarchy: SRAM entry cache -> DRAM table of translation pages
//! ([`crate::ftl::dram_table::DramTable`], possibly only partly resident) -> NAND translation
//! pages (`ftl::map_log`). The level below is a [`MapBacking`]: the HDL reference runs the cache
//! over its own `DramTable`; the drive over [`backing::TagsOnly`], its DRAM level being the
//! FTL's table (the same `DramTable` rule, where the MapRead/MapWrite ops come from). Structure
//! after the mapping-cache designs of DFTL (Gupta et al., ASPLOS'09) and MQSim's CMT (FAST'18).
//!
//! Address split: `line = lpn / line_entries`, `offset = lpn % line_entries`,
//! `set = line % sets`, `tag = line / sets`.
//!
//! Decision rule (the contract with the HDL), for each access in order:
//! 1. Hit when a valid way of the set holds the tag: touch the policy; an update writes the entry
//!    and marks the line dirty.
//! 2. Miss: the victim is the lowest-numbered invalid way, else `Replacement::victim`. A valid
//!    victim is evicted; a dirty victim is written back to DRAM (its translation page made
//!    resident first, which may fetch). Then the missing line's page is made resident (may fetch)
//!    and the line is read from DRAM into the way; an update is applied and marks it dirty; the
//!    policy is touched.
//!
//! Everything is a pure function of the access sequence (no time, no randomness).

pub mod backing;
pub mod pipeline;
pub mod replacement;
pub mod tree_plru;

#[cfg(test)]
mod tests;

use crate::config::MapCacheConfig;
use crate::error::{check, ConfigError};
use crate::ftl::dram_table::{DramTable, TP_ENTRIES};
pub use backing::{MapBacking, TagsOnly};
pub use replacement::Replacement;
use tree_plru::TreePlru;

/// Value of an entry never written: no physical page.
pub const UNMAPPED: u32 = u32::MAX;

/// One access to the mapping table: a lookup of `lpn`'s entry, or an update of it to `value`
/// (a physical page address, 32 bits). Recorded by the FTL, replayed by the cache model and HDL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapAccess {
    pub lpn: u64,
    /// `None` for a lookup, `Some(ppa)` for an update.
    pub update: Option<u32>,
}

/// A translation page made resident in DRAM (fetched from NAND) in slot `slot`, replacing
/// `evicted_tp`, which must first be written to NAND when `evicted_dirty`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TpFetch {
    pub tp: u64,
    pub slot: u64,
    pub evicted_tp: u64,
    pub evicted_dirty: bool,
}

/// A valid line pushed out of the SRAM cache by a miss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Eviction {
    /// Line number (`lpn / line_entries`) of the evicted line.
    pub line: u64,
    /// The line was modified: it is written back to DRAM.
    pub dirty: bool,
}

/// What the cache did for one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapDecision {
    pub hit: bool,
    pub set: u32,
    /// Way hit, or way filled on a miss.
    pub way: u32,
    /// Valid line evicted on a miss (`None` on hits and on fills of invalid ways).
    pub evicted: Option<Eviction>,
    /// Page fetch needed to write the dirty victim back (before the fill).
    pub wb_fetch: Option<TpFetch>,
    /// Page fetch needed to read the missing line.
    pub fill_fetch: Option<TpFetch>,
    /// Entry value after the access (the lookup result, or the value just written).
    pub data: u32,
}

impl MapDecision {
    /// The victim was dirty: one line burst written to DRAM.
    pub fn wrote_back(&self) -> bool {
        self.evicted.is_some_and(|e| e.dirty)
    }

    /// DRAM line bursts caused (for charging DRAM time): 0 on a hit, 1 fill, +1 write-back.
    pub fn dram_bursts(&self) -> u32 {
        (!self.hit) as u32 + self.wrote_back() as u32
    }

    /// Translation pages read from NAND into DRAM (`MapRead` ops) for this access.
    pub fn tp_reads(&self) -> u32 {
        self.wb_fetch.is_some() as u32 + self.fill_fetch.is_some() as u32
    }

    /// Dirty translation pages written from DRAM to NAND (`MapWrite` ops) for this access.
    pub fn tp_writes(&self) -> u32 {
        [self.wb_fetch, self.fill_fetch]
            .iter()
            .flatten()
            .filter(|f| f.evicted_dirty)
            .count() as u32
    }
}

/// Counters over all accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapCacheStats {
    pub lookups: u64,
    pub updates: u64,
    pub hits: u64,
    pub misses: u64,
    pub evictions: u64,
    pub writebacks: u64,
    pub tp_fetches: u64,
    pub tp_writebacks: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Line {
    valid: bool,
    dirty: bool,
    tag: u64,
}

/// The mapping cache over the level below it (`B`).
pub struct MapCache<B: MapBacking = DramTable> {
    sets: u64,
    ways: u64,
    line_entries: u64,
    /// log2 of `line_entries` and of `sets` (both powers of two): the address split by shifts.
    line_bits: u32,
    set_bits: u32,
    lines: Vec<Line>,
    data: Vec<u32>,
    policy: TreePlru,
    dram: B,
    stats: MapCacheStats,
}

impl MapCache<DramTable> {
    /// A cold cache (all lines invalid) over a DRAM table of `dram_table_mb` MiB of 4 KiB pages
    /// (the HDL block's configuration).
    pub fn new(cfg: &MapCacheConfig) -> Result<MapCache, ConfigError> {
        check(
            cfg.dram_table_mb >= 1,
            "ftl.map_cache.dram_table_mb",
            "the mapping cache needs at least 1 MiB of DRAM table",
        )?;
        let slots = cfg.dram_table_mb as u64 * (1 << 20) / (TP_ENTRIES * 4);
        MapCache::with_backing(cfg, DramTable::new(slots, TP_ENTRIES))
    }
}

impl MapCache<TagsOnly> {
    /// A cold cache carrying tags only (the drive's; its DRAM level is the FTL's table).
    pub fn tags_only(cfg: &MapCacheConfig) -> Result<MapCache<TagsOnly>, ConfigError> {
        MapCache::with_backing(cfg, TagsOnly)
    }
}

impl<B: MapBacking> MapCache<B> {
    /// A cold cache (all lines invalid) over `dram`.
    pub fn with_backing(cfg: &MapCacheConfig, dram: B) -> Result<MapCache<B>, ConfigError> {
        cfg.validate_geometry()?;
        let (sets, ways, line_entries) =
            (cfg.sets as u64, cfg.ways as u64, cfg.line_entries as u64);
        let n_lines = (sets * ways) as usize;
        Ok(MapCache {
            sets,
            ways,
            line_entries,
            line_bits: line_entries.trailing_zeros(),
            set_bits: sets.trailing_zeros(),
            lines: vec![Line::default(); n_lines],
            data: vec![UNMAPPED; n_lines * line_entries as usize],
            policy: TreePlru::new(sets as usize, ways as usize),
            dram,
            stats: MapCacheStats::default(),
        })
    }

    pub fn stats(&self) -> &MapCacheStats {
        &self.stats
    }

    pub fn line_entries(&self) -> u64 {
        self.line_entries
    }

    /// The level below (for checking write-backs).
    pub fn dram(&self) -> &B {
        &self.dram
    }

    /// Replacement state word of `set` (heap-ordered tree bits).
    pub fn policy_bits(&self, set: u32) -> u32 {
        self.policy.state_bits(set as usize)
    }

    /// Current value of `lpn`'s entry as the whole hierarchy holds it (no state change).
    pub fn peek(&self, lpn: u64) -> u32 {
        let (set, tag, off) = self.split(lpn);
        for w in 0..self.ways {
            let i = (set * self.ways + w) as usize;
            if self.lines[i].valid && self.lines[i].tag == tag {
                return self.data[i * self.line_entries as usize + off as usize];
            }
        }
        self.dram.value(lpn)
    }

    fn split(&self, lpn: u64) -> (u64, u64, u64) {
        // `validate_geometry` makes both powers of two.
        let line = lpn >> self.line_bits;
        (
            line & (self.sets - 1),
            line >> self.set_bits,
            lpn & (self.line_entries - 1),
        )
    }

    /// Perform one access; see the module doc for the decision rule.
    pub fn access(&mut self, a: MapAccess) -> MapDecision {
        let (set, tag, off) = self.split(a.lpn);
        match a.update {
            Some(_) => self.stats.updates += 1,
            None => self.stats.lookups += 1,
        }
        let base = (set * self.ways) as usize;
        let hit_way = (0..self.ways as usize)
            .find(|&w| self.lines[base + w].valid && self.lines[base + w].tag == tag);
        let mut d = MapDecision {
            hit: hit_way.is_some(),
            set: set as u32,
            way: 0,
            evicted: None,
            wb_fetch: None,
            fill_fetch: None,
            data: 0,
        };
        let way = match hit_way {
            Some(w) => {
                self.stats.hits += 1;
                w
            }
            None => {
                self.stats.misses += 1;
                self.miss(set, tag, &mut d)
            }
        };
        let li = base + way;
        let di = li * self.line_entries as usize + off as usize;
        if let Some(v) = a.update {
            self.data[di] = v;
            self.lines[li].dirty = true;
        }
        self.policy.touch(set as usize, way);
        d.way = way as u32;
        d.data = self.data[di];
        d
    }

    /// Choose the victim, write it back when dirty, fill the line. Returns the way.
    fn miss(&mut self, set: u64, tag: u64, d: &mut MapDecision) -> usize {
        let base = (set * self.ways) as usize;
        let way = (0..self.ways as usize)
            .find(|&w| !self.lines[base + w].valid)
            .unwrap_or_else(|| self.policy.victim(set as usize));
        let li = base + way;
        let e = self.line_entries as usize;
        let old = self.lines[li];
        if old.valid {
            let line = old.tag * self.sets + set;
            d.evicted = Some(Eviction {
                line,
                dirty: old.dirty,
            });
            self.stats.evictions += 1;
            if old.dirty {
                self.stats.writebacks += 1;
                d.wb_fetch = self.dram.ensure(line * self.line_entries);
                self.dram
                    .write_line(line * self.line_entries, &self.data[li * e..(li + 1) * e]);
            }
        }
        let first = (tag * self.sets + set) * self.line_entries;
        d.fill_fetch = self.dram.ensure(first);
        for f in [d.wb_fetch, d.fill_fetch].into_iter().flatten() {
            self.stats.tp_fetches += 1;
            self.stats.tp_writebacks += f.evicted_dirty as u64;
        }
        self.dram
            .read_line(first, &mut self.data[li * e..(li + 1) * e]);
        self.lines[li] = Line {
            valid: true,
            dirty: false,
            tag,
        };
        way
    }
}
