//! Test bench of the PRP data path: `PrpDma` in rust_hdl simulation against the root-complex
//! model (host memory, `model::pcie::Link` both ways, read latency), beside the behavioural
//! model's `FrontEnd::transfer` on its own root complex with the same memory, so both runs can
//! be compared TLP for TLP and byte for byte. Also host-memory helpers to lay out PRP lists.

use crate::devices::root_complex::{RootComplex, RC_DISCONTINUE};
use rust_hdl::prelude::*;
use ssdlab_hdl::nvme::prp::dma::PrpDma;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme::Status;
use ssdlab_model::nvme::frontend::datapath::Direction;
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind};
use ssdlab_model::nvme::frontend::FrontEnd;

/// Settles the combinational logic of a block driven directly (no `Simulation` harness).
pub fn simulate_settle<T: Block>(uut: &mut T) {
    ssdlab_hdl::settle(uut, 64, "block");
}

/// One data-path command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    pub to_host: bool,
    pub prp1: u64,
    pub prp2: u64,
    pub len: u32,
}

/// What a run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Status field (SCT 10:8, SC 7:0).
    pub status: u16,
    /// Host→device bytes delivered (empty for device→host).
    pub data: Vec<u8>,
    /// Every device TLP: (type, address, bytes).
    pub tlps: Vec<(TlpKind, u64, u32)>,
    /// Cycle of the first TLP header and cycle the command ended.
    pub first_tlp: Cycle,
    pub end: Cycle,
}

/// Device Control encoding of a power-of-two size 128..=4096.
pub fn size_code(bytes: u32) -> u64 {
    assert!(
        bytes.is_power_of_two() && (128..=4096).contains(&bytes),
        "size {bytes}"
    );
    (bytes / 128).trailing_zeros() as u64
}

/// Writes PRP entries (8 bytes each, little endian) at `addr`.
pub fn put_entries(rc: &mut RootComplex, addr: u64, entries: &[u64]) {
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_le_bytes()).collect();
    rc.put(addr, &bytes);
}

/// The rust_hdl data path with its cycle count; commands run one after another on it.
pub struct HdlDma {
    pub uut: PrpDma,
    pub cycle: Cycle,
}

impl Default for HdlDma {
    fn default() -> Self {
        Self::new()
    }
}

impl HdlDma {
    pub fn new() -> Self {
        let mut uut = PrpDma::default();
        uut.connect_all();
        HdlDma { uut, cycle: 0 }
    }

    /// Runs `cmd`; `data` is the device→host payload. Panics (with `ctx`, e.g. the seed) if the
    /// command has not ended within `limit` cycles.
    pub fn run(
        &mut self,
        cfg: &DriveConfig,
        rc: &mut RootComplex,
        cmd: Cmd,
        data: &[u8],
        limit: Cycle,
        ctx: &str,
    ) -> Outcome {
        let uut = &mut self.uut;
        let (mut out, mut pos, mut offered, mut last_seen) = (Vec::new(), 0usize, true, false);
        let seen0 = rc.seen.len();
        let start = self.cycle;
        while self.cycle < start + limit {
            let cycle = self.cycle;
            self.cycle += 1;
            uut.clock.next = Clock { clk: false };
            uut.mps_code.next = bits::<3>(size_code(cfg.pcie.mps_bytes));
            uut.mrrs_code.next = bits::<3>(size_code(cfg.pcie.mrrs_bytes));
            uut.cmd_valid.next = offered;
            uut.cmd_to_host.next = cmd.to_host;
            uut.cmd_prp1.next = bits::<64>(cmd.prp1);
            uut.cmd_prp2.next = bits::<64>(cmd.prp2);
            uut.cmd_len.next = bits::<32>(cmd.len as u64);
            let beat = rc.rc_beat_at(cycle);
            uut.rc.tvalid.next = beat.is_some();
            uut.rc.tdata.next = beat.map_or(0, |b| b.0).to_bits();
            uut.rc.tlast.next = beat.is_some_and(|b| b.1);
            uut.rc.discontinue.next = beat.is_some_and(|b| b.2 >> RC_DISCONTINUE & 1 != 0);
            uut.rq_tready.next = rc.rq_tready_at(cycle);
            let mut w = [0u8; 16];
            let chunk = &data[pos.min(data.len())..(pos + 16).min(data.len())];
            w[..chunk.len()].copy_from_slice(chunk);
            uut.bd.valid.next = pos < data.len();
            uut.bd.data.next = u128::from_le_bytes(w).to_bits();
            simulate_settle(uut);
            if uut.cmd_ready.val() {
                offered = false;
            }
            rc.rq_observe(
                cycle,
                uut.rq_tvalid.val(),
                uut.rq_tready.val(),
                uut.rq_tdata.val().to_u128(),
                uut.rq_tlast.val(),
                None,
            );
            if uut.bd.ready.val() && uut.bd.valid.val() {
                pos += 16;
            }
            if uut.wd.valid.val() {
                assert!(!last_seen, "{ctx}: data beat after the last one");
                let n = 4 * uut.wd.dwords.val().to_u64() as usize;
                assert!((4..=16).contains(&n), "{ctx}: beat of {n} bytes");
                out.extend_from_slice(&uut.wd.data.val().to_u128().to_le_bytes()[..n]);
                last_seen = uut.wd.last.val();
            }
            let done = uut.done.val().then(|| uut.status.val().to_u64() as u16);
            uut.clock.next = Clock { clk: true };
            simulate_settle(uut);
            if let Some(status) = done {
                let tlps: Vec<_> = rc.seen[seen0..]
                    .iter()
                    .map(|t| (t.kind, t.addr, t.len))
                    .collect();
                let first_tlp = rc.seen.get(seen0).map_or(cycle, |t| t.cycle);
                if status == 0 && !cmd.to_host {
                    assert!(last_seen, "{ctx}: done without the last data beat");
                }
                return Outcome {
                    status,
                    data: out,
                    tlps,
                    first_tlp,
                    end: cycle,
                };
            }
        }
        panic!("{ctx}: command {cmd:x?} did not end within {limit} cycles");
    }
}

/// Runs `cmd` through the behavioural model's data path on `rc`.
pub fn run_model(cfg: &DriveConfig, rc: &mut RootComplex, cmd: Cmd, data: &[u8]) -> Outcome {
    let mut fe = FrontEnd::new(&cfg.pcie, &cfg.nvme);
    let dir = if cmd.to_host {
        Direction::ToHost
    } else {
        Direction::FromHost
    };
    let seen0 = rc.seen.len();
    let r = fe.transfer(0, cmd.prp1, cmd.prp2, cmd.len, dir, data, rc);
    rc.discard_device_beats();
    let tlps: Vec<_> = rc.seen[seen0..]
        .iter()
        .map(|t| (t.kind, t.addr, t.len))
        .collect();
    let first_tlp = rc.seen.get(seen0).map_or(0, |t| t.cycle);
    match r {
        Ok((bytes, end)) => Outcome {
            status: Status::SUCCESS.field(),
            data: bytes,
            tlps,
            first_tlp,
            end,
        },
        Err(st) => Outcome {
            status: st.field(),
            data: Vec::new(),
            tlps,
            first_tlp,
            end: 0,
        },
    }
}
