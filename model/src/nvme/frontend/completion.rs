//! Completion engine of the front end (NVM Express Base Specification 1.4, section 4.6), as
//! the HDL's single engine works: completion requests of the next stage and commands the front
//! end rejected wait until the engine takes one (at the cycle it is idle and the request is
//! there; rejections first, then requests in arrival order). The taken completion is posted as
//! a 16 B CQE MWr when its CQ has room: while that CQ is full the engine holds it, and
//! everything behind it waits (head of line). Then MSI-X is raised as coalescing allows
//! ([`super::msix`]).
//!
//! A rejected command keeps its fetch tag (its command buffer) until the engine takes it, so
//! rejections never need storage beyond the tags and never stall the fetch of other queues
//! while a tag is free; only when all `FETCH_TAGS` hold rejections does fetching wait.

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
    /// Cycle the request is valid at the engine's input.
    avail: Cycle,
    /// Rejected by the front end itself: the fetch tag its command holds.
    tag: Option<usize>,
}

impl FrontEnd {
    /// The next stage finished command `cid` of `sqid` at `cycle` (its completion request is
    /// valid from `cycle` on). Must be called before `run_until` passes `cycle`. The CQE is
    /// posted by [`FrontEnd::run_until`] once the engine takes it and its CQ has room.
    pub fn complete(&mut self, cycle: Cycle, sqid: u16, cid: u16, status: Status, dw0: u32) {
        self.enqueue_cpl(sqid, cid, status, dw0, cycle, None);
    }

    /// A command the front end refuses (see `screen`); it holds fetch tag `tag` until taken.
    pub(crate) fn reject(&mut self, cmd: &FetchedCommand, status: Status, tag: usize) {
        let avail = cmd.cycle + self.timing.rej_to_cqe - self.timing.cpl_to_cqe;
        self.enqueue_cpl(cmd.sqid, cmd.sqe.cid, status, 0, avail, Some(tag));
    }

    fn enqueue_cpl(&mut self, sqid: u16, cid: u16, status: Status, dw0: u32, avail: Cycle, tag: Option<usize>) {
        let cqid = self.sqs[sqid as usize].as_ref().map(|s| s.cqid).expect("completion for a live SQ");
        let p = PendingCpl { sqid, cqid, cid, status, dw0, avail, tag };
        // Arrival order; a rejection arriving in the same cycle as a request goes first.
        let at = self.held.iter().position(|h| h.avail > avail || (tag.is_some() && h.avail == avail)).unwrap_or(self.held.len());
        self.held.insert(at, p);
        assert!(self.held.len() <= 16 * self.sqs.len() * self.max_entries as usize, "completion queue unbounded");
    }

    /// Cycle the idle engine takes its next completion, if one waits.
    pub(crate) fn next_take_time(&self) -> Option<Cycle> {
        if self.engine.is_some() {
            return None;
        }
        Some(self.held.front()?.avail.max(self.engine_idle))
    }

    /// The engine takes a completion at `t`: the oldest rejection there by then, else the
    /// oldest request. A rejection's fetch tag is free again from `t + tag_reuse`.
    pub(crate) fn take(&mut self, t: Cycle) {
        assert!(self.engine.is_none(), "engine busy");
        let i = self.held.iter().position(|h| h.tag.is_some() && h.avail <= t).unwrap_or(0);
        let p = self.held.remove(i).expect("take without a pending completion");
        assert!(p.avail <= t, "completion taken before it arrived");
        if let Some(tag) = p.tag {
            assert_eq!(self.fetch_tags[tag], Cycle::MAX, "rejection tag {tag} was not held");
            self.fetch_tags[tag] = t + self.timing.tag_reuse;
        }
        self.engine = Some((p, t));
    }

    /// Header cycle of the taken completion's CQE, if its CQ has room.
    pub(crate) fn next_post_time(&self) -> Option<Cycle> {
        let (p, taken) = self.engine.as_ref()?;
        let cq = self.cqs[p.cqid as usize].as_ref()?;
        if cq.full() {
            return None;
        }
        Some((taken + self.timing.cpl_to_cqe).max(self.cq_head_ready[p.cqid as usize]))
    }

    pub(crate) fn post_one(&mut self, t: Cycle, host: &mut impl HostPort) {
        let (p, _) = self.engine.take().expect("post without a taken completion");
        let cq = self.cqs[p.cqid as usize].as_mut().expect("CQ exists while it has completions");
        let (addr, phase) = cq.post();
        let (vector, irq) = (cq.vector as usize, cq.irq_enabled);
        let sqhd = self.sqs[p.sqid as usize].as_ref().map_or(0, |s| s.head) as u16;
        let cqe = Cqe { dw0: p.dw0, sqhd, sqid: p.sqid, cid: p.cid, phase, status: p.status };
        // The engine is idle again the cycle after the requester mux takes its last MWr (the
        // cycle before the port could show the header; the link may hold the header longer).
        self.engine_idle = t.max(self.port.free_cycle());
        let at = self.port.send(host, t, TlpKind::MemWrite, TlpPurpose::CqEntry, addr, 16);
        host.write(at, addr, &cqe.encode());
        self.posted.push(PostedCqe { cqid: p.cqid, cqe, cycle: at });
        if irq && self.coalescer.on_completion(vector, at, p.cqid != 0) {
            if let Some(m) = self.send_msix(at, vector, host) {
                self.engine_idle = m;
            }
        }
    }

    /// Sends vector `vector`'s message no earlier than `ready` (or marks it pending while the
    /// vector is masked); if sent, returns the cycle after the requester mux took it.
    pub(crate) fn send_msix(&mut self, ready: Cycle, vector: usize, host: &mut impl HostPort) -> Option<Cycle> {
        let v = &mut self.msix[vector];
        if v.masked {
            v.pending = true;
            return None;
        }
        let (addr, data) = (v.addr, v.data);
        let released = ready.max(self.port.free_cycle());
        let at = self.port.send(host, ready, TlpKind::MemWrite, TlpPurpose::Msix, addr, 4);
        host.write(at, addr, &data.to_le_bytes());
        Some(released)
    }

    /// Controller reset: pending completions and rejections are dropped, their tags freed.
    pub(crate) fn reset_completions(&mut self, cycle: Cycle) {
        self.held.clear();
        self.engine = None;
        for t in self.fetch_tags.iter_mut().filter(|t| **t == Cycle::MAX) {
            *t = cycle;
        }
    }
}
