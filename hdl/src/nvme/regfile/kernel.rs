//! Kernel of the BAR0 register file [`NvmeRegs`]: completer request decode (PG213 completer
//! request descriptor), the register read mux and its completion (descriptor beat, then one
//! data beat), register writes with the CC.EN / CC.SHN handshakes (NVM Express Base
//! Specification 1.4, sections 3.1 and 7.6.1-7.6.2), and the doorbell and MSI-X table strobes.
//! rust_hdl turns one `#[hdl_gen]` function into one always block, so the kernel stays one
//! function: splitting it would change the generated Verilog.

use super::*;

impl Logic for NvmeRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, off, two, tag, rid, tcl, attr, func, bcnt, is_mrd, wr_en, beyond,
            need_cpl, cst, cc, csts, intms, aqa, asq_lo, asq_hi, acq_lo, acq_hi, en_p, rst_p, dbv,
            dbc, dbq, dbd, dbbad, mxv, mxo, mxd
        );
        self.w0.next = self.cq_tdata.val().get_bits::<32>(0);
        self.w1.next = self.cq_tdata.val().get_bits::<32>(32);
        // Strobes last one cycle.
        self.en_p.d.next = false;
        self.rst_p.d.next = false;
        self.dbv.d.next = false;
        self.dbbad.d.next = false;
        self.mxv.d.next = false;
        // Doorbell region 1000h..1FFFh: off[13:12] = 01b; qid = off[11:3], CQ = off[2].
        self.db_hit.next = !self.off.q.val().get_bit(13) & self.off.q.val().get_bit(12);
        // Read data mux.
        self.rd_lo.next = self.k_zero32.val();
        self.rd_hi.next = self.k_zero32.val();
        if self.off.q.val() == self.o_cap.val() {
            self.rd_lo.next = self.cap_lo.val();
            self.rd_hi.next = self.cap_hi.val();
        }
        if self.off.q.val() == self.o_cap_hi.val() {
            self.rd_lo.next = self.cap_hi.val();
        }
        if self.off.q.val() == self.o_vs.val() {
            self.rd_lo.next = self.vs.val();
        }
        if (self.off.q.val() == self.o_intms.val()) | (self.off.q.val() == self.o_intmc.val()) {
            self.rd_lo.next = self.intms.q.val();
        }
        if self.off.q.val() == self.o_cc.val() {
            self.rd_lo.next = self.cc.q.val();
        }
        if self.off.q.val() == self.o_csts.val() {
            self.rd_lo.next = self.csts.q.val();
        }
        if self.off.q.val() == self.o_aqa.val() {
            self.rd_lo.next = self.aqa.q.val();
        }
        if self.off.q.val() == self.o_asq.val() {
            self.rd_lo.next = self.asq_lo.q.val();
            self.rd_hi.next = self.asq_hi.q.val();
        }
        if self.off.q.val() == self.o_asq_hi.val() {
            self.rd_lo.next = self.asq_hi.q.val();
        }
        if self.off.q.val() == self.o_acq.val() {
            self.rd_lo.next = self.acq_lo.q.val();
            self.rd_hi.next = self.acq_hi.q.val();
        }
        if self.off.q.val() == self.o_acq_hi.val() {
            self.rd_lo.next = self.acq_hi.q.val();
        }
        if self.beyond.q.val() {
            self.rd_lo.next = self.k_zero32.val();
            self.rd_hi.next = self.k_zero32.val();
        }
        // Request decode of a descriptor beat: type, BAR0 of function 0 untranslated, offset
        // beyond 16 KiB inside the BAR's aperture (address bits 14 .. aperture-1 not all zero).
        self.rtype.next = self.cq_tdata.val().get_bits::<4>(75);
        self.mrd.next = self.rtype.val() == self.k_mrd.val();
        self.posted.next = (self.rtype.val() == self.k_mwr.val())
            | (self.rtype.val().get_bits::<2>(2) == self.k_msg.val());
        self.hit.next = (self.cq_tdata.val().get_bits::<2>(0) == self.k_zero2.val())
            & (self.cq_tdata.val().get_bits::<8>(104) == self.k_zero8.val())
            & (self.cq_tdata.val().get_bits::<3>(112) == self.k_zero3.val());
        self.oor.next = (self.cq_tdata.val().get_bits::<64>(0)
            & !(self.k_ones64.val() << self.cq_tdata.val().get_bits::<6>(115))
            & self.k_hi64.val())
            != self.k_zero64.val();
        self.bc.next = self.bc_zero.val();
        self.bc.next.dwords = self.cq_tdata.val().get_bits::<11>(64);
        // PG213 reserves descriptor bits 79 and 127: ignored (named `*unused*` for lint).
        self.rsvd79_unused.next = self.cq_tdata.val().get_bit(79);
        self.rsvd127_unused.next = self.cq_tdata.val().get_bit(127);
        self.cq_tready.next = false;
        self.cc_tvalid.next = false;
        self.cc_tlast.next = false;
        self.cc_tkeep.next = self.k_keep0.val();
        // Completion descriptor (PG213 CC): lower address and byte count of a memory read,
        // dword count, status, and the request's requester ID, tag, TC and attributes.
        self.cpl.next = self.cpl_zero.val();
        if self.is_mrd.q.val() {
            self.cpl.next.lower_addr = self.off.q.val().get_bits::<7>(0);
        }
        self.cpl.next.byte_count = self.bcnt.q.val();
        self.cpl.next.status = self.cst.q.val();
        self.cpl.next.rid = self.rid.q.val();
        self.cpl.next.tag = self.tag.q.val();
        self.cpl.next.cpl_fn = self.func.q.val();
        self.cpl.next.tc = self.tcl.q.val();
        self.cpl.next.attr = self.attr.q.val();
        if self.cst.q.val() == self.k_zero3.val() {
            self.cpl.next.dwords = self.k_one11.val();
            if self.two.q.val() {
                self.cpl.next.dwords = self.k_two11.val();
            }
        }
        self.beat.next = self.beat_zero.val();
        self.beat.next.lo = self.rd_lo.val();
        self.beat.next.hi = self.rd_hi.val();
        self.cc_tdata.next = self.zero128.val();
        match self.state.q.val() {
            RegState::Idle => {
                self.cq_tready.next = true;
                if self.cq_tvalid.val() {
                    self.off.d.next = self.cq_tdata.val().get_bits::<14>(0) & self.k_off_mask.val();
                    self.two.d.next = self.cq_tdata.val().get_bits::<11>(64) == self.k_two11.val();
                    self.tag.d.next = self.cq_tdata.val().get_bits::<8>(96);
                    self.rid.d.next = self.cq_tdata.val().get_bits::<16>(80);
                    self.func.d.next = self.cq_tdata.val().get_bits::<8>(104);
                    self.tcl.d.next = self.cq_tdata.val().get_bits::<3>(121);
                    self.attr.d.next = self.cq_tdata.val().get_bits::<3>(124);
                    self.is_mrd.d.next = self.mrd.val();
                    self.wr_en.d.next =
                        (self.rtype.val() == self.k_mwr.val()) & self.hit.val() & !self.oor.val();
                    self.beyond.d.next = self.oor.val();
                    self.need_cpl.d.next = !self.posted.val();
                    // Byte count: the read's remaining bytes (dwords x 4); 4 for other types.
                    self.bcnt.d.next = self.k_bytes4.val();
                    if self.mrd.val() {
                        self.bcnt.d.next = self.bc.val().into();
                    }
                    self.cst.d.next = self.k_st_ur.val();
                    if self.mrd.val() & self.hit.val() {
                        self.cst.d.next = self.k_st_ca.val();
                        if (self.cq_tdata.val().get_bits::<11>(64) == self.k_one11.val())
                            | (self.cq_tdata.val().get_bits::<11>(64) == self.k_two11.val())
                        {
                            self.cst.d.next = self.k_zero3.val();
                        }
                    }
                    // A discontinued single-beat request is dropped: no completion.
                    if !self.cq_tlast.val() {
                        self.state.d.next = RegState::WrData;
                    } else if !self.posted.val() & !self.cq_discontinue.val() {
                        self.state.d.next = RegState::RdCpl;
                    }
                }
            }
            RegState::WrData => {
                self.cq_tready.next = true;
                if self.cq_tvalid.val() {
                    if self.cq_tlast.val() {
                        self.state.d.next = RegState::Idle;
                        if self.need_cpl.q.val() & !self.cq_discontinue.val() {
                            self.state.d.next = RegState::RdCpl;
                        }
                    }
                    // A write's payload is one beat (registers are 32/64-bit), the beat that
                    // carries discontinue: a discontinued write changes nothing.
                    if self.wr_en.q.val() & !self.cq_discontinue.val() {
                        if self.off.q.val() == self.o_intms.val() {
                            self.intms.d.next = self.intms.q.val() | self.w0.val();
                        }
                        if self.off.q.val() == self.o_intmc.val() {
                            self.intms.d.next = self.intms.q.val() & !self.w0.val();
                        }
                        if self.off.q.val() == self.o_aqa.val() {
                            self.aqa.d.next = self.w0.val() & self.k_aqa_mask.val();
                        }
                        if self.off.q.val() == self.o_asq.val() {
                            self.asq_lo.d.next = self.w0.val() & self.k_base_mask.val();
                            if self.two.q.val() {
                                self.asq_hi.d.next = self.w1.val();
                            }
                        }
                        if self.off.q.val() == self.o_asq_hi.val() {
                            self.asq_hi.d.next = self.w0.val();
                        }
                        if self.off.q.val() == self.o_acq.val() {
                            self.acq_lo.d.next = self.w0.val() & self.k_base_mask.val();
                            if self.two.q.val() {
                                self.acq_hi.d.next = self.w1.val();
                            }
                        }
                        if self.off.q.val() == self.o_acq_hi.val() {
                            self.acq_hi.d.next = self.w0.val();
                        }
                        if self.off.q.val() == self.o_cc.val() {
                            self.cc.d.next = self.w0.val();
                            if self.w0.val().get_bit(0) & !self.cc.q.val().get_bit(0) {
                                if (self.aqa.q.val().get_bits::<12>(0) != self.k_zero12.val())
                                    & (self.aqa.q.val().get_bits::<12>(16) != self.k_zero12.val())
                                    & ((self.asq_lo.q.val() != self.k_zero32.val())
                                        | (self.asq_hi.q.val() != self.k_zero32.val()))
                                    & ((self.acq_lo.q.val() != self.k_zero32.val())
                                        | (self.acq_hi.q.val() != self.k_zero32.val()))
                                {
                                    self.csts.d.next =
                                        (self.csts.q.val() | self.k_rdy.val()) & !self.k_cfs.val();
                                    self.en_p.d.next = true;
                                } else {
                                    self.csts.d.next = self.csts.q.val() | self.k_cfs.val();
                                }
                            }
                            if !self.w0.val().get_bit(0) & self.cc.q.val().get_bit(0) {
                                self.csts.d.next = self.csts.q.val() & !self.k_rdy.val();
                                self.rst_p.d.next = true;
                            }
                            if self.w0.val().get_bits::<2>(14) != self.k_zero2.val() {
                                self.csts.d.next = (self.csts.q.val() & !self.k_shst_mask.val())
                                    | self.k_shst_done.val();
                            }
                        }
                        if self.db_hit.val() {
                            if self.off.q.val().get_bits::<9>(3) < self.k_pairs.val() {
                                self.dbv.d.next = true;
                            } else {
                                self.dbbad.d.next = true;
                            }
                            self.dbc.d.next = self.off.q.val().get_bit(2);
                            self.dbq.d.next = self.off.q.val().get_bits::<4>(3);
                            self.dbd.d.next = self.w0.val().get_bits::<16>(0);
                        }
                        if self.off.q.val().get_bit(13)
                            & !self.off.q.val().get_bit(12)
                            & (self.off.q.val().get_bits::<12>(0) < self.k_mx_end.val())
                        {
                            self.mxv.d.next = true;
                            self.mxo.d.next = self.off.q.val().get_bits::<6>(2);
                            self.mxd.d.next = self.w0.val();
                        }
                    }
                }
            }
            RegState::RdCpl => {
                // A completion without data (UR/CA) is the descriptor beat alone.
                self.cc_tvalid.next = true;
                self.cc_tlast.next = self.cst.q.val() != self.k_zero3.val();
                self.cc_tdata.next = self.cpl.val().into();
                self.cc_tkeep.next = self.k_keep3.val();
                if self.cc_tready.val() {
                    self.state.d.next = RegState::RdData;
                    if self.cst.q.val() != self.k_zero3.val() {
                        self.state.d.next = RegState::Idle;
                    }
                }
            }
            RegState::RdData => {
                self.cc_tvalid.next = true;
                self.cc_tlast.next = true;
                self.cc_tdata.next = self.beat.val().into();
                self.cc_tkeep.next = self.k_keep1.val();
                if self.two.q.val() {
                    self.cc_tkeep.next = self.k_keep2.val();
                }
                if self.cc_tready.val() {
                    self.state.d.next = RegState::Idle;
                }
            }
            _ => {
                self.state.d.next = RegState::Idle;
            }
        }
        self.rdy.next = self.csts.q.val().get_bit(0);
        self.en_pulse.next = self.en_p.q.val();
        self.rst_pulse.next = self.rst_p.q.val();
        self.aq.next = self.qword_zero.val();
        self.aq.next.lo = self.asq_lo.q.val();
        self.aq.next.hi = self.asq_hi.q.val();
        self.asq.next = self.aq.val().into();
        self.cq.next = self.qword_zero.val();
        self.cq.next.lo = self.acq_lo.q.val();
        self.cq.next.hi = self.acq_hi.q.val();
        self.acq.next = self.cq.val().into();
        self.sz_s.next = self.size_zero.val();
        self.sz_s.next.size = self.aqa.q.val().get_bits::<12>(0);
        self.asqs.next = self.sz_s.val().into();
        self.sz_c.next = self.size_zero.val();
        self.sz_c.next.size = self.aqa.q.val().get_bits::<12>(16);
        self.acqs.next = self.sz_c.val().into();
        self.db_valid.next = self.dbv.q.val();
        self.db_cq.next = self.dbc.q.val();
        self.db_qid.next = self.dbq.q.val();
        self.db_val.next = self.dbd.q.val();
        self.db_bad_reg.next = self.dbbad.q.val();
        self.mx_valid.next = self.mxv.q.val();
        self.mx_off.next = self.mxo.q.val();
        self.mx_data.next = self.mxd.q.val();
    }
}
