//! Completion posting of the front end (NVM Express Base Specification 1.4, section 4.6):
//! completion requests wait in one queue ordered by the cycle they reach the completion engine;
//! the oldest is posted as a 16 B CQE MWr when its CQ has room (the whole path waits while that
//! CQ is full, like the HDL's single completion engine), then MSI-X is raised as coalescing
//! allows (see [`super::msix`]).

use super::entry::{Cqe, Status};
use super::tlp::{Cycle, TlpKind, TlpPurpose};
use super::{FetchedCommand, FrontEnd, HostPort, PostedCqe};

#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingCpl {
    sqid: u16,
    cqid: u16,
    cid: u16,
    status: Status,
    dw0: u32,
    /// Earliest cycle of its CQE header.
    ready: Cycle,
    /// Rejected by the front end itself (the HDL holds these in a register that wins over
    /// waiting completion requests).
    rejection: bool,
}

impl FrontEnd {
    /// The next stage finished command `cid` of `sqid` at `cycle`. The CQE is posted by
    /// [`FrontEnd::run_until`] once its time comes and its CQ has room.
    pub fn complete(&mut self, cycle: Cycle, sqid: u16, cid: u16, status: Status, dw0: u32) {
        self.enqueue_cpl(sqid, cid, status, dw0, cycle + self.timing.cpl_to_cqe, false);
    }

    /// A command the front end refuses (see `screen`).
    pub(crate) fn reject(&mut self, cmd: &FetchedCommand, status: Status) {
        // A rejection reaching the engine in the same cycle as a completion request goes first.
        self.enqueue_cpl(cmd.sqid, cmd.sqe.cid, status, 0, cmd.cycle + self.timing.rej_to_cqe, true);
    }

    fn enqueue_cpl(&mut self, sqid: u16, cid: u16, status: Status, dw0: u32, ready: Cycle, first: bool) {
        let cqid = self.sqs[sqid as usize].as_ref().map(|s| s.cqid).expect("completion for a live SQ");
        let p = PendingCpl { sqid, cqid, cid, status, dw0, ready, rejection: first };
        let at = self.held.iter().position(|h| h.ready > ready || (first && h.ready == ready)).unwrap_or(self.held.len());
        self.held.insert(at, p);
        assert!(self.held.len() <= 16 * self.sqs.len() * self.max_entries as usize, "completion queue unbounded");
    }

    /// Which pending completion the engine takes next: the oldest, unless a rejection is
    /// waiting by the time the engine could take the oldest (rejections win, as in the HDL).
    fn next_index(&self) -> Option<usize> {
        let f = self.held.front()?;
        let grant = self.port.free_cycle().saturating_sub(1);
        let horizon = f.ready.saturating_sub(1).max(grant);
        let rej = self.held.iter().position(|h| h.rejection && h.ready.saturating_sub(1) <= horizon);
        Some(rej.unwrap_or(0))
    }

    /// Header cycle of the next CQE, if its CQ has room.
    pub(crate) fn next_post_time(&self) -> Option<Cycle> {
        let p = self.held.get(self.next_index()?)?;
        let cq = self.cqs[p.cqid as usize].as_ref()?;
        if cq.full() {
            return None;
        }
        Some(p.ready.max(self.cq_head_ready[p.cqid as usize]))
    }

    pub(crate) fn post_one(&mut self, t: Cycle, host: &mut impl HostPort) {
        let i = self.next_index().expect("post without a pending completion");
        let p = self.held.remove(i).expect("index in range");
        let cq = self.cqs[p.cqid as usize].as_mut().expect("CQ exists while it has completions");
        let (addr, phase) = cq.post();
        let (vector, irq) = (cq.vector as usize, cq.irq_enabled);
        let sqhd = self.sqs[p.sqid as usize].as_ref().map_or(0, |s| s.head) as u16;
        let cqe = Cqe { dw0: p.dw0, sqhd, sqid: p.sqid, cid: p.cid, phase, status: p.status };
        let at = self.port.send(host, t, TlpKind::MemWrite, TlpPurpose::CqEntry, addr, 16);
        host.write(at, addr, &cqe.encode());
        self.posted.push(PostedCqe { cqid: p.cqid, cqe, cycle: at });
        if irq && self.coalescer.on_completion(vector, at, p.cqid != 0) {
            self.send_msix(at, vector, host);
        }
    }

    pub(crate) fn send_msix(&mut self, ready: Cycle, vector: usize, host: &mut impl HostPort) {
        let v = &mut self.msix[vector];
        if v.masked {
            v.pending = true;
            return;
        }
        let (addr, data) = (v.addr, v.data);
        let at = self.port.send(host, ready, TlpKind::MemWrite, TlpPurpose::Msix, addr, 4);
        host.write(at, addr, &data.to_le_bytes());
    }
}
