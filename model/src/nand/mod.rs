//! The NAND array: addresses, cell modes, dies and the per-channel sequencer (ONFI bus timing).
//! Source: ONFI 4.1 (addressing, command set), Micron B16A public summaries.

pub mod die;
pub mod phy;
pub mod sequencer;
pub mod suspend;

pub use die::{Die, NandTiming};

/// One die (LUN): channel, way (chip enable / target) on that channel, die within the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct DieId {
    pub channel: u16,
    pub way: u8,
    pub die: u8,
}

/// A physical page: die, plane, block (within the plane) and page (within the block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PhysPage {
    pub die: DieId,
    pub plane: u8,
    pub block: u32,
    pub page: u32,
}

/// How a block is programmed: SLC (1 bit/cell, fast) or the native TLC mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CellMode {
    Slc,
    #[default]
    Tlc,
}

/// The three NAND array operations (cache read and multi-plane are variants the sequencer chooses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NandOpKind {
    /// Page read (tR by page type), then `bus_bytes` out over the channel.
    Read,
    /// `bus_bytes` in over the channel, then tPROG. A one-shot TLC program carries all 3 pages.
    Program,
    /// Block erase (tBERS); no data on the bus.
    Erase,
}
