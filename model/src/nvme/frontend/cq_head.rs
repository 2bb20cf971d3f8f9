//! CQ head doorbell writes in flight to the completion engine (NVM Express Base Specification
//! 1.4, section 4.1: the host frees CQ slots by writing the CQ head doorbell). A write is kept
//! with its arrival cycle and applied when the block runs that cycle, before anything the cycle
//! does, exactly as if the caller had run the block to the cycle before and written it then.
//! So a caller that knows a write's arrival cycle (the drive, once the link has carried the
//! MWr) may hand it in at once, without an event of its own: a head write changes nothing but
//! the room the next CQE finds, and the block's run applies it in its place. Only a completion
//! that waits on a full CQ needs the block woken for the write ([`FrontEnd::head_wake`]).
//!
//! A write that finds its CQ full lets the next entry go `cq_doorbell_to_cqe` cycles after
//! the write (the HDL's head-compare pipeline).

use super::completion::EngineItem;
use super::tlp::Cycle;
use super::FrontEnd;

/// Bound on CQ head writes in flight: a host rings a CQ's head doorbell at most once per
/// entry it consumes, so each CQ has at most the pending-write bound of its ring.
pub(super) fn in_flight_bound(cqs: usize, max_entries: u32) -> usize {
    cqs.max(1) * super::ring::pending_bound(max_entries)
}

impl FrontEnd {
    /// CQ `qid`'s head doorbell write of `head` (checked) arrives at `cycle`.
    pub(super) fn push_cq_head(&mut self, cycle: Cycle, qid: u16, head: u32) {
        debug_assert!(
            self.cq_heads.back().is_none_or(|w| w.0 <= cycle),
            "CQ head writes handed in out of arrival order"
        );
        if self.cq_heads.len() >= in_flight_bound(self.cqs.len(), self.max_entries) {
            // More writes than slots: a host writing the doorbell without consuming entries.
            // The oldest is applied now.
            self.apply_cq_head();
        }
        self.cq_heads.push_back((cycle, qid, head));
    }

    /// Arrival cycle of the oldest CQ head write not yet applied.
    pub(super) fn next_cq_head(&self) -> Option<Cycle> {
        self.cq_heads.front().map(|w| w.0)
    }

    /// Applies the oldest CQ head write.
    pub(super) fn apply_cq_head(&mut self) {
        let Some((cycle, qid, head)) = self.cq_heads.pop_front() else {
            return;
        };
        let q = qid as usize;
        // The queue may have gone (controller reset) since the write was handed in.
        if let Some(cq) = self.cqs[q].as_mut() {
            if cq.full() {
                self.cq_head_ready[q] = cycle + self.timing.cq_doorbell_to_cqe;
            }
            cq.head = head;
        }
    }

    /// Applies every CQ head write handed in (before the CQs are created, deleted or reset).
    pub(super) fn apply_cq_heads(&mut self) {
        while !self.cq_heads.is_empty() {
            self.apply_cq_head();
        }
    }

    /// When the block must run for a CQ head write: the write's arrival cycle, if the engine
    /// holds a completion whose CQ is full (the write may free it); otherwise the write waits
    /// for the block's next run, and the block's next due and wake cycles stay what they were.
    pub fn head_wake(&self) -> Option<Cycle> {
        let at = self.next_cq_head()?;
        let Some((EngineItem::Cpl(p), _)) = &self.engine else {
            return None;
        };
        let full = self.cqs[p.cqid as usize].as_ref().is_some_and(|c| c.full());
        full.then_some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::in_flight_bound;

    #[test]
    fn bound_covers_every_slot_of_every_cq() {
        // 9 CQs (admin + 8 I/O) of 1024 entries: 9 x 1024 writes at most.
        assert_eq!(in_flight_bound(9, 1024), 9216);
        // Small queues still allow 64 writes each (one per cycle of a pipeline).
        assert_eq!(in_flight_bound(2, 4), 128);
    }
}
