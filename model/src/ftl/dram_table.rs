//! The DRAM level of the mapping hierarchy (SRAM entry cache `map_cache` -> DRAM table -> NAND
//! translation pages `map_log`): translation pages of `entries` 32-bit mapping entries held in a
//! direct-mapped array of DRAM slots (`slot = tp mod slots`). A table that does not fit
//! (`ftl.map_cache.dram_table_mb` smaller than 1 MiB per GiB of capacity) is only partly
//! resident; touching a non-resident page is a translation-page fetch from NAND (and, when the
//! slot held a page that was written into, a translation-page write to NAND first).
//!
//! Direct-mapped because that is what the HDL mapping cache implements (`ssdlab_hdl::ftl::
//! map_cache`: one slot-tag RAM indexed by `tp mod slots`, no replacement state), and the drive
//! runs the same rule, so the FTL's MapRead/MapWrite traffic follows the hardware's decisions.
//! One rule, so no replacement trait.
//!
//! Boot state: slot `i` holds translation page `i`, clean (the firmware loads the head of the
//! table at power-on). A table with at most `slots` pages therefore never fetches. Values, when
//! the owner keeps them here (the HDL reference: [`DramTable::write_line`]), are held once, in
//! `store` (entries never updated read as [`UNMAPPED`]): moving a page between DRAM and NAND
//! changes no value, only the events reported. The FTL keeps its values in its own table and
//! uses only [`DramTable::access`].

use super::map_cache::{TpFetch, UNMAPPED};
use rustc_hash::FxHashMap as HashMap;

/// Entries per translation page of the HDL mapping cache: 4 KiB / 4 B.
pub const TP_ENTRIES: u64 = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    tp: u64,
    dirty: bool,
}

/// Accesses to the table and the translation pages they fetched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DramTableStats {
    pub accesses: u64,
    pub fetches: u64,
    /// Fetches whose slot held a dirty page (written to NAND first).
    pub dirty_evictions: u64,
}

#[derive(Clone, Debug)]
pub struct DramTable {
    slots: Vec<Slot>,
    /// log2 of the entries per translation page.
    shift: u32,
    store: HashMap<u64, u32>,
    stats: DramTableStats,
}

impl DramTable {
    /// `slots` slots (>= 1) of translation pages of `entries` entries (a power of two).
    pub fn new(slots: u64, entries: u64) -> DramTable {
        assert!(
            slots >= 1,
            "the DRAM table needs at least one translation-page slot"
        );
        assert!(entries.is_power_of_two(), "entries per page: {entries}");
        DramTable {
            slots: (0..slots).map(|tp| Slot { tp, dirty: false }).collect(),
            shift: entries.trailing_zeros(),
            store: HashMap::default(),
            stats: DramTableStats::default(),
        }
    }

    pub fn slots(&self) -> u64 {
        self.slots.len() as u64
    }

    pub fn stats(&self) -> &DramTableStats {
        &self.stats
    }

    /// Translation page of `lpn`.
    #[inline]
    pub fn tp_of(&self, lpn: u64) -> u64 {
        lpn >> self.shift
    }

    fn slot_of(&self, lpn: u64) -> usize {
        (self.tp_of(lpn) % self.slots()) as usize
    }

    /// The slot of `lpn`'s page, which must be resident (`what` names the caller's operation).
    fn resident_slot(&self, lpn: u64, what: &str) -> usize {
        let idx = self.slot_of(lpn);
        assert_eq!(
            self.slots[idx].tp,
            self.tp_of(lpn),
            "{what} a non-resident translation page"
        );
        idx
    }

    /// One access to `lpn`'s entry (a write when `dirty`): makes its page resident, returns the
    /// fetch when it was not, and marks the page dirty on a write.
    pub fn access(&mut self, lpn: u64, dirty: bool) -> Option<TpFetch> {
        let tp = self.tp_of(lpn);
        let idx = self.slot_of(lpn);
        let s = self.slots[idx];
        self.stats.accesses += 1;
        let fetch = (s.tp != tp).then(|| {
            self.stats.fetches += 1;
            self.stats.dirty_evictions += s.dirty as u64;
            self.slots[idx].tp = tp;
            self.slots[idx].dirty = false;
            TpFetch {
                tp,
                slot: idx as u64,
                evicted_tp: s.tp,
                evicted_dirty: s.dirty,
            }
        });
        self.slots[idx].dirty |= dirty;
        fetch
    }

    /// Make the page holding `lpn` resident (a read access); returns the fetch when it was not.
    pub fn ensure(&mut self, lpn: u64) -> Option<TpFetch> {
        self.access(lpn, false)
    }

    /// Write a line of entries back (the page must be resident: call `ensure` first).
    pub fn write_line(&mut self, first_lpn: u64, data: &[u32]) {
        let idx = self.resident_slot(first_lpn, "write-back to");
        self.slots[idx].dirty = true;
        for (i, &v) in data.iter().enumerate() {
            if v == UNMAPPED {
                // An empty store holds nothing to remove.
                if !self.store.is_empty() {
                    self.store.remove(&(first_lpn + i as u64));
                }
            } else {
                self.store.insert(first_lpn + i as u64, v);
            }
        }
    }

    /// Read a line of entries (the page must be resident).
    pub fn read_line(&self, first_lpn: u64, out: &mut [u32]) {
        self.resident_slot(first_lpn, "line fill from");
        if self.store.is_empty() {
            out.fill(UNMAPPED);
            return;
        }
        for (i, o) in out.iter_mut().enumerate() {
            *o = self
                .store
                .get(&(first_lpn + i as u64))
                .copied()
                .unwrap_or(UNMAPPED);
        }
    }

    /// Value of one entry as the level below the SRAM cache holds it.
    pub fn value(&self, lpn: u64) -> u32 {
        self.store.get(&lpn).copied().unwrap_or(UNMAPPED)
    }
}
