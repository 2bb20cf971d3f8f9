//! On-chip SRAM cache of logical-to-physical mapping entries, in front of the DRAM table.
//! Mirrored decision-for-decision by `ssdlab_hdl::ftl::map_cache`.
