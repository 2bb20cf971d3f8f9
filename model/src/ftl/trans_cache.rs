//! DRAM cache of translation pages (the logical-to-physical table, 4 B per 4 KiB unit, grouped
//! into flash pages of `page_bytes / 4` entries). A miss reads the page from the translation log
//! (MapRead); evicting a dirty page writes it back (MapWrite). When the DRAM table holds every
//! page (1 MiB of DRAM per GiB of capacity), nothing is ever read or written back. Replacement is
//! a policy behind [`Replacement`] (LRU in `lru.rs`). Source: DFTL (Gupta et al., ASPLOS'09).

use super::layout::Layout;
use super::lru::Lru;
use super::map_log::MapLog;
use super::stats::FtlStats;
use super::NandOp;

/// Cache replacement over dense table-page numbers.
pub trait Replacement: std::fmt::Debug + Send {
    /// `k` (resident) was used.
    fn touch(&mut self, k: u32);
    /// `k` became resident.
    fn insert(&mut self, k: u32);
    /// Removes and returns the page to evict (the cache is not empty).
    fn evict(&mut self) -> u32;
}

#[derive(Debug)]
pub struct TransCache {
    /// Entries per table page.
    entries_shift: u32,
    all_resident: bool,
    capacity: u64,
    resident: Vec<bool>,
    dirty: Vec<bool>,
    count: u64,
    repl: Box<dyn Replacement>,
    pub log: MapLog,
}

impl TransCache {
    pub fn new(l: &Layout) -> TransCache {
        let p = l.plan;
        let entries = l.page_bytes / 4;
        assert!(entries.is_power_of_two());
        let all_resident = p.cached_table_pages >= p.table_pages;
        let n = if all_resident {
            0
        } else {
            p.table_pages as usize
        };
        assert!(
            all_resident || p.cached_table_pages >= 1,
            "a DRAM table cache of zero pages"
        );
        TransCache {
            entries_shift: entries.trailing_zeros(),
            all_resident,
            capacity: p.cached_table_pages,
            resident: vec![false; n],
            dirty: vec![false; n],
            count: 0,
            repl: Box::new(Lru::new(n as u32)),
            log: MapLog::new(l),
        }
    }

    #[inline]
    pub fn all_resident(&self) -> bool {
        self.all_resident
    }

    /// One access to `lpn`'s entry (an update when `dirty`): pushes the MapRead of a miss and the
    /// MapWrite of a dirty eviction.
    #[inline]
    pub fn access(
        &mut self,
        l: &Layout,
        lpn: u64,
        dirty: bool,
        ops: &mut Vec<NandOp>,
        st: &mut FtlStats,
    ) {
        if self.all_resident {
            return;
        }
        let t = (lpn >> self.entries_shift) as u32;
        if self.resident[t as usize] {
            self.repl.touch(t);
            self.dirty[t as usize] |= dirty;
            return;
        }
        self.log.read(l, t, ops, st);
        if self.count == self.capacity {
            let v = self.repl.evict();
            self.resident[v as usize] = false;
            self.count -= 1;
            if self.dirty[v as usize] {
                self.dirty[v as usize] = false;
                self.log.write_back(l, v, ops, st);
            }
        }
        self.repl.insert(t);
        self.resident[t as usize] = true;
        self.dirty[t as usize] = dirty;
        self.count += 1;
        debug_assert!(self.count <= self.capacity);
    }
}
