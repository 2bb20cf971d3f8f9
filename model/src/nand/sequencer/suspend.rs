//! Program/erase suspend on the sequencer: a read next in a unit's queue while the unit waits
//! for a program's or erase's array time may suspend it. The unit then latches the suspend
//! command ([`Phase::Suspend`]), waits tSUS for R/B#, runs the reads queued at its head when it
//! decided (those past the channel's intake, each an ordinary read), latches resume
//! ([`Phase::Resume`]) and waits the resume latency plus the array time the operation had left
//! when the suspend latched, then reads status as usual. The array makes no progress from the
//! end of the suspend latch to the end of the resume latency. Rules: at most `max_per_op`
//! suspends of one operation, and `min_progress` cycles of array time after a resume before the
//! next; the policy ([`crate::nand::suspend`]) decides within them. Timing: `config/suspend.rs`.
//! The rust_hdl way FSM (`ssdlab_hdl::nand::way_fsm`) does the same, cycle for cycle.

use super::{
    ChannelSequencer, Phase, Queued, SeqTiming, Unit, UnitState, NEXT_OP_CYCLES, RB_SYNC_CYCLES,
};
use crate::config::{SuspendConfig, SuspendPolicyKind};
use crate::encoding::onfi::SuspendCommands;
use crate::nand::suspend::{commands_for, policy_for, SuspendPolicy, SuspendQuery};
use crate::nand::NandOpKind;
use std::sync::Arc;

/// Suspend rules in sequencer cycles, and the policy.
#[derive(Clone, Debug)]
pub struct SuspendRules {
    pub policy: Arc<dyn SuspendPolicy>,
    /// False with the `never` policy or a cap of 0: no suspend is ever considered.
    pub enabled: bool,
    pub t_suspend: u64,
    pub t_resume: u64,
    pub min_progress: u64,
    pub max_per_op: u32,
    pub commands: SuspendCommands,
}

impl SuspendRules {
    pub fn new(cfg: &SuspendConfig, t: &SeqTiming) -> Self {
        SuspendRules {
            policy: policy_for(cfg),
            enabled: cfg.policy != SuspendPolicyKind::Never && cfg.max_suspends_per_op > 0,
            t_suspend: t.to_cycles_ceil(cfg.t_suspend()),
            t_resume: t.to_cycles_ceil(cfg.t_resume()),
            min_progress: t.to_cycles_ceil(cfg.min_progress()),
            max_per_op: cfg.max_suspends_per_op,
            commands: commands_for(cfg.commands),
        }
    }
}

/// Suspend state of the program or erase a unit runs (or has suspended).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ArrayOp {
    /// Cycle the array work ends (moves out by every suspend).
    pub end: u64,
    pub suspends: u32,
    /// Earliest cycle of the next suspend (minimum progress after a resume).
    pub next_ok: u64,
    /// Cycle at which a read at the queue's head is to be considered for a suspend.
    pub check_at: Option<u64>,
    /// Reads still to run in the current suspension.
    pub reads_left: u32,
    /// The suspended operation (with its first bus cycle), while its reads run.
    pub suspended: Option<(Queued, u64)>,
    /// Array cycles the suspended operation had left when the suspend latched.
    pub left: u64,
}

fn head_is_plain_read(u: &Unit) -> bool {
    u.queue
        .front()
        .is_some_and(|q| q.op.kind == NandOpKind::Read && q.op.pages == 1)
}

fn runs_array_op(u: &Unit) -> bool {
    matches!(
        u.state,
        UnitState::Wait {
            next: Phase::Second,
            ..
        }
    ) && u
        .current
        .is_some_and(|(q, _)| matches!(q.op.kind, NandOpKind::Program | NandOpKind::Erase))
        && u.pe.suspended.is_none()
}

/// Plans when the read at the unit's queue head is considered for a suspend (or clears it).
pub(super) fn plan_check(r: &SuspendRules, u: &mut Unit) {
    u.pe.check_at = None;
    if r.enabled && runs_array_op(u) && u.pe.suspends < r.max_per_op && head_is_plain_read(u) {
        let ready = u.queue.front().map_or(0, |q| q.ready);
        u.pe.check_at = Some(ready.max(u.pe.next_ok));
    }
}

