//! NAND array geometry: channels, ways (chip enables) per channel, dies, planes, blocks, pages.
//! Source: ONFI 4.x addressing model; Micron B16A (64L TLC, 256 Gbit) data sheet summary.

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

/// `[geometry]`: the NAND array's shape.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GeometryConfig {
    /// ONFI channels (independent buses).
    /// Unit: channels. Range: 1..=64. Moves: every throughput bound by the NAND buses or dies.
    pub channels: u32,
    /// Targets (chip enables, "ways") per channel.
    /// Unit: targets. Range: 1..=16. Moves: die parallelism (random IOPS, steady writes).
    pub ways_per_channel: u32,
    /// Dies (LUNs) per target.
    /// Unit: dies. Range: 1..=8. Moves: die parallelism.
    pub dies_per_way: u32,
    /// Planes per die, programmed and erased together (multi-plane).
    /// Unit: planes. Range: 1, 2 or 4. Moves: program and read bandwidth per die.
    pub planes_per_die: u32,
    /// Erase blocks per plane (native-mode blocks as shipped, spares included).
    /// Unit: blocks. Range: >= 4. Moves: capacity, and with OP the spare area GC works in.
    pub blocks_per_plane: u32,
    /// Word lines per block; a TLC block holds 3 pages per word line.
    /// Unit: word lines. Range: >= 1. Moves: block size (GC granularity).
    pub wordlines_per_block: u32,
    /// User data bytes per page (excluding spare).
    /// Unit: bytes. Range: multiple of 4096. Moves: bus time per page, capacity.
    pub page_bytes: u32,
    /// Spare (out-of-band) bytes per page, moved on the bus with the page.
    /// Unit: bytes. Range: >= 0. Moves: bus time per page.
    pub spare_bytes: u32,
    /// Bits per cell of the native mode (3 = TLC).
    /// Unit: bits. Range: 1..=3. Moves: capacity, pages per block.
    pub bits_per_cell: u32,
}

impl GeometryConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            self.channels >= 1 && self.channels <= 64,
            "geometry.channels",
            "must be 1..=64",
        )?;
        check(
            self.ways_per_channel >= 1 && self.ways_per_channel <= 16,
            "geometry.ways_per_channel",
            "must be 1..=16",
        )?;
        check(
            self.dies_per_way >= 1 && self.dies_per_way <= 8,
            "geometry.dies_per_way",
            "must be 1..=8",
        )?;
        check(
            matches!(self.planes_per_die, 1 | 2 | 4),
            "geometry.planes_per_die",
            "must be 1, 2 or 4",
        )?;
        // The bounds keep every product of geometry fields inside u32 (pages per block) and
        // the physical unit count inside the FTL's 32-bit addresses (checked in the capacity
        // plan); real parts have hundreds to a few thousand of each.
        check(
            (4..=1 << 20).contains(&self.blocks_per_plane),
            "geometry.blocks_per_plane",
            "must be 4..=1048576",
        )?;
        check(
            (1..=1 << 16).contains(&self.wordlines_per_block),
            "geometry.wordlines_per_block",
            "must be 1..=65536",
        )?;
        // A translation page holds page_bytes / 4 entries; the table cache indexes them by
        // shifts, so the page is a power of two.
        check(
            (4096..=1 << 20).contains(&self.page_bytes) && self.page_bytes.is_power_of_two(),
            "geometry.page_bytes",
            "must be a power of two from 4096 (the 4 KiB mapping unit) to 1048576",
        )?;
        check(
            self.spare_bytes <= self.page_bytes,
            "geometry.spare_bytes",
            "must be at most geometry.page_bytes",
        )?;
        check(
            matches!(self.bits_per_cell, 1..=3),
            "geometry.bits_per_cell",
            "must be 1 (SLC), 2 (MLC) or 3 (TLC)",
        )?;
        Ok(())
    }
    pub fn dies(&self) -> u32 {
        self.channels * self.ways_per_channel * self.dies_per_way
    }
    pub fn planes(&self) -> u32 {
        self.dies() * self.planes_per_die
    }
    /// Pages per block in the native cell mode.
    pub fn pages_per_block(&self) -> u32 {
        self.wordlines_per_block * self.bits_per_cell
    }
    /// Raw user capacity in bytes in the native mode.
    pub fn raw_bytes(&self) -> u64 {
        self.planes() as u64
            * self.blocks_per_plane as u64
            * self.pages_per_block() as u64
            * self.page_bytes as u64
    }
    /// 4 KiB mapping units per page.
    pub fn units_per_page(&self) -> u32 {
        self.page_bytes / 4096
    }
}
