//! Completion path: posts 16-byte completion queue entries (NVM Express Base Specification
//! 1.4, section 4.6, Figure 121: DW0, SQHD/SQID, CID, phase tag, status) to the CQ of the
//! command's SQ with one MWr each, inverting the phase tag on every wrap; holds the entry while
//! the CQ is full (tail + 1 == head) until a CQ head doorbell frees a slot; then raises MSI-X
//! (PCI Express Base 3.0, 7.7: message address/data from the table, masked vectors set their
//! pending bit and fire on unmask) with coalescing per CQ (section 5.21.1.8, Feature 08h; the
//! admin CQ is never coalesced): an interrupt fires at the aggregation threshold's completion,
//! or when the aggregation time has passed since the first completion not yet signalled (a
//! per-CQ deadline against a free-running 24-bit cycle counter; the expiry sets the vector's
//! pending bit and the engine sends it when idle, after rejections and completion requests).
//! A CQ head doorbell beyond the queue size or for a CQ that does not exist is ignored and
//! reported on `evt_*`.
//!
//! Timing: a completion request taken in cycle `c` offers its CQE MWr to the requester mux in
//! `c + 1` (header on RQ in `c + 2`); the MSI-X MWr is offered the cycle after the CQE is taken.

use crate::pcie::words::{CqeWord, DwBeat, Index64, Qword, ReqDescWord};
use rust_hdl::prelude::*;

/// Completion engine state.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum CplState {
    Idle,
    Post,
    Msix,
}

