//! The fetch engine of the front end (NVM Express Base Specification 1.4, sections 4.1 queues
//! and 4.13 arbitration), as the HDL's: when a fetch can next start (a free fetch tag, an SQ with
//! an entry, the minimum interval since the last arbitration), arbitration over the SQs with
//! entries (`arbiter::SqArbiter`), the 64 B MRd through the requester port, and the screen a
//! fetched command passes before it is handed on (unsupported opcode, SGL) or rejected.

use super::entry::{Sqe, SQE_BYTES};
use super::tlp::{Cycle, TlpKind, TlpPurpose};
use super::{FetchedCommand, FrontEnd, HostPort, FETCH_TAGS};
use crate::encoding::nvme::{opc, Status};

impl FrontEnd {
    pub(super) fn next_fetch_time(&self) -> Option<Cycle> {
        if !self.ready() {
            return None;
        }
        let tag_free = *self.fetch_tags.iter().min().expect("tags");
        if tag_free == Cycle::MAX {
            return None; // every tag holds a rejected command the completion engine has not taken
        }
        debug_assert_eq!(self.sq_ready, self.scan_sqs(), "stale SQ readiness");
        Some(self.fetch_free.max(tag_free).max(self.sq_ready?))
    }

    /// The earliest cycle an SQ has an entry: 0 (now) if one has, else its next doorbell's.
    pub(super) fn scan_sqs(&self) -> Option<Cycle> {
        let mut ready: Option<Cycle> = None;
        for sq in self.sqs.iter().flatten() {
            if sq.has_entry() {
                return Some(0);
            }
            if let Some(v) = sq.next_visible() {
                ready = Some(ready.map_or(v, |r| r.min(v)));
            }
        }
        ready
    }

    /// Recomputes [`FrontEnd::scan_sqs`] after the SQs changed (doorbell, fetch, create,
    /// delete, reset), so the fetch engine's next-event search does not scan them.
    pub(crate) fn sqs_changed(&mut self) {
        self.sq_ready = self.scan_sqs();
    }

    pub(super) fn fetch_one(
        &mut self,
        t: Cycle,
        host: &mut impl HostPort,
        out: &mut Vec<FetchedCommand>,
    ) {
        if let Some(pick) = self.arbitrate(t) {
            self.issue_fetch(t, pick, host, out);
        }
    }

    /// Arbitration at cycle `t`: picks a queue and takes its head entry (SQ head advances now).
    pub(super) fn arbitrate(&mut self, t: Cycle) -> Option<(usize, u32, u64)> {
        for (q, sq) in self.sqs.iter_mut().enumerate() {
            self.ready_mask[q] = match sq {
                Some(sq) => {
                    sq.settle(t);
                    sq.has_entry()
                }
                None => false,
            };
        }
        self.fetch_free = t + self.timing.fetch_interval;
        let Some(q) = self.arbiter.pick(&self.ready_mask) else {
            self.sqs_changed();
            return None;
        };
        let sq = self.sqs[q].as_mut().expect("arbiter picked a live queue");
        let slot = sq.head;
        let addr = sq.take();
        self.sqs_changed();
        Some((q, slot, addr))
    }

    /// The MRd of an arbitration at `t` through the requester port, and its command.
    pub(super) fn issue_fetch(
        &mut self,
        t: Cycle,
        (q, slot, addr): (usize, u32, u64),
        host: &mut impl HostPort,
        out: &mut Vec<FetchedCommand>,
    ) {
        // The requester mux takes the request one cycle before the port could show its header
        // (even if the link then holds that header); the arbiter is free the cycle after.
        let port_free = self.port.free_cycle();
        let issue = self.port.send(
            host,
            t + self.timing.arb_to_fetch,
            TlpKind::MemRead,
            TlpPurpose::SqFetch,
            addr,
            SQE_BYTES,
        );
        self.fetch_free = self.fetch_free.max(port_free);
        let (raw, arrived) = host.read_sqe(issue, addr);
        let tag = (0..FETCH_TAGS)
            .min_by_key(|&i| self.fetch_tags[i])
            .expect("tags");
        assert!(self.fetch_tags[tag] <= t, "fetch issued without a free tag");
        let sqe = Sqe::decode(&raw);
        let cmd = FetchedCommand {
            sqid: q as u16,
            slot,
            sqe,
            cycle: arrived + self.timing.cpl_to_cmd,
        };
        match self.screen(&cmd) {
            Status::SUCCESS => {
                self.fetch_tags[tag] = arrived + self.timing.tag_reuse;
                out.push(cmd);
            }
            bad => {
                // The tag holds the rejected command until the completion engine takes it.
                self.fetch_tags[tag] = Cycle::MAX;
                self.reject(&cmd, bad, tag);
            }
        }
    }

    /// Checks the front end performs before handing a command on: opcode supported for the
    /// queue type (01h Invalid Command Opcode), PSDT = 00b since SGLs are not supported (02h
    /// Invalid Field in Command), section 4.2 and Figure 126.
    pub(super) fn screen(&self, cmd: &FetchedCommand) -> Status {
        let known = if cmd.sqid == 0 {
            matches!(
                cmd.sqe.opc,
                opc::ADMIN_DELETE_IO_SQ
                    | opc::ADMIN_CREATE_IO_SQ
                    | opc::ADMIN_DELETE_IO_CQ
                    | opc::ADMIN_CREATE_IO_CQ
                    | opc::ADMIN_IDENTIFY
                    | opc::ADMIN_ASYNC_EVENT
            )
        } else {
            matches!(
                cmd.sqe.opc,
                opc::NVM_FLUSH | opc::NVM_WRITE | opc::NVM_READ | opc::NVM_DSM
            )
        };
        if !known {
            Status::INVALID_OPCODE
        } else if cmd.sqe.psdt != 0 {
            Status::INVALID_FIELD
        } else {
            Status::SUCCESS
        }
    }
}
