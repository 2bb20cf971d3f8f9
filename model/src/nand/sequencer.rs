//! Per-channel ONFI sequencer, behavioural: executes page operations of the dies (ways) on one
//! channel, sharing the channel's DQ bus; one way transfers while others are busy in tR/tPROG.
//! Mirrored by `ssdlab_hdl::nand::sequencer`, which must produce the same bus-cycle sequence
//! and the same completion cycles. Timing comes from [`crate::config::OnfiConfig`] (ONFI 4.1).
//!
//! API CONTRACT (fixed; internals are the sequencer owner's):
//! - [`ChannelSequencer::enqueue`] adds an op at simulated time `now` (non-decreasing);
//! - [`ChannelSequencer::next_event_time`] tells the drive's engine when to call back;
//! - [`ChannelSequencer::advance`] runs internal events up to `until` and appends completions.
//! - [`run_op_list`] drives one channel standalone from a list of timed ops (block tests, HDL
//!   comparison).
//!
//! Behaviour (the HDL does exactly the same, cycle for cycle):
//! - Time runs in whole sequencer cycles ([`SeqTiming::period_ps`]); issue times and array times
//!   are rounded up to a cycle.
//! - Intake: the channel accepts at most one op per cycle, in enqueue order; an op accepted at
//!   cycle `a` may start on the bus at cycle `a + INTAKE_CYCLES` at the earliest.
//! - Each unit (way, die) runs its ops in order, one at a time. An op is two bus phases
//!   ([`Phase::First`]: command/address/data in; [`Phase::Second`]: data out or 70h status read)
//!   separated by a way-local wait of tWB + array time + (tRR for reads), see
//!   [`SeqTiming::wait_cycles`], plus [`RB_SYNC_CYCLES`] of R/B# synchronizer and FSM registers
//!   and the ONFI PHY's delay on R/B# ([`SeqTiming::rb_lag`]: the NAND latches behind the beat
//!   port, its R/B# comes back through a register).
//!   The unit's next op may start [`NEXT_OP_CYCLES`] after the previous one completes.
//! - Arbiter: the bus is held for a whole phase. When it is free at cycle `g`, it is granted to
//!   a requesting unit (request time ≤ `g`): first-phase requests win over second-phase ones
//!   (starting array work early keeps the dies busy: with 4 ways the bus then saturates when
//!   tWB + tR + tRR ≤ 3 × (command + data cycles)); within a class, round-robin order after the
//!   unit granted last. The phase occupies cycles `[g, g + len)`; the next phase can start at
//!   `g + len + BUS_GAP_CYCLES` (CE# switch / turnaround).
//! - Completion: reads once their last data byte is back at the controller; programs and
//!   erases once the byte of the status read that follows ready is (the status byte is where a
//!   failure would show). The byte of a data-out beat comes back the PHY's read return
//!   ([`SeqTiming::rd_return`]) after it, which outlasts the RE# postamble: an op completes
//!   [`SeqTiming::return_cycles`] after its last phase ends, while the bus and the unit have
//!   already moved on.
//! - Cache read: a read with `pages` = N > 1 is a sequential cache read (00h-addr-30h, 31h x
//!   (N - 1), 3Fh; ONFI 4.1 section 5.6): after the first phase's tWB + tR the unit runs N + 1
//!   cache steps ([`Phase::CacheStep`]); after each 31h/3Fh it waits for R/B# — tWB, the rest
//!   of the array read started by the previous 31h, tRCBSY ([`SeqTiming::cache_ready`]) — then
//!   tRR before the cache register's data out. Data out of page k overlaps the array read of
//!   page k + 1. The op completes once the last page's last byte is back (see Completion).
//! - Program/erase suspend (`sequencer/suspend.rs`, off unless `nand.suspend.policy` is set):
//!   a read next in the unit's queue may suspend the program or erase the unit waits for, run,
//!   and let it resume.
//! - Not modelled: tDBSY of multi-plane; multi-plane cache read.

mod arbitrate;
mod program;
mod standalone;
mod suspend;
#[cfg(test)]
mod tests;

pub use program::{BusEvent, BusKind, Phase, SeqTiming, COLUMN_CYCLES};
pub use standalone::{run_op_list, run_op_list_suspend, run_op_list_traced};
pub use suspend::SuspendRules;

use crate::config::{OnfiConfig, SuspendConfig};
use crate::nand::NandOpKind;
use crate::time::SimTime;
use std::collections::VecDeque;