#[derive(LogicBlock)]
pub struct CompletionPath {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// Load the admin CQ from `acq`/`acqs` (controller enabled).
    pub en_pulse: Signal<In, Bit>,
    /// Delete every CQ (controller reset).
    pub rst_pulse: Signal<In, Bit>,
    /// Admin CQ base, byte address.
    pub acq: Signal<In, Bits<64>>,
    /// Admin CQ entries minus one.
    pub acqs: Signal<In, Bits<16>>,
    /// Doorbell strobe from the register file.
    pub db_valid: Signal<In, Bit>,
    /// Doorbell is a CQ head doorbell (SQ doorbells are ignored here).
    pub db_cq: Signal<In, Bit>,
    /// Doorbell queue identifier.
    pub db_qid: Signal<In, Bits<4>>,
    /// New CQ head (entry index).
    pub db_val: Signal<In, Bits<16>>,
    /// Queue configuration from the firmware.
    pub qc_valid: Signal<In, Bit>,
    /// Configuration names an SQ (1: records its CQ) or a CQ (0).
    pub qc_sq: Signal<In, Bit>,
    /// Delete instead of create.
    pub qc_del: Signal<In, Bit>,
    /// Queue identifier 1..=8.
    pub qc_qid: Signal<In, Bits<4>>,
    /// CQ base, byte address (4 KiB aligned).
    pub qc_base: Signal<In, Bits<64>>,
    /// CQ entries minus one.
    pub qc_size: Signal<In, Bits<16>>,
    /// For an SQ: the CQ its completions go to.
    pub qc_cqid: Signal<In, Bits<4>>,
    /// For a CQ: its MSI-X vector 0..=8.
    pub qc_vec: Signal<In, Bits<4>>,
    /// For a CQ: interrupts enabled.
    pub qc_ien: Signal<In, Bit>,
    /// MSI-X table write strobe from the register file.
    pub mx_valid: Signal<In, Bit>,
    /// Dword index in the MSI-X table (vector * 4 + 0 addr lo, 1 addr hi, 2 data, 3 control).
    pub mx_off: Signal<In, Bits<6>>,
    /// Dword written.
    pub mx_data: Signal<In, Bits<32>>,
    /// Completion request from the next stage.
    pub cpl_valid: Signal<In, Bit>,
    /// SQ of the completed command.
    pub cpl_sqid: Signal<In, Bits<4>>,
    /// CID of the completed command.
    pub cpl_cid: Signal<In, Bits<16>>,
    /// Status field (SCT bits 10:8, SC bits 7:0).
    pub cpl_status: Signal<In, Bits<11>>,
    /// Command-specific DW0.
    pub cpl_dw0: Signal<In, Bits<32>>,
    /// Completion request taken this cycle.
    pub cpl_ready: Signal<Out, Bit>,
    /// The submission path holds a rejected command (taken before `cpl_*`).
    pub rej_valid: Signal<In, Bit>,
    /// SQ of the rejected command.
    pub rej_sqid: Signal<In, Bits<4>>,
    /// CID of the rejected command.
    pub rej_cid: Signal<In, Bits<16>>,
    /// Status of the rejection.
    pub rej_status: Signal<In, Bits<11>>,
    /// The rejection is taken this cycle (the submission path frees its tag).
    pub rej_ready: Signal<Out, Bit>,
    /// SQ whose head is needed for CQE.SQHD.
    pub hd_sel: Signal<Out, Bits<4>>,
    /// Head of SQ `hd_sel` from the submission path.
    pub hd_val: Signal<In, Bits<16>>,
    /// MWr (CQE or MSI-X) offered to the requester mux.
    pub rq_valid: Signal<Out, Bit>,
    /// MWr descriptor.
    pub rq_desc: Signal<Out, Bits<128>>,
    /// MWr payload beat (CQE: 16 bytes; MSI-X: data in bits 31:0).
    pub rq_data: Signal<Out, Bits<128>>,
    /// The mux took the request.
    pub rq_ready: Signal<In, Bit>,
    /// One cycle: CQ head doorbell value beyond the queue size (AER info 01h).
    pub evt_bad_val: Signal<Out, Bit>,
    /// One cycle: CQ head doorbell of a CQ that does not exist (AER info 00h).
    pub evt_bad_q: Signal<Out, Bit>,
    cbase: [DFF<Bits<64>>; 9],
    csize: [DFF<Bits<16>>; 9],
    chead: [DFF<Bits<16>>; 9],
    ctail: [DFF<Bits<16>>; 9],
    cphase: [DFF<Bit>; 9],
    clive: [DFF<Bit>; 9],
    cvec: [DFF<Bits<4>>; 9],
    cien: [DFF<Bit>; 9],
    ccount: [DFF<Bits<8>>; 9],
    cdl: [DFF<Bits<24>>; 9],
    carm: [DFF<Bit>; 9],
    now: DFF<Bits<24>>,
    sq2cq: [DFF<Bits<4>>; 9],
    maddr_lo: [DFF<Bits<32>>; 9],
    maddr_hi: [DFF<Bits<32>>; 9],
    mdata: [DFF<Bits<32>>; 9],
    munmask: [DFF<Bit>; 9],
    mpend: [DFF<Bit>; 9],
    st: DFF<CplState>,
    wsq: DFF<Bits<4>>,
    wcid: DFF<Bits<16>>,
    wstat: DFF<Bits<11>>,
    wdw0: DFF<Bits<32>>,
    wvec: DFF<Bits<4>>,
    cqid: Signal<Local, Bits<4>>,
    qbase: Signal<Local, Bits<64>>,
    qsize: Signal<Local, Bits<16>>,
    qhead: Signal<Local, Bits<16>>,
    qtail: Signal<Local, Bits<16>>,
    qnext: Signal<Local, Bits<16>>,
    qphase: Signal<Local, Bit>,
    qvec: Signal<Local, Bits<4>>,
    qien: Signal<Local, Bit>,
    qcount: Signal<Local, Bits<8>>,
    fire: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    caddr: Signal<Local, Bits<64>>,
    tidx: Signal<Local, Index64>,
    toff: Signal<Local, Bits<64>>,
    desc: Signal<Local, ReqDescWord>,
    cqe: Signal<Local, CqeWord>,
    beat: Signal<Local, DwBeat>,
    vq: Signal<Local, Qword>,
    vsel: Signal<Local, Bits<4>>,
    vaddr: Signal<Local, Bits<64>>,
    vdata: Signal<Local, Bits<32>>,
    vunmask: Signal<Local, Bit>,
    pend_any: Signal<Local, Bit>,
    pend_v: Signal<Local, Bits<4>>,
    kq: [Constant<Bits<4>>; 9],
    kr: [Constant<Bits<2>>; 4],
    idx_zero: Constant<Index64>,
    cqe_zero: Constant<CqeWord>,
    beat_zero: Constant<DwBeat>,
    qword_zero: Constant<Qword>,
    dw_mask: Constant<Bits<32>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    one8: Constant<Bits<8>>,
    zero32: Constant<Bits<32>>,
    zero8: Constant<Bits<8>>,
    threshold: Constant<Bits<8>>,
    tcoal: Constant<Bits<24>>,
    tcoal_on: Constant<Bit>,
    one24: Constant<Bits<24>>,
    desc_cqe: Constant<ReqDescWord>,
    desc_msi: Constant<ReqDescWord>,
}