/// At cycle `c`: the unit's planned check. Suspends when the operation has array time left and
/// the policy agrees; the reads then at the queue's head run in the suspension.
pub(super) fn check(r: &SuspendRules, u: &mut Unit, c: u64, period_ps: u64) -> bool {
    if u.pe.check_at.is_none_or(|a| a > c) {
        return false;
    }
    u.pe.check_at = None;
    if !(runs_array_op(u) && u.pe.suspends < r.max_per_op && head_is_plain_read(u)) {
        return false;
    }
    if u.pe.end <= c || c < u.pe.next_ok {
        return false;
    }
    let (q, _) = u.current.expect("checked by runs_array_op");
    let query = SuspendQuery {
        kind: q.op.kind,
        array_left: crate::time::SimTime::from_ps((u.pe.end - c) * period_ps),
        suspends: u.pe.suspends,
    };
    if !r.policy.suspend(&query) {
        return false;
    }
    // The reads past the intake (ready by now): the HDL's way queue holds only those.
    u.pe.reads_left = u
        .queue
        .iter()
        .take_while(|q| q.op.kind == NandOpKind::Read && q.op.pages == 1 && q.ready <= c)
        .count() as u32;
    u.state = UnitState::Request {
        phase: Phase::Suspend,
        since: c,
    };
    true
}

/// The suspend latch left the bus at cycle `c`: the array stops; the first read of the
/// suspension waits tSUS (R/B# busy) for its first phase. The operation may have ended while
/// the latch waited for the bus (`left` is then 0): R/B# was high and falls only tWB after the
/// latch, so the way looks at it from tWB on, as after a resume.
/// `t_wb`: `SeqTiming::t_wb`; `rb_lag`: the PHY's delay on R/B# (`SeqTiming::rb_lag`).
pub(super) fn suspend_latched(
    r: &SuspendRules,
    u: &mut Unit,
    c: u64,
    t_wb: u64,
    rb_lag: u64,
) -> UnitState {
    u.pe.left = u.pe.end.saturating_sub(c);
    u.pe.suspended = u.current.take();
    let read = u.queue.pop_front().expect("a suspend has a read to run");
    u.pe.reads_left -= 1;
    u.current = Some((read, 0));
    UnitState::Wait {
        until: r_b_seen(c, c + r.t_suspend, t_wb, rb_lag),
        next: Phase::First,
    }
}

/// A read of a suspension completed at cycle `c`: the next one queued for it, or the resume.
pub(super) fn read_done(u: &mut Unit, c: u64) -> UnitState {
    if u.pe.reads_left > 0 && head_is_plain_read(u) {
        let next = u.queue.pop_front().expect("checked");
        u.pe.reads_left -= 1;
        u.current = Some((next, 0));
        return UnitState::Request {
            phase: Phase::First,
            since: next.ready.max(c + NEXT_OP_CYCLES),
        };
    }
    u.pe.reads_left = 0;
    u.current = u.pe.suspended.take();
    UnitState::Request {
        phase: Phase::Resume,
        since: c + NEXT_OP_CYCLES,
    }
}

/// The resume latch left the bus at cycle `c`: the array works again after the resume latency
/// for the time it had left. R/B#, high through the suspension, falls only tWB after the latch
/// (ONFI 4.1 section 4: tWB), so the way looks at it from tWB on (the HDL's tWB count, then
/// its busy state): a resume shorter than that is seen `RESUME_LOOK_CYCLES` after tWB.
/// `t_wb`: `SeqTiming::t_wb`; `rb_lag`: the PHY's delay on R/B# (`SeqTiming::rb_lag`).
pub(super) fn resumed(r: &SuspendRules, u: &mut Unit, c: u64, t_wb: u64, rb_lag: u64) -> UnitState {
    u.pe.end = c + r.t_resume + u.pe.left;
    u.pe.suspends += 1;
    u.pe.next_ok = c + r.t_resume + r.min_progress;
    UnitState::Wait {
        until: r_b_seen(c, u.pe.end, t_wb, rb_lag),
        next: Phase::Second,
    }
}

/// When a way whose suspend or resume latch ended at cycle `c` asks for the bus again: R/B#,
/// ready at `ready`, reaches it through the PHY and its synchronizer, but it looks only from
/// tWB after the latch on (R/B# falls only then).
fn r_b_seen(c: u64, ready: u64, t_wb: u64, rb_lag: u64) -> u64 {
    (ready + RB_SYNC_CYCLES + rb_lag).max(c + t_wb + RESUME_LOOK_CYCLES)
}

/// Cycles after a suspend or resume latch's tWB count to the way's request when R/B# is
/// already high:
/// the busy state's first cycle, then the request register.
const RESUME_LOOK_CYCLES: u64 = 2;

impl ChannelSequencer {
    /// Sets the suspend rules (the default: never suspend).
    pub fn set_suspend(&mut self, cfg: &SuspendConfig) {
        self.suspend = SuspendRules::new(cfg, &self.timing);
        for u in &mut self.units {
            plan_check(&self.suspend, u);
        }
    }
    /// Suspends issued so far.
    pub fn suspends(&self) -> u64 {
        self.suspends
    }
}
