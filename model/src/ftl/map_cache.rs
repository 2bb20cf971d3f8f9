//! On-chip SRAM cache of logical-to-physical mapping entries, in front of the DRAM table.
//! Mirrored decision-for-decision by `ssdlab_hdl::ftl::map_cache`.

/// One access to the mapping table: a lookup of `lpn`'s entry, or an update of it to `value`
/// (a physical page address, 32 bits). Recorded by the FTL, replayed by the cache model and HDL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapAccess {
    pub lpn: u64,
    /// `None` for a lookup, `Some(ppa)` for an update.
    pub update: Option<u32>,
}