/// Cycles from an op's acceptance by the channel to its earliest first bus cycle (the HDL's
/// way queue register, the way FSM's load and the registered bus grant).
pub const INTAKE_CYCLES: u64 = 3;
/// Idle cycles between two bus phases (CE# switch / bus turnaround; the HDL's registered grant).
pub const BUS_GAP_CYCLES: u64 = 1;
/// Cycles from R/B# rising to the way's request for its second phase, beyond tRR: the two-flop
/// R/B# synchronizer, the way FSM's busy-state register and the registered grant.
pub const RB_SYNC_CYCLES: u64 = 4;
/// Cycles from an op's completion to the earliest first bus cycle of the unit's next op.
pub const NEXT_OP_CYCLES: u64 = 1;
/// Upper bound on ops queued per unit; the drive keeps far fewer in flight.
pub const MAX_QUEUED_PER_UNIT: usize = 1 << 16;

/// One operation handed to a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqOp {
    /// Caller's tag, returned in the completion.
    pub id: u64,
    /// Target (chip enable) on this channel.
    pub way: u8,
    /// Die (LUN) within the target.
    pub die: u8,
    pub kind: NandOpKind,
    /// Planes addressed together (multi-plane when > 1).
    pub planes: u8,
    /// Bytes moved over the bus for the whole op (all planes, all pages).
    pub bus_bytes: u32,
    /// Array time of the op (tR for the page type, tPROG, tBERS), chosen by the caller; for a
    /// cache read, the tR of every page.
    pub array_time: SimTime,
    /// Pages of the op: a sequential cache read's pages (a single-plane read of `pages`
    /// consecutive pages with 31h/3Fh, `bus_bytes / pages` per page), a one-shot program's pages
    /// per plane (TLC: 3, loaded page by page, every plane of a page before the next, each page
    /// at its own row: the first's + k; `bus_bytes / pages` per page); 1 otherwise.
    pub pages: u8,
}

/// Pages per plane of a one-shot program at most (TLC: 3 bits per cell).
pub const MAX_ONE_SHOT_PAGES: u8 = 3;

impl SeqOp {
    /// A sequential cache read (31h/3Fh) of more than one page.
    pub fn is_cache_read(&self) -> bool {
        self.kind == NandOpKind::Read && self.pages > 1
    }
    /// A one-shot program of more than one page per plane (TLC: lower, middle, upper).
    pub fn is_one_shot(&self) -> bool {
        self.kind == NandOpKind::Program && self.pages > 1
    }
}

/// When an op was issued, when its first bus cycle happened, and when it completed (the byte of
/// its last data-out beat back at the controller: a read's last data byte, a program's or
/// erase's status byte after tPROG/tBERS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqCompletion {
    pub id: u64,
    pub issued: SimTime,
    pub started: SimTime,
    pub completed: SimTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnitState {
    Idle,
    /// Wants the bus for `phase` from cycle `since` on.
    Request {
        phase: Phase,
        since: u64,
    },
    /// Holds the bus for `phase` until cycle `end` (exclusive).
    OnBus {
        phase: Phase,
        end: u64,
    },
    /// Array busy (tWB + array time + tRR); requests the bus for phase `next` at `until`.
    Wait {
        until: u64,
        next: Phase,
    },
}

#[derive(Clone, Copy, Debug)]
struct Queued {
    op: SeqOp,
    issued: SimTime,
    /// Earliest cycle the op may start on the bus.
    ready: u64,
}

#[derive(Clone, Debug)]
struct Unit {
    state: UnitState,
    current: Option<(Queued, u64)>,
    queue: VecDeque<Queued>,
    /// Cache read: cycle the array read of the next page (started by the last 31h) ends.
    array_free: u64,
    /// Program/erase suspend state of the current (or suspended) array operation.
    pe: suspend::ArrayOp,
}

/// One channel with `ways` targets of `dies_per_way` dies each.
#[derive(Debug, Clone)]
pub struct ChannelSequencer {
    timing: SeqTiming,
    ways: u8,
    dies_per_way: u8,
    units: Vec<Unit>,
    /// Cycles up to and including this one have been processed (None: none yet).
    done_through: Option<u64>,
    /// Cycle the last op was accepted by the intake.
    last_accept: Option<u64>,
    bus_free_at: u64,
    /// Unit granted last (round-robin pointer).
    last_grant: usize,
    bus_cycles_granted: u64,
    data_cycles_granted: u64,
    trace: Option<Vec<BusEvent>>,
    max_queued: usize,
    suspend: SuspendRules,
    suspends: u64,
    /// Completions whose last byte is still coming back through the PHY, with the cycle they
    /// complete at (in order: their phases ended in bus order).
    returning: VecDeque<(u64, SeqCompletion)>,
}

