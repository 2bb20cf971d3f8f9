//! The DRAM level behind the mapping cache: translation pages (4 KiB, 1024 entries) held in a
//! direct-mapped array of DRAM slots (`slot = tp mod slots`). A table that does not fit
//! (`ftl.map_cache.dram_table_mb` smaller than 1 MiB per GiB of capacity) is only partly resident;
//! touching a non-resident page is a translation-page fetch from NAND (and, when the slot held a
//! page that was written back into, a translation-page write to NAND first).
//!
//! Boot state: slot `i` holds translation page `i`, clean (the firmware loads the head of the table
//! at power-on). A table with at most `slots` pages therefore never fetches. Values are held once,
//! in `store` (entries never updated read as [`UNMAPPED`]): moving a clean or dirty page between
//! DRAM and NAND does not change any value, only the events reported.

use super::{TpFetch, UNMAPPED};
use std::collections::HashMap;

/// Entries per translation page: 4 KiB / 4 B.
pub const TP_ENTRIES: u64 = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    tp: u64,
    dirty: bool,
}

#[derive(Clone, Debug)]
pub struct DramTable {
    slots: Vec<Slot>,
    store: HashMap<u64, u32>,
}

impl DramTable {
    pub fn new(slots: u64) -> DramTable {
        assert!(
            slots >= 1,
            "the DRAM table needs at least one translation-page slot"
        );
        DramTable {
            slots: (0..slots).map(|tp| Slot { tp, dirty: false }).collect(),
            store: HashMap::new(),
        }
    }

    pub fn slots(&self) -> u64 {
        self.slots.len() as u64
    }

    /// Translation page of `lpn`.
    pub fn tp_of(lpn: u64) -> u64 {
        lpn / TP_ENTRIES
    }

    /// Make the page holding `lpn` resident; returns the fetch when it was not.
    pub fn ensure(&mut self, lpn: u64) -> Option<TpFetch> {
        let tp = Self::tp_of(lpn);
        let idx = (tp % self.slots()) as usize;
        let s = self.slots[idx];
        if s.tp == tp {
            return None;
        }
        self.slots[idx] = Slot { tp, dirty: false };
        Some(TpFetch {
            tp,
            slot: idx as u64,
            evicted_tp: s.tp,
            evicted_dirty: s.dirty,
        })
    }

    /// Write a line of entries back (the page must be resident: call `ensure` first).
    pub fn write_line(&mut self, first_lpn: u64, data: &[u32]) {
        let idx = (Self::tp_of(first_lpn) % self.slots()) as usize;
        assert_eq!(
            self.slots[idx].tp,
            Self::tp_of(first_lpn),
            "write-back to a non-resident translation page"
        );
        self.slots[idx].dirty = true;
        for (i, &v) in data.iter().enumerate() {
            if v == UNMAPPED {
                // An empty store holds nothing to remove (the drive's tag-only updates).
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
        let idx = (Self::tp_of(first_lpn) % self.slots()) as usize;
        assert_eq!(
            self.slots[idx].tp,
            Self::tp_of(first_lpn),
            "line fill from a non-resident translation page"
        );
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
