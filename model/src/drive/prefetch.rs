//! Read-ahead engine with a bounded in-flight budget (`ftl.read_ahead_inflight_kib`). The FTL
//! decides *what* to prefetch (its window, `ftl::readahead`); this engine decides *when*: at most
//! the budget's worth of prefetch data is being read from NAND at once, the rest of the window
//! waits in the engine's queue (in window order) and starts as earlier prefetch reads finish, as
//! in a controller whose prefetch engine owns a fixed set of SRAM/DRAM staging buffers and NAND
//! read descriptors. A host read served from a queued prefetch waits for it (a prefetch is in
//! DRAM only once its read is done), unless that prefetch is queued more than
//! `ftl.read_ahead_queue_kib` behind the engine's next issue: then the host read path reads it
//! itself (the engine would not reach it soon), outside the budget. A clean stream therefore runs at about
//! budget / (tR + page transfer) whatever the queue depth while the host's outstanding reads stay
//! within the window, and deeper queues read their far commands directly on the idle dies.
//! Optionally (`ftl.read_ahead_issue_ns_per_unit`) the engine also issues its reads one after
//! another at a fixed cost per 4 KiB unit, a serial rate that does not depend on how the data
//! is laid out. Budget 0 and cost 0: every prefetch read starts at once (the behaviour before
//! this engine). With `controller.read_lookup_on_demand` every prefetch read first waits for
//! its units' mapping work on a firmware core (`cpu_ns_per_unit` each), and a host read's own
//! page reads for its units' (`lookup_work_of_read`): the work is done where the lookup is.

use super::{Drive, Ev};
use crate::config::FtlConfig;
use crate::ftl::{NandOp, OpPurpose};
use crate::time::SimTime;
use rustc_hash::FxHashSet as HashSet;
use std::collections::VecDeque;

/// A prefetch read waiting for budget: FTL tag, op id, 4 KiB units, units queued before it.
#[derive(Clone, Copy, Debug)]
struct Queued {
    tag: u64,
    id: u32,
    units: u64,
    before: u64,
}

#[derive(Clone, Debug, Default)]
pub(super) struct PrefetchEngine {
    /// Budget in 4 KiB units (0 = unbounded) and the engine queue's reach, in units.
    budget_units: u64,
    reach_units: u64,
    /// Units of the engine's prefetch reads now on the dies.
    inflight_units: u64,
    queue: VecDeque<Queued>,
    /// Units ever queued (running count; `Queued::before` is taken from it).
    queued_total: u64,
    /// Tags of queued prefetches a host read took over (not counted in the budget).
    taken: HashSet<u64>,
    /// Issue cost per unit (0: none) and the op being issued (its `Ev::Prefetch` is due).
    issue_per_unit: SimTime,
    issuing: Option<u32>,
    /// With `controller.read_lookup_on_demand`, while a read's batch is dispatched: when its
    /// own units' mapping work ends (its page reads wait until then), and how many of its
    /// ReadAhead ops (`Ftl::prefetch_op_units`, in tag order) have been charged theirs.
    reads_wait_until: SimTime,
    ra_charged: usize,
}

impl PrefetchEngine {
    pub(super) fn new(f: &FtlConfig) -> PrefetchEngine {
        PrefetchEngine {
            budget_units: f.read_ahead_inflight_kib as u64 / 4,
            reach_units: if f.read_ahead_queue_kib > 0 {
                f.read_ahead_queue_kib
            } else {
                f.read_ahead_kib
            } as u64
                / 4,
            issue_per_unit: SimTime::from_ns_f64(f.read_ahead_issue_ns_per_unit),
            ..Default::default()
        }
    }

    /// Whether the engine holds prefetch reads back at all.
    fn active(&self) -> bool {
        self.budget_units > 0 || self.issue_per_unit > SimTime::ZERO
    }

