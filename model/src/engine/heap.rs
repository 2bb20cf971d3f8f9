//! The future-event list's storage: an array of `(time, item)` kept sorted by time, latest
//! first, so the earliest entry is the last one; among equal times the entry pushed first is
//! nearer the end (it pops first).
//!
//! The drive's queue holds a few tens of events, and a new event mostly lands among the earliest
//! few (a front-end wake, a doorbell, a data move's end), so a push scans a handful of entries
//! from the end and moves those few up one slot; a pop takes the last entry with no sift at all.
//! When the scan of the earliest [`SCAN`] entries does not place the new one, a binary search
//! does, so a long queue costs O(log n) comparisons and one block move a push.
//!
//! In the array a new entry goes in front of every entry of its time or earlier (they pop
//! before it) and behind every later one, so the pop order is (time, push order): the order of
//! a heap keyed by (time, sequence number), with no sequence number stored or compared.

/// Entries a push compares one by one from the earliest end before it searches by halves.
const SCAN: usize = 8;

/// A min-priority queue of `(time, item)` pairs, popped by time, then in push order.
#[derive(Clone, Debug)]
pub(super) struct SortedQueue<E> {
    /// Sorted by time, latest first; equal times in reverse push order.
    data: Vec<(u64, E)>,
}

impl<E: Copy> SortedQueue<E> {
    pub(super) fn with_capacity(n: usize) -> Self {
        SortedQueue {
            data: Vec::with_capacity(n),
        }
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.data.len()
    }

    /// The earliest time.
    #[inline]
    pub(super) fn peek_time(&self) -> Option<u64> {
        self.data.last().map(|e| e.0)
    }

    /// Adds `item` at `time`, after every pending entry of an equal time.
    #[inline]
    pub(super) fn push(&mut self, time: u64, item: E) {
        let n = self.data.len();
        let stop = n.saturating_sub(SCAN);
        // The entries that pop before the new one are the trailing ones with time <= `time`.
        let pos = match self.data[stop..].iter().rposition(|e| e.0 > time) {
            Some(i) => stop + i + 1,
            None => self.data[..stop].partition_point(|e| e.0 > time),
        };
        if pos == n {
            self.data.push((time, item));
        } else {
            self.data.insert(pos, (time, item));
        }
    }

    /// Removes and returns the earliest entry (the first pushed among equal times).
    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u64, E)> {
        self.data.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Against the standard library's heap keyed by (time, sequence number): the same pop order
    /// over a long mixed run of pushes and pops with a small time range (many ties, which must
    /// pop in push order) and a large one; the queue grows to a few thousand entries, so both
    /// the short scan and the binary search place entries.
    #[test]
    fn pops_in_time_then_push_order_like_a_keyed_heap() {
        for span in [16u64, 1 << 30] {
            let mut q = SortedQueue::with_capacity(4);
            let mut reference = BinaryHeap::new();
            let mut rng = Lcg(12345);
            let mut seq = 0u64;
            for step in 0..20_000u32 {
                // Pushes 5 times in 8, so the queue grows.
                if rng.below(8) < 5 || reference.is_empty() {
                    let time = rng.below(span);
                    q.push(time, step);
                    reference.push(Reverse((time, seq, step)));
                    seq += 1;
                } else {
                    let Reverse((time, _, want)) = reference.pop().expect("non-empty");
                    assert_eq!(q.pop(), Some((time, want)), "step {step}");
                }
                assert_eq!(q.len(), reference.len());
                assert_eq!(q.peek_time(), reference.peek().map(|r| r.0 .0));
            }
            while let Some(Reverse((time, _, want))) = reference.pop() {
                assert_eq!(q.pop(), Some((time, want)));
            }
            assert_eq!(q.pop(), None);
        }
    }
}
