//! The firmware port of the datapath top level (`hdl/src/top.rs`, contract docs/hdl.md
//! section "Ports of `top`", item 4) as typed Rust values: what the firmware offers on each
//! request port (held until the hardware takes it), what the hardware reports back, and the
//! transaction records the scoreboard compares. Every execution (behavioural model, rust_hdl,
//! Verilator) speaks exactly this, so the firmware and the recording are shared.

use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind};

/// A mapping-cache request (`map_req_*`): lookup, or update with a new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapReq {
    pub id: u8,
    pub lpn: u32,
    pub update: Option<u32>,
}

/// A NAND op for the array (`nand_cmd_*`): channel, way and the packed op word
/// (`ssdlab_hdl::nand::op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NandReq {
    pub channel: u8,
    pub way: u8,
    pub op: u128,
    /// Array time of the op in core cycles: not a port signal, bench information for the
    /// executions (the model's sequencer, the NAND target's R/B#).
    pub array_cycles: u64,
}

/// A data move between host memory (PRPs) and one way's page-buffer region (`dma_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaReq {
    pub to_host: bool,
    pub prp1: u64,
    pub prp2: u64,
    /// Bytes.
    pub len: u32,
    pub channel: u8,
    pub way: u8,
    /// Byte offset in the region.
    pub offset: u32,
}

/// A completion request (`cpl_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CplReq {
    pub sqid: u16,
    pub cid: u16,
    /// Status field (SCT 10:8, SC 7:0).
    pub status: u16,
}

/// A queue create/delete for the front end (`qc_*`), from an admin command.
pub use ssdlab_model::nvme::frontend::queue_op::QueueOp as QcReq;

/// The head of each firmware request queue this cycle (`None`: nothing offered).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    pub map: Option<MapReq>,
    pub nand: Option<NandReq>,
    pub dma: Option<DmaReq>,
    pub cpl: Option<CplReq>,
    pub qc: Option<QcReq>,
}

/// Which offers the hardware took this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Taken {
    pub map: bool,
    pub nand: bool,
    pub dma: bool,
    pub cpl: bool,
    pub qc: bool,
}

/// A mapping-cache decision (`map_dec_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapDec {
    pub id: u8,
    pub hit: bool,
    pub way: u8,
    /// Evicted line's first lpn and whether it was dirty.
    pub evict: Option<(u32, bool)>,
}

/// What the hardware reports to the firmware in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwEvent {
    /// A fetched command (`cmd_*`).
    Cmd {
        sqid: u16,
        sqe: Sqe,
    },
    MapDec(MapDec),
    /// Lookup/update response with the entry value (`map_resp_*`).
    MapResp {
        id: u8,
        data: u32,
    },
    /// A NAND op of (channel, way) completed (`nand_done_valid$c`). Ops of a way complete in
    /// order, except a read run in a program/erase suspension: it completes before the program
    /// or erase ahead of it.
    NandDone {
        channel: u8,
        way: u8,
        /// The op is the first read behind the way's oldest op, which it suspended (bench
        /// information, not a port signal: the model knows the op, the hardware bench reads
        /// the NAND target's suspend state).
        overtook: bool,
    },
    /// The DMA in flight ended (`dma_done`, `dma_status`).
    DmaDone {
        status: u16,
    },
}

/// Class of a device TLP, by the host-memory region it addresses (see `host::Layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TlpClass {
    /// SQ entry fetch (MRd of an SQ).
    Fetch,
    /// CQ entry post (MWr to a CQ).
    Cqe,
    /// MSI-X message.
    Msi,
    /// Data of one 4 KiB host buffer page (page n of the data area): one DMA moves it, and the
    /// commands using it run one after another, so its order does not depend on timing.
    Data(u32),
    /// PRP-list reads of one command slot.
    List(u16),
    /// Anything else.
    Other,
}

/// A device TLP as the root complex saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TlpRec {
    pub kind: TlpKind,
    pub addr: u64,
    pub len: u32,
    pub cycle: Cycle,
}

/// A NAND op from issue (taken by the array) to completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NandRec {
    pub channel: u8,
    pub way: u8,
    pub op: u128,
    pub issue: Cycle,
    pub done: Cycle,
}

/// A mapping decision and its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapRec {
    pub dec: MapDec,
    pub cycle: Cycle,
}

/// A completion as the host saw it: its CQE's MWr cycle and the command's doorbell cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CplRec {
    pub sqid: u16,
    pub cid: u16,
    pub status: u16,
    pub submitted: Cycle,
    pub cycle: Cycle,
}

/// Everything one execution recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Streams {
    pub tlps: Vec<(TlpClass, TlpRec)>,
    /// NAND ops in issue order (done filled in when the op completes).
    pub nand: Vec<NandRec>,
    pub map: Vec<MapRec>,
    pub cpl: Vec<CplRec>,
    /// Program/erase suspends issued (`DatapathExec::suspends`).
    pub suspends: u64,
    /// Cycles run.
    pub cycles: Cycle,
}

impl Streams {
    /// Transactions recorded (TLPs + NAND ops + map decisions + completions).
    pub fn transactions(&self) -> usize {
        self.tlps.len() + self.nand.len() + self.map.len() + self.cpl.len()
    }
}
