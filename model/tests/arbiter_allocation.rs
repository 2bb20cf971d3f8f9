//! The SQ arbitration policies allocate nothing per pick: the front end arbitrates once per
//! fetched command, so a drive running it at millions of commands per second must not pay an
//! allocation each time. Counted with a counting global allocator (this test binary only).

use ssdlab_model::nvme::frontend::arbiter::{RoundRobin, SqArbiter};
use ssdlab_model::nvme::frontend::wrr::{Priority, WeightedRoundRobin};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator, which upholds the
// `GlobalAlloc` contract; the counter has no effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` (non-zero size layout) is passed on as is.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` came from `alloc` above with this layout, i.e. from `System`.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// Allocations made by `f` (the test harness runs this binary's one test on its own thread;
/// nothing else allocates meanwhile).
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCS.load(Ordering::Relaxed);
    f();
    ALLOCS.load(Ordering::Relaxed) - before
}

#[test]
fn round_robin_and_weighted_picks_allocate_nothing() {
    use Priority::*;
    let ready = [false, true, true, true, false, true];
    let mut rr = RoundRobin::default();
    let mut wrr = WeightedRoundRobin::new(vec![Low, High, Medium, Low, Low, Low], [3, 2, 1]);
    let mut served = [0u32; 6];
    let n = allocations(|| {
        for _ in 0..10_000 {
            served[rr.pick(&ready).expect("a queue is ready")] += 1;
            served[wrr.pick(&ready).expect("a queue is ready")] += 1;
        }
    });
    assert_eq!(n, 0, "arbitration allocated");
    // Round robin: 10 000 picks over the 4 ready queues, 2 500 each. WRR 3/2/1 over high q1,
    // medium q2, low q3 and q5: 1 666 rounds of 6 picks (3 q1, 2 q2, 1 low, alternating q3/q5:
    // 833 each) = 9 996, then 3 q1 and 1 q2. Sums: q1 2 500 + 5 001, q2 2 500 + 3 333,
    // q3 and q5 2 500 + 833.
    assert_eq!(served, [0, 7_501, 5_833, 3_333, 0, 3_333]);
}
