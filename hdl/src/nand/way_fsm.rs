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
//! `wait_over_us` in cycles). After the latch it waits for R/B# (tSUS is the target's), runs the
//! reads that were at the queue's head at the decision, latches resume, and waits for R/B#
//! (resume latency + the array time left) before the status read. Decisions are taken two
//! cycles ahead of the grant (the arbitration is registered), so `rem` is compared with the
//! threshold + 2; a read seen at the first phase's last cycle that was queued before it is
//! checked one cycle later than that, as in the model.

use crate::nand::op::{ENGINE_OP_BITS, OP_BITS};
use crate::nand::timing::HdlTiming;
use rust_hdl::prelude::*;

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
    zero2: Constant<Bits<2>>,
    t_wb: Constant<Bits<16>>,
    t_rr: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    k_read: Constant<Bits<2>>,
}

impl WayFsm {
    pub fn new(t: &HdlTiming) -> Self {
        crate::elab::with_defaults!(WayFsm {
            one8: Constant::new(bits::<8>(1)),
            two8: Constant::new(bits::<8>(2)),
            k_cache: Constant::new(bits::<2>(3)),
            latch: Constant::new(bits::<16>(t.seq.latch as u64)),
            latch_1: Constant::new(t.seq.latch == 1),
            zero2: Constant::new(bits::<2>(0)),
            two16: Constant::new(bits::<16>(2)),
            t_wb_1: Constant::new(t.seq.t_wb == 1),
            t_rr_1: Constant::new(t.seq.t_rr == 1),
            t_wb: Constant::new(bits::<16>(t.seq.t_wb as u64)),
            t_rr: Constant::new(bits::<16>(t.seq.t_rr as u64)),
            one16: Constant::new(bits::<16>(1)),
            zero16: Constant::new(bits::<16>(0)),
            k_read: Constant::new(bits::<2>(0)),
            sus_en: Constant::new(t.suspend.enabled),
            k1: Constant::new(bits::<32>(t.suspend.threshold + 1)),
            k2: Constant::new(bits::<32>(t.suspend.threshold + 2)),
            t_res: Constant::new(bits::<32>(t.suspend.t_resume)),
            guard_m2: Constant::new(bits::<32>(t.suspend.guard.saturating_sub(2))),
            max_sus: Constant::new(bits::<16>(t.suspend.max_per_op as u64)),
            twb1: Constant::new(bits::<32>(t.seq.t_wb as u64 + 1)),
            one32: Constant::new(bits::<32>(1)),
            zero32: Constant::new(bits::<32>(0)),
            one3: Constant::new(bits::<3>(1)),
            zero3: Constant::new(bits::<3>(0)),
            k_prog: Constant::new(bits::<2>(1)),
            k_erase: Constant::new(bits::<2>(2)),
        } defaults {
            clock, q_valid, q_op, q_pop, grant, phase_end, rb, req_f_next, req_s_next, op, st_data, st_cnt,
            st_c1, st_lastp, have_next, st_data_r, st_cnt_r, st_c1_r, st_lastp_r, rq_f, rq_s, st_cc, st_3f,
            st_final, st_cc_r, st_3f_r, st_final_r, cc, more, state, cur, cnt, c1w, rb1, rb2,
            st_sus, st_res, q_arr, q_lead, q_lead_any, cur_arr, rem, prog, nsus, sus, sop, rl, tofirst, qv1, lead1,
            st_sus_r, st_res_r, arr_op, go, go_pe, pop_now, pop_pe, res_pe, ld_pe, n_idle, s_on2, s_onsus, rl_nz,
        })
    }
}

