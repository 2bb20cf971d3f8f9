//! The host side of the drive's NVMe front end: host memory as the front end's TLPs see it and
//! the root complex behind the drive's PCIe link (`pcie::Link`). It implements
//! [`HostPort`] for [`crate::nvme::frontend::FrontEnd`], the block the HDL front end is checked
//! against, so the drive's SQ fetches, PRP list reads, data moves, completion entries and MSI-X
//! messages are the front end's own TLPs, each paced by the link.
//!
//! Host memory layout (one region per kind of data, so an address tells what a TLP carries):
//! - I/O SQ `qid` at [`sq_base`]: the SQ entries the host driver wrote, 64 B each;
//! - I/O CQ `qid` at [`cq_base`]: completion entries the front end writes are taken by the host;
//! - per command tag (queue, CID): a data buffer of [`MAX_CMD_BYTES`] at [`data_addr`] and one
//!   PRP list page at [`list_addr`] whose entry `i` points to page `i + 1` of that buffer (the
//!   list is generated on read: it never changes);
//! - MSI-X messages to [`MSI_ADDR`], message data = vector.
//!
//! Data bytes are not kept: the drive's data integrity is checked by the FTL's version tags
//! (`drive/integrity.rs`), so reads of the data region return zeroes and writes are dropped.
//!
//! Timing (PCI Express Base 3.0): an upstream TLP crosses the link when it reaches it (4DW
//! request header, `pcie.tlp_header_bytes`); a read's completions (3DW headers, at most MPS
//! payload each, split at MPS-aligned addresses) leave the root complex
//! `pcie.host_read_latency_ns` after the request has crossed, and the front end sees the last
//! one when it has crossed back.

use crate::config::PcieConfig;
use crate::nvme::frontend::entry::Cqe;
use crate::nvme::frontend::prp::{MAX_TRANSFER_BYTES, PAGE_BYTES};
use crate::nvme::frontend::tlp::{beats, Cycle, TlpKind, CLOCK_PS};
use crate::nvme::frontend::{HostPort, DATA_TAGS};
use crate::pcie::link::{Port, ReadShape};
use crate::pcie::{Dir, Link};
use crate::time::SimTime;
use std::collections::VecDeque;

/// Address of the MSI-X messages (the x86 interrupt window); the message data is the vector.
pub const MSI_ADDR: u64 = 0xFEE0_0000;
const CQ_REGION: u64 = 1 << 40;
const SQ_REGION: u64 = 2 << 40;
const LIST_REGION: u64 = 3 << 40;
const DATA_REGION: u64 = 1 << 48;
/// Largest command transfer (the front end's MDTS); longer host IOs are split by the host.
pub const MAX_CMD_BYTES: u32 = MAX_TRANSFER_BYTES;
/// Completion TLP header (3DW), PCIe 3.0 §2.2.9.
const CPL_HEADER_BYTES: u64 = 12;

/// Base of I/O SQ `qid` (room for 65536 entries of 64 B).
pub fn sq_base(qid: u16) -> u64 {
    SQ_REGION + ((qid as u64) << 22)
}
/// Base of I/O CQ `qid` (room for 65536 entries of 16 B).
pub fn cq_base(qid: u16) -> u64 {
    CQ_REGION + ((qid as u64) << 20)
}
fn tag(qid: u16, cid: u16) -> u64 {
    ((qid as u64) << 16) | cid as u64
}
/// Data buffer of command (`qid`, `cid`).
pub fn data_addr(qid: u16, cid: u16) -> u64 {
    DATA_REGION + tag(qid, cid) * MAX_CMD_BYTES as u64
}
/// PRP list page of command (`qid`, `cid`).
pub fn list_addr(qid: u16, cid: u16) -> u64 {
    LIST_REGION + tag(qid, cid) * PAGE_BYTES
}

/// PRP1 and PRP2 (NVMe 1.4 §4.3) describing bytes `off..off + len` of command (`qid`, `cid`)'s
/// buffer; `off` is a multiple of the page size. Past two pages PRP2 points into the command's
/// list at the entry of the page after `off`'s.
pub fn prps(qid: u16, cid: u16, off: u32, len: u32) -> (u64, u64) {
    debug_assert!((off as u64).is_multiple_of(PAGE_BYTES) && off + len <= MAX_CMD_BYTES);
    let buf = data_addr(qid, cid);
    let first = buf + off as u64;
    let pages = (len as u64).div_ceil(PAGE_BYTES);
    let prp2 = match pages {
        0 | 1 => 0,
        2 => first + PAGE_BYTES,
        _ => list_addr(qid, cid) + 8 * (off as u64 / PAGE_BYTES),
    };
    (first, prp2)
}

pub use crate::nvme::frontend::tlp::{cycle_at_or_after, edge_time};
/// The front end's requester port, free from cycle `free`, for TLPs ready at cycle `ready`.
fn requester_port(ready: Cycle, free: Cycle) -> Port {
    Port {
        period: CLOCK_PS,
        ready,
        free,
    }
}

/// Host memory and root complex (see the module doc).
#[derive(Debug)]
pub struct HostMemory {
    pub link: Link,
    /// The root complex's request header and read timing.
    rc: ReadShape,
    /// SQ entries per I/O queue id (allocated on first use), `entries` each.
    sq: Vec<Vec<[u8; 64]>>,
    entries: u32,
    /// When the last upstream TLP finished crossing (its completions or its write land then).
    up_end: SimTime,
    /// Per CQ id: (arrival, CID) of completion entries not yet taken by the host, in order.
    pub cqes: Vec<VecDeque<(SimTime, u16)>>,
    /// MSI-X messages that arrived: (arrival, vector), oldest first.
    pub msis: Vec<(SimTime, u16)>,
}

