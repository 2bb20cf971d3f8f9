//! PRP data movement TLP by TLP (section 4.3; the HDL's `nvme::prp` stream through
//! `pcie::rq_mux` source 2): the cycle-stepped form of [`FrontEnd::transfer`] for callers that
//! run the front end cycle by cycle (the datapath co-simulation). Where `transfer` reserves the
//! requester port for the whole move at once, a [`DataMove`] asks for the port one TLP at a
//! time, so SQ fetches and CQEs granted by [`FrontEnd::run_until`] go between its TLPs at
//! packet boundaries, as the HDL's requester mux lets them (sources 0 and 1 win a boundary).
//!
//! Timing (the mux's rule, `hdl/src/pcie/rq_mux.rs`): a request granted in cycle `g` — the
//! port is free in `g`, i.e. idle or taking its last beat — has its header in `g + 1` (later if
//! the link holds it). The data path's next TLP may be granted in the cycle its previous TLP's
//! last beat is taken, so back-to-back data TLPs leave no idle beat; a fetch or CQE valid in
//! that cycle goes first (it is granted by `run_until` before the move steps). PRP list reads
//! (when PRP2 is a list pointer) are sent when the move starts, before its first data TLP.

use super::tlp::{Cycle, TlpKind, TlpPurpose};
use super::{datapath::Direction, FrontEnd, HostPort, DATA_TAGS};
use crate::encoding::nvme::Status;
use std::collections::VecDeque;

/// One data move in flight: its remaining requests and the cycles that pace them.
#[derive(Clone, Debug)]
pub struct DataMove {
    dir: Direction,
    /// Requests not yet sent: (host address, bytes, offset in the move's data).
    reqs: VecDeque<(u64, u32, usize)>,
    /// Earliest cycle the next request may be granted.
    next_grant: Cycle,
    /// Read tags: cycle each becomes free again (its completion arrived).
    tags: [Cycle; DATA_TAGS],
    sent: usize,
    /// Cycle the move is done (known once its last request is sent).
    end: Cycle,
}

impl DataMove {
    /// Every request sent; [`DataMove::end`] is final.
    pub fn finished(&self) -> bool {
        self.reqs.is_empty()
    }
    /// Cycle the move is done: the requester port free after the last MWr, or the cycle after
    /// the last read completion beat arrived.
    pub fn end(&self) -> Cycle {
        self.end
    }
}

impl FrontEnd {
    /// Starts a move whose first request may be granted at `grant` (its header then leaves at
    /// `grant + 1` at the earliest): walks the PRPs, sending any PRP list reads now.
    pub fn start_move(
        &mut self,
        grant: Cycle,
        prp1: u64,
        prp2: u64,
        len: u32,
        dir: Direction,
        host: &mut impl HostPort,
    ) -> Result<DataMove, Status> {
        let mut now = grant + 1;
        let mut parts = Vec::new();
        self.plan_requests(&mut now, prp1, prp2, len, dir, host, &mut parts)?;
        let mut off = 0usize;
        let reqs = parts
            .into_iter()
            .map(|(a, n)| {
                off += n as usize;
                (a, n, off - n as usize)
            })
            .collect();
        Ok(DataMove {
            dir,
            reqs,
            next_grant: now - 1,
            tags: [0; DATA_TAGS],
            sent: 0,
            end: now,
        })
    }

