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

use super::entry::Status;
use super::prp;
use super::tlp::{split_aligned, Cycle, TlpKind, TlpPurpose};
use super::{datapath::Direction, FrontEnd, HostPort, DATA_TAGS};
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
    pub fn start_move(&mut self, grant: Cycle, prp1: u64, prp2: u64, len: u32, dir: Direction, host: &mut impl HostPort) -> Result<DataMove, Status> {
        let mut now = grant + 1;
        let (port, mrrs) = (&mut self.port, self.mrrs);
        let walk = prp::walk(prp1, prp2, len, |addr, bytes| {
            let mut parts = Vec::new();
            split_aligned(addr, bytes, mrrs, &mut parts);
            let mut buf = Vec::with_capacity(bytes as usize);
            for (a, n) in parts {
                let at = port.send(host, now, TlpKind::MemRead, TlpPurpose::PrpList, a, n);
                let (d, arrived) = host.read(at, a, n);
                buf.extend_from_slice(&d);
                now = arrived + 1;
            }
            buf
        })?;
        let max = if dir == Direction::FromHost { self.mrrs } else { self.mps };
        let mut parts = Vec::new();
        for &(a, n) in &walk.segments {
            split_aligned(a, n, max, &mut parts);
        }
        let mut off = 0usize;
        let reqs = parts
            .into_iter()
            .map(|(a, n)| {
                off += n as usize;
                (a, n, off - n as usize)
            })
            .collect();
        Ok(DataMove { dir, reqs, next_grant: now - 1, tags: [0; DATA_TAGS], sent: 0, end: now })
    }

    /// Cycle `cycle` of move `mv`, after [`FrontEnd::run_until`] has granted this cycle's fetches
    /// and CQEs: sends the move's next request if it is due and the requester port is free
    /// (at most one per cycle). `data` is the move's bytes for `ToHost`; bytes read are
    /// discarded here (the host model keeps its memory). Returns whether a TLP was sent.
    pub fn step_move(&mut self, mv: &mut DataMove, cycle: Cycle, data: &[u8], host: &mut impl HostPort) -> bool {
        let Some(&(a, n, off)) = mv.reqs.front() else { return false };
        let slot = mv.sent % DATA_TAGS;
        let port_free = self.port.free_cycle().saturating_sub(1) <= cycle;
        if cycle < mv.next_grant || !port_free || (mv.dir == Direction::FromHost && mv.tags[slot] > cycle + 1) {
            return false;
        }
        mv.reqs.pop_front();
        mv.sent += 1;
        match mv.dir {
            Direction::FromHost => {
                let at = self.port.send(host, cycle + 1, TlpKind::MemRead, TlpPurpose::DataIn, a, n);
                let (_, arrived) = host.read(at, a, n);
                mv.tags[slot] = arrived;
                mv.end = mv.end.max(arrived + 1);
                mv.next_grant = at;
            }
            Direction::ToHost => {
                assert!(data.len() >= off + n as usize, "move data shorter than the move");
                let at = self.port.send(host, cycle + 1, TlpKind::MemWrite, TlpPurpose::DataOut, a, n);
                host.write(at, a, &data[off..off + n as usize]);
                mv.end = self.port.free_cycle();
                mv.next_grant = self.port.free_cycle() - 1;
            }
        }
        true
    }
}
