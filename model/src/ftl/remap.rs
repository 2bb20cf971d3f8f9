//! The functional warm-up on two cores. At steady state each random host write makes GC move
//! ~3.5 units, and each move is a store into a random entry of the mapping table (1 GiB on the
//! 512 GB preset): those stores are most of the warm-up's memory stalls. Inside a batched
//! functional write (`Ftl::host_write_units`) the FTL thread hands them to a remap thread through
//! a single-producer ring of (lpn, from, to) moves and goes on; everything the FTL decides still
//! happens on its own thread, in the same order, so the outcome cannot depend on timing:
//! - a move is applied only if the entry still points at `from` (`MapTable::move_ppa`): a later
//!   host write of the same unit wins whichever thread gets there first;
//! - the FTL thread finds a unit's current place from a possibly not yet updated entry by
//!   following forwarding addresses: a moved-out unit has its valid bit clear and the address it
//!   moved to in its spare area's sequence field (`Ftl::current_ppa`);
//! - so those addresses survive, an erased victim's spare areas are cleared only once the remap
//!   thread has applied its moves: when the block is allocated again or when the batch ends;
//! - the batch ends by draining the ring and joining the thread: every other FTL call sees a
//!   fully updated table.
//! Tests compare state digests, statistics and op streams with the one-unit-per-call path.
//! Source: the classic single-producer/single-consumer ring (Lamport, 1983) with acquire/release
//! publication of the head and tail counters.

use super::unit_tables::MapTable;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Acquire, Ordering::Release};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Moves in flight at most (12 B each).
pub const RING: usize = 1 << 16;
/// Moves the producer writes before publishing them.
const PUBLISH_EVERY: usize = 64;
/// Moves ahead of the one being applied whose table entries the remap thread prefetches.
const AHEAD: usize = 32;

#[repr(align(128))]
struct Padded(AtomicUsize);

struct Ring {
    slots: Box<[UnsafeCell<[u32; 3]>]>,
    /// Moves published by the FTL thread.
    head: Padded,
    /// Moves applied by the remap thread.
    tail: Padded,
    stop: AtomicBool,
}

// SAFETY: slot i is written by the producer only while i >= tail + RING is impossible, i.e.
// before it publishes head > i (Release), and read by the consumer only after seeing head > i
// (Acquire) and before publishing tail > i (Release), which the producer reads (Acquire) before
// reusing the slot.
unsafe impl Sync for Ring {}

impl Ring {
    fn slot(&self, i: usize) -> *mut [u32; 3] {
        self.slots[i % RING].get()
    }
}

/// The FTL thread's end of the remap ring, and the erased blocks awaiting their spare-area clear.
pub struct Remap {
    ring: Arc<Ring>,
    pushed: usize,
    published: usize,
    worker: Option<JoinHandle<()>>,
    /// (die-block, moves pushed when it was erased): its spare areas still forward.
    pub pending_erase: Vec<(u32, usize)>,
}

impl std::fmt::Debug for Remap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Remap {{ pushed: {}, pending_erase: {:?} }}", self.pushed, self.pending_erase)
    }
}

impl Remap {
    pub fn start(map: Arc<MapTable>) -> Remap {
        let ring = Arc::new(Ring {
            slots: (0..RING).map(|_| UnsafeCell::new([0; 3])).collect(),
            head: Padded(AtomicUsize::new(0)),
            tail: Padded(AtomicUsize::new(0)),
            stop: AtomicBool::new(false),
        });
        let r = ring.clone();
        let worker = std::thread::Builder::new()
            .name("ftl-remap".into())
            .spawn(move || apply_moves(&r, &map))
            .expect("spawning the FTL remap thread");
        Remap { ring, pushed: 0, published: 0, worker: Some(worker), pending_erase: Vec::new() }
    }

    /// Queues "lpn moved from `from` to `to`".
    #[inline]
    pub fn push(&mut self, lpn: u32, from: u32, to: u32) {
        if self.pushed - self.published >= PUBLISH_EVERY {
            self.publish();
        }
        if self.pushed >= self.ring.tail.0.load(Acquire) + RING {
            self.publish();
            self.wait_for(self.pushed + 1 - RING);
        }
        // SAFETY: see `Ring`: the slot is free (tail + RING > pushed) and not yet published.
        unsafe { *self.ring.slot(self.pushed) = [lpn, from, to] };
        self.pushed += 1;
    }

    /// Moves queued so far (a mark for `wait_for`).
    pub fn mark(&self) -> usize {
        self.pushed
    }

    fn publish(&mut self) {
        self.ring.head.0.store(self.pushed, Release);
        self.published = self.pushed;
    }

    /// Returns once the first `mark` moves are applied.
    pub fn wait_for(&mut self, mark: usize) {
        assert!(mark <= self.pushed, "waiting for moves never queued");
        self.publish();
        let mut spins = 0u32;
        while self.ring.tail.0.load(Acquire) < mark {
            spin(&mut spins);
            if self.worker.as_ref().is_some_and(|w| w.is_finished()) {
                self.finish(); // re-raises the remap thread's panic
                return;
            }
        }
    }

    /// Applies every queued move and stops the remap thread; returns the moves it applied.
    pub fn finish(&mut self) -> usize {
        self.publish();
        self.ring.stop.store(true, Release);
        if let Some(w) = self.worker.take() {
            if let Err(panic) = w.join() {
                std::panic::resume_unwind(panic);
            }
        }
        assert_eq!(self.ring.tail.0.load(Acquire), self.pushed, "remap thread stopped early");
        self.pushed
    }
}

impl Drop for Remap {
    fn drop(&mut self) {
        // Only reached without `finish` while unwinding: let the thread end on its own.
        self.ring.stop.store(true, Release);
    }
}

fn spin(spins: &mut u32) {
    *spins += 1;
    if *spins < 64 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// The remap thread: applies published moves in order until told to stop and drained.
fn apply_moves(ring: &Ring, map: &MapTable) {
    let (mut t, mut spins) = (0usize, 0u32);
    loop {
        let h = ring.head.0.load(Acquire);
        if t == h {
            if ring.stop.load(Acquire) && ring.head.0.load(Acquire) == t {
                return;
            }
            spin(&mut spins);
            continue;
        }
        spins = 0;
        while t < h {
            if t + AHEAD < h {
                // SAFETY: published slot (t + AHEAD < head), not yet released.
                let [lpn, _, _] = unsafe { *ring.slot(t + AHEAD) };
                map.prefetch(lpn as u64);
            }
            // SAFETY: published slot (t < head), not yet released (tail <= t).
            let [lpn, from, to] = unsafe { *ring.slot(t) };
            map.move_ppa(lpn as u64, from, to);
            t += 1;
            if t % PUBLISH_EVERY == 0 {
                ring.tail.0.store(t, Release);
            }
        }
        ring.tail.0.store(t, Release);
    }
}