    /// Cycle `cycle` of move `mv`, after [`FrontEnd::run_until`] has granted this cycle's fetches
    /// and CQEs: sends the move's next request if it is due and the requester port is free
    /// (at most one per cycle). `data` is the move's bytes for `ToHost`; bytes read are
    /// discarded here (the host model keeps its memory). Returns whether a TLP was sent.
    pub fn step_move(
        &mut self,
        mv: &mut DataMove,
        cycle: Cycle,
        data: &[u8],
        host: &mut impl HostPort,
    ) -> bool {
        let Some(&(a, n, off)) = mv.reqs.front() else {
            return false;
        };
        let slot = mv.sent % DATA_TAGS;
        let port_free = self.grant_cycle() <= cycle;
        if cycle < mv.next_grant
            || !port_free
            || (mv.dir == Direction::FromHost && mv.tags[slot] > cycle + 1)
        {
            return false;
        }
        mv.reqs.pop_front();
        mv.sent += 1;
        match mv.dir {
            Direction::FromHost => {
                let at =
                    self.port
                        .send(host, cycle + 1, TlpKind::MemRead, TlpPurpose::DataIn, a, n);
                let (_, arrived) = host.read(at, a, n);
                mv.tags[slot] = arrived;
                mv.end = mv.end.max(arrived + 1);
                mv.next_grant = at;
            }
            Direction::ToHost => {
                assert!(
                    data.len() >= off + n as usize,
                    "move data shorter than the move"
                );
                let at = self.port.send(
                    host,
                    cycle + 1,
                    TlpKind::MemWrite,
                    TlpPurpose::DataOut,
                    a,
                    n,
                );
                host.write(at, a, &data[off..off + n as usize]);
                mv.end = self.port.free_cycle();
                mv.next_grant = self.port.free_cycle() - 1;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{enabled, FlatHost};
    use super::*;
    use crate::config::DriveConfig;

    const HOST: u64 = 0x40_0000;

    /// Runs `mv` from cycle 0 until its last request is sent, granting the front end's own
    /// requests first each cycle.
    fn drive(fe: &mut FrontEnd, h: &mut FlatHost, mv: &mut DataMove, data: &[u8]) {
        let mut out = Vec::new();
        for c in 0..1_000 {
            fe.run_until(c, h, &mut out);
            fe.step_move(mv, c, data, h);
            if mv.finished() {
                return;
            }
        }
        panic!("move not finished in 1000 cycles");
    }

    /// 4 KiB device->host at MPS 256, first request granted at 10, no link ceiling (flat host):
    /// 16 MWr of 17 beats back to back, headers at 11 + 17 k, end (port free) 11 + 16 x 17 = 283.
    /// Host->device at MRRS 512: 8 one-beat MRd at 11..=18 (32 tags), each answered 200 cycles
    /// later: end 18 + 200 + 1 = 219.
    #[test]
    fn moves_send_back_to_back_tlps() {
        let cfg = DriveConfig::default_drive();
        assert_eq!((cfg.pcie.mps_bytes, cfg.pcie.mrrs_bytes), (256, 512));
        let mut fe = FrontEnd::new(&cfg.pcie, &cfg.nvme);
        let mut h = FlatHost::new(200);
        let data: Vec<u8> = (0..4096u32).map(|i| (i * 7) as u8).collect();
        let mut mv = fe
            .start_move(10, HOST, 0, 4096, Direction::ToHost, &mut h)
            .expect("valid PRPs");
        drive(&mut fe, &mut h, &mut mv, &data);
        let heads: Vec<Cycle> = fe.tlps().iter().map(|t| t.cycle).collect();
        assert_eq!(heads, (0..16).map(|k| 11 + 17 * k).collect::<Vec<_>>());
        assert_eq!(mv.end(), 283);
        assert_eq!(h.get(HOST, 4096), data);
        let mut fe = FrontEnd::new(&cfg.pcie, &cfg.nvme);
        let mut mv = fe
            .start_move(10, HOST, 0, 4096, Direction::FromHost, &mut h)
            .expect("valid PRPs");
        drive(&mut fe, &mut h, &mut mv, &[]);
        let heads: Vec<(TlpKind, Cycle)> = fe.tlps().iter().map(|t| (t.kind, t.cycle)).collect();
        assert_eq!(
            heads,
            (11..=18).map(|c| (TlpKind::MemRead, c)).collect::<Vec<_>>()
        );
        assert_eq!(mv.end(), 219);
    }

    /// A CQE requested while a data MWr is on the port goes at the packet boundary: completion
    /// handed on at 20 (CQE wanted at 22), the first MWr's beats are 11..=27, so the CQE is
    /// granted at 27 and has its header at 28 (2 beats), then the move continues; its MSI-X
    /// (2 beats) goes in at a later boundary the same way. No idle beat anywhere: the move ends
    /// at 11 + 16 x 17 + 2 + 2 = 287.
    #[test]
    fn cqe_goes_between_data_tlps() {
        let (mut fe, mut h) = enabled(|_| {});
        let before = fe.tlps().len();
        let mut mv = fe
            .start_move(10, HOST, 0, 4096, Direction::ToHost, &mut h)
            .expect("valid PRPs");
        let mut out = Vec::new();
        let data = vec![0u8; 4096];
        for c in 0..1_000 {
            if c == 20 {
                fe.complete(c, 0, 5, Status::SUCCESS, 0);
            }
            fe.run_until(c, &mut h, &mut out);
            fe.step_move(&mut mv, c, &data, &mut h);
            if mv.finished() {
                break;
            }
        }
        let tlps = &fe.tlps()[before..];
        assert_eq!((tlps[1].purpose, tlps[1].cycle), (TlpPurpose::CqEntry, 28));
        assert_eq!(
            tlps.iter()
                .filter(|t| t.purpose == TlpPurpose::Msix)
                .count(),
            1
        );
        for w in tlps.windows(2) {
            assert_eq!(
                w[1].cycle,
                w[0].cycle + super::super::tlp::beats(w[0].kind, w[0].len_bytes),
                "back to back: {w:?}"
            );
        }
        assert_eq!(mv.end(), 287);
    }
}
