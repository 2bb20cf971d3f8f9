//! Queue ring state as the controller tracks it (NVM Express Base Specification 1.4, section
//! 4.1): the SQ tail comes from host doorbell writes and the head advances as entries are
//! fetched; the CQ tail advances as the controller posts entries, inverting the phase tag on
//! every wrap (4.6), and the head comes from host doorbell writes. A queue is full when
//! tail + 1 == head (modulo size), empty when head == tail.
//!
//! SQ tail doorbell writes are kept with the cycle they become visible to the arbiter and
//! applied as arbitration reaches it, so a caller may hand a write in ahead of running the block
//! up to its arrival (`FrontEnd::mmio_write`).

use super::tlp::Cycle;
use std::collections::VecDeque;

/// Bound on doorbell writes of one queue not yet applied, at least. A host that writes a
/// doorbell only when it changes the queue has at most `entries` of them outstanding, and one
/// that writes every cycle at most one per cycle of register-pipeline delay; a caller may hand
/// a write in ahead of its arrival cycle (module doc), so the bound is the larger of the two.
const MAX_PENDING_DOORBELLS: usize = 64;

/// The pending-write bound of a queue of `entries` entries.
pub(super) fn pending_bound(entries: u32) -> usize {
    (entries as usize).max(MAX_PENDING_DOORBELLS)
}

/// The slot after `slot` in a ring of `entries` (`(slot + 1) % entries` without a division).
#[inline]
pub fn next_slot(slot: u32, entries: u32) -> u32 {
    debug_assert!(slot < entries);
    if slot + 1 == entries {
        0
    } else {
        slot + 1
    }
}

#[derive(Clone, Debug)]
pub struct SqRing {
    pub base: u64,
    pub entries: u32,
    pub cqid: u16,
    /// Next entry to fetch (the SQ head the controller reports in SQHD).
    pub head: u32,
    /// Tail as visible to the arbiter.
    pub tail: u32,
    /// Doorbell writes in flight through the register pipeline: (visible cycle, new tail).
    pending: VecDeque<(Cycle, u32)>,
}

impl SqRing {
    pub fn new(base: u64, entries: u32, cqid: u16) -> Self {
        assert!(entries >= 2, "queue of {entries} entries");
        SqRing {
            base,
            entries,
            cqid,
            head: 0,
            tail: 0,
            pending: VecDeque::new(),
        }
    }
    /// Queues a tail write visible from cycle `visible`; returns whether the oldest queued
    /// write was applied early to make room (the tail changed now).
    pub fn push_doorbell(&mut self, visible: Cycle, tail: u32) -> bool {
        assert!(
            tail < self.entries,
            "doorbell value must be checked before it reaches the ring"
        );
        let full = self.pending.len() == pending_bound(self.entries);
        if full {
            // Apply the oldest early: the pipeline holds a bounded number of writes.
            let (_, t) = self.pending.pop_front().expect("non-empty");
            self.tail = t;
        }
        self.pending.push_back((visible, tail));
        full
    }
    /// Applies doorbell writes visible at `t`.
    pub fn settle(&mut self, t: Cycle) {
        while let Some(&(v, tail)) = self.pending.front() {
            if v > t {
                break;
            }
            self.tail = tail;
            self.pending.pop_front();
        }
    }
    /// Cycle at which the next pending doorbell becomes visible.
    pub fn next_visible(&self) -> Option<Cycle> {
        self.pending.front().map(|p| p.0)
    }
    pub fn has_entry(&self) -> bool {
        self.head != self.tail
    }
    /// Takes the next entry's slot address and advances the head.
    pub fn take(&mut self) -> u64 {
        assert!(self.has_entry(), "fetch from an empty SQ");
        let addr = self.base + 64 * self.head as u64;
        self.head = next_slot(self.head, self.entries);
        addr
    }
}

#[derive(Clone, Debug)]
pub struct CqRing {
    pub base: u64,
    pub entries: u32,
    pub vector: u16,
    pub irq_enabled: bool,
    pub head: u32,
    pub tail: u32,
    /// Phase tag the next posted entry carries; starts at 1 (section 4.6).
    pub phase: bool,
}

impl CqRing {
    pub fn new(base: u64, entries: u32, vector: u16, irq_enabled: bool) -> Self {
        assert!(entries >= 2, "queue of {entries} entries");
        CqRing {
            base,
            entries,
            vector,
            irq_enabled,
            head: 0,
            tail: 0,
            phase: true,
        }
    }
    pub fn full(&self) -> bool {
        next_slot(self.tail, self.entries) == self.head
    }
    /// Slot address and phase for the next entry; advances the tail, flipping phase on wrap.
    pub fn post(&mut self) -> (u64, bool) {
        assert!(!self.full(), "post to a full CQ");
        let r = (self.base + 16 * self.tail as u64, self.phase);
        self.tail += 1;
        if self.tail == self.entries {
            self.tail = 0;
            self.phase = !self.phase;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_slot_wraps_at_the_ring_size() {
        assert_eq!(next_slot(0, 2), 1);
        assert_eq!(next_slot(1, 2), 0);
        assert_eq!(next_slot(62, 64), 63);
        assert_eq!(next_slot(63, 64), 0);
    }

    #[test]
    fn phase_flips_on_wrap() {
        let mut cq = CqRing::new(0x1000, 4, 0, true);
        let mut phases = Vec::new();
        for i in 0..7u32 {
            let (addr, p) = cq.post();
            phases.push(p);
            assert_eq!(addr, 0x1000 + 16 * (i % 4) as u64);
            cq.head = cq.tail; // host consumes at once
        }
        // Slots 0-3 carry phase 1, the second pass 0.
        assert_eq!(phases, vec![true, true, true, true, false, false, false]);
    }

    #[test]
    fn cq_full_at_size_minus_one() {
        let mut cq = CqRing::new(0, 4, 0, true);
        for _ in 0..3 {
            cq.post();
        }
        assert!(cq.full(), "3 of 4 slots used is full (tail + 1 == head)");
    }

    #[test]
    fn doorbell_becomes_visible_after_its_cycle() {
        let mut sq = SqRing::new(0, 8, 1);
        sq.push_doorbell(10, 3);
        sq.settle(9);
        assert!(!sq.has_entry());
        sq.settle(10);
        assert_eq!(sq.tail, 3);
        assert_eq!(sq.take(), 0);
        assert_eq!(sq.take(), 64);
    }
}
