//! NVMe I/O queue pairs as the controller sees them (NVMe 1.4 §4.1, §4.11 arbitration,
//! §7.5 interrupt coalescing): per queue, the commands whose doorbell has arrived but which are
//! not fetched yet, the host's outstanding-command count (at most `entries - 1`: a full ring
//! keeps one slot empty, §4.1.1), and the completion side's interrupt coalescing state.
//! Which non-empty queue the fetch engine serves next is the front end's arbitration policy
//! ([`SqArbiter`]: [`RoundRobin`], `frontend::wrr::WeightedRoundRobin`), the one the HDL
//! arbiter is checked against.

use super::frontend::arbiter::{RoundRobin, SqArbiter};
use crate::config::NvmeConfig;
use crate::time::SimTime;
use std::collections::VecDeque;

/// What to do after a completion entry was posted to a completion queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrqDecision {
    /// Send the MSI-X message now (threshold reached or coalescing off).
    Now,
    /// First uncoalesced completion: arm the aggregation timer for this absolute time.
    ArmTimer(SimTime),
    /// Coalescing; a timer is already armed.
    Wait,
}

#[derive(Clone, Debug)]
struct Queue {
    /// Command tags whose SQ doorbell has arrived, in submission order (bounded by entries).
    to_fetch: VecDeque<u32>,
    /// Commands the host has in this queue (submitted, not yet completed).
    outstanding: u32,
    /// Completions posted since the last interrupt.
    uncoalesced: u32,
    timer_armed: bool,
}

/// Read-only view of one queue, for tests and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueSnapshot {
    pub to_fetch: u32,
    pub outstanding: u32,
    pub uncoalesced: u32,
}

/// All I/O queue pairs plus the fetch arbiter.
#[derive(Clone, Debug)]
pub struct NvmeQueues<A: SqArbiter = RoundRobin> {
    queues: Vec<Queue>,
    ready: Vec<bool>,
    ready_count: u32,
    entries: u32,
    irq_count: u32,
    irq_time: SimTime,
    arbiter: A,
}

impl NvmeQueues<RoundRobin> {
    pub fn new(cfg: &NvmeConfig) -> Self {
        assert!(cfg.io_queues >= 1, "validated config");
        // The I/O queues are indices 0..n here (no admin queue): the first pick is queue 0.
        Self::with_arbiter(cfg, RoundRobin::after(cfg.io_queues as usize - 1))
    }
}

