//! What the SRAM mapping cache sits on: the level it fills lines from and writes dirty lines
//! back to. [`DramTable`] is the DRAM table of translation pages (the HDL reference runs the
//! cache over its own one, values included); [`TagsOnly`] is the drive's case, where the DRAM
//! level is the FTL's table (`ftl::map_table::MapTable`, which generates the MapRead/MapWrite
//! ops) and the cache carries tags, valid and dirty bits only.

use super::{TpFetch, UNMAPPED};
use crate::ftl::dram_table::DramTable;

/// The level below the SRAM cache, line by line.
pub trait MapBacking {
    /// Make the translation page holding `lpn` resident; the fetch when it was not.
    fn ensure(&mut self, lpn: u64) -> Option<TpFetch>;
    /// Write back a dirty line starting at `first_lpn` (its page made resident by `ensure`).
    fn write_line(&mut self, first_lpn: u64, data: &[u32]);
    /// Read the line starting at `first_lpn` (its page made resident by `ensure`).
    fn read_line(&self, first_lpn: u64, out: &mut [u32]);
    /// Value of one entry as this level holds it.
    fn value(&self, lpn: u64) -> u32;
}

impl MapBacking for DramTable {
    fn ensure(&mut self, lpn: u64) -> Option<TpFetch> {
        DramTable::ensure(self, lpn)
    }
    fn write_line(&mut self, first_lpn: u64, data: &[u32]) {
        DramTable::write_line(self, first_lpn, data)
    }
    fn read_line(&self, first_lpn: u64, out: &mut [u32]) {
        DramTable::read_line(self, first_lpn, out)
    }
    fn value(&self, lpn: u64) -> u32 {
        DramTable::value(self, lpn)
    }
}

/// No values and no residency below the cache: every line reads as [`UNMAPPED`], write-backs
/// are dropped and nothing is fetched (the owner times the DRAM bursts and lets the FTL's table
/// decide the translation-page traffic).
#[derive(Clone, Copy, Debug, Default)]
pub struct TagsOnly;

impl MapBacking for TagsOnly {
    fn ensure(&mut self, _lpn: u64) -> Option<TpFetch> {
        None
    }
    fn write_line(&mut self, _first_lpn: u64, _data: &[u32]) {}
    fn read_line(&self, _first_lpn: u64, out: &mut [u32]) {
        out.fill(UNMAPPED);
    }
    fn value(&self, _lpn: u64) -> u32 {
        UNMAPPED
    }
}
