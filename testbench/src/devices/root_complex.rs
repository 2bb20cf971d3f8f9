//! Root-complex model for the front end's test benches (plain Rust, no HDL): host memory, the
//! Gen3x4 link ceiling of `ssdlab_model::pcie::Link` in both directions, and a configurable
//! read-completion latency. It serves two clients with the same arithmetic so their timing can
//! be compared:
//! - the behavioural front end, through [`HostPort`];
//! - the rust_hdl `NvmeFrontEnd`, by driving its CQ/RC streams and taking its RQ/CC streams
//!   cycle by cycle ([`RootComplex::drive`] before the clock edge, [`RootComplex::observe`]
//!   after the combinational settle).
//!
//! Read completions are returned in request order, split at MPS-aligned boundaries (PCI Express
//! Base 3.0, 2.3.1.1: completions on RCB boundaries), each a descriptor beat plus payload beats.

use ssdlab_hdl::pcie::tlp::{CcDesc, CplDesc, CqReq, ReqDesc, REQ_MRD, REQ_MWR};
use ssdlab_model::config::PcieConfig;
use ssdlab_model::nvme::frontend::tlp::{cpld_beats, Cycle, TlpKind, CLOCK_PS};
use ssdlab_model::nvme::frontend::HostPort;
use ssdlab_model::pcie::{link::Dir, link::Link};
use ssdlab_model::SimTime;
use std::collections::{HashMap, VecDeque};

/// One beat the root complex drives on a stream at a given cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beat {
    pub cycle: Cycle,
    pub data: u128,
    pub last: bool,
    /// `tkeep`: dwords of the beat the TLP uses (bit `i`: dword `i`).
    pub keep: u8,
    /// `tuser` as the hard block drives it (PG156 `m_axis_cq_tuser` / `m_axis_rc_tuser`).
    pub user: u128,
}

/// `tkeep` of a beat holding `dwords` (1..=4) dwords from dword 0.
pub fn keep_of(dwords: u32) -> u8 {
    ((1u32 << dwords.min(4)) - 1) as u8
}

/// PG156 byte enables of a beat's `dwords` leading dwords (4 bits per dword).
fn byte_en_of(dwords: u32) -> u128 {
    (1u128 << (4 * dwords.min(4))) - 1
}

/// An RQ beat's `(tkeep, tuser)`.
pub type RqSide = (u8, u64);

/// PG156 `m_axis_cq_tuser` discontinue bit.
pub const CQ_DISCONTINUE: u32 = 41;
/// PG156 `m_axis_rc_tuser` discontinue bit.
pub const RC_DISCONTINUE: u32 = 42;

/// The RQ sideband PG156 requires of beat `k` (0: the descriptor) of a request naming
/// `dwords` dwords, 128-bit Dword-aligned interface: `(s_axis_rq_tkeep, s_axis_rq_tuser)`.
/// The descriptor beat has its 4 dwords and the byte enables (first_be `[3:0]` = 1111b,
/// last_be `[7:4]` = 1111b, 0000b for a 1-dword request); payload beat `k` has
/// `min(4, dwords - 4 (k - 1))` dwords and tuser 0.
pub fn rq_sideband(dwords: u16, k: usize) -> (u8, u64) {
    if k == 0 {
        let last_be = if dwords == 1 { 0 } else { 0xF };
        (0xF, 0xF | last_be << 4)
    } else {
        let left = dwords as u32 - 4 * (k as u32 - 1);
        (keep_of(left), 0)
    }
}

/// A device TLP the root complex received: (kind, address, bytes, header cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenTlp {
    pub kind: TlpKind,
    pub addr: u64,
    pub len: u32,
    pub cycle: Cycle,
}

#[derive(Debug)]
pub struct RootComplex {
    pages: HashMap<u64, Box<[u8; 4096]>>,
    link: Link,
    mps: u32,
    /// Read-completion latency of the host, in cycles.
    pub latency: Cycle,
    up_end: SimTime,
    rc_free: Cycle,
    rc_beats: VecDeque<Beat>,
    cq_beats: VecDeque<Beat>,
    /// Every device TLP, in arrival order.
    pub seen: Vec<SeenTlp>,
    /// MMIO read data returned on the CC stream (successful completions).
    pub mmio_reads: Vec<u64>,
    /// Every completion on the CC stream: its descriptor and data (none for UR/CA).
    pub cc_log: Vec<(CcDesc, Option<u64>)>,
    rq_first: Option<Cycle>,
    rq_cur: Vec<u128>,
    cc_cur: Vec<u128>,
    /// The next read's last completion beat carries discontinue (PG156 RC `tuser[42]`).
    pub rc_discontinue_next: bool,
    /// RQ beats whose `tkeep`/`tuser` were checked against [`rq_sideband`].
    pub rq_side_checked: u64,
    /// Per RQ TLP with a checked sideband: request type, dword count, `(tkeep, tuser)` of
    /// each beat.
    pub rq_side_log: Vec<(u8, u16, Vec<RqSide>)>,
    /// `tkeep` of every CC beat.
    pub cc_keep_log: Vec<u8>,
    rq_side_cur: Vec<RqSide>,
}

