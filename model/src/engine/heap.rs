//! The future-event list's storage: a 4-ary min-heap on a packed `u128` order key.
//!
//! A 4-ary heap is half as deep as a binary one, and its four children of a node share a cache
//! line or two, so a pop makes fewer dependent loads; a push mostly stops within a level or two,
//! as new events tend to come after the earliest ones (D. B. Johnson, "Priority queues with
//! update and finding minimum spanning trees", 1975; LaMarca and Ladner, "The influence of
//! caches on the performance of heaps", 1996). The keys are unique (time and sequence number),
//! so the pop order is the keys' order whatever the heap's shape.

/// Children per node.
const ARITY: usize = 4;

/// A min-heap of `(key, item)` pairs ordered by `key` alone.
#[derive(Clone, Debug)]
pub(super) struct QuadHeap<E> {
    data: Vec<(u128, E)>,
}

impl<E: Copy> QuadHeap<E> {
    pub(super) fn with_capacity(n: usize) -> Self {
        QuadHeap {
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
        self.data.first().map(|e| e.0)
    }

    #[inline]
    pub(super) fn push(&mut self, key: u128, item: E) {
        let mut i = self.data.len();
        self.data.push((key, item));
        // Move parents with larger keys down one level; the new entry goes in the hole.
        while i > 0 {
            let parent = (i - 1) / ARITY;
            if self.data[parent].0 <= key {
                break;
            }
            self.data[i] = self.data[parent];
            i = parent;
        }
        self.data[i] = (key, item);
    }

    /// Removes and returns the entry with the smallest key.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u128, E)> {
        let last = self.data.pop()?;
        if self.data.is_empty() {
            return Some(last);
        }
        let top = self.data[0];
        // Sift the former last entry down from the root: at each level the smallest child
        // moves up while it is smaller. The children are taken as one slice (one bounds check
        // a level), a full set of four compared without a loop.
        let data = &mut self.data[..];
        let n = data.len();
        let mut i = 0;
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let kids = &data[first..(first + ARITY).min(n)];
            let (mut best, mut best_key) = (0, kids[0].0);
            if let [_, b, c, d] = kids {
                // min of four: two pairs, then the pair winners
                let (lo1, k1) = if b.0 < best_key {
                    (1, b.0)
                } else {
                    (0, best_key)
                };
                let (lo2, k2) = if d.0 < c.0 { (3, d.0) } else { (2, c.0) };
                (best, best_key) = if k2 < k1 { (lo2, k2) } else { (lo1, k1) };
            } else {
                for (j, k) in kids.iter().enumerate().skip(1) {
                    if k.0 < best_key {
                        (best, best_key) = (j, k.0);
                    }
                }
            }
            if best_key >= last.0 {
                break;
            }
            data[i] = data[first + best];
            i = first + best;
        }
        self.data[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Against the standard library's heap: the same pop order over a long mixed run of pushes
    /// and pops with a small key range (many near-ties) and a large one.
    #[test]
    fn pops_in_key_order_like_a_binary_heap() {
        for span in [16u128, 1 << 40] {
            let mut q = QuadHeap::with_capacity(4);
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
