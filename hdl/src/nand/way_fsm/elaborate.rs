//! Elaboration of the way FSM [`WayFsm`]: the reset value of every port and register, and the
//! constants its kernel counts against — the latch, tWB and tRR lengths in bus cycles (from
//! `crate::nand::timing::HdlTiming`: the model's `SeqTiming`) and the program/erase suspend
//! rules (threshold, resume latency, minimum progress, cap; `HdlTiming::suspend`).

use super::*;

impl WayFsm {
    pub fn new(t: &HdlTiming) -> Self {
        crate::elab::with_defaults!(WayFsm {
            one8: Constant::new(bits::<8>(1)),
            two8: Constant::new(bits::<8>(2)),
            k_cache: Constant::new(bits::<2>(3)),
            latch: Constant::new(bits::<16>(t.seq.latch as u64)),
            latch_1: Constant::new(t.seq.latch == 1),
            rd_extra: Constant::new(bits::<16>((t.seq.rd_lead + t.seq.rd_tail) as u64)),
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
            st_sus_r, st_res_r, arr_op, q_lastp, go, go_pe, pop_now, pop_pe, res_pe, ld_pe, n_idle, s_on2, s_onsus, rl_nz,
        })
    }
}