impl RootComplex {
    /// A root complex for link `pcie` with `pcie.host_read_latency_ns` of read latency.
    pub fn new(pcie: &PcieConfig) -> Self {
        let latency = SimTime::from_ns_f64(pcie.host_read_latency_ns)
            .as_ps()
            .div_ceil(CLOCK_PS);
        RootComplex {
            pages: HashMap::new(),
            link: Link::new(pcie),
            mps: pcie.mps_bytes,
            latency,
            up_end: SimTime::ZERO,
            rc_free: 0,
            rc_beats: VecDeque::new(),
            cq_beats: VecDeque::new(),
            seen: Vec::new(),
            mmio_reads: Vec::new(),
            cc_log: Vec::new(),
            rq_first: None,
            rq_cur: Vec::new(),
            cc_cur: Vec::new(),
            rc_discontinue_next: false,
            rq_side_checked: 0,
            rq_side_log: Vec::new(),
            cc_keep_log: Vec::new(),
            rq_side_cur: Vec::new(),
        }
    }

    pub fn put(&mut self, addr: u64, data: &[u8]) {
        for (i, b) in data.iter().enumerate() {
            let a = addr + i as u64;
            self.pages
                .entry(a / 4096)
                .or_insert_with(|| Box::new([0; 4096]))[(a % 4096) as usize] = *b;
        }
    }
    pub fn get(&self, addr: u64, len: usize) -> Vec<u8> {
        (0..len as u64)
            .map(|i| {
                self.pages
                    .get(&((addr + i) / 4096))
                    .map_or(0, |p| p[((addr + i) % 4096) as usize])
            })
            .collect()
    }

    fn ps(c: Cycle) -> SimTime {
        SimTime::from_ps(c * CLOCK_PS)
    }
    fn cyc(t: SimTime) -> Cycle {
        t.as_ps().div_ceil(CLOCK_PS)
    }

    /// A device TLP offered from cycle `ready`: the link takes its header when free.
    fn take_upstream(&mut self, ready: Cycle, kind: TlpKind, len: u32) -> Cycle {
        let payload = if kind == TlpKind::MemWrite {
            len as u64
        } else {
            0
        };
        let (start, end) = self.link.send_tlp(Self::ps(ready), Dir::Up, 16, payload);
        self.up_end = end;
        Self::cyc(start)
    }

    /// Schedules the completions of a read whose request finished crossing at `self.up_end`;
    /// returns the beats (descriptor + payload per completion) and the last beat's cycle.
    fn schedule_read(&mut self, addr: u64, len: u32, tag: u8) -> (Vec<Beat>, Cycle) {
        let data = self.get(addr, len as usize);
        let mut beats = Vec::new();
        let ready = self.up_end + Self::ps(self.latency);
        let (mut a, end, mut off) = (addr, addr + len as u64, 0usize);
        let mut remaining = len;
        while a < end {
            let stop = ((a / self.mps as u64 + 1) * self.mps as u64).min(end);
            let n = (stop - a) as u32;
            let (start, _) = self.link.send_tlp(ready, Dir::Down, 12, n as u64);
            let first = Self::cyc(start).max(self.rc_free);
            let desc = CplDesc {
                lower_addr: (a & 0xFFF) as u16,
                byte_count: remaining as u16,
                dwords: (n / 4) as u16,
                status: 0,
                tag,
            };
            // RC sideband as the hard block drives it: the 3-dword descriptor (0111b, is_sof_0
            // `[32]`), payload dwords with byte_en `[31:0]`, is_eof_0 `[37:34]` in the last beat
            // (bit 34: end of frame, bits 37:35: the last dword's index); discontinue `[42]` on
            // the last beat of the read's last completion when `rc_discontinue_next` asks.
            beats.push(Beat {
                cycle: first,
                data: desc.pack(),
                last: false,
                keep: 0x7,
                user: 1 << 32,
            });
            for k in 0..n.div_ceil(16) as usize {
                let mut w = [0u8; 16];
                let chunk = &data[off + 16 * k..(off + 16 * k + 16).min(off + n as usize)];
                w[..chunk.len()].copy_from_slice(chunk);
                let last = k + 1 == n.div_ceil(16) as usize;
                let dws = (n / 4 - 4 * k as u32).min(4);
                let eof = if last {
                    (1 | (dws - 1) << 1) as u128
                } else {
                    0
                };
                beats.push(Beat {
                    cycle: first + 1 + k as u64,
                    data: u128::from_le_bytes(w),
                    last,
                    keep: keep_of(dws),
                    user: byte_en_of(dws) | eof << 34,
                });
            }
            self.rc_free = first + cpld_beats(n);
            remaining -= n;
            off += n as usize;
            a = stop;
        }
        let end = beats.len() - 1;
        if std::mem::take(&mut self.rc_discontinue_next) {
            beats[end].user |= 1 << RC_DISCONTINUE;
        }
        let last = beats[end].cycle;
        (beats, last)
    }

