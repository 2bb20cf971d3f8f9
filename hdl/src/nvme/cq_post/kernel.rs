//! Kernel of the completion path [`CompletionPath`]: per-CQ state (base, size, tail, head,
//! phase) and CQ head doorbells, CQE assembly and its MWr with the phase tag (NVM Express Base
//! Specification 1.4, section 4.6, Figure 121), the hold while a CQ is full, the MSI-X table,
//! mask and pending bits (PCI Express Base 3.0, 7.7) and per-CQ coalescing counters and
//! deadlines (section 5.21.1.8). rust_hdl turns one `#[hdl_gen]` function into one always
//! block, so the kernel stays one function: splitting it would change the generated Verilog.

use super::*;

impl Logic for CompletionPath {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st, wsq, wcid, wstat, wdw0, wvec, wcq, wfull, wmsi, waddr, now);
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
        // The CQ of the completion the idle engine takes (a rejection before a request),
        // registered in `wcq` with it: the CQ lookups below start from a register.
        self.insq.next = self.cpl_sqid.val();
        if self.rej_valid.val() {
            self.insq.next = self.rej_sqid.val();
        }
        self.incq.next = self.sq2cq[0].q.val();
        for i in 0..9 {
            if self.insq.val() == self.kq[i].val() {
                self.incq.next = self.sq2cq[i].q.val();
            }
        }
        // The CQ of the working completion and its state.
        self.cqid.next = self.wcq.q.val();
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
        // Registered: the request offered in `Post` starts from registers only. A doorbell
        // that frees a slot reaches the offer one cycle after the head register changes.
        self.wfull.d.next = self.full.val();
        self.tidx.next = self.idx_zero.val();
        self.tidx.next.idx = self.qtail.val();
        self.toff.next = self.tidx.val().into();
        self.caddr.next = self.qbase.val() + (self.toff.val() << 4);
        // Registered as `wfull` is: the CQE's address is the CQ's tail slot, which only the
        // engine's own post moves.
        self.waddr.d.next = self.caddr.val();
        // Coalescing decision for the working completion (admin CQ never coalesced).
        self.fire.next = false;
        if self.qien.val()
            & ((self.cqid.val() == self.kq[0].val())
                | (self.qcount.val() + self.one8.val() >= self.threshold.val()))
        {
            self.fire.next = true;
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
        self.desc.next.addr = self.waddr.q.val();
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
                self.wcq.d.next = self.incq.val();
                self.wmsi.d.next = false;
                if self.rej_valid.val() {
                    self.rej_ready.next = true;
                    self.wsq.d.next = self.rej_sqid.val();
                    self.wcid.d.next = self.rej_cid.val();
                    self.wstat.d.next = self.rej_status.val();
                    self.wdw0.d.next = self.zero32.val();
                    self.st.d.next = CplState::Look;
                } else if self.cpl_valid.val() {
                    self.cpl_ready.next = true;
                    self.wsq.d.next = self.cpl_sqid.val();
                    self.wcid.d.next = self.cpl_cid.val();
                    self.wstat.d.next = self.cpl_status.val();
                    self.wdw0.d.next = self.cpl_dw0.val();
                    self.st.d.next = CplState::Look;
                } else if self.pend_any.val() {
                    self.wvec.d.next = self.pend_v.val();
                    self.wmsi.d.next = true;
                    self.st.d.next = CplState::Look;
                }
            }
            CplState::Look => {
                // The CQ's state is looked up (and `wfull` registered) before the offer.
                self.st.d.next = CplState::Post;
                if self.wmsi.q.val() {
                    self.st.d.next = CplState::Msix;
                }
            }
            CplState::Post => {
                if !self.wfull.q.val() {
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
                                            self.cdl[i].d.next = self.now.q.val()
                                                + self.one24.val()
                                                + self.tcoal.val();
                                        }
                                    }
                                }
                            }
                            if (self.qvec.val() == self.kq[i].val())
                                & self.fire.val()
                                & !self.vunmask.val()
                            {
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
