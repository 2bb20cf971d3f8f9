//! Way (chip-enable target) operation state machine: takes the next op of its way queue, asks
//! the arbiter for the bus (its request flip-flops' next values, so the channel can register
//! the grant) for the op's first phase, waits tWB and then for R/B# ready (through a
//! 2-flop synchronizer; the array time tR/tPROG/tBERS is the target's), waits tRR before a read's
//! data out, asks for the bus for the second phase (data out, or the 70h status read after
//! program/erase) and, when that phase ends, takes the next op. A sequential cache read (op kind
//! 3, N pages) repeats the second half N + 1 times — `[31h]`, `[data 31h]`..., `[data 3Fh]`,
//! `[data]`, each after tWB and R/B# ready (tRCBSY and the array read are the target's), with
//! tRR before each data out but not before the first 31h. Mirrors the per-unit states of
//! `ssdlab_model::nand::sequencer` (ONFI 4.1 section 4: tWB, tRR; section 5.6: 31h/3Fh).
//!
//! Program/erase suspend (`ssdlab_model::nand::sequencer::suspend`, rules from `[nand.suspend]`
//! through `HdlTiming::suspend`): the FSM counts the array cycles the program or erase has left
//! (`rem`, from the op's array time). While it waits for R/B#, a plain read at the head of the
//! way queue asks for the bus for the suspend latch when the cap and the minimum progress allow
//! and the cycles left at the grant's earliest cycle exceed the policy's threshold (0: `always`;
//! `wait_over_us` in cycles). After the latch and tWB (the operation may have ended while the
//! latch waited for the bus) it waits for R/B# (tSUS is the target's), runs the
//! reads that were at the queue's head at the decision, latches resume, and, after tWB (R/B#
//! was high through the suspension and falls only tWB after WE#'s rise), waits for R/B#
//! (resume latency + the array time left) before the status read. Decisions are taken two
//! cycles ahead of the grant (the arbitration is registered), so `rem` is compared with the
//! threshold + 2; a read seen at the first phase's last cycle that was queued before it is
//! checked one cycle later than that, as in the model.
//!
//! Files: this one declares the ports and registers; `way_fsm/elaborate.rs` builds the block
//! (reset values, constants from the timing), `way_fsm/kernel.rs` is its logic.

use crate::nand::op::{ENGINE_OP_BITS, OP_BITS};
use crate::nand::timing::HdlTiming;
use rust_hdl::prelude::*;

mod elaborate;
mod kernel;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum WayState {
    Idle,
    ReqFirst,
    OnFirst,
    Twb,
    Busy,
    Trr,
    ReqSecond,
    OnSecond,
    /// Program/erase suspend latch: requested, on the bus.
    ReqSus,
    OnSus,
    /// Resume latch: requested, on the bus.
    ReqRes,
    OnRes,
}

