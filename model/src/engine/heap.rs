//! The future-event list's storage: an array kept sorted by a packed `u128` order key, latest
//! first, so the earliest entry is the last one.
//!
//! The drive's queue holds a few tens of events, and a new event mostly lands among the earliest
//! few (a front-end wake, a doorbell, a data move's end), so a push scans a handful of entries
//! from the end and moves those few up one slot; a pop takes the last entry with no sift at all.
//! When the scan of the earliest [`SCAN`] entries does not place the new one, a binary search
//! does, so a long queue costs O(log n) comparisons and one block move a push. The keys are
//! unique (time and sequence number), so the pop order is the keys' order, as with any heap.

/// Entries a push compares one by one from the earliest end before it searches by halves.
const SCAN: usize = 8;

/// A min-priority queue of `(key, item)` pairs ordered by `key` alone (keys unique).
#[derive(Clone, Debug)]
pub(super) struct SortedQueue<E> {
    /// Sorted by key, largest first.
    data: Vec<(u128, E)>,
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

    /// The smallest key.
    #[inline]
    pub(super) fn peek_key(&self) -> Option<u128> {
        self.data.last().map(|e| e.0)
    }

    #[inline]
    pub(super) fn push(&mut self, key: u128, item: E) {
        let d = &self.data;
        let stop = d.len().saturating_sub(SCAN);
        let mut pos = d.len();
        while pos > stop && d[pos - 1].0 < key {
            pos -= 1;
        }
        if pos == stop && pos > 0 && d[pos - 1].0 < key {
            // Later than the earliest SCAN: the first index whose key is below `key`.
            pos = d[..pos].partition_point(|e| e.0 > key);
        }
        self.data.insert(pos, (key, item));
    }

    /// Removes and returns the entry with the smallest key.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u128, E)> {
        self.data.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Against the standard library's heap: the same pop order over a long mixed run of pushes
    /// and pops with a small key range (many near-ties) and a large one; the queue grows to a few
    /// thousand entries, so both the short scan and the binary search place entries.
    #[test]
    fn pops_in_key_order_like_a_binary_heap() {
        for span in [16u128, 1 << 40] {
            let mut q = SortedQueue::with_capacity(4);
            let mut reference = BinaryHeap::new();
            // A fixed LCG (Knuth's MMIX constants): the sequence is known in advance.
            let mut x: u64 = 12345;
            let mut seq = 0u128;
            for step in 0..20_000u32 {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                if (x >> 61) < 5 || reference.is_empty() {
                    // Unique keys, as the event queue makes them: (value << 64) | sequence.
                    let key = (((x >> 20) as u128 % span) << 64) | seq;
                    seq += 1;
                    q.push(key, step);
                    reference.push(Reverse((key, step)));
                } else {
                    let Reverse(want) = reference.pop().expect("non-empty");
                    assert_eq!(q.pop(), Some(want), "step {step}");
                }
                assert_eq!(q.len(), reference.len());
                assert_eq!(q.peek_key(), reference.peek().map(|r| r.0 .0));
            }
            while let Some(Reverse(want)) = reference.pop() {
                assert_eq!(q.pop(), Some(want));
            }
            assert_eq!(q.pop(), None);
        }
    }
}
