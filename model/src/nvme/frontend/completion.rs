//! Completion engine of the front end (NVM Express Base Specification 1.4, section 4.6), as
//! the HDL's single engine works: completion requests of the next stage and commands the front
//! end rejected wait until the engine takes one (at the cycle it is idle and the request is
//! there; rejections first, then requests in arrival order). The taken completion is posted as
//! a 16 B CQE MWr when its CQ has room: while that CQ is full the engine holds it, and
//! everything behind it waits (head of line). Then MSI-X is raised as coalescing allows
//! ([`super::msix`]). Pending MSI-X vectors (aggregation time passed, or unmasked while
//! pending) are engine jobs too, taken when no completion waits.
//!
//! A rejected command keeps its fetch tag (its command buffer) until the engine takes it, so
//! rejections never need storage beyond the tags and never stall the fetch of other queues
//! while a tag is free; only when all `FETCH_TAGS` hold rejections does fetching wait.

use super::entry::Cqe;
use super::tlp::{Cycle, TlpKind, TlpPurpose};
use super::{FetchedCommand, FrontEnd, HostPort, PostedCqe};
use crate::encoding::nvme::Status;

/// A job of the completion engine.
#[derive(Clone, Copy, Debug)]
pub(crate) enum EngineItem {
    Cpl(PendingCpl),
    /// A pending MSI-X vector (aggregation time passed, or unmasked while pending).
    Msi(usize),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingCpl {
    sqid: u16,
    pub(super) cqid: u16,
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

    fn enqueue_cpl(
        &mut self,
        sqid: u16,
        cid: u16,
        status: Status,
        dw0: u32,
        avail: Cycle,
        tag: Option<usize>,
    ) {
        let cqid = self.sqs[sqid as usize]
            .as_ref()
            .map(|s| s.cqid)
            .expect("completion for a live SQ");
        let p = PendingCpl {
            sqid,
            cqid,
            cid,
            status,
            dw0,
            avail,
            tag,
        };
        // Arrival order; a rejection arriving in the same cycle as a request goes first.
        let at = self
            .held
            .iter()
            .position(|h| h.avail > avail || (tag.is_some() && h.avail == avail))
            .unwrap_or(self.held.len());
        self.held.insert(at, p);
        assert!(
            self.held.len() <= 16 * self.sqs.len() * self.max_entries as usize,
            "completion queue unbounded"
        );
    }

    /// The earliest pending, unmasked MSI-X vector the engine could take (cycle, vector); the
    /// lowest vector first, as the HDL's priority encoder.
    fn next_pending_msix(&self, by: Option<Cycle>) -> Option<(Cycle, usize)> {
        if self.msix_pending == 0 {
            return None;
        }
        let ready = self
            .msix
            .iter()
            .enumerate()
            .filter(|(_, v)| v.pending && !v.masked);
        match by {
            Some(t) => ready
                .filter(|(_, v)| v.ready_at <= t)
                .map(|(i, v)| (v.ready_at, i))
                .next(),
            None => ready.map(|(i, v)| (v.ready_at, i)).min(),
        }
    }

    /// Cycle the idle engine takes its next job, if one waits.
    pub(crate) fn next_take_time(&self) -> Option<Cycle> {
        if self.engine.is_some() {
            return None;
        }
        let cpl = self.held.front().map(|h| h.avail);
        let msi = self.next_pending_msix(None).map(|m| m.0);
        Some(cpl.into_iter().chain(msi).min()?.max(self.engine_idle))
    }

    /// The engine takes a job at `t`: the oldest rejection there by then, else the oldest
    /// request, else the lowest pending unmasked MSI-X vector. A rejection's fetch tag is free
    /// again from `t + tag_reuse`.
    pub(crate) fn take(&mut self, t: Cycle) {
        assert!(self.engine.is_none(), "engine busy");
        let rej = self
            .held
            .iter()
            .position(|h| h.tag.is_some() && h.avail <= t);
        let cpl = rej.or_else(|| self.held.front().filter(|h| h.avail <= t).map(|_| 0));
        let item = match (cpl, self.next_pending_msix(Some(t))) {
            (Some(i), _) => {
                let p = self.held.remove(i).expect("index in range");
                if let Some(tag) = p.tag {
                    assert_eq!(
                        self.fetch_tags[tag],
                        Cycle::MAX,
                        "rejection tag {tag} was not held"
                    );
                    self.fetch_tags[tag] = t + self.timing.tag_reuse;
                }
                EngineItem::Cpl(p)
            }
            (None, Some((_, v))) => EngineItem::Msi(v),
            (None, None) => panic!("engine take at {t} with nothing there"),
        };
        self.engine = Some((item, t));
    }

    /// Header cycle of the taken job's MWr (for a completion: if its CQ has room).
    pub(crate) fn next_post_time(&self) -> Option<Cycle> {
        let (item, taken) = self.engine.as_ref()?;
        let ready = taken + self.timing.cpl_to_cqe;
        match item {
            EngineItem::Msi(_) => Some(ready),
            EngineItem::Cpl(p) => {
                let cq = self.cqs[p.cqid as usize].as_ref()?;
                if cq.full() {
                    return None;
                }
                Some(ready.max(self.cq_head_ready[p.cqid as usize]))
            }
        }
    }

    pub(crate) fn post_one(&mut self, t: Cycle, host: &mut impl HostPort) {
        let p = match self.engine.take().expect("post without a taken job").0 {
            EngineItem::Cpl(p) => p,
            EngineItem::Msi(v) => {
                self.set_msix_pending(v, false);
                self.engine_idle = self
                    .send_msix(t, v, host)
                    .expect("engine sends unmasked vectors only");
                return;
            }
        };
        let cq = self.cqs[p.cqid as usize]
            .as_mut()
            .expect("CQ exists while it has completions");
        let (addr, phase) = cq.post();
        let (vector, irq) = (cq.vector as usize, cq.irq_enabled);
        let sqhd = self.sqs[p.sqid as usize].as_ref().map_or(0, |s| s.head) as u16;
        let cqe = Cqe {
            dw0: p.dw0,
            sqhd,
            sqid: p.sqid,
            cid: p.cid,
            phase,
            status: p.status,
        };
        // The engine is idle again the cycle after the requester mux takes its last MWr (the
        // cycle before the port could show the header; the link may hold the header longer).
        self.engine_idle = t.max(self.port.free_cycle());
        let at = self
            .port
            .send(host, t, TlpKind::MemWrite, TlpPurpose::CqEntry, addr, 16);
        host.write(at, addr, &cqe.encode());
        if self.port.logging() {
            self.posted.push(PostedCqe {
                cqid: p.cqid,
                cqe,
                cycle: at,
            });
        }
        // Coalescing counts from the cycle the mux took the CQE (what the HDL's timer sees).
        if irq
            && self
                .coalescer
                .on_completion(vector, self.engine_idle, p.cqid != 0)
        {
            if let Some(m) = self.send_msix(at, vector, host) {
                self.engine_idle = m;
            }
        }
    }

    /// Sends vector `vector`'s message no earlier than `ready` (or marks it pending while the
    /// vector is masked); if sent, returns the cycle after the requester mux took it.
    pub(crate) fn send_msix(
        &mut self,
        ready: Cycle,
        vector: usize,
        host: &mut impl HostPort,
    ) -> Option<Cycle> {
        if self.msix[vector].masked {
            self.set_msix_pending(vector, true);
            return None;
        }
        let (addr, data) = (self.msix[vector].addr, self.msix[vector].data);
        let released = ready.max(self.port.free_cycle());
        let at = self
            .port
            .send(host, ready, TlpKind::MemWrite, TlpPurpose::Msix, addr, 4);
        host.write(at, addr, &data.to_le_bytes());
        Some(released)
    }

    /// Sets vector `v`'s pending bit, keeping the count of pending vectors.
    pub(crate) fn set_msix_pending(&mut self, v: usize, on: bool) {
        let e = &mut self.msix[v];
        match (e.pending, on) {
            (false, true) => self.msix_pending += 1,
            (true, false) => self.msix_pending -= 1,
            _ => {}
        }
        e.pending = on;
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