#[derive(LogicBlock)]
pub struct WayFsm {
    /// Sequencer clock.
    pub clock: Signal<In, Clock>,
    /// The way queue holds an op.
    pub q_valid: Signal<In, Bit>,
    /// Head op word of the way queue.
    pub q_op: Signal<In, Bits<OP_BITS>>,
    /// Take the head op (pops the way queue at the clock edge).
    pub q_pop: Signal<Out, Bit>,
    /// The arbiter grants this way's request (the phase starts next cycle).
    pub grant: Signal<In, Bit>,
    /// Last cycle of this way's phase on the bus.
    pub phase_end: Signal<In, Bit>,
    /// R/B# of the target, as a level: 1 = ready. Asynchronous; synchronized here.
    pub rb: Signal<In, Bit>,
    /// Next cycle's first-phase request (the D input of its flip-flop): the channel arbitrates
    /// one cycle ahead on it and registers the grant.
    pub req_f_next: Signal<Out, Bit>,
    /// Next cycle's second-phase request.
    pub req_s_next: Signal<Out, Bit>,
    /// Op word being executed, without the page count (the bus engine's part).
    pub op: Signal<Out, Bits<ENGINE_OP_BITS>>,
    /// Precomputed for the bus engine's start (registered, off the arbiter path): the requested
    /// phase starts with data (single-plane read out) ...
    pub st_data: Signal<Out, Bit>,
    /// ... its first segment's cycle count ...
    pub st_cnt: Signal<Out, Bits<16>>,
    /// ... whether that count is 1 ...
    pub st_c1: Signal<Out, Bit>,
    /// ... whether the op has a single plane ...
    pub st_lastp: Signal<Out, Bit>,
    /// ... whether the phase ends with a cache command (31h/3Fh) after its data ...
    pub st_cc: Signal<Out, Bit>,
    /// ... whether that command is 3Fh (end of the cache read) ...
    pub st_3f: Signal<Out, Bit>,
    /// ... and whether the first segment is the phase's last.
    pub st_final: Signal<Out, Bit>,
    /// ... the phase is the suspend latch ...
    pub st_sus: Signal<Out, Bit>,
    /// ... the phase is the resume latch.
    pub st_res: Signal<Out, Bit>,
    /// Array time of the head op, in sequencer cycles (tPROG/tBERS; used for suspend).
    pub q_arr: Signal<In, Bits<32>>,
    /// Plain reads in a row at the head of the way queue (0..=4).
    pub q_lead: Signal<In, Bits<3>>,
    /// `q_lead` is not 0 (the queue's flip-flop).
    pub q_lead_any: Signal<In, Bit>,
    state: DFF<WayState>,
    /// Array time of `cur`, cycles.
    cur_arr: DFF<Bits<32>>,
    /// Program/erase: array cycles left at this cycle (pe.end - now, at least 0); frozen while
    /// suspended.
    rem: DFF<Bits<32>>,
    /// Cycles until the next suspend check may be taken (minimum progress after a resume).
    prog: DFF<Bits<32>>,
    /// Suspends of the current program/erase.
    nsus: DFF<Bits<16>>,
    /// A suspension is in progress (the program/erase waits in `sop`).
    sus: DFF<Bit>,
    /// The suspended operation's op word.
    sop: DFF<Bits<OP_BITS>>,
    /// Reads of the suspension still to run.
    rl: DFF<Bits<3>>,
    /// After the suspend latch: R/B# ready leads to the first read's first phase.
    tofirst: DFF<Bit>,
    /// `q_valid` and `q_lead` of the previous cycle.
    qv1: DFF<Bit>,
    lead1: DFF<Bits<3>>,
    st_sus_r: DFF<Bit>,
    st_res_r: DFF<Bit>,
    /// The current op is a program or erase.
    arr_op: Signal<Local, Bit>,
    /// The queue head's first phase is one plane of one page (not a multi-plane op, nor a
    /// one-shot program): the engine's start value `st_lastp`.
    q_lastp: Signal<Local, Bit>,
    /// A suspend may be requested now (state permitting); `go_pe` at the first phase's end.
    go: Signal<Local, Bit>,
    go_pe: Signal<Local, Bit>,
    /// The pop without and with this way's phase end; the resume's reload of `cur` (with it).
    pop_now: Signal<Local, Bit>,
    pop_pe: Signal<Local, Bit>,
    res_pe: Signal<Local, Bit>,
    /// `cur` loads at this way's phase end (a pop or the resume's reload).
    ld_pe: Signal<Local, Bit>,
    /// Registered state flags (`state` is not Idle / is OnSecond / is OnSus) and `rl != 0`.
    n_idle: DFF<Bit>,
    s_on2: DFF<Bit>,
    s_onsus: DFF<Bit>,
    rl_nz: DFF<Bit>,
    sus_en: Constant<Bit>,
    /// Threshold + 1 and + 2 (cycles), the resume latency, guard - 2, the cap.
    k1: Constant<Bits<32>>,
    k2: Constant<Bits<32>>,
    t_res: Constant<Bits<32>>,
    guard_m2: Constant<Bits<32>>,
    max_sus: Constant<Bits<16>>,
    twb1: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    one3: Constant<Bits<3>>,
    zero3: Constant<Bits<3>>,
    k_prog: Constant<Bits<2>>,
    k_erase: Constant<Bits<2>>,
    cur: DFF<Bits<OP_BITS>>,
    cnt: DFF<Bits<16>>,
    /// Registered `cnt == 1` (the wait's last cycle): keeps the 16-bit compare off the request
    /// flip-flops' inputs, which the channel arbitrates on.
    c1w: DFF<Bit>,
    two16: Constant<Bits<16>>,
    t_wb_1: Constant<Bit>,
    t_rr_1: Constant<Bit>,
    rb1: DFF<Bit>,
    rb2: DFF<Bit>,
    /// In OnSecond: the next op is already in `cur`.
    have_next: DFF<Bit>,
    st_data_r: DFF<Bit>,
    st_cnt_r: DFF<Bits<16>>,
    st_c1_r: DFF<Bit>,
    st_lastp_r: DFF<Bit>,
    /// Registered "state is ReqFirst" / "state is ReqSecond" (set with the state, cleared on the
    /// grant): the arbiter's inputs start at flip-flops, not behind the state decode.
    rq_f: DFF<Bit>,
    rq_s: DFF<Bit>,
    st_cc_r: DFF<Bit>,
    st_3f_r: DFF<Bit>,
    st_final_r: DFF<Bit>,
    /// Cache read: 31h/3Fh commands still to issue, the current phase's included.
    cc: DFF<Bits<8>>,
    /// The second-half phase on (or waiting for) the bus is a cache step ending with 31h/3Fh:
    /// the op continues after it.
    more: DFF<Bit>,
    one8: Constant<Bits<8>>,
    two8: Constant<Bits<8>>,
    k_cache: Constant<Bits<2>>,
    latch: Constant<Bits<16>>,
    latch_1: Constant<Bit>,
    /// RE# preamble + postamble cycles around a data out (`SeqTiming::rd_lead + rd_tail`).
    rd_extra: Constant<Bits<16>>,
    zero2: Constant<Bits<2>>,
    t_wb: Constant<Bits<16>>,
    t_rr: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    k_read: Constant<Bits<2>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::DriveConfig;

    #[test]
    fn way_fsm_is_synthesizable() {
        let s = ssdlab_model::config::SuspendConfig {
            policy: ssdlab_model::config::SuspendPolicyKind::WaitOver,
            ..Default::default()
        };
        let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10)
            .and_then(|t| t.with_suspend(&s))
            .unwrap();
        let vlog = crate::verilog_of(WayFsm::new(&t));
        crate::test_support::yosys_validate("ssdlab_way_fsm", &vlog).unwrap();
    }
}