impl Logic for WayFsm {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, cur, cnt, rb1, rb2, have_next, st_data_r, st_cnt_r, st_c1_r,
            st_lastp_r, rq_f, rq_s, st_cc_r, st_3f_r, st_final_r, cc, more, c1w, cur_arr, rem,
            prog, nsus, sus, sop, rl, tofirst, qv1, lead1, st_sus_r, st_res_r, n_idle, s_on2,
            s_onsus, rl_nz
        );
        self.rb1.d.next = self.rb.val();
        self.rb2.d.next = self.rb1.q.val();
        self.op.next = self.cur.q.val().get_bits::<44>(0);
        self.st_data.next = self.st_data_r.q.val();
        self.st_cnt.next = self.st_cnt_r.q.val();
        self.st_c1.next = self.st_c1_r.q.val();
        self.st_lastp.next = self.st_lastp_r.q.val();
        self.st_cc.next = self.st_cc_r.q.val();
        self.st_3f.next = self.st_3f_r.q.val();
        self.st_final.next = self.st_final_r.q.val();
        self.st_sus.next = self.st_sus_r.q.val();
        self.st_res.next = self.st_res_r.q.val();
        self.rq_f.d.next = self.rq_f.q.val() & !self.grant.val();
        self.rq_s.d.next = self.rq_s.q.val() & !self.grant.val();
        self.c1w.d.next = self.cnt.q.val() == self.two16.val();
        self.qv1.d.next = self.q_valid.val();
        self.lead1.d.next = self.q_lead.val();
        if self.prog.q.val() != self.zero32.val() {
            self.prog.d.next = self.prog.q.val() - self.one32.val();
        }
        // Suspend check: a plain read heads the queue of a running (not suspended) program or
        // erase, under the cap, after the minimum progress, with more than the threshold left
        // at the grant's earliest cycle (two cycles on).
        self.arr_op.next = (self.cur.q.val().get_bits::<2>(0) == self.k_prog.val())
            | (self.cur.q.val().get_bits::<2>(0) == self.k_erase.val());
        self.go.next = self.sus_en.val()
            & !self.sus.q.val()
            & self.arr_op.val()
            & self.q_valid.val()
            & self.q_lead_any.val()
            & (self.nsus.q.val() != self.max_sus.val())
            & (self.prog.q.val() == self.zero32.val());
        // At the first phase's last cycle: a read queued before it is checked at the next
        // cycle (one ahead of the grant), a read arriving now at the one after.
        self.go_pe.next = self.go.val() & (self.rem.q.val() > self.k2.val());
        if self.qv1.q.val() {
            self.go_pe.next = self.go.val() & (self.rem.q.val() > self.k1.val());
        }
        self.go.next = self.go.val() & (self.rem.q.val() > self.k2.val());
        // The array counts down while the operation runs (and its suspend latch waits).
        if self.arr_op.val()
            & !self.sus.q.val()
            & (self.rem.q.val() != self.zero32.val())
            & ((self.state.q.val() == WayState::Twb)
                | (self.state.q.val() == WayState::Busy)
                | (self.state.q.val() == WayState::ReqSus)
                | (self.state.q.val() == WayState::OnSus))
        {
            self.rem.d.next = self.rem.q.val() - self.one32.val();
        }
        // The pop, with the loads of `cur` (from the queue's head, or the suspended op back at
        // the resume), outside the state match: from flip-flops (one-hot state flags) and
        // this way's phase end, which comes late. Pop in Idle with an op queued; OnSecond's
        // prefetch; at a suspension read's end, the suspension's next read; at the suspend
        // latch's end, its first read. The resume loads `sop` at the last suspension read's end.
        self.pop_now.next = (!self.n_idle.q.val() & self.q_valid.val())
            | (self.s_on2.q.val()
                & !self.have_next.q.val()
                & self.q_valid.val()
                & !self.more.q.val()
                & !self.sus.q.val());
        self.pop_pe.next =
            (self.s_on2.q.val() & self.sus.q.val() & self.rl_nz.q.val() & self.q_lead_any.val())
                | self.s_onsus.q.val();
        self.res_pe.next =
            self.s_on2.q.val() & self.sus.q.val() & !(self.rl_nz.q.val() & self.q_lead_any.val());
        self.q_pop.next = self.pop_now.val() | (self.pop_pe.val() & self.phase_end.val());
        self.ld_pe.next = (self.s_on2.q.val() & self.sus.q.val()) | self.s_onsus.q.val();
        if self.pop_now.val() | (self.ld_pe.val() & self.phase_end.val()) {
            self.cur.d.next = self.q_op.val();
            if self.res_pe.val() {
                self.cur.d.next = self.sop.q.val();
            }
        }
        if self.q_pop.val() {
            self.cur_arr.d.next = self.q_arr.val();
        }
        match self.state.q.val() {
            WayState::Idle => {
                if self.q_valid.val() {
                    self.nsus.d.next = self.zero16.val();
                    self.prog.d.next = self.zero32.val();
                    self.state.d.next = WayState::ReqFirst;
                    self.rq_f.d.next = true;
                    self.st_data_r.d.next = false;
                    self.st_cnt_r.d.next = self.latch.val();
                    self.st_c1_r.d.next = self.latch_1.val();
                    self.st_lastp_r.d.next = self.q_op.val().get_bits::<2>(2) == self.zero2.val();
                    self.st_cc_r.d.next = false;
                    self.st_3f_r.d.next = false;
                    self.st_final_r.d.next = false;
                }
            }
            WayState::ReqFirst => {
                if !self.sus.q.val() {
                    // pe.end - now at the first phase's last cycle: tWB + array + 1.
                    self.rem.d.next = self.cur_arr.q.val() + self.twb1.val();
                }
                if self.grant.val() {
                    self.state.d.next = WayState::OnFirst;
                }
            }
            WayState::OnFirst => {
                if !self.sus.q.val() {
                    self.rem.d.next = self.cur_arr.q.val() + self.twb1.val();
                }
                // The engine took the start values at the grant: precompute the next phase's
                // while this one runs (rewritten every cycle; no `grant`/`phase_end` in the
                // enables). A single-plane read's second phase starts with its data (and is
                // only that).
                if (self.cur.q.val().get_bits::<2>(0) == self.k_read.val())
                    & (self.cur.q.val().get_bits::<2>(2) == self.zero2.val())
                {
                    self.st_data_r.d.next = true;
                    self.st_cnt_r.d.next = self.cur.q.val().get_bits::<16>(28);
                    self.st_c1_r.d.next = self.cur.q.val().get_bits::<16>(28) == self.one16.val();
                    self.st_final_r.d.next = true;
                }
                // A cache read's first step is a lone 31h (pages >= 2), final by itself.
                if self.cur.q.val().get_bits::<2>(0) == self.k_cache.val() {
                    self.st_cc_r.d.next = true;
                    self.st_3f_r.d.next = false;
                    self.st_final_r.d.next = true;
                    self.st_lastp_r.d.next = true;
                    self.more.d.next = true;
                    self.cc.d.next = self.cur.q.val().get_bits::<8>(44) + self.one8.val();
                }
                if self.phase_end.val() {
                    self.state.d.next = WayState::Twb;
                    self.cnt.d.next = self.t_wb.val();
                    self.c1w.d.next = self.t_wb_1.val();
                    if !self.sus.q.val() {
                        self.rem.d.next = self.rem.q.val() - self.one32.val();
                    }
                    if self.go_pe.val() {
                        self.state.d.next = WayState::ReqSus;
                        self.rq_f.d.next = true;
                        self.rl.d.next = self.q_lead.val();
                        if self.qv1.q.val() {
                            self.rl.d.next = self.lead1.q.val();
                        }
                    }
                }
            }
            WayState::Twb => {
                self.cnt.d.next = self.cnt.q.val() - self.one16.val();
                if self.c1w.q.val() {
                    self.state.d.next = WayState::Busy;
                }
                if self.go.val() {
                    self.state.d.next = WayState::ReqSus;
                    self.rq_f.d.next = true;
                    self.rl.d.next = self.q_lead.val();
                }
            }
            WayState::Busy => {
                if self.rb2.q.val() & self.tofirst.q.val() {
                    // tSUS over: the suspension's first read.
                    self.state.d.next = WayState::ReqFirst;
                    self.rq_f.d.next = true;
                    self.tofirst.d.next = false;
                }
                if self.rb2.q.val() & !self.tofirst.q.val() {
                    self.state.d.next = WayState::ReqSecond;
                    self.rq_s.d.next = true;
                    // tRR before data out: every read; a cache step only when it starts with data.
                    if ((self.cur.q.val().get_bits::<2>(0) == self.k_read.val())
                        | ((self.cur.q.val().get_bits::<2>(0) == self.k_cache.val())
                            & self.st_data_r.q.val()))
                        & (self.t_rr.val() != self.zero16.val())
                    {
                        self.state.d.next = WayState::Trr;
                        self.rq_s.d.next = false;
                        self.cnt.d.next = self.t_rr.val();
                        self.c1w.d.next = self.t_rr_1.val();
                    }
                }
                if self.go.val() {
                    self.state.d.next = WayState::ReqSus;
                    self.rq_f.d.next = true;
                    self.rq_s.d.next = false;
                    self.rl.d.next = self.q_lead.val();
                }
            }
            WayState::Trr => {
                self.cnt.d.next = self.cnt.q.val() - self.one16.val();
                if self.c1w.q.val() {
                    self.state.d.next = WayState::ReqSecond;
                    self.rq_s.d.next = true;
                }
            }
            WayState::ReqSecond => {
                if self.grant.val() {
                    self.state.d.next = WayState::OnSecond;
                }
            }
            WayState::OnSecond => {
                // Cache step with 31h/3Fh: the next step moves the data of the page this
                // command puts in the cache register, then 31h (more than one command left),
                // 3Fh (two left) or nothing (one left).
                if self.more.q.val() {
                    self.st_data_r.d.next = true;
                    self.st_cnt_r.d.next = self.cur.q.val().get_bits::<16>(28);
                    self.st_c1_r.d.next = self.cur.q.val().get_bits::<16>(28) == self.one16.val();
                    self.st_cc_r.d.next = self.cc.q.val() != self.one8.val();
                    self.st_3f_r.d.next = self.cc.q.val() == self.two8.val();
                    self.st_final_r.d.next = self.cc.q.val() == self.one8.val();
                }
                // The engine holds its own copy of the op: take the next one as soon as it is
                // queued (not on `phase_end`, which keeps the 44-bit load off the engine's path).
                // A cache read still needs `cur` for its next steps: no prefetch while `more`;
                // nor in a suspension (its reads and the resume follow their own order).
                if !self.have_next.q.val()
                    & self.q_valid.val()
                    & !self.more.q.val()
                    & !self.sus.q.val()
                {
                    self.nsus.d.next = self.zero16.val();
                    self.prog.d.next = self.zero32.val();
                    self.have_next.d.next = true;
                    self.st_data_r.d.next = false;
                    self.st_cnt_r.d.next = self.latch.val();
                    self.st_c1_r.d.next = self.latch_1.val();
                    self.st_lastp_r.d.next = self.q_op.val().get_bits::<2>(2) == self.zero2.val();
                    self.st_cc_r.d.next = false;
                    self.st_3f_r.d.next = false;
                    self.st_final_r.d.next = false;
                }
                if self.phase_end.val() & self.more.q.val() {
                    // Next cache step (its start values are set above).
                    self.state.d.next = WayState::Twb;
                    self.cnt.d.next = self.t_wb.val();
                    self.c1w.d.next = self.t_wb_1.val();
                    self.cc.d.next = self.cc.q.val() - self.one8.val();
                    self.more.d.next = self.cc.q.val() != self.one8.val();
                }
                if self.phase_end.val() & !self.more.q.val() & !self.sus.q.val() {
                    self.have_next.d.next = false;
                    self.state.d.next = WayState::Idle;
                    if self.have_next.q.val() | self.q_valid.val() {
                        self.state.d.next = WayState::ReqFirst;
                        self.rq_f.d.next = true;
                    }
                }
                if self.phase_end.val() & self.sus.q.val() {
                    // A read of the suspension completed: the next one, or the resume latch.
                    self.state.d.next = WayState::ReqFirst;
                    self.rq_f.d.next = true;
                    if (self.rl.q.val() != self.zero3.val()) & self.q_lead_any.val() {
                        self.rl.d.next = self.rl.q.val() - self.one3.val();
                        self.st_data_r.d.next = false;
                        self.st_cnt_r.d.next = self.latch.val();
                        self.st_c1_r.d.next = self.latch_1.val();
                        self.st_lastp_r.d.next =
                            self.q_op.val().get_bits::<2>(2) == self.zero2.val();
                        self.st_cc_r.d.next = false;
                        self.st_3f_r.d.next = false;
                        self.st_final_r.d.next = false;
                    } else {
                        self.state.d.next = WayState::ReqRes;
                        self.st_data_r.d.next = false;
                        self.st_cnt_r.d.next = self.latch.val();
                        self.st_c1_r.d.next = self.latch_1.val();
                        self.st_lastp_r.d.next = true;
                        self.st_cc_r.d.next = false;
                        self.st_3f_r.d.next = false;
                        self.st_final_r.d.next = true;
                        self.st_res_r.d.next = true;
                    }
                }
            }
            WayState::ReqSus => {
                if self.grant.val() {
                    self.state.d.next = WayState::OnSus;
                }
            }
            WayState::OnSus => {
                self.st_sus_r.d.next = false;
                if self.phase_end.val() {
                    // The array stops (`rem` keeps what is left); the first read waits for
                    // R/B# (tSUS), looked at from two cycles on (the synchronizer's depth).
                    self.sus.d.next = true;
                    self.sop.d.next = self.cur.q.val();
                    self.rl.d.next = self.rl.q.val() - self.one3.val();
                    self.st_data_r.d.next = false;
                    self.st_cnt_r.d.next = self.latch.val();
                    self.st_c1_r.d.next = self.latch_1.val();
                    self.st_lastp_r.d.next = self.q_op.val().get_bits::<2>(2) == self.zero2.val();
                    self.st_final_r.d.next = false;
                    self.state.d.next = WayState::Twb;
                    self.cnt.d.next = self.two16.val();
                    self.c1w.d.next = false;
                    self.tofirst.d.next = true;
                }
            }
            WayState::ReqRes => {
                if self.grant.val() {
                    self.state.d.next = WayState::OnRes;
                }
            }
            WayState::OnRes => {
                // Start values of the status read that follows.
                self.st_res_r.d.next = false;
                self.st_final_r.d.next = false;
                if self.phase_end.val() {
                    // The array works again: resume latency + what was left; the next check
                    // waits for the minimum progress.
                    self.sus.d.next = false;
                    self.rem.d.next = self.rem.q.val() + self.t_res.val();
                    self.nsus.d.next = self.nsus.q.val() + self.one16.val();
                    self.prog.d.next = self.guard_m2.val();
                    self.state.d.next = WayState::Twb;
                    self.cnt.d.next = self.two16.val();
                    self.c1w.d.next = false;
                }
            }
        }
        // Entering ReqSus (the grant may come in its first cycle): start values of the
        // one-latch phase.
        if (self.state.d.val() == WayState::ReqSus) & (self.state.q.val() != WayState::ReqSus) {
            self.st_data_r.d.next = false;
            self.st_cnt_r.d.next = self.latch.val();
            self.st_c1_r.d.next = self.latch_1.val();
            self.st_lastp_r.d.next = true;
            self.st_cc_r.d.next = false;
            self.st_3f_r.d.next = false;
            self.st_final_r.d.next = true;
            self.st_sus_r.d.next = true;
        }
        // After every assignment above (Verilog: blocking, same always block). Idle's flag is
        // stored inverted: the reset state (all flip-flops 0) is Idle.
        self.n_idle.d.next = self.state.d.val() != WayState::Idle;
        self.s_on2.d.next = self.state.d.val() == WayState::OnSecond;
        self.s_onsus.d.next = self.state.d.val() == WayState::OnSus;
        self.rl_nz.d.next = self.rl.d.val() != self.zero3.val();
        self.req_f_next.next = self.rq_f.d.val();
        self.req_s_next.next = self.rq_s.d.val();
    }
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
        yosys_validate("ssdlab_way_fsm", &vlog).unwrap();
    }
}
