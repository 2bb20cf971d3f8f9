//! The FTL's DRAM table over its NAND translation pages: the levels below the SRAM entry cache
//! (`map_cache`) in the mapping hierarchy. The logical-to-physical table (4 B per 4 KiB unit) is
//! grouped into translation pages of `page_bytes / 4` entries, one flash page each; the DRAM holds
//! them in a [`DramTable`] (direct-mapped slots, the HDL's rule). A fetch of a page that has a
//! flash copy reads it from the translation log (MapRead); a fetch that replaces a dirty page
//! writes that one back first (MapWrite, [`MapLog`]). When the DRAM table holds every page
//! (1 MiB of DRAM per GiB of capacity), nothing is ever read or written back and no access is
//! made. Source: DFTL (Gupta et al., ASPLOS'09).

use super::dram_table::{DramTable, DramTableStats};
use super::layout::Layout;
use super::map_log::MapLog;
use super::stats::FtlStats;
use super::NandOp;

#[derive(Debug)]
pub struct MapTable {
    all_resident: bool,
    dram: DramTable,
    pub log: MapLog,
}

impl MapTable {
    /// The boot state: DRAM slot `i` holds translation page `i` (see [`DramTable`]).
    pub fn new(l: &Layout) -> MapTable {
        let p = l.plan;
        let entries = l.page_bytes / 4;
        assert!(
            p.cached_table_pages >= 1,
            "a DRAM table of zero translation pages"
        );
        MapTable {
            all_resident: p.cached_table_pages >= p.table_pages,
            dram: DramTable::new(
                p.cached_table_pages.min(p.table_pages.max(1)),
                entries as u64,
            ),
            log: MapLog::new(l),
        }
    }

    #[inline]
    pub fn all_resident(&self) -> bool {
        self.all_resident
    }

    /// Accesses to the table and the pages they fetched (none while every page is resident:
    /// then the FTL makes no access).
    pub fn stats(&self) -> &DramTableStats {
        self.dram.stats()
    }

    /// One access to `lpn`'s entry (an update when `dirty`): pushes the MapWrite of the dirty
    /// page its fetch replaces, then the MapRead of the page (when it has a flash copy).
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
        if let Some(f) = self.dram.access(lpn, dirty) {
            if f.evicted_dirty {
                self.log.write_back(l, f.evicted_tp as u32, ops, st);
            }
            self.log.read(l, f.tp as u32, ops, st);
        }
    }
}
