//! Flash translation layer: the contract between the functional FTL and the timed drive.
//!
//! The FTL is functional: it decides *what* happens to flash (mapping updates, block allocation,
//! garbage collection, SLC folding) and expresses it as a batch of [`NandOp`]s. The drive
//! (`crate::drive`) decides *when*: it times each op on its die and channel. The same FTL code
//! therefore serves the timed mode and the fast functional warm-up (which applies the state
//! transitions and drops the ops). Source: MQSim's layering (Tavakkol et al., FAST'18).

pub use crate::nand::NandOpKind;
use crate::nand::{CellMode, PhysPage};

pub mod map_cache;

/// Why an op exists; used for statistics (write amplification, NAND op counts by cause).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpPurpose {
    HostRead,
    HostWrite,
    ReadAhead,
    GcRead,
    GcWrite,
    FoldRead,
    FoldWrite,
    WearLevelRead,
    WearLevelWrite,
    MapRead,
    MapWrite,
    Erase,
}

/// One operation on one die, possibly multi-plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NandOp {
    pub kind: NandOpKind,
    pub mode: CellMode,
    /// First plane's address; multi-plane ops use the same block/page offsets on `planes` planes
    /// starting at `addr.plane`.
    pub addr: PhysPage,
    /// Planes addressed together (1 = single plane).
    pub planes: u8,
    /// Bytes moved over the channel bus (data + spare as transferred).
    pub bus_bytes: u32,
    pub purpose: OpPurpose,
    /// Index (into the same batch) of an op that must complete before this one starts,
    /// e.g. a GC program after the read of the data it moves.
    pub after: Option<u32>,
}