impl ChannelSequencer {
    pub fn new(onfi: &OnfiConfig, ways: u8, dies_per_way: u8) -> Self {
        assert!(
            ways >= 1 && dies_per_way >= 1,
            "a channel has at least one way and one die per way"
        );
        let n = ways as usize * dies_per_way as usize;
        let idle = Unit {
            state: UnitState::Idle,
            current: None,
            queue: VecDeque::new(),
            array_free: 0,
            pe: suspend::ArrayOp::default(),
        };
        let timing = SeqTiming::new(onfi);
        ChannelSequencer {
            suspend: SuspendRules::new(&SuspendConfig::default(), &timing),
            suspends: 0,
            timing,
            ways,
            dies_per_way,
            units: vec![idle; n],
            done_through: None,
            last_accept: None,
            bus_free_at: 0,
            last_grant: 0,
            bus_cycles_granted: 0,
            data_cycles_granted: 0,
            trace: None,
            max_queued: 0,
            returning: VecDeque::new(),
        }
    }
    /// The cycle counts this sequencer runs with.
    pub fn timing(&self) -> &SeqTiming {
        &self.timing
    }
    /// Records every latch and data burst from now on (see [`Self::take_trace`]).
    pub fn set_trace(&mut self, on: bool) {
        self.trace = if on { Some(Vec::new()) } else { None };
    }
    /// The bus-cycle trace recorded so far, in grant order (cycles increasing).
    pub fn take_trace(&mut self) -> Vec<BusEvent> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }
    /// Most ops ever waiting (not yet started) in one unit's queue.
    pub fn max_queued(&self) -> usize {
        self.max_queued
    }

    pub fn enqueue(&mut self, now: SimTime, op: SeqOp) {
        assert!(
            op.way < self.ways && op.die < self.dies_per_way,
            "op {} addresses way {} die {} beyond the channel",
            op.id,
            op.way,
            op.die
        );
        assert!(op.planes >= 1, "op {} addresses no plane", op.id);
        assert!(op.pages >= 1, "op {} moves no page", op.id);
        assert!(
            op.pages == 1
                || (op.kind == NandOpKind::Read && op.planes == 1)
                || (op.kind == NandOpKind::Program && op.pages <= MAX_ONE_SHOT_PAGES),
            "op {}: only single-plane reads (cache read) and programs of up to {MAX_ONE_SHOT_PAGES} \
             pages (one-shot) have more than one page",
            op.id
        );
        let mut accept = self.timing.to_cycles_ceil(now);
        if let Some(a) = self.last_accept {
            accept = accept.max(a + 1);
        }
        if let Some(d) = self.done_through {
            // The caller advanced past `now`: the op cannot start in the processed past.
            accept = accept.max((d + 1).saturating_sub(INTAKE_CYCLES));
        }
        self.last_accept = Some(accept);
        let q = Queued {
            op,
            issued: now,
            ready: accept + INTAKE_CYCLES,
        };
        let u = self.unit_index(&op);
        let unit = &mut self.units[u];
        if unit.state == UnitState::Idle {
            debug_assert!(unit.queue.is_empty() && unit.current.is_none());
            unit.current = Some((q, 0));
            unit.state = UnitState::Request {
                phase: Phase::First,
                since: q.ready,
            };
        } else {
            assert!(
                unit.queue.len() < MAX_QUEUED_PER_UNIT,
                "unit queue of way {} die {} overflows",
                op.way,
                op.die
            );
            unit.queue.push_back(q);
            self.max_queued = self.max_queued.max(unit.queue.len());
            if unit.queue.len() == 1 {
                suspend::plan_check(&self.suspend, unit);
            }
        }
    }

    pub fn next_event_time(&self) -> Option<SimTime> {
        self.next_event_cycle().map(|c| self.timing.to_time(c))
    }

    pub fn advance(&mut self, until: SimTime, done: &mut Vec<SeqCompletion>) {
        let last = until.as_ps() / self.timing.period_ps;
        let mut guard = 0u64;
        while let Some(c) = self.next_event_cycle() {
            if c > last {
                break;
            }
            self.step(c, done);
            guard += 1;
            assert!(guard < 1 << 40, "sequencer event loop does not progress");
        }
        if self.done_through.is_none_or(|d| d < last) {
            self.done_through = Some(last);
        }
    }

    /// Total time the DQ/command bus was driven (held by a phase) so far.
    pub fn bus_busy_time(&self) -> SimTime {
        self.timing.to_time(self.bus_cycles_until_now())
    }
    /// Cycles of the bus held so far (commands, addresses, data and held waits).
    pub fn bus_cycles_until_now(&self) -> u64 {
        let next = self.done_through.map_or(0, |d| d + 1);
        let held_end = self.bus_free_at.saturating_sub(BUS_GAP_CYCLES);
        self.bus_cycles_granted - held_end.saturating_sub(next)
    }
    /// Data cycles granted so far (including those of a phase still on the bus).
    pub fn data_cycles_granted(&self) -> u64 {
        self.data_cycles_granted
    }

    fn unit_index(&self, op: &SeqOp) -> usize {
        op.way as usize * self.dies_per_way as usize + op.die as usize
    }

    fn next_event_cycle(&self) -> Option<u64> {
        let floor = self.done_through.map_or(0, |d| d + 1);
        let mut next: Option<u64> = None;
        for u in &self.units {
            let c = match u.state {
                UnitState::Idle => continue,
                UnitState::Request { since, .. } => since.max(self.bus_free_at),
                UnitState::OnBus { end, .. } => end,
                UnitState::Wait { until, .. } => u.pe.check_at.map_or(until, |a| a.min(until)),
            };
            next = Some(next.map_or(c, |n| n.min(c)));
        }
        if let Some(&(at, _)) = self.returning.front() {
            next = Some(next.map_or(at, |n| n.min(at)));
        }
        next.map(|n| n.max(floor))
    }

    /// Processes cycle `c`: phase ends, waits ending, one arbitration, then the completions
    /// whose last byte is back.
    fn step(&mut self, c: u64, done: &mut Vec<SeqCompletion>) {
        let t = &self.timing;
        let r = &self.suspend;
        for u in self.units.iter_mut() {
            if let UnitState::OnBus { phase, end } = u.state {
                if end == c {
                    u.state = Self::phase_done(t, r, u, phase, c, &mut self.returning);
                    if matches!(phase, Phase::First | Phase::Resume) {
                        suspend::plan_check(r, u);
                    }
                }
            }
        }
        for u in self.units.iter_mut() {
            if let UnitState::Wait { until, next } = u.state {
                if until == c {
                    u.state = UnitState::Request {
                        phase: next,
                        since: c,
                    };
                }
            }
            if suspend::check(r, u, c, t.period_ps) {
                self.suspends += 1;
            }
        }
        if self.bus_free_at <= c {
            self.arbitrate(c);
        }
        while self.returning.front().is_some_and(|r| r.0 <= c) {
            let (at, d) = self.returning.pop_front().expect("checked");
            debug_assert_eq!(at, c, "a completion is emitted at its own cycle");
            done.push(d);
        }
        self.done_through = Some(self.done_through.map_or(c, |d| d.max(c)));
    }

    /// The unit's `phase` left the bus at cycle `c`: its next state (a wait for R/B#, or the
    /// next op's request, the op's completion queued in `returning` for when its last byte is
    /// back).
    fn phase_done(
        t: &SeqTiming,
        r: &SuspendRules,
        u: &mut Unit,
        phase: Phase,
        c: u64,
        returning: &mut VecDeque<(u64, SeqCompletion)>,
    ) -> UnitState {
        let (q, _) = u.current.expect("a unit on the bus has an op");
        let array = t.to_cycles_ceil(q.op.array_time);
        let wait = |until: u64, next: Phase| UnitState::Wait {
            until: until + RB_SYNC_CYCLES + t.rb_lag as u64,
            next,
        };
        match phase {
            Phase::First if q.op.is_cache_read() => {
                u.array_free = c + t.t_wb as u64 + array;
                wait(u.array_free, Phase::CacheStep(0))
            }
            Phase::First => {
                let until = c + t.wait_cycles(&q.op, array);
                if q.op.kind != NandOpKind::Read {
                    u.pe = suspend::ArrayOp {
                        end: until,
                        ..Default::default()
                    };
                }
                wait(until, Phase::Second)
            }
            Phase::Suspend => suspend::suspend_latched(r, u, c, t.t_wb as u64, t.rb_lag as u64),
            Phase::Resume => suspend::resumed(r, u, c, t.t_wb as u64, t.rb_lag as u64),
            Phase::CacheStep(k) if (k as u32) < q.op.pages as u32 => {
                let ready = t.cache_ready(c, u.array_free);
                if (k as u32) + 1 < q.op.pages as u32 {
                    // 31h: the array reads the next page from R/B# high on.
                    u.array_free = ready + array;
                }
                wait(ready + t.t_rr as u64, Phase::CacheStep(k + 1))
            }
            Phase::Second | Phase::CacheStep(_) => {
                let (q, started) = u.current.take().expect("checked above");
                let at = c + t.return_cycles();
                returning.push_back((
                    at,
                    SeqCompletion {
                        id: q.op.id,
                        issued: q.issued,
                        started: t.to_time(started),
                        completed: t.to_time(at),
                    },
                ));
                if u.pe.suspended.is_some() {
                    return suspend::read_done(u, c);
                }
                match u.queue.pop_front() {
                    Some(next) => {
                        u.current = Some((next, 0));
                        UnitState::Request {
                            phase: Phase::First,
                            since: next.ready.max(c + NEXT_OP_CYCLES),
                        }
                    }
                    None => UnitState::Idle,
                }
            }
        }
    }
}