    fn fits(&self, units: u64) -> bool {
        self.budget_units == 0
            || self.inflight_units == 0
            || self.inflight_units + units <= self.budget_units
    }
}

impl Drive {
    fn op_units(&self, op: &NandOp) -> u64 {
        (op.bus_bytes / self.unit_bus_bytes).max(1) as u64
    }

    /// With the per-unit work at the lookup: charges read `units` (of which the FTL's last
    /// `host_read` took some from the read-ahead window and emitted `ra_ops` prefetches) its own
    /// units' work on a core and notes each prefetch's; returns when the read's own work and its
    /// mapping lookups (`map_until`, `map_lookup.rs`) end: its page reads wait for that.
    pub(super) fn lookup_work_of_read(
        &mut self,
        now: SimTime,
        units: u32,
        ra_ops: u64,
        map_until: SimTime,
    ) -> SimTime {
        if !self.cfg.controller.read_lookup_on_demand {
            self.prefetch.reads_wait_until = map_until;
            return map_until;
        }
        let own = units - self.ftl.read_ahead_held();
        let until = self.cpu.process_units(now, own as u64);
        assert_eq!(
            self.prefetch.ra_charged, 0,
            "lookup work of an earlier read not charged"
        );
        assert_eq!(
            self.ftl.prefetch_op_units().len() as u64,
            ra_ops,
            "one unit count per ReadAhead op"
        );
        let until = until.max(map_until);
        self.prefetch.reads_wait_until = until;
        until
    }

    /// The read whose batch was being dispatched is done with: no op waits for its work now.
    pub(super) fn end_lookup_work(&mut self) {
        if self.cfg.controller.read_lookup_on_demand {
            let left = self.ftl.prefetch_op_units().len() - self.prefetch.ra_charged;
            assert_eq!(left, 0, "{left} ReadAhead ops' lookup work not charged");
        }
        self.prefetch.ra_charged = 0;
        self.prefetch.reads_wait_until = SimTime::ZERO;
    }

    /// When op `id` may go to its die, if later than now: a page read of the read being
    /// dispatched waits for that read's lookups, a prefetch for its own (charged here).
    fn lookup_wait(&mut self, op: &NandOp) -> Option<SimTime> {
        let now = self.now();
        if !self.cfg.controller.read_lookup_on_demand {
            // Only the read's mapping lookups (SRAM cache misses) to wait for.
            let until = self.prefetch.reads_wait_until;
            return (op.purpose == OpPurpose::HostRead && until > now).then_some(until);
        }
        let until = match op.purpose {
            OpPurpose::HostRead => self.prefetch.reads_wait_until,
            OpPurpose::ReadAhead => {
                let k = self.prefetch.ra_charged;
                let units = *self
                    .ftl
                    .prefetch_op_units()
                    .get(k)
                    .expect("ReadAhead op outside a host read's batch");
                self.prefetch.ra_charged += 1;
                self.cpu.process_units(now, units as u64)
            }
            _ => return None,
        };
        (until > now).then_some(until)
    }

    /// Op `id`'s lookup work is done: it goes on (to the engine or its die).
    pub(super) fn on_lookup_done(&mut self, now: SimTime, id: u32) {
        let (op, die) = (self.ops[id as usize].op, self.ops[id as usize].die);
        self.admit(id, &op);
        self.start_ready(now, die);
    }

    /// Queues op `id` on its die, or, for a prefetch read beyond the engine's budget, in the
    /// engine's queue; with the per-unit work at the lookup, once that work is done.
    pub(super) fn queue_or_hold(&mut self, id: u32, op: &NandOp) {
        if let Some(t) = self.lookup_wait(op) {
            self.q.schedule(t, Ev::LookupDone { id });
            return;
        }
        self.admit(id, op);
    }