impl<A: SqArbiter> NvmeQueues<A> {
    pub fn with_arbiter(cfg: &NvmeConfig, arbiter: A) -> Self {
        let n = cfg.io_queues as usize;
        assert!(n >= 1 && cfg.queue_entries >= 2, "validated config");
        let q = Queue {
            to_fetch: VecDeque::new(),
            outstanding: 0,
            uncoalesced: 0,
            timer_armed: false,
        };
        NvmeQueues {
            queues: vec![q; n],
            ready: vec![false; n],
            ready_count: 0,
            entries: cfg.queue_entries,
            irq_count: cfg.irq_coalesce_count,
            irq_time: SimTime::from_us_f64(cfg.irq_coalesce_time_us),
            arbiter,
        }
    }
    /// The SQ arbitration policy.
    pub fn arbiter(&self) -> &A {
        &self.arbiter
    }
    pub fn count(&self) -> u16 {
        self.queues.len() as u16
    }
    /// Commands one queue can hold outstanding (`entries - 1`).
    pub fn capacity(&self) -> u32 {
        self.entries - 1
    }
    /// True when the host may place another command in queue `q`.
    pub fn has_room(&self, q: u16) -> bool {
        self.queues[q as usize].outstanding < self.capacity()
    }
    /// Host placed command `tag` in SQ `q` (the doorbell write is then in flight).
    pub fn host_submit(&mut self, q: u16) {
        assert!(
            self.has_room(q),
            "SQ {q} full: host must wait for a completion"
        );
        self.queues[q as usize].outstanding += 1;
    }
    /// The SQ tail doorbell for `tag` reached the controller: the entry can be fetched.
    pub fn doorbell(&mut self, q: u16, tag: u32) {
        let qu = &mut self.queues[q as usize];
        assert!(qu.to_fetch.len() < self.entries as usize, "SQ {q} overflow");
        qu.to_fetch.push_back(tag);
        if !self.ready[q as usize] {
            self.ready[q as usize] = true;
            self.ready_count += 1;
        }
    }
    /// True when some queue has a command to fetch.
    pub fn any_ready(&self) -> bool {
        self.ready_count > 0
    }
    /// The arbiter picks a queue and the controller takes its oldest unfetched command.
    pub fn fetch_next(&mut self) -> Option<(u16, u32)> {
        if self.ready_count == 0 {
            return None;
        }
        let q = self.arbiter.pick(&self.ready).expect("a queue is ready");
        let qu = &mut self.queues[q];
        let tag = qu
            .to_fetch
            .pop_front()
            .expect("arbiter picked a ready queue");
        if qu.to_fetch.is_empty() {
            self.ready[q] = false;
            self.ready_count -= 1;
        }
        Some((q as u16, tag))
    }
    /// A completion entry for queue `q` was written to host memory at `now`.
    pub fn post_completion(&mut self, q: u16, now: SimTime) -> IrqDecision {
        let qu = &mut self.queues[q as usize];
        qu.uncoalesced += 1;
        if qu.uncoalesced >= self.irq_count || self.irq_time == SimTime::ZERO {
            return IrqDecision::Now;
        }
        if qu.timer_armed {
            IrqDecision::Wait
        } else {
            qu.timer_armed = true;
            IrqDecision::ArmTimer(now + self.irq_time)
        }
    }
    /// An interrupt for queue `q` was sent: the host reaps `n` completions, freeing SQ room.
    /// Returns the number of completions it covered.
    pub fn interrupt_sent(&mut self, q: u16) -> u32 {
        let qu = &mut self.queues[q as usize];
        let n = qu.uncoalesced;
        assert!(
            qu.outstanding >= n,
            "queue {q}: more completions than commands"
        );
        qu.outstanding -= n;
        qu.uncoalesced = 0;
        qu.timer_armed = false;
        n
    }
    pub fn snapshot(&self, q: u16) -> QueueSnapshot {
        let qu = &self.queues[q as usize];
        QueueSnapshot {
            to_fetch: qu.to_fetch.len() as u32,
            outstanding: qu.outstanding,
            uncoalesced: qu.uncoalesced,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    fn cfg(queues: u32, entries: u32) -> NvmeConfig {
        let mut c = DriveConfig::default_drive().nvme;
        c.io_queues = queues;
        c.queue_entries = entries;
        c
    }

    #[test]
    fn round_robin_across_queues_skips_empty_ones() {
        // Queue 0 holds 3 commands, queue 1 one, queue 2 none, queue 3 two (tags = 10q + i).
        // Round robin serves 0,1,3,0,3,0: each ready queue once per round, in index order.
        let mut q = NvmeQueues::new(&cfg(4, 16));
        for (queue, n) in [(0u16, 3u32), (1, 1), (3, 2)] {
            for i in 0..n {
                q.host_submit(queue);
                q.doorbell(queue, queue as u32 * 10 + i);
            }
        }
        let order: Vec<(u16, u32)> = std::iter::from_fn(|| q.fetch_next()).collect();
        assert_eq!(
            order,
            vec![(0, 0), (1, 10), (3, 30), (0, 1), (3, 31), (0, 2)]
        );
        assert!(!q.any_ready());
    }

    #[test]
    fn a_full_ring_keeps_one_slot_empty() {
        let mut q = NvmeQueues::new(&cfg(1, 4));
        for _ in 0..3 {
            assert!(q.has_room(0));
            q.host_submit(0);
        }
        assert!(!q.has_room(0), "4 entries hold 3 commands");
        assert_eq!(q.post_completion(0, SimTime::ZERO), IrqDecision::Now);
        assert_eq!(q.interrupt_sent(0), 1);
        assert!(q.has_room(0));
    }

    #[test]
    fn interrupt_coalescing_by_count_and_time() {
        // Coalesce 4 completions or 10 us: the first arms the timer at t + 10 us, the next two
        // wait, the fourth fires.
        let mut c = cfg(1, 64);
        c.irq_coalesce_count = 4;
        c.irq_coalesce_time_us = 10.0;
        let mut q = NvmeQueues::new(&c);
        for _ in 0..4 {
            q.host_submit(0);
        }
        let t = SimTime::from_us(5);
        assert_eq!(
            q.post_completion(0, t),
            IrqDecision::ArmTimer(SimTime::from_us(15))
        );
        assert_eq!(q.post_completion(0, t), IrqDecision::Wait);
        assert_eq!(q.post_completion(0, t), IrqDecision::Wait);
        assert_eq!(q.post_completion(0, t), IrqDecision::Now);
        assert_eq!(q.interrupt_sent(0), 4);
        assert_eq!(q.snapshot(0).outstanding, 0);
    }
}
