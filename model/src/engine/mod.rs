//! Discrete-event engine: a bounded, deterministic future-event list over integer [`SimTime`].
//!
//! Events are a caller-defined `Copy` enum (typed, no boxed closures). Events pop in time order,
//! and events of equal time in the order they were scheduled (as a heap keyed by time and a
//! sequence number would pop them; `heap.rs`), so two runs that schedule the same events in the
//! same order pop them in the same order (bit-identical results). There is no global state:
//! each [`EventQueue`] belongs to one simulation context (e.g. one `Drive`). The queue is
//! bounded; exceeding the bound is a model bug and panics with the capacity in the message.
//! Classic event-scheduling world view (Banks et al., "Discrete-Event System Simulation", ch. 3).

use crate::time::SimTime;
mod heap;

use heap::SortedQueue;

/// Time to move `bytes` at `bytes_per_sec`, rounded up to a picosecond: the same value as
/// [`SimTime::for_bytes`], with 64-bit arithmetic when `bytes × 10^12` fits (every burst below
/// 18 MB), which keeps 128-bit division off the hot path.
#[inline]
pub fn transfer_time(bytes: u64, bytes_per_sec: u64) -> SimTime {
    const PS: u64 = 1_000_000_000_000;
    if bytes <= u64::MAX / PS {
        assert!(bytes_per_sec > 0, "zero bandwidth");
        SimTime::from_ps((bytes * PS).div_ceil(bytes_per_sec))
    } else {
        SimTime::for_bytes(bytes, bytes_per_sec)
    }
}

/// A bounded future-event list with a simulation clock.
#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    heap: SortedQueue<E>,
    now: SimTime,
    capacity: usize,
    popped: u64,
}

impl<E: Copy> EventQueue<E> {
    /// An empty queue at time zero holding at most `capacity` pending events.
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "event queue capacity must be positive");
        EventQueue {
            heap: SortedQueue::with_capacity(capacity.min(1 << 16)),
            now: SimTime::ZERO,
            capacity,
            popped: 0,
        }
    }
    /// Current simulated time (time of the last popped event, or of the last `advance_to`).
    #[inline]
    pub fn now(&self) -> SimTime {
        self.now
    }
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.heap.len() == 0
    }
    /// Events popped so far (a work counter for benchmarks).
    pub fn popped(&self) -> u64 {
        self.popped
    }
    /// Schedules `event` at absolute time `at` (never in the past).
    #[inline]
    pub fn schedule(&mut self, at: SimTime, event: E) {
        assert!(
            at >= self.now,
            "event scheduled in the past: {at:?} < now {:?}",
            self.now
        );
        assert!(
            self.heap.len() < self.capacity,
            "event queue overflow (capacity {})",
            self.capacity
        );
        self.heap.push(at.as_ps(), event);
    }
    /// Schedules `event` after delay `d` from now.
    #[inline]
    pub fn schedule_in(&mut self, d: SimTime, event: E) {
        self.schedule(self.now + d, event);
    }
    /// Time of the earliest pending event.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek_time().map(SimTime::from_ps)
    }
    /// Pops the earliest event if it is due at or before `limit`, advancing the clock to it.
    #[inline]
    pub fn pop_until(&mut self, limit: SimTime) -> Option<(SimTime, E)> {
        if self.heap.peek_time()? > limit.as_ps() {
            return None;
        }
        let (t, event) = self.heap.pop().expect("peeked");
        let at = SimTime::from_ps(t);
        debug_assert!(at >= self.now);
        self.now = at;
        self.popped += 1;
        Some((at, event))
    }
    /// Pops the earliest event, whenever it is.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_until(SimTime::MAX)
    }
    /// Moves the clock forward to `t` with no event (e.g. `run_until` with an empty window).
    pub fn advance_to(&mut self, t: SimTime) {
        assert!(t >= self.now, "clock cannot run backwards");
        if let Some(next) = self.peek_time() {
            assert!(
                next >= t,
                "advance_to({t:?}) would skip an event at {next:?}"
            );
        }
        self.now = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Ev {
        A(u32),
        B,
    }

    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut q = EventQueue::new(16);
        q.schedule(SimTime::from_ns(5), Ev::A(1));
        q.schedule(SimTime::from_ns(2), Ev::B);
        q.schedule(SimTime::from_ns(5), Ev::A(2));
        q.schedule(SimTime::from_ns(5), Ev::A(3));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (SimTime::from_ns(2), Ev::B),
                (SimTime::from_ns(5), Ev::A(1)),
                (SimTime::from_ns(5), Ev::A(2)),
                (SimTime::from_ns(5), Ev::A(3)),
            ]
        );
        assert_eq!(q.now(), SimTime::from_ns(5));
        assert_eq!(q.popped(), 4);
    }

    #[test]
    fn pop_until_respects_limit_and_clock() {
        let mut q = EventQueue::new(4);
        q.schedule(SimTime::from_ns(10), Ev::B);
        assert_eq!(q.pop_until(SimTime::from_ns(9)), None);
        q.advance_to(SimTime::from_ns(9));
        assert_eq!(q.now(), SimTime::from_ns(9));
        q.schedule_in(SimTime::from_ns(1), Ev::A(7));
        assert_eq!(
            q.pop_until(SimTime::from_ns(10)),
            Some((SimTime::from_ns(10), Ev::B))
        );
        assert_eq!(
            q.pop_until(SimTime::from_ns(10)),
            Some((SimTime::from_ns(10), Ev::A(7)))
        );
        assert!(q.is_empty());
    }

    #[test]
    fn transfer_time_matches_for_bytes() {
        for (b, r) in [
            (1u64, 3u64),
            (4480, 3_938_461_538),
            (18_000_000, 800_000_000),
            (1 << 40, 6_400_000_000),
        ] {
            assert_eq!(
                transfer_time(b, r),
                SimTime::for_bytes(b, r),
                "{b} B at {r} B/s"
            );
        }
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn bounded() {
        let mut q = EventQueue::new(2);
        for i in 0..3 {
            q.schedule(SimTime::from_ns(i), Ev::B);
        }
    }

    #[test]
    #[should_panic(expected = "in the past")]
    fn no_scheduling_in_the_past() {
        let mut q = EventQueue::new(4);
        q.schedule(SimTime::from_ns(3), Ev::B);
        q.pop();
        q.schedule(SimTime::from_ns(2), Ev::B);
    }
}