    fn admit(&mut self, id: u32, op: &NandOp) {
        let (tag, units) = (self.ops[id as usize].ra_tag, self.op_units(op));
        let pf = &mut self.prefetch;
        if tag == u64::MAX || !pf.active() {
            return self.queue_on_die(id, op);
        }
        let free = pf.issue_per_unit == SimTime::ZERO;
        if free && pf.queue.is_empty() && pf.fits(units) {
            pf.inflight_units += units;
            return self.queue_on_die(id, op);
        }
        pf.queue.push_back(Queued {
            tag,
            id,
            units,
            before: pf.queued_total,
        });
        pf.queued_total += units;
        assert!(pf.queue.len() < 1 << 20, "read-ahead engine queue overflow");
        if !free {
            let now = self.now();
            self.pump_prefetch(now);
        }
    }

    /// A ReadAhead op finished: the reads served from it get their share, and the engine
    /// starts queued prefetches the freed budget allows.
    pub(super) fn prefetch_op_done(&mut self, now: SimTime, tag: u64, op: &NandOp) {
        let waiters = self
            .ra_inflight
            .remove(&tag)
            .expect("ReadAhead op not in flight");
        for cmd in waiters {
            self.prefetch_ready(now, cmd);
        }
        if !self.prefetch.active() {
            return;
        }
        if !self.prefetch.taken.remove(&tag) {
            let units = self.op_units(op);
            assert!(
                self.prefetch.inflight_units >= units,
                "read-ahead budget underflow"
            );
            self.prefetch.inflight_units -= units;
        }
        self.pump_prefetch(now);
    }

    /// Takes queued prefetches while the budget allows: started at once, or, with an issue
    /// cost, one at a time, each when its issue time has passed (`Ev::Prefetch`).
    fn pump_prefetch(&mut self, now: SimTime) {
        while self.prefetch.issuing.is_none() {
            let Some(&q) = self.prefetch.queue.front() else {
                return;
            };
            if !self.prefetch.fits(q.units) {
                return;
            }
            self.prefetch.queue.pop_front();
            self.prefetch.inflight_units += q.units;
            if self.prefetch.issue_per_unit == SimTime::ZERO {
                self.start_prefetch(now, q.id);
            } else {
                self.prefetch.issuing = Some(q.id);
                let cost = SimTime::from_ps(self.prefetch.issue_per_unit.as_ps() * q.units);
                self.q.schedule(now + cost, Ev::Prefetch);
            }
        }
    }

    /// The engine finished issuing its current prefetch read: it goes to its die.
    pub(super) fn on_prefetch_issued(&mut self, now: SimTime) {
        let id = self
            .prefetch
            .issuing
            .take()
            .expect("Ev::Prefetch with no prefetch being issued");
        self.start_prefetch(now, id);
        self.pump_prefetch(now);
    }

    fn start_prefetch(&mut self, now: SimTime, id: u32) {
        let (op, die) = (self.ops[id as usize].op, self.ops[id as usize].die);
        self.queue_on_die(id, &op);
        self.start_ready(now, die);
    }

    /// Makes read `cmd` wait for the prefetches it was served from that are not done yet;
    /// returns how many. Queued ones beyond the window's reach are started now, for `cmd`.
    pub(super) fn claim_prefetch_hits(&mut self, now: SimTime, cmd: u32) -> u32 {
        let mut waits = 0u32;
        let n = self.ftl.prefetch_hits().len();
        for k in 0..n {
            let tag = self.ftl.prefetch_hits()[k];
            let Some(w) = self.ra_inflight.get_mut(&tag) else {
                continue;
            };
            w.push(cmd);
            waits += 1;
            let pf = &mut self.prefetch;
            let Ok(i) = pf.queue.binary_search_by_key(&tag, |q| q.tag) else {
                continue;
            };
            let (q, head) = (pf.queue[i], pf.queue[0].before);
            if q.before + q.units - head > pf.reach_units {
                pf.queue.remove(i);
                pf.taken.insert(tag);
                self.start_prefetch(now, q.id);
            }
        }
        waits
    }
}
