//! One PCIe link (e.g. Gen3 x4), both directions separately, at TLP granularity.
//!
//! What is counted per TLP (PCIe 3.0):
//! - payload: at most MPS bytes (`pcie.mps_bytes`) for memory writes and read completions;
//! - header: `pcie.tlp_header_bytes` (16 = 4DW, 64-bit address) for memory read/write requests,
//!   12 bytes (3DW) for completions (§2.2.9: completion headers are always 3DW);
//! - framing: `pcie.tlp_overhead_bytes` = Gen3 STP token (4 B, carries the 12-bit sequence
//!   number, §4.2.2.3.1) + LCRC (4 B) = 8 B; Gen3 has no END token. No ECRC.
//! - DLLPs: one ACK of `pcie.dllp_bytes` (6 B DLLP + 2 B SDP token = 8) is sent in the OPPOSITE
//!   direction per `pcie.tlps_per_ack` TLPs received (ACK coalescing); flow-control updates are
//!   folded into the same figure.
//!
//! Not modelled: SKP ordered sets (one 130-bit block per ~370, < 0.3 %), replay, L0s/L1 exit.
//! Line rate per direction: lanes × GT/s × 128/130 / 8 bytes/s (`PcieConfig::line_bytes_per_sec`).
//! A device read of host memory (command fetch, write data) costs header-only MRd TLPs upstream
//! (one per MRRS bytes), `pcie.host_read_latency_ns` of root-complex latency, then completions of
//! at most MPS payload downstream.

use crate::config::PcieConfig;
use crate::time::SimTime;

mod pace;
mod train;
pub use pace::Port;
pub use train::{ReadShape, ReadTrain};

/// Direction of travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Host → drive (doorbells, command/write-data completions).
    Down = 0,
    /// Drive → host (read data, completion entries, interrupts, read requests).
    Up = 1,
}

impl Dir {
    fn other(self) -> Dir {
        match self {
            Dir::Down => Dir::Up,
            Dir::Up => Dir::Down,
        }
    }
}

/// Counters of one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkDirStats {
    pub tlps: u64,
    pub dllps: u64,
    pub payload_bytes: u64,
    pub wire_bytes: u64,
    /// Time the direction spent transmitting.
    pub busy: SimTime,
}

#[derive(Clone, Debug, Default)]
struct DirState {
    free_at: SimTime,
    /// TLPs received from the other direction not yet acknowledged.
    unacked: u32,
    /// DLLP bytes owed on this direction, sent ahead of its next TLP burst.
    pending_dllp_wire: u64,
    stats: LinkDirStats,
}

/// Slots of the TLP-duration memo (a power of two): with 64, the wire sizes of a data move's
/// requests and completions, an SQ-entry fetch's completion, a CQE and an MSI-X write, each with
/// or without the ACK DLLP bytes riding ahead of it, land in different slots (16 made a 24 B
/// request and a 92 B completion evict each other).
const DURATION_SLOTS: usize = 64;

/// Completion TLP header (3DW), PCIe 3.0 §2.2.9.
const CPL_HEADER_BYTES: u64 = 12;

/// A PCIe link: two independent serial directions.
#[derive(Clone, Debug)]
pub struct Link {
    line_bytes_per_sec: u64,
    mps: u64,
    mrrs: u64,
    req_header: u64,
    framing: u64,
    dllp_bytes: u64,
    tlps_per_ack: u32,
    host_read_latency: SimTime,
    dirs: [DirState; 2],
    /// Memo of `transfer_time(wire, line rate)` by wire bytes (direct-mapped on a hash of the
    /// size): a link carries a handful of TLP sizes, and the division is on the hot path.
    durations: [(u64, SimTime); DURATION_SLOTS],
}

impl Link {
    pub fn new(cfg: &PcieConfig) -> Link {
        let line = cfg.line_bytes_per_sec();
        assert!(line > 0, "pcie line rate must be positive");
        Link {
            line_bytes_per_sec: line,
            mps: cfg.mps_bytes as u64,
            mrrs: cfg.mrrs_bytes as u64,
            req_header: cfg.tlp_header_bytes as u64,
            framing: cfg.tlp_overhead_bytes as u64,
            dllp_bytes: cfg.dllp_bytes as u64,
            tlps_per_ack: cfg.tlps_per_ack,
            host_read_latency: SimTime::from_ns_f64(cfg.host_read_latency_ns),
            dirs: [DirState::default(), DirState::default()],
            durations: [(u64::MAX, SimTime::ZERO); DURATION_SLOTS],
        }
    }

