//! Kernel of the way FSM [`WayFsm`]: the state match (take an op, request the first phase, tWB,
//! R/B# wait, tRR, request the second phase, cache-read steps), the pop of the way queue and
//! the loads of the current op (from flip-flops and the way's phase end), and program/erase
//! suspend (the array-time countdown, the suspend check two cycles ahead of the grant, the
//! suspension's reads and the resume). rust_hdl turns one `#[hdl_gen]` function into one
//! always block, so the kernel stays one function: splitting it would change the generated
//! Verilog.

use super::*;

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
        self.op.next = self.cur.q.val().get_bits::<62>(0);
        self.q_lastp.next = (self.q_op.val().get_bits::<2>(2) == self.zero2.val())
            & !((self.q_op.val().get_bits::<2>(0) == self.k_prog.val())
                & (self.q_op.val().get_bits::<2>(60) != self.zero2.val()));
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
                    self.st_lastp_r.d.next = self.q_lastp.val();
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
                    // Data out: RE# preamble + beats + postamble (>= 2 cycles).
                    self.st_data_r.d.next = true;
                    self.st_cnt_r.d.next =
                        self.cur.q.val().get_bits::<16>(28) + self.rd_extra.val();
                    self.st_c1_r.d.next = false;
                    self.st_final_r.d.next = true;
                }
                // A cache read's first step is a lone 31h (pages >= 2), final by itself.
                if self.cur.q.val().get_bits::<2>(0) == self.k_cache.val() {
                    self.st_cc_r.d.next = true;
                    self.st_3f_r.d.next = false;
                    self.st_final_r.d.next = true;
                    self.st_lastp_r.d.next = true;
                    self.more.d.next = true;
                    self.cc.d.next = self.cur.q.val().get_bits::<8>(60) + self.one8.val();
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
                    self.st_cnt_r.d.next =
                        self.cur.q.val().get_bits::<16>(28) + self.rd_extra.val();
                    self.st_c1_r.d.next = false;
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
                    self.st_lastp_r.d.next = self.q_lastp.val();
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
                        self.st_lastp_r.d.next = self.q_lastp.val();
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
                    // R/B# (tSUS), looked at after tWB: the program may have ended while the
                    // latch waited for the bus, and then R/B# was high until tWB after it.
                    self.sus.d.next = true;
                    self.sop.d.next = self.cur.q.val();
                    self.rl.d.next = self.rl.q.val() - self.one3.val();
                    self.st_data_r.d.next = false;
                    self.st_cnt_r.d.next = self.latch.val();
                    self.st_c1_r.d.next = self.latch_1.val();
                    self.st_lastp_r.d.next = self.q_lastp.val();
                    self.st_final_r.d.next = false;
                    self.state.d.next = WayState::Twb;
                    self.cnt.d.next = self.t_wb.val();
                    self.c1w.d.next = self.t_wb_1.val();
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
                    // waits for the minimum progress. R/B# falls only tWB after WE# rises (it
                    // was high through the suspension): looked at after tWB, as after any
                    // first phase.
                    self.sus.d.next = false;
                    self.rem.d.next = self.rem.q.val() + self.t_res.val();
                    self.nsus.d.next = self.nsus.q.val() + self.one16.val();
                    self.prog.d.next = self.guard_m2.val();
                    self.state.d.next = WayState::Twb;
                    self.cnt.d.next = self.t_wb.val();
                    self.c1w.d.next = self.t_wb_1.val();
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
