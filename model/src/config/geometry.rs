//! NAND array geometry: channels, ways (chip enables) per channel, dies, planes, blocks, pages.
//! Source: ONFI 4.x addressing model; Micron B16A (64L TLC, 256 Gbit) data sheet summary.

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GeometryConfig {
    /// ONFI channels (independent buses).
    pub channels: u32,
    /// Targets (chip enables, "ways") per channel.
    pub ways_per_channel: u32,
    /// Dies (LUNs) per target.
    pub dies_per_way: u32,
    /// Planes per die.
    pub planes_per_die: u32,
    /// Erase blocks per plane (TLC blocks as shipped).
    pub blocks_per_plane: u32,
    /// Word lines per block; a TLC block holds 3 pages per word line.
    pub wordlines_per_block: u32,
    /// User data bytes per page (excluding spare).
    pub page_bytes: u32,
    /// Spare (out-of-band) bytes per page.
    pub spare_bytes: u32,
    /// Bits per cell of the native mode (3 = TLC).
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
