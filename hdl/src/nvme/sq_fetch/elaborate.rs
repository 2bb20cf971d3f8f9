//! Elaboration of the submission path [`SubmissionPath`]: the reset value of every port,
//! per-queue register and tag buffer, the 64-byte MRd request descriptor (PG213 requester
//! request, 16 dwords) and the constants of command validation — the opcodes each queue type
//! supports and the Invalid Command Opcode / Invalid Field in Command status fields (NVM Express
//! Base Specification 1.4, section 4.6.1.2.1, Figure 126), from `ssdlab_model::nvme::frontend::entry`.

use super::*;

impl Default for SubmissionPath {
    fn default() -> Self {
        use crate::pcie::tlp::REQ_MRD;
        use ssdlab_model::encoding::nvme::{opc, Status};
        let desc = ReqDescWord {
            dwords: bits::<11>(16),
            req_type: bits::<4>(REQ_MRD as u64),
            ..Default::default()
        };
        let k8 = |v: u8| Constant::new(bits::<8>(v as u64));
        crate::elab::with_defaults!(SubmissionPath {
            kbit: std::array::from_fn(|i| Constant::new(bits::<9>(1 << i))),
            zero9: Constant::new(bits::<9>(0)),
            kq: std::array::from_fn(|i| Constant::new(bits::<4>(i as u64))),
            kt: std::array::from_fn(|i| Constant::new(bits::<8>(i as u64))),
            kb: std::array::from_fn(|i| Constant::new(bits::<2>(i as u64))),
            one3: Constant::new(bits::<3>(1)),
            zero3: Constant::new(bits::<3>(0)),
            one16: Constant::new(bits::<16>(1)),
            zero16: Constant::new(bits::<16>(0)),
            one2: Constant::new(bits::<2>(1)),
            three2: Constant::new(bits::<2>(3)),
            zero2: Constant::new(bits::<2>(0)),
            desc_mrd64: Constant::new(desc),
            sqe64: Constant::new(bits::<64>(64)),
            op00: k8(opc::ADMIN_DELETE_IO_SQ),
            op01: k8(opc::ADMIN_CREATE_IO_SQ),
            op02: k8(opc::NVM_READ),
            op04: k8(opc::ADMIN_DELETE_IO_CQ),
            op05: k8(opc::ADMIN_CREATE_IO_CQ),
            op06: k8(opc::ADMIN_IDENTIFY),
            op09: k8(opc::NVM_DSM),
            op0c: k8(opc::ADMIN_ASYNC_EVENT),
            st_opcode: Constant::new(bits::<11>(Status::INVALID_OPCODE.field() as u64)),
            st_field: Constant::new(bits::<11>(Status::INVALID_FIELD.field() as u64)),
        } defaults {
            clock, rdy, en_pulse, rst_pulse, asq, asqs, db_valid, db_cq, db_qid, db_val, qc_valid, qc_sq,
            qc_del, qc_qid, qc_base, qc_size, arb_ready, arb_take, arb_found, arb_pick, stall, rq_valid,
            rq_desc, rq_ready, rc_tdata, rc_tvalid, rc_tlast, rc_discontinue, cmd_valid, cmd_sqid, cmd_w0, cmd_w1, cmd_w2,
            cmd_w3, rej_valid, rej_ready, rej_sqid, rej_cid, rej_status, evt_bad_val, evt_bad_q, hd_sel, hd_val,
            st, rdy9, req_addr, req_tag, rx_in, rx_tag, cv, cq, c0, c1, c2, c3, rrd, rwr, rcnt, rhead, rfield,
            rbad, rpop, pick, paddr, found, ftag, desc, tag_ok, done_t, done, opc, known,
            dropc,
        } arrays {
            base, size, head, tail, live, faddr, fadv, fwrap, nonempty, busy, tdsc, tqid, beat, buf, trej, tcode, rfifo,
        })
    }
}