    /// Queues a host MMIO write of `value` to BAR0 `offset` at or after `cycle` (a 4DW MWr on
    /// the CQ stream: descriptor beat, data beat); returns the data beat's cycle.
    ///
    /// MMIO writes do not reserve the downstream link: read completions are reserved on it
    /// ahead of time (at request time + latency), and a first-come reservation would wrongly
    /// hold a doorbell behind a completion that is not yet on the wire. A 4-byte MWr is 28 wire
    /// bytes against 4.4 KB per 4 KiB of read completions, so the approximation is small.
    pub fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32) -> Cycle {
        let d = ReqDesc {
            addr: offset as u64,
            dwords: 1,
            req_type: REQ_MWR,
            tag: 0,
        };
        self.completer_request(cycle, CqReq::bar0(d), &[value as u128])
    }

    /// Queues a host MMIO read of `dwords` (1 or 2) at BAR0 `offset`; data lands in `mmio_reads`.
    pub fn mmio_read(&mut self, cycle: Cycle, offset: u32, dwords: u16) {
        let d = ReqDesc {
            addr: offset as u64,
            dwords,
            req_type: REQ_MRD,
            tag: 0,
        };
        self.completer_request(cycle, CqReq::bar0(d), &[]);
    }

    /// Queues any completer request (descriptor beat, then `payload` beats) at or after
    /// `cycle`; returns the cycle of its last beat.
    pub fn completer_request(&mut self, cycle: Cycle, req: CqReq, payload: &[u128]) -> Cycle {
        self.completer_request_side(cycle, req, payload, false)
    }

    /// [`RootComplex::completer_request`] with the CQ sideband's discontinue (PG156
    /// `m_axis_cq_tuser[41]`, in the TLP's last beat) set when `discontinue`. The sideband
    /// is PG156's: the descriptor beat 1111b with sop `[40]` and first/last byte enables for
    /// whole dwords, payload beats their dwords with byte_en `[39:8]`.
    pub fn completer_request_side(
        &mut self,
        cycle: Cycle,
        req: CqReq,
        payload: &[u128],
        discontinue: bool,
    ) -> Cycle {
        let first = cycle.max(self.cq_beats.back().map_or(0, |b| b.cycle + 1));
        let dwords = req.desc.dwords as u32;
        let last_be: u128 = if dwords == 1 { 0 } else { 0xF };
        let disc = (discontinue as u128) << CQ_DISCONTINUE;
        self.cq_beats.push_back(Beat {
            cycle: first,
            data: req.pack(),
            last: payload.is_empty(),
            keep: 0xF,
            user: 0xF | last_be << 4 | 1 << 40 | if payload.is_empty() { disc } else { 0 },
        });
        for (i, w) in payload.iter().enumerate() {
            let last = i + 1 == payload.len();
            let dws = dwords.saturating_sub(4 * i as u32).clamp(1, 4);
            self.cq_beats.push_back(Beat {
                cycle: first + 1 + i as u64,
                data: *w,
                last,
                keep: keep_of(dws),
                user: byte_en_of(dws) << 8 | if last { disc } else { 0 },
            });
        }
        first + payload.len() as u64
    }

    /// Drops beats queued toward the device (when the client is the behavioural model).
    pub fn discard_device_beats(&mut self) {
        self.cq_beats.clear();
        self.rc_beats.clear();
    }

    /// No more beats queued toward the device.
    pub fn idle(&self) -> bool {
        self.cq_beats.is_empty() && self.rc_beats.is_empty()
    }
}

impl HostPort for RootComplex {
    fn read(&mut self, cycle: Cycle, addr: u64, len: u32) -> (Vec<u8>, Cycle) {
        self.seen.push(SeenTlp {
            kind: TlpKind::MemRead,
            addr,
            len,
            cycle,
        });
        let data = self.get(addr, len as usize);
        let (_, last) = self.schedule_read(addr, len, 0);
        (data, last)
    }
    fn write(&mut self, cycle: Cycle, addr: u64, data: &[u8]) {
        self.seen.push(SeenTlp {
            kind: TlpKind::MemWrite,
            addr,
            len: data.len() as u32,
            cycle,
        });
        self.put(addr, data);
    }
    fn upstream(&mut self, ready: Cycle, kind: TlpKind, len: u32) -> Cycle {
        self.take_upstream(ready, kind, len)
    }
}

mod drive;
pub mod host_init;
pub use drive::{PcieUserSide, UserIn, UserOut};
mod streams;
