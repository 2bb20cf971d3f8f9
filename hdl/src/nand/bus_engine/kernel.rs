//! Kernel of the bus engine [`BusEngine`]: phase decode (read first/second half, cache-read
//! steps, program, erase, status; a suspend/resume latch is a lone CMD c), the segment template `[CMD a] [ADDR k] [CMD b] [HOLD h]
//! [DATA d] [CMD c]` per plane with absent parts skipped, segment, plane and (one-shot program)
//! page counting, the
//! registered phase-end flag, the command byte of each latch and the PHY-facing signals (ONFI
//! 4.1 section 5 command sequences, as `ssdlab_model::nand::sequencer::SeqTiming::trace_phase`).
//! rust_hdl turns one `#[hdl_gen]` function into one always block, so the kernel stays one
//! function: splitting it would change the generated Verilog.

use super::*;

impl Logic for BusEngine {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, seg, cnt, acnt, aidx, plane, way_r, second, kind, planes_m1, row, col,
            csr, rsr, dcyc, rtop, c1, lastp, pe, ccmd, f3, fin, sus_r, res_r, plast, pg, pages_m1,
            row0
        );
        // Decode the phase being run.
        // A cache read's first phase is a read's (00h-addr-30h); its second-half steps are `is_cs`.
        self.is_rf.next = ((self.kind.q.val() == self.k_read.val())
            | (self.kind.q.val() == self.k_cache.val()))
            & !self.second.q.val();
        self.is_rs.next = (self.kind.q.val() == self.k_read.val()) & self.second.q.val();
        self.is_cs.next = (self.kind.q.val() == self.k_cache.val()) & self.second.q.val();
        self.is_pg.next = (self.kind.q.val() == self.k_prog.val()) & !self.second.q.val();
        self.is_er.next = (self.kind.q.val() == self.k_erase.val()) & !self.second.q.val();
        self.is_st.next = ((self.kind.q.val() == self.k_prog.val())
            | (self.kind.q.val() == self.k_erase.val()))
            & self.second.q.val();
        self.last_plane.next = self.lastp.q.val();
        self.hold_len.next = self.zero16.val();
        if self.is_pg.val() {
            self.hold_len.next = self.t_adl.val();
        }
        if self.is_rs.val() {
            self.hold_len.next = self.t_ccs.val();
        }
        if self.is_st.val() {
            self.hold_len.next = self.t_whr.val();
        }
        // A data-out segment holds the RE# preamble, the beats and the postamble (`rd_extra`).
        self.data_len.next = self.zero16.val();
        if self.is_pg.val() {
            self.data_len.next = self.dcyc.q.val();
        }
        if self.is_rs.val() {
            self.data_len.next = self.dcyc.q.val() + self.rd_extra.val();
        }
        if self.is_st.val() {
            self.data_len.next = self.st_len.val();
        }
        self.addr_len.next = self.addr_n.val();
        if self.is_er.val() {
            self.addr_len.next = self.row_n.val();
        }
        if self.is_st.val() {
            self.addr_len.next = self.zero3.val();
        }
        // Segment order of the template, skipping absent parts.
        self.after_plane.next = Seg::CmdA;
        if self.last_plane.val() | self.is_st.val() {
            self.after_plane.next = Seg::Idle;
        }
        self.after_data.next = self.after_plane.val();
        if self.is_pg.val() | (self.is_cs.val() & self.ccmd.q.val()) {
            self.after_data.next = Seg::CmdC;
        }
        // Presence tests use the decode flags and elaboration constants, not 16-bit compares
        // (shorter paths): every read/program moves >= 1 data cycle (`pack_op` checks it).
        self.after_hold.next = self.after_data.val();
        if self.is_pg.val() | self.is_rs.val() | self.is_st.val() {
            self.after_hold.next = Seg::Data;
        }
        self.after_b.next = self.after_hold.val();
        if (self.is_pg.val() & self.has_adl.val())
            | (self.is_rs.val() & self.has_ccs.val())
            | (self.is_st.val() & self.has_whr.val())
        {
            self.after_b.next = Seg::Hold;
        }
        self.after_addr.next = self.after_b.val();
        if self.is_rf.val() | self.is_rs.val() | self.is_er.val() {
            self.after_addr.next = Seg::CmdB;
        }
        self.after_a.next = self.after_addr.val();
        if !self.is_st.val() {
            self.after_a.next = Seg::Addr;
        }
        self.nxt.next = Seg::Idle;
        match self.seg.q.val() {
            Seg::Idle => {}
            Seg::CmdA => {
                self.nxt.next = self.after_a.val();
            }
            Seg::Addr => {
                self.nxt.next = self.after_addr.val();
            }
            Seg::CmdB => {
                self.nxt.next = self.after_b.val();
            }
            Seg::Hold => {
                self.nxt.next = self.after_hold.val();
            }
            Seg::Data => {
                self.nxt.next = self.after_data.val();
            }
            Seg::CmdC => {
                self.nxt.next = self.after_plane.val();
            }
        }
        // The segment ends when its cycle count runs out (address: after its last latch).
        self.seg_done.next = (self.seg.q.val() != Seg::Idle) & self.c1.q.val();
        if self.seg.q.val() == Seg::Addr {
            self.seg_done.next = self.c1.q.val() & (self.acnt.q.val() == self.one3.val());
        }
        // A plane's final segment: read first / erase CmdB, read second / status Data, program
        // CmdC, cache step CmdC or (no 31h/3Fh) Data. `fin` holds it for the current segment
        // (the phase's flags are constant while it runs); `fin_next` for the one entered next.
        self.fin_next.next = ((self.nxt.val() == Seg::CmdB)
            & (self.is_rf.val() | self.is_er.val()))
            | ((self.nxt.val() == Seg::Data)
                & (self.is_rs.val() | self.is_st.val() | (self.is_cs.val() & !self.ccmd.q.val())))
            | ((self.nxt.val() == Seg::CmdC) & (self.is_pg.val() | self.is_cs.val()));
        self.is_final.next = self.fin.q.val();
        // `phase_end` is registered: `pe` is set when the *next* cycle is the phase's last, i.e.
        // (a) the final segment of the last plane continues and its count reaches 1 next cycle
        // (`cnt == 2`, the same compare that sets `c1`); (b) the segment ends now and the next one
        // is final with a count of 1 (the plane is unchanged: only entering CmdA advances it);
        // (c) a single-plane data-out phase of one cycle is loaded. Equal, cycle for cycle, to
        // `c1 & is_final & (lastp | is_st)` of the state it precedes.
        self.pe_next.next = self.is_final.val()
            & (self.lastp.q.val() | self.is_st.val())
            & (self.cnt.q.val() == self.two16.val());
        if self.seg_done.val() & (self.lastp.q.val() | self.is_st.val()) {
            if (self.nxt.val() == Seg::CmdB)
                & (self.is_rf.val() | self.is_er.val())
                & self.latch_1.val()
            {
                self.pe_next.next = true;
            }
            if (self.nxt.val() == Seg::CmdC)
                & (self.is_pg.val() | self.is_cs.val())
                & self.latch_1.val()
            {
                self.pe_next.next = true;
            }
        }
        if self.start.val()
            & (self.seg.q.val() == Seg::Idle)
            & self.start_final.val()
            & self.start_c1.val()
        {
            self.pe_next.next = true;
        }
        self.pe.d.next = self.pe_next.val();
        self.phase_end.next = self.pe.q.val();
        self.hold_is_1.next = (self.is_pg.val() & self.adl_1.val())
            | (self.is_rs.val() & self.ccs_1.val())
            | (self.is_st.val() & self.whr_1.val());
        self.busy.next = self.seg.q.val() != Seg::Idle;
        self.way.next = self.way_r.q.val();
        self.phase_second.next = self.second.q.val();
        self.phase_more.next = self.ccmd.q.val();
        // Counting within a segment.
        self.c1.d.next = false;
        if self.seg.q.val() != Seg::Idle {
            self.cnt.d.next = self.cnt.q.val() - self.one16.val();
            self.c1.d.next = self.cnt.q.val() == self.two16.val();
        }
        if (self.seg.q.val() == Seg::Addr) & self.c1.q.val() & !self.seg_done.val() {
            self.cnt.d.next = self.latch.val();
            self.c1.d.next = self.latch_1.val();
            self.acnt.d.next = self.acnt.q.val() - self.one3.val();
            self.aidx.d.next = self.aidx.q.val() + self.one3.val();
            if self.is_er.val() | (self.aidx.q.val() >= self.col_n.val()) {
                self.rsr.d.next = self.rsr.q.val() >> 8;
            } else {
                self.csr.d.next = self.csr.q.val() >> 8;
            }
        }
        // Entering the next segment.
        if self.seg_done.val() {
            self.seg.d.next = self.nxt.val();
            self.fin.d.next = self.fin_next.val();
            self.cnt.d.next = self.latch.val();
            self.c1.d.next = self.latch_1.val();
            if self.nxt.val() == Seg::Hold {
                self.cnt.d.next = self.hold_len.val();
                self.c1.d.next = self.hold_is_1.val();
            }
            if self.nxt.val() == Seg::Data {
                self.cnt.d.next = self.data_len.val();
                // A data out is at least preamble + 1 + postamble >= 2 cycles long.
                self.c1.d.next = self.is_pg.val() & (self.dcyc.q.val() == self.one16.val());
            }
            if self.nxt.val() == Seg::Idle {
                self.c1.d.next = false;
            }
            if self.nxt.val() == Seg::Addr {
                self.acnt.d.next = self.addr_len.val();
                self.aidx.d.next = self.zero3.val();
                self.rsr.d.next = self.row.q.val();
                self.csr.d.next = self.col.q.val();
            }
        }
        // Next plane: the plane's final segment ends and it is not the op's last plane (same as
        // `seg_done & nxt == CmdA`, without the segment-order muxes on the 34 enables).
        // A one-shot program's page ends at its last plane: the next page, from plane 0 at
        // the next row.
        if self.c1.q.val() & self.is_final.val() & !self.lastp.q.val() & !self.is_st.val() {
            self.lastp.d.next = ((self.plane.q.val() + self.one2.val()) == self.planes_m1.q.val())
                & (self.pg.q.val() == self.pages_m1.q.val());
            self.plast.d.next = (self.plane.q.val() + self.one2.val()) == self.planes_m1.q.val();
            self.plane.d.next = self.plane.q.val() + self.one2.val();
            self.row.d.next = self.row.q.val() + self.plane_stride.val();
            if self.plast.q.val() {
                self.lastp.d.next = (self.planes_m1.q.val() == self.zero2.val())
                    & ((self.pg.q.val() + self.one2.val()) == self.pages_m1.q.val());
                self.plast.d.next = self.planes_m1.q.val() == self.zero2.val();
                self.plane.d.next = self.zero2.val();
                self.pg.d.next = self.pg.q.val() + self.one2.val();
                self.row0.d.next = self.row0.q.val() + self.one32.val();
                self.row.d.next = self.row0.q.val() + self.one32.val();
            }
        }
        // Loading a new phase.
        if self.start.val() & (self.seg.q.val() == Seg::Idle) {
            self.way_r.d.next = self.start_way.val();
            self.second.d.next = self.start_second.val();
            self.kind.d.next = self.start_op.val().get_bits::<2>(0);
            self.planes_m1.d.next = self.start_op.val().get_bits::<2>(2);
            self.row.d.next = self.start_op.val().get_bits::<32>(4) & self.row_mask.val();
            self.row0.d.next = self.start_op.val().get_bits::<32>(4) & self.row_mask.val();
            self.pg.d.next = self.zero2.val();
            self.pages_m1.d.next = self.zero2.val();
            if self.start_op.val().get_bits::<2>(0) == self.k_prog.val() {
                self.pages_m1.d.next = self.start_op.val().get_bits::<2>(60);
            }
            self.plast.d.next = self.start_op.val().get_bits::<2>(2) == self.zero2.val();
            self.dcyc.d.next = self.start_op.val().get_bits::<16>(28);
            self.rtop.d.next = self.start_op.val().get_bits::<16>(28) + self.rd_tail.val();
            // Op bits 59:44 (the 32-bit part-select from bit 28 ends below the page bits).
            self.col.d.next = self.start_op.val().get_bits::<32>(28) >> 16;
            self.plane.d.next = self.k_read.val();
            self.ccmd.d.next = self.start_cc.val();
            self.f3.d.next = self.start_3f.val();
            self.fin.d.next = self.start_final.val();
            self.sus_r.d.next = self.start_sus.val();
            self.res_r.d.next = self.start_res.val();
            self.seg.d.next = Seg::CmdA;
            if self.start_cc.val() | self.start_sus.val() | self.start_res.val() {
                self.seg.d.next = Seg::CmdC;
            }
            if self.start_data.val() {
                self.seg.d.next = Seg::Data;
            }
            self.cnt.d.next = self.start_cnt.val();
            self.c1.d.next = self.start_c1.val();
            self.lastp.d.next = self.start_lastp.val();
        }
        // Command byte of the current latch.
        self.cmd_byte.next = self.op_70.val();
        if self.seg.q.val() == Seg::CmdA {
            if self.is_rf.val() {
                self.cmd_byte.next = self.op_00.val();
            }
            if self.is_rs.val() {
                self.cmd_byte.next = self.op_06.val();
            }
            if self.is_pg.val() {
                self.cmd_byte.next = self.op_80.val();
            }
            if self.is_er.val() {
                self.cmd_byte.next = self.op_60.val();
            }
        }
        if self.seg.q.val() == Seg::CmdB {
            self.cmd_byte.next = self.op_e0.val();
            if self.is_rf.val() {
                self.cmd_byte.next = self.op_32.val();
                if self.last_plane.val() {
                    self.cmd_byte.next = self.op_30.val();
                }
            }
            if self.is_er.val() {
                self.cmd_byte.next = self.op_d1.val();
                if self.last_plane.val() {
                    self.cmd_byte.next = self.op_d0.val();
                }
            }
        }
        if self.seg.q.val() == Seg::CmdC {
            self.cmd_byte.next = self.op_11.val();
            if self.plast.q.val() {
                self.cmd_byte.next = self.op_1a.val();
            }
            if self.last_plane.val() {
                self.cmd_byte.next = self.op_10.val();
            }
            if self.is_cs.val() {
                self.cmd_byte.next = self.op_31.val();
                if self.f3.q.val() {
                    self.cmd_byte.next = self.op_3f.val();
                }
            }
            if self.sus_r.q.val() {
                self.cmd_byte.next = self.op_sus.val();
            }
            if self.res_r.q.val() {
                self.cmd_byte.next = self.op_res.val();
            }
        }
        self.addr_byte.next = self.rsr.q.val() & self.byte_mask.val();
        if !self.is_er.val() & (self.aidx.q.val() < self.col_n.val()) {
            self.addr_byte.next = self.csr.q.val() & self.byte_mask.val();
        }
        // PHY-facing signals; R/B# and read data pass through.
        self.rb.next = self.phy.rb.val();
        self.rd_data.next = self.phy.dq_in.val();
        self.rd_valid.next = self.phy.dq_in_valid.val();
        self.phy.ce.next = self.zero_ce.val();
        if self.busy.val() {
            self.phy.ce.next = self.one_ce.val() << self.way_r.q.val();
        }
        self.phy.cle.next = (self.seg.q.val() == Seg::CmdA)
            | (self.seg.q.val() == Seg::CmdB)
            | (self.seg.q.val() == Seg::CmdC);
        self.phy.ale.next = self.seg.q.val() == Seg::Addr;
        self.phy.we.next =
            (self.phy.cle.val() | self.phy.ale.val()) & (self.cnt.q.val() == self.latch.val());
        self.phy.wr_beat.next = (self.seg.q.val() == Seg::Data) & self.is_pg.val();
        // Read beats: the data-out segment counts preamble + beats + postamble down to 1; the
        // beats are the counts above the postamble and at most beats + postamble (`rtop`; one
        // beat for a status read).
        self.rd_win.next =
            (self.cnt.q.val() > self.rd_tail.val()) & (self.cnt.q.val() <= self.rtop.q.val());
        if self.is_st.val() {
            self.rd_win.next = self.cnt.q.val() == self.st_top.val();
        }
        self.phy.rd_beat.next =
            (self.seg.q.val() == Seg::Data) & !self.is_pg.val() & self.rd_win.val();
        self.phy.dq_out.next = self.cmd_byte.val();
        if self.phy.ale.val() {
            self.phy.dq_out.next = self.addr_byte.val();
        }
        if self.seg.q.val() == Seg::Data {
            self.phy.dq_out.next = self.wr_data.val();
        }
        if self.seg.q.val() == Seg::Hold {
            self.phy.dq_out.next = self.op_00.val();
        }
    }
}