impl CompletionPath {
    /// `threshold`: MSI-X aggregation threshold in completions (1 = an interrupt per completion);
    /// `time_cycles`: aggregation time in cycles (0 = none; Feature 08h allows up to 25.5 ms).
    pub fn new(threshold: u32, time_cycles: u64) -> Self {
        use crate::pcie::tlp::REQ_MWR;
        let mwr = |dwords: u64| {
            let mut d = ReqDescWord::default();
            d.dwords = bits::<11>(dwords);
            d.req_type = bits::<4>(REQ_MWR as u64);
            d
        };
        assert!((1..=255).contains(&threshold), "aggregation threshold {threshold} out of 1..=255");
        assert!(time_cycles < 1 << 23, "aggregation time {time_cycles} cycles beyond the 24-bit timer");
        CompletionPath {
            clock: Default::default(),
            en_pulse: Default::default(),
            rst_pulse: Default::default(),
            acq: Default::default(),
            acqs: Default::default(),
            db_valid: Default::default(),
            db_cq: Default::default(),
            db_qid: Default::default(),
            db_val: Default::default(),
            qc_valid: Default::default(),
            qc_sq: Default::default(),
            qc_del: Default::default(),
            qc_qid: Default::default(),
            qc_base: Default::default(),
            qc_size: Default::default(),
            qc_cqid: Default::default(),
            qc_vec: Default::default(),
            qc_ien: Default::default(),
            mx_valid: Default::default(),
            mx_off: Default::default(),
            mx_data: Default::default(),
            cpl_valid: Default::default(),
            cpl_sqid: Default::default(),
            cpl_cid: Default::default(),
            cpl_status: Default::default(),
            cpl_dw0: Default::default(),
            cpl_ready: Default::default(),
            rej_valid: Default::default(),
            rej_sqid: Default::default(),
            rej_cid: Default::default(),
            rej_status: Default::default(),
            rej_ready: Default::default(),
            hd_sel: Default::default(),
            hd_val: Default::default(),
            rq_valid: Default::default(),
            rq_desc: Default::default(),
            rq_data: Default::default(),
            rq_ready: Default::default(),
            evt_bad_val: Default::default(),
            evt_bad_q: Default::default(),
            cbase: std::array::from_fn(|_| Default::default()),
            csize: std::array::from_fn(|_| Default::default()),
            chead: std::array::from_fn(|_| Default::default()),
            ctail: std::array::from_fn(|_| Default::default()),
            cphase: std::array::from_fn(|_| Default::default()),
            clive: std::array::from_fn(|_| Default::default()),
            cvec: std::array::from_fn(|_| Default::default()),
            cien: std::array::from_fn(|_| Default::default()),
            ccount: std::array::from_fn(|_| Default::default()),
            cdl: std::array::from_fn(|_| Default::default()),
            carm: std::array::from_fn(|_| Default::default()),
            now: Default::default(),
            sq2cq: std::array::from_fn(|_| Default::default()),
            maddr_lo: std::array::from_fn(|_| Default::default()),
            maddr_hi: std::array::from_fn(|_| Default::default()),
            mdata: std::array::from_fn(|_| Default::default()),
            munmask: std::array::from_fn(|_| Default::default()),
            mpend: std::array::from_fn(|_| Default::default()),
            st: Default::default(),
            wsq: Default::default(),
            wcid: Default::default(),
            wstat: Default::default(),
            wdw0: Default::default(),
            wvec: Default::default(),
            cqid: Default::default(),
            qbase: Default::default(),
            qsize: Default::default(),
            qhead: Default::default(),
            qtail: Default::default(),
            qnext: Default::default(),
            qphase: Default::default(),
            qvec: Default::default(),
            qien: Default::default(),
            qcount: Default::default(),
            fire: Default::default(),
            full: Default::default(),
            caddr: Default::default(),
            tidx: Default::default(),
            toff: Default::default(),
            desc: Default::default(),
            cqe: Default::default(),
            beat: Default::default(),
            vq: Default::default(),
            vsel: Default::default(),
            vaddr: Default::default(),
            vdata: Default::default(),
            vunmask: Default::default(),
            pend_any: Default::default(),
            pend_v: Default::default(),
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
        }
    }
}

