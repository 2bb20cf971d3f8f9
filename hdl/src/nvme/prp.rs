//! PRP data path of the front end (NVM Express Base Specification 1.4, section 4.3 "Physical
//! Region Page Entry and List"; PCI Express Base 3.0, sections 2.2.7 and 2.3.1.1), mirroring the
//! behavioural model's `ssdlab_model::nvme::frontend::{prp, datapath}`:
//! - [`walk`] (`PrpWalk`) — screens PRP1/PRP2 and the length, fetches the PRP list (chained list
//!   pages included) with MRd ≤ MRRS, and hands out the transfer's memory-page segments in order;
//! - [`split`] (`PrpSplit`) — cuts each segment into requests ≤ MRRS (reads) or ≤ MPS (writes)
//!   ending on naturally aligned boundaries, so no request crosses 4 KiB;
//! - [`write_data`] (`PrpWriteData`) — host→device data (NVM Write): MRd with 32 tags, in-order completion
//!   reassembly (completions split at the RCB), dword repacking onto the data-buffer port;
//! - [`read_data`] (`PrpReadData`) — the data path's RQ stream master: MRd descriptors of `walk`/`write_data`, and
//!   device→host data (NVM Read) as MWr ≤ MPS whose payload it realigns from the buffer port;
//! - [`dma`] (`PrpDma`) — the composition, one command at a time.
//!
//! Tags: data reads use 0x20..0x3F (5-bit sequence number), PRP list reads 0x40, so the SQ fetch
//! tags 0..3 of `sq_fetch` stay distinct when the data path shares the requester streams.
//! Limits: transfers of 4 B..128 KiB in whole dwords (MDTS = 5 of the model's Identify), memory
//! page 4 KiB (CC.MPS = 0); at most 32 data PRP entries, spread over any number of chained list
//! pages. Completions must arrive in request order (tags are checked; a reordered, failed or
//! missing completion ends the command with Data Transfer Error 04h instead of hanging).

pub mod dma;
#[cfg(test)]
mod faults;
pub mod list;
pub mod ports;
pub mod read_data;
pub mod split;
pub mod walk;
pub mod write_data;

use rust_hdl::prelude::*;

/// Tag of PRP list reads.
pub const LIST_TAG: u8 = 0x40;
/// First data read tag; data reads use `DATA_TAG_BASE | (sequence number mod 32)`.
pub const DATA_TAG_BASE: u8 = 0x20;
/// Largest transfer, bytes (MDTS 5 × 4 KiB).
pub const MAX_TRANSFER: u32 = 128 * 1024;
/// Data PRP entries the walker stores (a 128 KiB transfer at a dword offset spans 33 pages).
pub const MAX_ENTRIES: usize = 32;

/// Status field (SCT in bits 10:8, SC in 7:0) values the data path reports.
pub mod status {
    use ssdlab_model::encoding::nvme::Status;
    pub fn success() -> u16 {
        Status::SUCCESS.field()
    }
    /// Length 0, not whole dwords, or above MDTS.
    pub fn invalid_field() -> u16 {
        Status::INVALID_FIELD.field()
    }
    pub fn prp_offset_invalid() -> u16 {
        Status::PRP_OFFSET_INVALID.field()
    }
    /// Generic 04h Data Transfer Error (Figure 126): a completion failed, came out of order or
    /// never came.
    pub fn data_transfer_error() -> u16 {
        Status { sct: 0, sc: 0x04 }.field()
    }
}

/// A dword address (byte address / 4) from a 4 KiB page frame number and a dword offset.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct DwPageAddr {
    pub off: Bits<10>,
    pub pfn: Bits<52>,
}

/// A 10-bit dword offset in a page zero-extended to 11 bits (room for the page end, 1024).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Off11 {
    pub off: Bits<10>,
    pub pad: Bit,
}

/// A byte address from a dword address (the request descriptor's address field).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct DwToByte {
    pub zero: Bits<2>,
    pub dw: Bits<62>,
}

/// Two 128-bit beats as one 256-bit word (for dword realignment shifts).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Beat2 {
    pub lo: Bits<128>,
    pub hi: Bits<128>,
}

/// An 11-bit value zero-extended to 16 bits.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Ext16 {
    pub v: Bits<11>,
    pub pad: Bits<5>,
}

/// A 9-bit qword offset in a page zero-extended to 10 bits.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Ext10 {
    pub v: Bits<9>,
    pub pad: Bit,
}

/// A 6-bit entry count zero-extended to 10 bits.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Cnt10 {
    pub v: Bits<6>,
    pub pad: Bits<4>,
}

/// An 11-bit dword count as a 13-bit byte count.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct DwBytes {
    pub zero: Bits<2>,
    pub dw: Bits<11>,
}

/// A 6-bit entry count as an 11-bit dword count (two dwords per entry).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct EntDw {
    pub zero: Bit,
    pub n: Bits<6>,
    pub pad: Bits<4>,
}

/// A data read tag: 5-bit sequence number under the data tag prefix.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct DataTag {
    pub seq: Bits<5>,
    pub hi: Bits<3>,
}

/// Generated Verilog of the data-path blocks, named as `make verilog` writes them.
pub fn verilog_blocks() -> Vec<(&'static str, String)> {
    vec![
        ("nvme_prp_split", split::export_verilog()),
        ("nvme_prp_list", list::export_verilog()),
        ("nvme_prp_walk", walk::export_verilog()),
        ("nvme_prp_write_data", write_data::export_verilog()),
        ("nvme_prp_read_data", read_data::export_verilog()),
        ("nvme_prp_dma", dma::export_verilog()),
    ]
}
