//! Elaboration of the completion path [`CompletionPath`]: the reset value of every port,
//! per-CQ register and MSI-X table entry, the CQE and MSI-X MWr request descriptors (PG213
//! requester request, 4 and 1 dwords) and the interrupt coalescing parameters — aggregation
//! threshold (1..=255 completions) and time in cycles (NVM Express Base Specification 1.4,
//! section 5.21.1.8, Feature 08h), checked here and elaborated into constants.

use super::*;

impl CompletionPath {
    /// `threshold`: MSI-X aggregation threshold in completions (1 = an interrupt per completion);
    /// `time_cycles`: aggregation time in cycles (0 = none; Feature 08h allows up to 25.5 ms).
    pub fn new(threshold: u32, time_cycles: u64) -> Self {
        use crate::pcie::tlp::REQ_MWR;
        let mwr = |dwords: u64| ReqDescWord {
            dwords: bits::<11>(dwords),
            req_type: bits::<4>(REQ_MWR as u64),
            ..Default::default()
        };
        assert!(
            (1..=255).contains(&threshold),
            "aggregation threshold {threshold} out of 1..=255"
        );
        assert!(
            time_cycles < 1 << 23,
            "aggregation time {time_cycles} cycles beyond the 24-bit timer"
        );
        crate::elab::with_defaults!(CompletionPath {
            kq: std::array::from_fn(|i| Constant::new(bits::<4>(i as u64))),
            kr: std::array::from_fn(|i| Constant::new(bits::<2>(i as u64))),
            idx_zero: Constant::new(Index64::default()),
            cqe_zero: Constant::new(CqeWord::default()),
            beat_zero: Constant::new(DwBeat::default()),
            qword_zero: Constant::new(Qword::default()),
            dw_mask: Constant::new(bits::<32>(0xFFFF_FFFC)),
            one16: Constant::new(bits::<16>(1)),
            zero16: Constant::new(bits::<16>(0)),
            one8: Constant::new(bits::<8>(1)),
            zero32: Constant::new(bits::<32>(0)),
            zero8: Constant::new(bits::<8>(0)),
            threshold: Constant::new(bits::<8>(threshold as u64)),
            tcoal: Constant::new(bits::<24>(time_cycles)),
            tcoal_on: Constant::new(time_cycles > 0),
            one24: Constant::new(bits::<24>(1)),
            desc_cqe: Constant::new(mwr(4)),
            desc_msi: Constant::new(mwr(1)),
        } defaults {
            clock, en_pulse, rst_pulse, acq, acqs, db_valid, db_cq, db_qid, db_val, qc_valid, qc_sq, qc_del,
            qc_qid, qc_base, qc_size, qc_cqid, qc_vec, qc_ien, mx_valid, mx_off, mx_data, cpl_valid, cpl_sqid,
            cpl_cid, cpl_status, cpl_dw0, cpl_ready, rej_valid, rej_sqid, rej_cid, rej_status, rej_ready,
            hd_sel, hd_val, rq_valid, rq_desc, rq_data, rq_ready, evt_bad_val, evt_bad_q, now, st, wsq, wcid,
            wstat, wdw0, wvec, wcq, wfull, wmsi, waddr, insq, incq, cqid, qbase, qsize, qhead, qtail,
            qnext, qphase, qvec, qien, qcount, fire, full,
            caddr, tidx, toff, desc, cqe, beat, vq, vsel, vaddr, vdata, vunmask, pend_any, pend_v,
        } arrays {
            cbase, csize, chead, ctail, cphase, clive, cvec, cien, ccount, cdl, carm, sq2cq, maddr_lo, maddr_hi,
            mdata, munmask, mpend,
        })
    }
}
