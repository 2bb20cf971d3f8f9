//! Kernel of the submission path [`SubmissionPath`]: per-SQ state (base, size, head, tail)
//! loaded by the admin-queue enable and Create/Delete I/O SQ, SQ tail doorbells (range-checked,
//! bad ones reported on `evt_*`; NVM Express Base Specification 1.4, sections 4.1 and 5.2), the
//! arbitration request to the sibling arbiter, the MRd issue with 4 tags, reassembly of requester
//! completions per tag, command validation into the rejection FIFO, and the command hand-off.
//! rust_hdl turns one `#[hdl_gen]` function into one always block, so the kernel stays one
//! function: splitting it would change the generated Verilog.

use super::*;

impl Logic for SubmissionPath {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, st, req_addr, req_tag, rx_in, rx_tag, cv, cq, c0, c1, c2, c3, rrd, rwr,
            rcnt
        );
        for i in 0..9 {
            self.base[i].clock.next = self.clock.val();
            self.size[i].clock.next = self.clock.val();
            self.head[i].clock.next = self.clock.val();
            self.tail[i].clock.next = self.clock.val();
            self.live[i].clock.next = self.clock.val();
            self.faddr[i].clock.next = self.clock.val();
            self.nonempty[i].clock.next = self.clock.val();
            self.fadv[i].clock.next = self.clock.val();
            self.fwrap[i].clock.next = self.clock.val();
            // The pick of last cycle moves the SQ's entry address now (an `Issue` cycle: no
            // pick reads it); a queue configuration below overrides it.
            self.fadv[i].d.next = false;
            self.fwrap[i].d.next = self.head[i].q.val() == self.size[i].q.val();
            self.faddr[i].d.next = self.faddr[i].q.val();
            if self.fadv[i].q.val() {
                if self.fwrap[i].q.val() {
                    self.faddr[i].d.next = self.base[i].q.val();
                } else {
                    self.faddr[i].d.next = self.faddr[i].q.val() + self.sqe64.val();
                }
            }
            self.base[i].d.next = self.base[i].q.val();
            self.size[i].d.next = self.size[i].q.val();
            self.head[i].d.next = self.head[i].q.val();
            self.tail[i].d.next = self.tail[i].q.val();
            self.live[i].d.next = self.live[i].q.val();
        }
        for t in 0..4 {
            self.busy[t].clock.next = self.clock.val();
            self.tqid[t].clock.next = self.clock.val();
            self.beat[t].clock.next = self.clock.val();
            self.busy[t].d.next = self.busy[t].q.val();
            self.tdsc[t].clock.next = self.clock.val();
            self.tdsc[t].d.next = self.tdsc[t].q.val();
            self.tqid[t].d.next = self.tqid[t].q.val();
            self.beat[t].d.next = self.beat[t].q.val();
            self.trej[t].clock.next = self.clock.val();
            self.tcode[t].clock.next = self.clock.val();
            self.rfifo[t].clock.next = self.clock.val();
            self.trej[t].d.next = self.trej[t].q.val();
            self.tcode[t].d.next = self.tcode[t].q.val();
            self.rfifo[t].d.next = self.rfifo[t].q.val();
        }
        for b in 0..12 {
            self.buf[b].clock.next = self.clock.val();
            self.buf[b].d.next = self.buf[b].q.val();
        }
        // Arbitration (round robin or weighted round robin: `crate::nvme::arbiter::SqArbiter`, a
        // sibling block in the front end).
        // Ready SQs from registers: `nonempty` compares the head register with the tail as
        // written this cycle (`tail.d`: a doorbell is seen when it would have been). Its head
        // is a cycle old only in the cycle after an arbitration moved it, an `Issue` cycle,
        // in which nothing arbitrates; queue configuration clears it (head = tail = 0).
        self.rdy9.next = self.zero9.val();
        for i in 0..9 {
            if self.live[i].q.val() & self.nonempty[i].q.val() {
                self.rdy9.next = self.rdy9.val() | self.kbit[i].val();
            }
        }
        self.arb_ready.next = self.rdy9.val();
        self.found.next = self.arb_found.val();
        self.pick.next = self.arb_pick.val();
        // The picked SQ's head entry address, kept per SQ as base + 64 x head (`faddr`), so
        // no adder follows the arbitration.
        self.paddr.next = self.faddr[0].q.val();
        for i in 0..9 {
            if self.pick.val() == self.kq[i].val() {
                self.paddr.next = self.faddr[i].q.val();
            }
        }
        self.tag_ok.next = false;
        self.ftag.next = self.kt[0].val();
        for j in 0..4 {
            if !self.busy[3 - j].q.val() {
                self.tag_ok.next = true;
                self.ftag.next = self.kt[3 - j].val();
            }
        }
        // The arbiter commits its pick when it has one (`take` does not look at `found`, so no
        // combinational path runs from the arbiter's outputs back into it).
        self.arb_take.next = (self.st.q.val() == FetchState::Idle)
            & self.rdy.val()
            & !self.stall.val()
            & self.tag_ok.val();
        self.desc.next = self.desc_mrd64.val();
        self.desc.next.addr = self.req_addr.q.val();
        self.desc.next.tag = self.req_tag.q.val();
        self.rq_valid.next = false;
        self.rq_desc.next = self.desc.val().into();
        match self.st.q.val() {
            FetchState::Idle => {
                if self.rdy.val() & !self.stall.val() & self.found.val() & self.tag_ok.val() {
                    self.st.d.next = FetchState::Issue;
                    self.req_tag.d.next = self.ftag.val();
                    self.req_addr.d.next = self.paddr.val();
                    for i in 0..9 {
                        if self.pick.val() == self.kq[i].val() {
                            self.fadv[i].d.next = true;
                            if self.head[i].q.val() == self.size[i].q.val() {
                                self.head[i].d.next = self.zero16.val();
                            } else {
                                self.head[i].d.next = self.head[i].q.val() + self.one16.val();
                            }
                        }
                    }
                    for t in 0..4 {
                        if self.ftag.val() == self.kt[t].val() {
                            self.busy[t].d.next = true;
                            self.tdsc[t].d.next = false;
                            self.tqid[t].d.next = self.pick.val();
                            self.beat[t].d.next = self.zero2.val();
                        }
                    }
                }
            }
            FetchState::Issue => {
                self.rq_valid.next = true;
                if self.rq_ready.val() {
                    self.st.d.next = FetchState::Idle;
                }
            }
            _ => {
                self.st.d.next = FetchState::Idle;
            }
        }
        // Requester completions: descriptor beat names the tag; payload beats fill its buffer.
        self.done.next = false;
        self.dropc.next = false;
        self.done_t.next = self.kt[0].val();
        self.opc.next = self.buf[0].q.val().get_bits::<8>(0);
        if self.rc_tvalid.val() {
            if !self.rx_in.q.val() {
                self.rx_tag.d.next = self.rc_tdata.val().get_bits::<8>(64);
                self.rx_in.d.next = !self.rc_tlast.val();
            } else {
                if self.rc_tlast.val() {
                    self.rx_in.d.next = false;
                }
                for t in 0..4 {
                    if self.rx_tag.q.val() == self.kt[t].val() {
                        for b in 0..3 {
                            if self.beat[t].q.val() == self.kb[b].val() {
                                self.buf[t * 3 + b].d.next = self.rc_tdata.val();
                            }
                        }
                        self.beat[t].d.next = self.beat[t].q.val() + self.one2.val();
                        if self.rc_tlast.val() & self.rc_discontinue.val() {
                            self.tdsc[t].d.next = true;
                        }
                        if self.beat[t].q.val() == self.three2.val() {
                            self.done.next = true;
                            self.dropc.next = self.tdsc[t].q.val()
                                | (self.rc_tlast.val() & self.rc_discontinue.val());
                            self.done_t.next = self.kt[t].val();
                            self.busy[t].d.next = false;
                            self.c0.d.next = self.buf[t * 3].q.val();
                            self.c1.d.next = self.buf[t * 3 + 1].q.val();
                            self.c2.d.next = self.buf[t * 3 + 2].q.val();
                            self.c3.d.next = self.rc_tdata.val();
                            self.cq.d.next = self.tqid[t].q.val();
                            self.opc.next = self.buf[t * 3].q.val().get_bits::<8>(0);
                        }
                    }
                }
            }
        }
        // Screening (Figure 126): opcode known for the queue type, PSDT = 00b.
        self.known.next = false;
        for t in 0..4 {
            if self.done_t.val() == self.kt[t].val() {
                if self.tqid[t].q.val() == self.kq[0].val() {
                    self.known.next = (self.opc.val() == self.op00.val())
                        | (self.opc.val() == self.op01.val())
                        | (self.opc.val() == self.op04.val())
                        | (self.opc.val() == self.op05.val())
                        | (self.opc.val() == self.op06.val())
                        | (self.opc.val() == self.op0c.val());
                } else {
                    self.known.next = (self.opc.val() == self.op00.val())
                        | (self.opc.val() == self.op01.val())
                        | (self.opc.val() == self.op02.val())
                        | (self.opc.val() == self.op09.val());
                }
            }
        }
        // PSDT (CDW0 bits 15:14) must be 00b: SGLs are not supported.
        self.rfield.next = false;
        for t in 0..4 {
            if self.done_t.val() == self.kt[t].val() {
                self.rfield.next = self.buf[t * 3].q.val().get_bits::<2>(14) != self.zero2.val();
            }
        }
        self.cv.d.next = self.done.val()
            & self.rdy.val()
            & !self.dropc.val()
            & self.known.val()
            & !self.rfield.val();
        self.rbad.next = self.done.val()
            & self.rdy.val()
            & !self.dropc.val()
            & (!self.known.val() | self.rfield.val());
        // Rejection FIFO of tag numbers: push the rejected tag (it stays busy), pop on ready.
        self.rhead.next = self.rfifo[0].q.val();
        for t in 0..4 {
            if self.rrd.q.val() == self.kb[t].val() {
                self.rhead.next = self.rfifo[t].q.val();
            }
        }
        self.rej_valid.next = self.rcnt.q.val() != self.zero3.val();
        self.rpop.next = (self.rcnt.q.val() != self.zero3.val()) & self.rej_ready.val();
        self.rej_sqid.next = self.tqid[0].q.val();
        self.rej_cid.next = self.buf[0].q.val().get_bits::<16>(16);
        self.rej_status.next = self.st_opcode.val();
        for t in 0..4 {
            if self.rhead.val() == self.kb[t].val() {
                self.rej_sqid.next = self.tqid[t].q.val();
                self.rej_cid.next = self.buf[t * 3].q.val().get_bits::<16>(16);
                if self.tcode[t].q.val() {
                    self.rej_status.next = self.st_field.val();
                }
                if self.rpop.val() {
                    self.busy[t].d.next = false;
                    self.trej[t].d.next = false;
                }
            }
        }
        if self.rpop.val() {
            self.rrd.d.next = self.rrd.q.val() + self.one2.val();
        }
        if self.rbad.val() {
            for t in 0..4 {
                if self.done_t.val() == self.kt[t].val() {
                    self.busy[t].d.next = true;
                    self.trej[t].d.next = true;
                    self.tcode[t].d.next = self.known.val();
                }
                if self.rwr.q.val() == self.kb[t].val() {
                    self.rfifo[t].d.next = self.done_t.val().get_bits::<2>(0);
                }
            }
            self.rwr.d.next = self.rwr.q.val() + self.one2.val();
        }
        if self.rbad.val() & !self.rpop.val() {
            self.rcnt.d.next = self.rcnt.q.val() + self.one3.val();
        }
        if !self.rbad.val() & self.rpop.val() {
            self.rcnt.d.next = self.rcnt.q.val() - self.one3.val();
        }
        // SQ tail doorbells.
        self.evt_bad_val.next = false;
        self.evt_bad_q.next = false;
        if self.db_valid.val() & !self.db_cq.val() {
            for i in 0..9 {
                if self.db_qid.val() == self.kq[i].val() {
                    if !self.live[i].q.val() {
                        self.evt_bad_q.next = true;
                    } else if self.db_val.val() > self.size[i].q.val() {
                        self.evt_bad_val.next = true;
                    } else {
                        self.tail[i].d.next = self.db_val.val();
                    }
                }
            }
        }
        // Queue configuration and controller enable/reset.
        if self.qc_valid.val() & self.qc_sq.val() {
            for i in 1..9 {
                if self.qc_qid.val() == self.kq[i].val() {
                    self.live[i].d.next = !self.qc_del.val();
                    self.base[i].d.next = self.qc_base.val();
                    self.size[i].d.next = self.qc_size.val();
                    self.head[i].d.next = self.zero16.val();
                    self.tail[i].d.next = self.zero16.val();
                    self.faddr[i].d.next = self.qc_base.val();
                    self.fadv[i].d.next = false;
                }
            }
        }
        if self.en_pulse.val() {
            self.live[0].d.next = true;
            self.base[0].d.next = self.asq.val();
            self.size[0].d.next = self.asqs.val();
            self.head[0].d.next = self.zero16.val();
            self.tail[0].d.next = self.zero16.val();
            self.faddr[0].d.next = self.asq.val();
            self.fadv[0].d.next = false;
        }
        // After every writer of `tail.d`: whether each SQ has an entry (see `rdy9` above).
        for i in 0..9 {
            self.nonempty[i].d.next = self.head[i].q.val() != self.tail[i].d.val();
            if self.qc_valid.val() & self.qc_sq.val() & (self.qc_qid.val() == self.kq[i].val()) {
                self.nonempty[i].d.next = false;
            }
        }
        if self.en_pulse.val() {
            self.nonempty[0].d.next = false;
        }
        if self.rst_pulse.val() {
            for i in 0..9 {
                self.live[i].d.next = false;
            }
            // Controller reset: waiting rejections are dropped (no CQ to post them to).
            for t in 0..4 {
                if self.trej[t].q.val() {
                    self.busy[t].d.next = false;
                    self.trej[t].d.next = false;
                }
            }
            self.rcnt.d.next = self.zero3.val();
            self.rrd.d.next = self.zero2.val();
            self.rwr.d.next = self.zero2.val();
        }
        self.hd_val.next = self.zero16.val();
        for i in 0..9 {
            if self.hd_sel.val() == self.kq[i].val() {
                self.hd_val.next = self.head[i].q.val();
            }
        }
        self.cmd_valid.next = self.cv.q.val();
        self.cmd_sqid.next = self.cq.q.val();
        self.cmd_w0.next = self.c0.q.val();
        self.cmd_w1.next = self.c1.q.val();
        self.cmd_w2.next = self.c2.q.val();
        self.cmd_w3.next = self.c3.q.val();
    }
}
