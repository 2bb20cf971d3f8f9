//! Elaboration of the bus engine [`BusEngine`]: the reset value of every port and register,
//! and the constants its kernel counts against — ONFI command bytes (00h/30h, 80h/10h,
//! 60h/D0h, 32h/11h/D1h, 06h/E0h, 31h/3Fh, 70h; ONFI 4.1 section 5; the one-shot program's
//! 1Ah; the suspend and resume
//! bytes of `nand.suspend.commands`, `SuspendCommands`; all from the model's
//! `ssdlab_model::encoding::onfi`, the bytes the behavioural sequencer sends), the latch, tADL, tCCS and
//! tWHR lengths in bus cycles, the address and row cycle counts and the plane row stride (these
//! from `crate::nand::timing::HdlTiming`: the model's `SeqTiming`, via `OnfiConfig::cycles_ceil`).

use super::*;
use ssdlab_model::encoding::onfi;

impl BusEngine {
    pub fn new(t: &HdlTiming) -> Self {
        let c16 = |v: u32| Constant::new(bits::<16>(v as u64));
        let c8 = |v: u8| Constant::new(bits::<32>(v as u64));
        crate::elab::with_defaults!(BusEngine {
            latch: c16(t.seq.latch),
            t_adl: c16(t.seq.t_adl),
            t_ccs: c16(t.seq.t_ccs),
            t_whr: c16(t.seq.t_whr),
            addr_n: Constant::new(bits::<3>(t.seq.addr_cycles as u64)),
            row_n: Constant::new(bits::<3>(t.seq.row_cycles as u64)),
            col_n: Constant::new(bits::<3>(2u64)),
            plane_stride: Constant::new(bits::<32>(t.plane_stride as u64)),
            row_mask: Constant::new(bits::<32>(0x00FF_FFFF)),
            byte_mask: Constant::new(bits::<32>(0xFF)),
            has_adl: Constant::new(t.seq.t_adl != 0),
            has_ccs: Constant::new(t.seq.t_ccs != 0),
            has_whr: Constant::new(t.seq.t_whr != 0),
            latch_1: Constant::new(t.seq.latch == 1),
            rd_extra: c16(t.seq.rd_lead + t.seq.rd_tail),
            rd_tail: c16(t.seq.rd_tail),
            st_len: c16(t.seq.rd_lead + 1 + t.seq.rd_tail),
            st_top: c16(1 + t.seq.rd_tail),
            adl_1: Constant::new(t.seq.t_adl == 1),
            ccs_1: Constant::new(t.seq.t_ccs == 1),
            whr_1: Constant::new(t.seq.t_whr == 1),
            two16: c16(2),
            one16: c16(1),
            one3: Constant::new(bits::<3>(1u64)),
            one2: Constant::new(bits::<2>(1u64)),
            one_ce: Constant::new(bits::<MAX_WAYS>(1u64)),
            zero_ce: Constant::new(bits::<MAX_WAYS>(0u64)),
            zero16: c16(0),
            zero3: Constant::new(bits::<3>(0u64)),
            k_read: Constant::new(bits::<2>(0u64)),
            k_prog: Constant::new(bits::<2>(1u64)),
            k_erase: Constant::new(bits::<2>(2u64)),
            k_cache: Constant::new(bits::<2>(3u64)),
            op_31: c8(onfi::READ_CACHE_SEQ),
            op_3f: c8(onfi::READ_CACHE_END),
            op_00: c8(onfi::READ_1),
            op_06: c8(onfi::CHANGE_COL_1),
            op_10: c8(onfi::PROGRAM_2),
            op_11: c8(onfi::PROGRAM_MULTIPLANE),
            op_1a: c8(onfi::PROGRAM_NEXT_PAGE),
            zero2: Constant::new(bits::<2>(0u64)),
            one32: Constant::new(bits::<32>(1u64)),
            op_30: c8(onfi::READ_2),
            op_32: c8(onfi::READ_MULTIPLANE),
            op_60: c8(onfi::ERASE_1),
            op_70: c8(onfi::READ_STATUS),
            op_80: c8(onfi::PROGRAM_1),
            op_d0: c8(onfi::ERASE_2),
            op_d1: c8(onfi::ERASE_MULTIPLANE),
            op_e0: c8(onfi::CHANGE_COL_2),
            op_sus: c8(t.suspend.commands.suspend),
            op_res: c8(t.suspend.commands.resume),
        } defaults {
            clock, start, start_way, start_second, start_op, start_data, start_cnt, start_c1, start_lastp,
            start_cc, start_3f, start_final, start_sus, start_res, wr_data, busy, phase_end, way, phase_second, phase_more, phy, rb,
            rd_data, rd_valid, sus_r, res_r, seg, cnt, acnt, aidx, plane, way_r, second, kind, planes_m1, row, col, csr, rsr, dcyc, rtop, c1,
            lastp, plast, pg, pages_m1, row0, pe, ccmd, f3, is_cs, is_rf, is_rs, is_pg, is_er, is_st, last_plane, hold_len, data_len, rd_win,
            addr_len, after_plane, after_data, after_hold, after_b, after_addr, after_a, nxt, seg_done,
            is_final, fin, fin_next, pe_next, hold_is_1, cmd_byte, addr_byte,
        })
    }
}