impl Logic for CompletionPath {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st, wsq, wcid, wstat, wdw0, wvec, now);
        for i in 0..9 {
            self.cbase[i].clock.next = self.clock.val();
            self.csize[i].clock.next = self.clock.val();
            self.chead[i].clock.next = self.clock.val();
            self.ctail[i].clock.next = self.clock.val();
            self.cphase[i].clock.next = self.clock.val();
            self.clive[i].clock.next = self.clock.val();
            self.cvec[i].clock.next = self.clock.val();
            self.cien[i].clock.next = self.clock.val();
            self.ccount[i].clock.next = self.clock.val();
            self.cdl[i].clock.next = self.clock.val();
            self.carm[i].clock.next = self.clock.val();
            self.cdl[i].d.next = self.cdl[i].q.val();
            self.carm[i].d.next = self.carm[i].q.val();
            self.sq2cq[i].clock.next = self.clock.val();
            self.maddr_lo[i].clock.next = self.clock.val();
            self.maddr_hi[i].clock.next = self.clock.val();
            self.mdata[i].clock.next = self.clock.val();
            self.munmask[i].clock.next = self.clock.val();
            self.mpend[i].clock.next = self.clock.val();
            self.cbase[i].d.next = self.cbase[i].q.val();
            self.csize[i].d.next = self.csize[i].q.val();
            self.chead[i].d.next = self.chead[i].q.val();
            self.ctail[i].d.next = self.ctail[i].q.val();
            self.cphase[i].d.next = self.cphase[i].q.val();
            self.clive[i].d.next = self.clive[i].q.val();
            self.cvec[i].d.next = self.cvec[i].q.val();
            self.cien[i].d.next = self.cien[i].q.val();
            self.ccount[i].d.next = self.ccount[i].q.val();
            self.sq2cq[i].d.next = self.sq2cq[i].q.val();
            self.maddr_lo[i].d.next = self.maddr_lo[i].q.val();
            self.maddr_hi[i].d.next = self.maddr_hi[i].q.val();
            self.mdata[i].d.next = self.mdata[i].q.val();
            self.munmask[i].d.next = self.munmask[i].q.val();
            self.mpend[i].d.next = self.mpend[i].q.val();
        }
        // The CQ of the working completion and its state.
        self.cqid.next = self.kq[0].val();
        for i in 0..9 {
            if self.wsq.q.val() == self.kq[i].val() {
                self.cqid.next = self.sq2cq[i].q.val();
            }
        }
        self.qbase.next = self.cbase[0].q.val();
        self.qsize.next = self.csize[0].q.val();
        self.qhead.next = self.chead[0].q.val();
        self.qtail.next = self.ctail[0].q.val();
        self.qphase.next = self.cphase[0].q.val();
        self.qvec.next = self.cvec[0].q.val();
        self.qien.next = self.cien[0].q.val();
        self.qcount.next = self.ccount[0].q.val();
        for i in 0..9 {
            if self.cqid.val() == self.kq[i].val() {
                self.qbase.next = self.cbase[i].q.val();
                self.qsize.next = self.csize[i].q.val();
                self.qhead.next = self.chead[i].q.val();
                self.qtail.next = self.ctail[i].q.val();
                self.qphase.next = self.cphase[i].q.val();
                self.qvec.next = self.cvec[i].q.val();
                self.qien.next = self.cien[i].q.val();
                self.qcount.next = self.ccount[i].q.val();
            }
        }
        if self.qtail.val() == self.qsize.val() {
            self.qnext.next = self.zero16.val();
        } else {
            self.qnext.next = self.qtail.val() + self.one16.val();
        }
        self.full.next = self.qnext.val() == self.qhead.val();
        self.tidx.next = self.idx_zero.val();
        self.tidx.next.idx = self.qtail.val();
        self.toff.next = self.tidx.val().into();
        self.caddr.next = self.qbase.val() + (self.toff.val() << 4);
        // Coalescing decision for the working completion (admin CQ never coalesced).
        self.fire.next = false;
        if self.qien.val() {
            if (self.cqid.val() == self.kq[0].val()) | (self.qcount.val() + self.one8.val() >= self.threshold.val()) {
                self.fire.next = true;
            }
        }
        // Pending, unmasked vectors (lowest first).
        self.pend_any.next = false;
        self.pend_v.next = self.kq[0].val();
        for j in 0..9 {
            if self.mpend[8 - j].q.val() & self.munmask[8 - j].q.val() {
                self.pend_any.next = true;
                self.pend_v.next = self.kq[8 - j].val();
            }
        }
        self.vsel.next = self.pend_v.val();
        if self.st.q.val() == CplState::Post {
            self.vsel.next = self.qvec.val();
        }
        if self.st.q.val() == CplState::Msix {
            self.vsel.next = self.wvec.q.val();
        }
        self.vq.next = self.qword_zero.val();
        self.vq.next.lo = self.maddr_lo[0].q.val();
        self.vq.next.hi = self.maddr_hi[0].q.val();
        self.vdata.next = self.mdata[0].q.val();
        self.vunmask.next = self.munmask[0].q.val();
        for i in 0..9 {
            if self.vsel.val() == self.kq[i].val() {
                self.vq.next.lo = self.maddr_lo[i].q.val();
                self.vq.next.hi = self.maddr_hi[i].q.val();
                self.vdata.next = self.mdata[i].q.val();
                self.vunmask.next = self.munmask[i].q.val();
            }
        }
        self.vaddr.next = self.vq.val().into();
        // Words of the two MWr the engine sends: the CQE and the MSI-X message.
        self.cqe.next = self.cqe_zero.val();
        self.cqe.next.dw0 = self.wdw0.q.val();
        self.cqe.next.sqhd = self.hd_val.val();
        self.cqe.next.sqid = self.wsq.q.val();
        self.cqe.next.cid = self.wcid.q.val();
        self.cqe.next.phase = self.qphase.val();
        self.cqe.next.status = self.wstat.q.val();
        self.beat.next = self.beat_zero.val();
        self.beat.next.lo = self.vdata.val();
        self.desc.next = self.desc_cqe.val();
        self.desc.next.addr = self.caddr.val();
        if self.st.q.val() == CplState::Msix {
            self.desc.next = self.desc_msi.val();
            self.desc.next.addr = self.vaddr.val();
        }
        self.hd_sel.next = self.wsq.q.val();
        self.cpl_ready.next = false;
        self.rej_ready.next = false;
        self.rq_valid.next = false;
        self.rq_desc.next = self.desc.val().into();
        self.rq_data.next = self.cqe.val().into();
        match self.st.q.val() {
            CplState::Idle => {
                if self.rej_valid.val() {
                    self.rej_ready.next = true;
                    self.wsq.d.next = self.rej_sqid.val();
                    self.wcid.d.next = self.rej_cid.val();
                    self.wstat.d.next = self.rej_status.val();
                    self.wdw0.d.next = self.zero32.val();
                    self.st.d.next = CplState::Post;
                } else if self.cpl_valid.val() {
                    self.cpl_ready.next = true;
                    self.wsq.d.next = self.cpl_sqid.val();
                    self.wcid.d.next = self.cpl_cid.val();
                    self.wstat.d.next = self.cpl_status.val();
                    self.wdw0.d.next = self.cpl_dw0.val();
                    self.st.d.next = CplState::Post;
                } else if self.pend_any.val() {
                    self.wvec.d.next = self.pend_v.val();
                    self.st.d.next = CplState::Msix;
                }
            }
            CplState::Post => {
                if !self.full.val() {
                    self.rq_valid.next = true;
                    if self.rq_ready.val() {
                        self.st.d.next = CplState::Idle;
                        self.wvec.d.next = self.qvec.val();
                        if self.fire.val() & self.vunmask.val() {
                            self.st.d.next = CplState::Msix;
                        }
                        for i in 0..9 {
                            if self.cqid.val() == self.kq[i].val() {
                                self.ctail[i].d.next = self.qnext.val();
                                if self.qnext.val() == self.zero16.val() {
                                    self.cphase[i].d.next = !self.qphase.val();
                                }
                                if self.qien.val() {
                                    if self.fire.val() {
                                        self.ccount[i].d.next = self.zero8.val();
                                        self.carm[i].d.next = false;
                                    } else {
                                        self.ccount[i].d.next = self.qcount.val() + self.one8.val();
                                        // First completion not signalled: the deadline counts
                                        // from the cycle after the mux took the CQE.
                                        if !self.carm[i].q.val() & self.tcoal_on.val() {
                                            self.carm[i].d.next = true;
                                            self.cdl[i].d.next = self.now.q.val() + self.one24.val() + self.tcoal.val();
                                        }
                                    }
                                }
                            }
                            if (self.qvec.val() == self.kq[i].val()) & self.fire.val() & !self.vunmask.val() {
                                self.mpend[i].d.next = true;
                            }
                        }
                    }
                }
            }
            CplState::Msix => {
                self.rq_valid.next = true;
                self.rq_data.next = self.beat.val().into();
                if self.rq_ready.val() {
                    self.st.d.next = CplState::Idle;
                    for i in 0..9 {
                        if self.wvec.q.val() == self.kq[i].val() {
                            self.mpend[i].d.next = false;
                        }
                    }
                }
            }
            _ => {
                self.st.d.next = CplState::Idle;
            }
        }
        // Aggregation time: a CQ whose deadline is now sets its vector's pending bit.
        for i in 0..9 {
            if self.carm[i].q.val() & (self.now.q.val() == self.cdl[i].q.val()) {
                self.carm[i].d.next = false;
                self.ccount[i].d.next = self.zero8.val();
                for j in 0..9 {
                    if self.cvec[i].q.val() == self.kq[j].val() {
                        self.mpend[j].d.next = true;
                    }
                }
            }
        }
        self.now.d.next = self.now.q.val() + self.one24.val();
        // CQ head doorbells.
        self.evt_bad_val.next = false;
        self.evt_bad_q.next = false;
        if self.db_valid.val() & self.db_cq.val() {
            for i in 0..9 {
                if self.db_qid.val() == self.kq[i].val() {
                    if !self.clive[i].q.val() {
                        self.evt_bad_q.next = true;
                    } else if self.db_val.val() > self.csize[i].q.val() {
                        self.evt_bad_val.next = true;
                    } else {
                        self.chead[i].d.next = self.db_val.val();
                    }
                }
            }
        }
        // MSI-X table writes: vector = index[5:2], dword = index[1:0].
        if self.mx_valid.val() {
            for i in 0..9 {
                if self.mx_off.val().get_bits::<4>(2) == self.kq[i].val() {
                    if self.mx_off.val().get_bits::<2>(0) == self.kr[0].val() {
                        self.maddr_lo[i].d.next = self.mx_data.val() & self.dw_mask.val();
                    }
                    if self.mx_off.val().get_bits::<2>(0) == self.kr[1].val() {
                        self.maddr_hi[i].d.next = self.mx_data.val();
                    }
                    if self.mx_off.val().get_bits::<2>(0) == self.kr[2].val() {
                        self.mdata[i].d.next = self.mx_data.val();
                    }
                    if self.mx_off.val().get_bits::<2>(0) == self.kr[3].val() {
                        self.munmask[i].d.next = !self.mx_data.val().get_bit(0);
                    }
                }
            }
        }
        // Queue configuration and controller enable/reset.
        if self.qc_valid.val() {
            for i in 1..9 {
                if self.qc_qid.val() == self.kq[i].val() {
                    if self.qc_sq.val() {
                        self.sq2cq[i].d.next = self.qc_cqid.val();
                    } else {
                        self.clive[i].d.next = !self.qc_del.val();
                        self.cbase[i].d.next = self.qc_base.val();
                        self.csize[i].d.next = self.qc_size.val();
                        self.chead[i].d.next = self.zero16.val();
                        self.ctail[i].d.next = self.zero16.val();
                        self.cphase[i].d.next = true;
                        self.cvec[i].d.next = self.qc_vec.val();
                        self.cien[i].d.next = self.qc_ien.val();
                        self.ccount[i].d.next = self.zero8.val();
                        self.carm[i].d.next = false;
                    }
                }
            }
        }
        if self.en_pulse.val() {
            self.clive[0].d.next = true;
            self.cbase[0].d.next = self.acq.val();
            self.csize[0].d.next = self.acqs.val();
            self.chead[0].d.next = self.zero16.val();
            self.ctail[0].d.next = self.zero16.val();
            self.cphase[0].d.next = true;
            self.cvec[0].d.next = self.kq[0].val();
            self.cien[0].d.next = true;
            self.sq2cq[0].d.next = self.kq[0].val();
        }
        if self.rst_pulse.val() {
            for i in 0..9 {
                self.clive[i].d.next = false;
            }
        }
    }
}

/// Generated Verilog of the block (top module `top`) with aggregation threshold `threshold`
/// and aggregation time `time_cycles`.
pub fn export_verilog(threshold: u32, time_cycles: u64) -> String {
        crate::verilog_of(CompletionPath::new(threshold, time_cycles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_path_is_synthesizable() {
        yosys_validate("ssdlab_cq_post", &export_verilog(4, 25_000)).unwrap();
    }
}
