//! FTL counters: host and NAND traffic (write amplification), garbage collection, SLC cache
//! occupancy, folding, wear levelling, mapping-table traffic. Units in names; updated by the FTL
//! as it emits ops, so they count what the NAND is asked to do.

/// Counters since the FTL was created (the drive keeps measurement windows by differencing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FtlStats {
    /// 4 KiB units the host wrote.
    pub host_units_written: u64,
    /// 4 KiB units programmed into NAND for any reason (host, GC, folding, wear levelling,
    /// padding of partly filled program units, translation pages).
    pub nand_units_written: u64,
    /// 4 KiB units the host read, and how they were served.
    pub host_units_read: u64,
    pub host_units_buffered: u64,
    pub host_units_unmapped: u64,
    /// Page-read ops (each counts once however many planes) issued for host reads / read-ahead.
    pub host_read_ops: u64,
    pub read_ahead_ops: u64,
    pub read_ahead_units: u64,
    /// Blocks collected by GC (foreground + background) and the valid units they moved.
    pub gc_blocks: u64,
    pub gc_foreground_blocks: u64,
    pub gc_units_moved: u64,
    /// SLC blocks folded into TLC and the units moved.
    pub fold_blocks: u64,
    pub fold_units_moved: u64,
    /// Static wear-levelling relocations.
    pub wl_blocks: u64,
    pub wl_units_moved: u64,
    pub erases: u64,
    /// Padding units programmed to close a partly filled program unit (flush).
    pub pad_units: u64,
    /// Translation-page reads (cache misses) and write-backs.
    pub map_reads: u64,
    pub map_writes: u64,
    /// SLC cache occupancy now: blocks in SLC mode holding data, and valid bytes in them.
    pub slc_blocks: u64,
    pub slc_valid_bytes: u64,
    /// Free die-blocks now (all pools).
    pub free_blocks: u64,
    /// Erase counts over general blocks now.
    pub erase_count_min: u32,
    pub erase_count_max: u32,
    /// Reads verified by the integrity checker and violations found (must stay 0).
    pub integrity_checked_units: u64,
    pub integrity_violations: u64,
}

impl FtlStats {
    /// NAND bytes written / host bytes written (0 before any host write).
    pub fn write_amplification(&self) -> f64 {
        if self.host_units_written == 0 {
            0.0
        } else {
            self.nand_units_written as f64 / self.host_units_written as f64
        }
    }
}
