//! Elaboration of the BAR0 register file [`NvmeRegs`] (NVM Express Base Specification 1.4,
//! section 3.1): the reset value of every port and register, and the constants the kernel
//! compares against — register offsets, CAP (MQES from the queue size) and VS from
//! `ssdlab_model::encoding::nvme_regs`, the CSTS RDY/CFS/SHST bits, the PG213 request types
//! and the UR/CA completion statuses (PCI Express Base 3.0, 2.2.9, 2.3.1).

use super::*;
use ssdlab_model::encoding::nvme_regs as regs;

fn k14(v: u32) -> Constant<Bits<14>> {
    Constant::new(bits::<14>(v as u64))
}

impl NvmeRegs {
    /// A register file for queues of `queue_entries` entries (CAP.MQES = entries - 1).
    pub fn new(queue_entries: u32) -> Self {
        let cap = regs::cap_value(queue_entries);
        crate::elab::with_defaults!(NvmeRegs {
            qword_zero: Constant::new(Qword::default()),
            cpl_zero: Constant::new(CcDescWord::default()),
            k_keep0: Constant::new(bits::<4>(0)),
            k_keep1: Constant::new(bits::<4>(0x1)),
            k_keep2: Constant::new(bits::<4>(0x3)),
            k_keep3: Constant::new(bits::<4>(0x7)),
            bc_zero: Constant::new(ByteCount13::default()),
            k_off_mask: Constant::new(bits::<14>(0x3FFC)),
            k_ones64: Constant::new(bits::<64>(u64::MAX)),
            k_hi64: Constant::new(bits::<64>(!0x3FFFu64)),
            k_zero64: Constant::new(bits::<64>(0)),
            k_zero8: Constant::new(bits::<8>(0)),
            k_zero3: Constant::new(bits::<3>(0)),
            k_msg: Constant::new(bits::<2>(0b11)),
            k_st_ur: Constant::new(bits::<3>(crate::pcie::tlp::CPL_UR as u64)),
            k_st_ca: Constant::new(bits::<3>(0b100)),
            beat_zero: Constant::new(DwBeat::default()),
            size_zero: Constant::new(Size16::default()),
            zero128: Constant::new(bits::<128>(0)),
            cap_lo: Constant::new(bits::<32>(cap & 0xFFFF_FFFF)),
            cap_hi: Constant::new(bits::<32>(cap >> 32)),
            vs: Constant::new(bits::<32>(regs::VS_1_4 as u64)),
            o_cap: k14(regs::CAP),
            o_cap_hi: k14(regs::CAP + 4),
            o_vs: k14(regs::VS),
            o_intms: k14(regs::INTMS),
            o_intmc: k14(regs::INTMC),
            o_cc: k14(regs::CC),
            o_csts: k14(regs::CSTS),
            o_aqa: k14(regs::AQA),
            o_asq: k14(regs::ASQ),
            o_asq_hi: k14(regs::ASQ + 4),
            o_acq: k14(regs::ACQ),
            o_acq_hi: k14(regs::ACQ + 4),
            k_mrd: Constant::new(bits::<4>(crate::pcie::tlp::REQ_MRD as u64)),
            k_mwr: Constant::new(bits::<4>(crate::pcie::tlp::REQ_MWR as u64)),
            k_pairs: Constant::new(bits::<9>(crate::nvme::QUEUE_PAIRS as u64)),
            k_mx_end: Constant::new(bits::<12>(16 * crate::nvme::QUEUE_PAIRS as u64)),
            k_one11: Constant::new(bits::<11>(1)),
            k_two11: Constant::new(bits::<11>(2)),
            k_zero12: Constant::new(bits::<12>(0)),
            k_zero2: Constant::new(bits::<2>(0)),
            k_zero32: Constant::new(bits::<32>(0)),
            k_rdy: Constant::new(bits::<32>(regs::CSTS_RDY as u64)),
            k_cfs: Constant::new(bits::<32>(regs::CSTS_CFS as u64)),
            k_shst_mask: Constant::new(bits::<32>(0xC)),
            k_shst_done: Constant::new(bits::<32>(regs::CSTS_SHST_COMPLETE as u64)),
            k_aqa_mask: Constant::new(bits::<32>(0x0FFF_0FFF)),
            k_base_mask: Constant::new(bits::<32>(0xFFFF_F000)),
            k_bytes4: Constant::new(bits::<13>(4)),
        } defaults {
            clock, cq_tdata, cq_tvalid, cq_tlast, cq_discontinue, cq_tready, cc_tdata, cc_tvalid, cc_tlast, cc_tkeep,
            cc_tready, rdy,
            en_pulse, rst_pulse, asq, acq, asqs, acqs, db_valid, db_cq, db_qid, db_val, db_bad_reg, mx_valid,
            mx_off, mx_data, state, off, two, tag, rid, tcl, attr, func, bcnt, is_mrd, wr_en, beyond, need_cpl,
            cst, cc, csts, intms, aqa, asq_lo, asq_hi, acq_lo, acq_hi, en_p, rst_p, dbv, dbc, dbq, dbd, dbbad,
            mxv, mxo, mxd, w0, w1, db_hit, rd_lo, rd_hi, aq, cq, cpl, rtype, hit, oor, mrd, posted, bc,
            rsvd79_unused, rsvd127_unused, beat, sz_s, sz_c,
        })
    }
}
