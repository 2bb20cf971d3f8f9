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
use crate::pcie::{Dir, Link, LinkBurst};
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

/// The time of clock edge `c`.
pub fn edge_time(c: Cycle) -> SimTime {
    SimTime::from_ps(c * CLOCK_PS)
}
/// The first clock edge at or after `t`.
pub fn cycle_at_or_after(t: SimTime) -> Cycle {
    t.0.div_ceil(CLOCK_PS)
}

/// Host memory and root complex (see the module doc).
#[derive(Debug)]
pub struct HostMemory {
    pub link: Link,
    /// The root complex's request header and read timing (a field of its own, so that a link
    /// burst can borrow `link` while it is read).
    rc: ReadTiming,
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
            rc: ReadTiming {
                req_header: pcie.tlp_header_bytes as u64,
                mps: pcie.mps_bytes as u64,
                host_read_latency: SimTime::from_ns_f64(pcie.host_read_latency_ns),
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

/// The root complex's request header and read timing.
#[derive(Clone, Copy, Debug)]
struct ReadTiming {
    req_header: u64,
    /// A power of two (`PcieConfig::validate`).
    mps: u64,
    host_read_latency: SimTime,
}

impl ReadTiming {
    /// One MRd (header only) of `len` bytes at `addr`, ready at cycle `ready`, and its
    /// completions. Returns the cycle the requester port is free after the request (one beat),
    /// the cycle the last completion has crossed, and when the request finished crossing.
    #[inline]
    fn request(
        &self,
        link: &mut LinkBurst,
        ready: Cycle,
        addr: u64,
        len: u32,
    ) -> (Cycle, Cycle, SimTime) {
        let (start, end) = link.send_tlp(edge_time(ready), Dir::Up, self.req_header, 0);
        let arrived = self.completions(link, end, addr, len);
        (
            cycle_at_or_after(start) + beats(TlpKind::MemRead, 0),
            arrived,
            end,
        )
    }

    /// The completions of a read of `len` bytes at `addr` whose request finished crossing at
    /// `up_end`: at most MPS each, split at MPS-aligned addresses, leaving the root complex
    /// `host_read_latency` later. Returns the cycle the last one has crossed.
    #[inline]
    fn completions(&self, link: &mut LinkBurst, up_end: SimTime, addr: u64, len: u32) -> Cycle {
        let ready = up_end + self.host_read_latency;
        let (mut a, stop) = (addr, addr + len as u64);
        let mut last = ready;
        while a < stop {
            let next = ((a & !(self.mps - 1)) + self.mps).min(stop);
            last = link
                .send_tlp(ready, Dir::Down, CPL_HEADER_BYTES, next - a)
                .1;
            a = next;
        }
        cycle_at_or_after(last)
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
        self.rc
            .completions(&mut self.link.burst(), self.up_end, addr, len)
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

    /// The same link and port arithmetic as one `upstream` and `read_timing` per TLP.
    fn upstream_reads(
        &mut self,
        ready: Cycle,
        port_free: Cycle,
        reqs: &[(u64, u32)],
    ) -> (Cycle, Cycle) {
        let (mut free, mut done) = (port_free, ready);
        // Request `i` waits for request `i - DATA_TAGS`'s completion (its tag free again).
        let mut tags = [ready; DATA_TAGS];
        let mut link = self.link.burst();
        for (i, &(a, n)) in reqs.iter().enumerate() {
            let slot = i % DATA_TAGS;
            let (f, arrived, end) = self.rc.request(&mut link, tags[slot].max(free), a, n);
            (free, tags[slot], self.up_end) = (f, arrived, end);
            done = done.max(arrived + 1);
        }
        (free, done)
    }

    /// The same link and port arithmetic as one `upstream` per TLP, in one link burst.
    fn upstream_writes(&mut self, ready: Cycle, port_free: Cycle, reqs: &[(u64, u32)]) -> Cycle {
        let mut free = port_free;
        let mut link = self.link.burst();
        for &(a, n) in reqs {
            debug_assert!(a >= DATA_REGION, "only data moves go without bytes");
            let (start, end) = link.send_tlp(
                edge_time(ready.max(free)),
                Dir::Up,
                self.rc.req_header,
                n as u64,
            );
            free = cycle_at_or_after(start) + beats(TlpKind::MemWrite, n);
            self.up_end = end;
        }
        free
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
mod tests {
    use super::*;

    #[test]
    fn prps_follow_the_page_count() {
        let buf = data_addr(1, 3);
        // One page: PRP2 unused; two: the next page; more: the list entry of the next page.
        assert_eq!(prps(1, 3, 0, 4096), (buf, 0));
        assert_eq!(prps(1, 3, 4096, 8192), (buf + 4096, buf + 8192));
        assert_eq!(prps(1, 3, 8192, 12288), (buf + 8192, list_addr(1, 3) + 16));
    }

    /// HostMemory without its burst override: `upstream_writes` is the trait's per-TLP default.
    struct PerTlp(HostMemory);
    impl HostPort for PerTlp {
        fn read(&mut self, c: Cycle, a: u64, n: u32) -> (Vec<u8>, Cycle) {
            self.0.read(c, a, n)
        }
        fn write(&mut self, c: Cycle, a: u64, d: &[u8]) {
            self.0.write(c, a, d)
        }
        fn write_timing(&mut self, c: Cycle, a: u64, n: u32) {
            self.0.write_timing(c, a, n)
        }
        fn upstream(&mut self, r: Cycle, k: TlpKind, n: u32) -> Cycle {
            self.0.upstream(r, k, n)
        }
    }

    #[test]
    fn a_burst_of_data_writes_paces_as_one_tlp_at_a_time() {
        let cfg = crate::config::DriveConfig::default_drive();
        let (mut burst, mut single) = (
            HostMemory::new(&cfg.pcie, 2, 8),
            PerTlp(HostMemory::new(&cfg.pcie, 2, 8)),
        );
        // Downstream traffic first, so ACK DLLPs are owed upstream and ride on the first MWr.
        for h in [&mut burst, &mut single.0] {
            h.link.memory_write(SimTime::ZERO, Dir::Down, 8192);
        }
        // A 4 KiB move at 256 B (16 MWr, link-bound) and an uneven one that starts late.
        let buf = data_addr(1, 2);
        let even: Vec<(u64, u32)> = (0..16).map(|i| (buf + 256 * i, 256)).collect();
        let uneven = [(buf + 8192, 100), (buf + 8292, 156), (buf + 8448, 64)];
        for (ready, reqs) in [(3, &even[..]), (2_000, &uneven[..])] {
            let free = burst.upstream_writes(ready, 5, reqs);
            assert_eq!(
                free,
                single.upstream_writes(ready, 5, reqs),
                "port free cycle"
            );
            assert_eq!(burst.up_end, single.0.up_end, "last TLP's arrival");
            for d in [Dir::Up, Dir::Down] {
                assert_eq!(
                    burst.link.stats(d),
                    single.0.link.stats(d),
                    "{d:?} counters"
                );
                assert_eq!(burst.link.free_at(d), single.0.link.free_at(d));
            }
        }
        // By hand (MPS 256, 4DW headers of 16 B, 8 B framing, one 8 B ACK per 4 TLPs): 8 KiB
        // down is 32 MWr, so 8 ACKs are owed upstream and ride ahead of the first upstream MWr;
        // the 19 MWr up owe 4 ACKs downstream. Upstream wire bytes: 16 x (256 + 24) +
        // (100 + 24) + (156 + 24) + (64 + 24) + 8 x 8 = 4936.
        let up = burst.link.stats(Dir::Up);
        assert_eq!((up.tlps, up.dllps, up.wire_bytes), (19, 8, 4936));
        assert_eq!(burst.link.stats(Dir::Down).dllps, 4);
    }

    #[test]
    fn a_burst_of_data_reads_paces_as_one_tlp_at_a_time() {
        let cfg = crate::config::DriveConfig::default_drive();
        let (mut burst, mut single) = (
            HostMemory::new(&cfg.pcie, 2, 8),
            PerTlp(HostMemory::new(&cfg.pcie, 2, 8)),
        );
        for h in [&mut burst, &mut single.0] {
            h.link.memory_write(SimTime::ZERO, Dir::Up, 8192);
        }
        // A 4 KiB move at MRRS 512 (8 MRd), an uneven one, and 40 MRd (tags reused past 32).
        let buf = data_addr(1, 2);
        let even: Vec<(u64, u32)> = (0..8).map(|i| (buf + 512 * i, 512)).collect();
        let uneven = [(buf + 8192, 100), (buf + 8292, 412), (buf + 8704, 64)];
        let many: Vec<(u64, u32)> = (0..40).map(|i| (buf + 512 * i, 512)).collect();
        for (ready, reqs) in [(3, &even[..]), (2_000, &uneven[..]), (2_100, &many[..])] {
            let got = burst.upstream_reads(ready, 5, reqs);
            assert_eq!(got, single.upstream_reads(ready, 5, reqs), "free, done");
            assert_eq!(burst.up_end, single.0.up_end, "last TLP's arrival");
            for d in [Dir::Up, Dir::Down] {
                assert_eq!(burst.link.stats(d), single.0.link.stats(d), "{d:?}");
                assert_eq!(burst.link.free_at(d), single.0.link.free_at(d));
            }
        }
    }

    #[test]
    fn list_entries_point_at_the_following_pages() {
        let h = HostMemory::new(&crate::config::DriveConfig::default_drive().pcie, 2, 8);
        let l = h.region_bytes(list_addr(1, 3) + 16, 16);
        let e0 = u64::from_le_bytes(l[..8].try_into().unwrap());
        let e1 = u64::from_le_bytes(l[8..].try_into().unwrap());
        // Entries 2 and 3 describe pages 3 and 4 of the buffer.
        assert_eq!(
            (e0, e1),
            (data_addr(1, 3) + 3 * 4096, data_addr(1, 3) + 4 * 4096)
        );
    }
}
