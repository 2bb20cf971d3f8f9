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
    state: DFF<WayState>,
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
        } defaults {
            clock, q_valid, q_op, q_pop, grant, phase_end, rb, req_f_next, req_s_next, op, st_data, st_cnt,
            st_c1, st_lastp, have_next, st_data_r, st_cnt_r, st_c1_r, st_lastp_r, rq_f, rq_s, st_cc, st_3f,
            st_final, st_cc_r, st_3f_r, st_final_r, cc, more, state, cur, cnt, c1w, rb1, rb2,
        })
    }
}

impl Logic for WayFsm {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, cur, cnt, rb1, rb2, have_next, st_data_r, st_cnt_r, st_c1_r,
            st_lastp_r, rq_f, rq_s, st_cc_r, st_3f_r, st_final_r, cc, more, c1w
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
        self.q_pop.next = false;
        self.rq_f.d.next = self.rq_f.q.val() & !self.grant.val();
        self.rq_s.d.next = self.rq_s.q.val() & !self.grant.val();
        self.c1w.d.next = self.cnt.q.val() == self.two16.val();
        match self.state.q.val() {
            WayState::Idle => {
                if self.q_valid.val() {
                    self.q_pop.next = true;
                    self.cur.d.next = self.q_op.val();
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
                if self.grant.val() {
                    self.state.d.next = WayState::OnFirst;
                }
            }
            WayState::OnFirst => {
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
                }
            }
            WayState::Twb => {
                self.cnt.d.next = self.cnt.q.val() - self.one16.val();
                if self.c1w.q.val() {
                    self.state.d.next = WayState::Busy;
                }
            }
            WayState::Busy => {
                if self.rb2.q.val() {
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
                // A cache read still needs `cur` for its next steps: no prefetch while `more`.
                if !self.have_next.q.val() & self.q_valid.val() & !self.more.q.val() {
                    self.q_pop.next = true;
                    self.cur.d.next = self.q_op.val();
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
                if self.phase_end.val() & !self.more.q.val() {
                    self.have_next.d.next = false;
                    self.state.d.next = WayState::Idle;
                    if self.have_next.q.val() | self.q_valid.val() {
                        self.state.d.next = WayState::ReqFirst;
                        self.rq_f.d.next = true;
                    }
                }
            }
        }
        // After every assignment above (Verilog: blocking, same always block).
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
        let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10).unwrap();
        let vlog = crate::verilog_of(WayFsm::new(&t));
        yosys_validate("ssdlab_way_fsm", &vlog).unwrap();
    }
}