impl HostMemory {
    pub fn new(pcie: &PcieConfig, queue_pairs: usize, entries: u32) -> Self {
        HostMemory {
            link: Link::new(pcie),
            rc: ReadShape {
                req_header: pcie.tlp_header_bytes as u64,
                cpl_header: CPL_HEADER_BYTES,
                mps: pcie.mps_bytes as u64,
                latency: SimTime::from_ns_f64(pcie.host_read_latency_ns),
            },
            sq: vec![Vec::new(); queue_pairs],
            entries,
            up_end: SimTime::ZERO,
            cqes: vec![VecDeque::new(); queue_pairs],
            msis: Vec::new(),
        }
    }

    /// The host driver writes an SQ entry into slot `slot` of SQ `qid`.
    pub fn put_sqe(&mut self, qid: u16, slot: u32, sqe: [u8; 64]) {
        let q = &mut self.sq[qid as usize];
        if q.is_empty() {
            q.resize(self.entries as usize, [0; 64]);
        }
        q[slot as usize] = sqe;
    }

    /// The SQ entry at `addr`, an address in the SQ region.
    fn sqe_at(&self, addr: u64) -> [u8; 64] {
        let qid = ((addr - SQ_REGION) >> 22) as usize;
        let slot = ((addr - sq_base(qid as u16)) / 64) as usize;
        self.sq[qid][slot]
    }

    fn region_bytes(&self, addr: u64, len: u32) -> Vec<u8> {
        if (SQ_REGION..LIST_REGION).contains(&addr) {
            assert_eq!(len, 64, "SQ fetches read one 64 B entry");
            return self.sqe_at(addr).to_vec();
        }
        if (LIST_REGION..DATA_REGION).contains(&addr) {
            let page = (addr - LIST_REGION) / PAGE_BYTES;
            let first = (addr % PAGE_BYTES) / 8;
            let buf = DATA_REGION + page * MAX_CMD_BYTES as u64;
            return (first..first + len as u64 / 8)
                .flat_map(|i| (buf + (i + 1) * PAGE_BYTES).to_le_bytes())
                .collect();
        }
        vec![0; len as usize]
    }
}

impl HostPort for HostMemory {
    fn read(&mut self, cycle: Cycle, addr: u64, len: u32) -> (Vec<u8>, Cycle) {
        let data = self.region_bytes(addr, len);
        (data, self.read_timing(cycle, addr, len))
    }

    fn read_sqe(&mut self, cycle: Cycle, addr: u64) -> ([u8; 64], Cycle) {
        assert!(
            (SQ_REGION..LIST_REGION).contains(&addr),
            "SQ fetch outside the SQs at {addr:#x}"
        );
        let sqe = self.sqe_at(addr);
        (sqe, self.read_timing(cycle, addr, 64))
    }

    /// The request went up at `_cycle` ([`HostPort::upstream`], which set `up_end`).
    fn read_timing(&mut self, _cycle: Cycle, addr: u64, len: u32) -> Cycle {
        cycle_at_or_after(self.link.completions(&self.rc, self.up_end, addr, len))
    }

    fn write_timing(&mut self, _cycle: Cycle, addr: u64, _len: u32) {
        debug_assert!(addr >= DATA_REGION, "only data moves go without bytes");
    }

    fn write(&mut self, _cycle: Cycle, addr: u64, data: &[u8]) {
        if addr == MSI_ADDR {
            let v = u32::from_le_bytes(data[..4].try_into().expect("4 B MSI-X data"));
            self.msis.push((self.up_end, v as u16));
        } else if (CQ_REGION..SQ_REGION).contains(&addr) {
            let qid = ((addr - CQ_REGION) >> 20) as usize;
            let cqe = Cqe::decode(data);
            assert!(
                cqe.status.sc == 0 && cqe.status.sct == 0,
                "drive command failed: {cqe:?}"
            );
            self.cqes[qid].push_back((self.up_end, cqe.cid));
        }
    }

    /// The same link and port arithmetic as one `upstream` and `read_timing` per TLP, in one
    /// link train.
    fn upstream_reads(
        &mut self,
        ready: Cycle,
        port_free: Cycle,
        reqs: &[(u64, u32)],
    ) -> (Cycle, Cycle) {
        let mut port = requester_port(ready, port_free);
        let beats = beats(TlpKind::MemRead, 0);
        let Some(r) = self
            .link
            .read_train::<DATA_TAGS>(&self.rc, &mut port, reqs, beats)
        else {
            return (port_free, ready);
        };
        self.up_end = r.up_end;
        // After the latest completion of all: the latest of the cycles after each one.
        (port.free, ready.max(cycle_at_or_after(r.last) + 1))
    }

    /// The same link and port arithmetic as one `upstream` per TLP, in one link train.
    fn upstream_writes(&mut self, ready: Cycle, port_free: Cycle, reqs: &[(u64, u32)]) -> Cycle {
        debug_assert!(
            reqs.iter().all(|&(a, _)| a >= DATA_REGION),
            "data moves only"
        );
        let mut port = requester_port(ready, port_free);
        let beats = |n: u64| beats(TlpKind::MemWrite, n as u32);
        let header = self.rc.req_header;
        if let Some(end) = self
            .link
            .post_train(Dir::Up, header, &mut port, reqs, beats)
        {
            self.up_end = end;
        }
        port.free
    }

    fn upstream(&mut self, ready: Cycle, kind: TlpKind, len_bytes: u32) -> Cycle {
        let payload = if kind == TlpKind::MemWrite {
            len_bytes as u64
        } else {
            0
        };
        let (start, end) =
            self.link
                .send_tlp(edge_time(ready), Dir::Up, self.rc.req_header, payload);
        self.up_end = end;
        cycle_at_or_after(start)
    }
}

#[cfg(test)]
mod tests;