    /// Time `wire` bytes take on one direction (memoised [`crate::engine::transfer_time`]).
    #[inline]
    fn duration(&mut self, wire: u64) -> SimTime {
        let slot =
            (wire.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - DURATION_SLOTS.ilog2())) as usize;
        let (w, d) = self.durations[slot];
        if w == wire {
            return d;
        }
        let d = crate::engine::transfer_time(wire, self.line_bytes_per_sec);
        self.durations[slot] = (wire, d);
        d
    }

    pub fn line_bytes_per_sec(&self) -> u64 {
        self.line_bytes_per_sec
    }
    pub fn stats(&self, d: Dir) -> &LinkDirStats {
        &self.dirs[d as usize].stats
    }
    pub fn reset_stats(&mut self) {
        for d in &mut self.dirs {
            d.stats = LinkDirStats::default();
        }
    }
    /// Both directions' state and counters (owed ACKs included), to compare two links.
    #[cfg(test)]
    pub(crate) fn dirs_state(&self) -> String {
        format!("{:?}", self.dirs)
    }
    /// When direction `d` is next free.
    pub fn free_at(&self, d: Dir) -> SimTime {
        self.dirs[d as usize].free_at
    }

    /// Wire bytes of `payload` bytes sent as TLPs of at most `max_payload` with `header` bytes.
    fn wire_bytes(&self, payload: u64, max_payload: u64, header: u64) -> (u64, u64) {
        let tlps = payload.div_ceil(max_payload).max(1);
        (tlps, payload + tlps * (header + self.framing))
    }

    /// Occupies direction `d` from `max(at, free)` for `tlps` TLPs of `wire` bytes in all;
    /// returns when the last byte has crossed. Owes ACK DLLPs on the other direction.
    #[inline(always)]
    fn transmit(&mut self, at: SimTime, d: Dir, tlps: u64, payload: u64, wire: u64) -> SimTime {
        let wire = wire + std::mem::take(&mut self.dirs[d as usize].pending_dllp_wire);
        let dur = self.duration(wire);
        let end = at.max(self.dirs[d as usize].free_at) + dur;
        self.account(d, end, (tlps, payload, wire, dur));
        end
    }

    /// Direction `d` is busy until `free_at` after sending `tlps` TLPs of `payload` bytes,
    /// `wire` bytes and `busy` time in all; the receiver owes their ACKs.
    fn account(
        &mut self,
        d: Dir,
        free_at: SimTime,
        (tlps, payload, wire, busy): (u64, u64, u64, SimTime),
    ) {
        let st = &mut self.dirs[d as usize];
        st.free_at = free_at;
        st.stats.tlps += tlps;
        st.stats.payload_bytes += payload;
        st.stats.wire_bytes += wire;
        st.stats.busy += busy;
        self.acknowledge(d.other(), tlps);
    }

    /// The receiver of `tlps` TLPs owes one ACK DLLP on direction `d` per `tlps_per_ack`. The
    /// DLLP bytes ride ahead of that direction's next burst (reserving them at a future time
    /// would block earlier traffic in a first-come first-served reservation model).
    fn acknowledge(&mut self, d: Dir, tlps: u64) {
        let st = &mut self.dirs[d as usize];
        let total = st.unacked as u64 + tlps;
        if total < self.tlps_per_ack as u64 {
            st.unacked = total as u32; // no ACK due yet (the division below would give 0)
            return;
        }
        let acks = total / self.tlps_per_ack as u64;
        st.unacked = (total % self.tlps_per_ack as u64) as u32;
        st.stats.dllps += acks;
        st.pending_dllp_wire += acks * self.dllp_bytes;
    }

    /// One TLP of `header` + `payload` bytes (plus framing) on direction `d`, no earlier than
    /// `now`; returns when its bytes start and finish crossing. For TLP-exact block models (the
    /// NVMe front end and its root-complex test model) that pace every TLP individually.
    #[inline]
    pub fn send_tlp(
        &mut self,
        now: SimTime,
        d: Dir,
        header: u64,
        payload: u64,
    ) -> (SimTime, SimTime) {
        let start = now.max(self.dirs[d as usize].free_at);
        let end = self.transmit(now, d, 1, payload, payload + header + self.framing);
        (start, end)
    }

    /// Posted memory write of `bytes` in direction `d` (doorbell, read data, CQ entry, MSI-X),
    /// split into MPS-sized MWr TLPs. Returns the arrival time of the last byte.
    pub fn memory_write(&mut self, now: SimTime, d: Dir, bytes: u64) -> SimTime {
        let (tlps, wire) = self.wire_bytes(bytes, self.mps, self.req_header);
        self.transmit(now, d, tlps, bytes, wire)
    }

    /// The drive reads `bytes` of host memory (SQ entries, PRP lists, write data): header-only
    /// MRd requests upstream (one per MRRS), root-complex latency, completions downstream.
    /// Returns when the last completion byte has arrived at the drive.
    pub fn device_read(&mut self, now: SimTime, bytes: u64) -> SimTime {
        assert!(bytes > 0, "zero-length device read");
        let reqs = bytes.div_ceil(self.mrrs);
        let req_wire = reqs * (self.req_header + self.framing);
        let req_end = self.transmit(now, Dir::Up, reqs, 0, req_wire);
        let (tlps, wire) = self.wire_bytes(bytes, self.mps, CPL_HEADER_BYTES);
        self.transmit(
            req_end + self.host_read_latency,
            Dir::Down,
            tlps,
            bytes,
            wire,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    /// Eight 512 B reads (one MRd up, two 256 B completions down each) after three MWr up, with
    /// one ACK per 4 TLPs (the default drive), TLP by TLP: the counters and owed ACKs by hand.
    #[test]
    fn tlps_count_and_owe_acks_one_at_a_time() {
        let cfg = DriveConfig::default_drive();
        assert_eq!(cfg.pcie.tlps_per_ack, 4);
        let mut l = Link::new(&cfg.pcie);
        let written = l.memory_write(SimTime::ZERO, Dir::Up, 3 * 256);
        for i in 0..8u64 {
            let (s, e) = l.send_tlp(SimTime::from_ns(10 * i), Dir::Up, 16, 0);
            if i == 0 {
                // Behind the writes, and nothing owed upstream yet: 16 B header + 8 B framing.
                assert_eq!(s, written);
                assert_eq!(
                    e,
                    s + crate::engine::transfer_time(24, l.line_bytes_per_sec())
                );
            }
            for _ in 0..2 {
                l.send_tlp(e + SimTime::from_ns(800), Dir::Down, 12, 256);
            }
        }
        // 3 MWr then 8 MRd up are 11 TLPs, so 2 ACKs are owed downstream (3 TLPs left
        // unacknowledged); 16 completions down owe 4 ACKs upstream.
        let up = l.stats(Dir::Up);
        assert_eq!((up.tlps, up.payload_bytes, up.dllps), (11, 3 * 256, 4));
        let down = l.stats(Dir::Down);
        assert_eq!(
            (down.tlps, down.payload_bytes, down.dllps),
            (16, 16 * 256, 2)
        );
        assert_eq!(l.dirs[Dir::Down as usize].unacked, 3);
    }

    fn gen3x4() -> Link {
        Link::new(&DriveConfig::default_drive().pcie)
    }

    #[test]
    fn gen3_x4_payload_ceiling_with_mps_256() {
        // Hand calculation: raw = 4 lanes × 8 GT/s × 128/130 / 8 = 3_938_461_538 B/s per direction.
        // One MWr TLP with 256 B payload costs 256 + 16 (4DW header) + 8 (STP 4 + LCRC 4) = 280 B.
        // Ceiling = 3.938_461_538 GB/s × 256/280 = 3.600_879_120 GB/s ("near 3.5 GB/s").
        let mut l = gen3x4();
        assert_eq!(l.line_bytes_per_sec(), 3_938_461_538);
        let bytes = 64 * 1024 * 1024u64;
        let end = l.memory_write(SimTime::ZERO, Dir::Up, bytes);
        let gbps = bytes as f64 / end.as_secs_f64() / 1e9;
        let hand = 4.0 * 8.0 * 128.0 / 130.0 / 8.0 * 256.0 / 280.0;
        assert!(
            (gbps - hand).abs() < 1e-4,
            "model {gbps} GB/s vs hand {hand} GB/s"
        );
        assert!((3.45..3.65).contains(&gbps), "{gbps}");
        // ACKs for 262_144 TLPs (one per 4) are owed downstream: 65_536 DLLPs × 8 B, sent
        // ahead of the next downstream TLP (one 4 B doorbell: 4 + 16 + 8 = 28 B).
        assert_eq!(l.stats(Dir::Down).dllps, 65_536);
        l.memory_write(end, Dir::Down, 4);
        assert_eq!(l.stats(Dir::Down).wire_bytes, 65_536 * 8 + 28);
    }

    #[test]
    fn device_read_of_4k_counts_requests_latency_and_completions() {
        // 4096 B with MRRS 512: 8 MRd × (16 + 8) = 192 B up = 48.75 ns at 3.938 GB/s;
        // + 800 ns host latency; completions 16 × (256 + 12 + 8) = 4416 B down, preceded by the
        // 2 ACK DLLPs (8 B each) owed for the 8 requests: 4432 B = 1125.31 ns.
        let mut l = gen3x4();
        let end = l.device_read(SimTime::ZERO, 4096);
        let up = SimTime::for_bytes(192, 3_938_461_538);
        let down = SimTime::for_bytes(4432, 3_938_461_538);
        assert_eq!(end, up + SimTime::from_ns(800) + down);
        assert!(
            (end.as_ns_f64() - (48.75 + 800.0 + 1125.31)).abs() < 0.01,
            "{end}"
        );
    }

    #[test]
    fn directions_are_independent_and_fcfs() {
        let mut l = gen3x4();
        let a = l.memory_write(SimTime::ZERO, Dir::Up, 4096);
        let b = l.memory_write(SimTime::ZERO, Dir::Down, 4096);
        // Downstream starts at 0 too (not behind the upstream burst), carrying 4 ACKs first.
        assert_eq!(
            b,
            SimTime::for_bytes(4512, 3_938_461_538),
            "directions are independent"
        );
        // A second upstream write queues behind the first.
        // 4096 B = 16 TLPs × 280 B = 4480 B; the second also carries 4 ACK DLLPs (32 B) for the
        // 16 downstream TLPs: ends at (4480 + 4480 + 32) B / line rate.
        let c = l.memory_write(SimTime::ZERO, Dir::Up, 4096);
        assert_eq!(a, SimTime::for_bytes(4480, 3_938_461_538));
        assert_eq!(c, a + SimTime::for_bytes(4512, 3_938_461_538));
    }
}
