//! Submission path: SQ tail doorbells, arbitration over the admin and 8 I/O submission queues
//! with unfetched entries (by the sibling [`super::arbiter`] on `arb_*`: round robin, or
//! weighted round robin with urgent class, NVM Express Base Specification 1.4, section 4.13;
//! a sibling, not a child, so Verilator sees no false loop through one always block), one
//! 64-byte memory read per
//! command with 4 tags in flight,
//! reassembly of the requester completions per tag, and hand-off of the 64 B command.
//! Commands the front end must reject are turned into completion requests here: an opcode the
//! queue type does not support gets Invalid Command Opcode (01h), PSDT ≠ 00b (SGL) gets Invalid
//! Field in Command (02h), section 4.6.1.2.1 Figure 126. A rejected command keeps its tag (its
//! buffer holds the CID) and joins a 4-entry FIFO of tag numbers; the completion path takes
//! the FIFO head with `rej_ready`, which frees the tag. So fetching goes on with the other
//! tags while rejections wait for a full CQ, and no rejection can be lost: the FIFO has a slot
//! per tag. A doorbell value beyond the queue size
//! or for a queue that does not exist is ignored and reported on `evt_*` (section 4.1, 5.2).
//!
//! Timing (mirrored by `FrontEndTiming::HDL` of the model): a doorbell strobe in cycle `c`
//! is seen by the arbiter in `c + 1`; arbitration in `t` offers the MRd to the requester mux in
//! `t + 1` (header on the RQ stream in `t + 2`) and the arbiter is free again the cycle after
//! the mux takes it; the last completion beat in cycle `x` frees its tag and presents the
//! command in `x + 1` (a rejection is at the FIFO output in `x + 1`; its tag is free in the
//! cycle after the completion path takes it).

use crate::pcie::words::{Index64, ReqDescWord};
use rust_hdl::prelude::*;

/// Fetch engine state.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum FetchState {
    Idle,
    Issue,
}

#[derive(LogicBlock)]
pub struct SubmissionPath {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// CSTS.RDY: fetch only while the controller is ready.
    pub rdy: Signal<In, Bit>,
    /// Load the admin SQ from `asq`/`asqs` (controller enabled).
    pub en_pulse: Signal<In, Bit>,
    /// Delete every SQ (controller reset).
    pub rst_pulse: Signal<In, Bit>,
    /// Admin SQ base, byte address.
    pub asq: Signal<In, Bits<64>>,
    /// Admin SQ entries minus one.
    pub asqs: Signal<In, Bits<16>>,
    /// Doorbell strobe from the register file.
    pub db_valid: Signal<In, Bit>,
    /// Doorbell is a CQ head doorbell (ignored here).
    pub db_cq: Signal<In, Bit>,
    /// Doorbell queue identifier.
    pub db_qid: Signal<In, Bits<4>>,
    /// New SQ tail (entry index).
    pub db_val: Signal<In, Bits<16>>,
    /// Queue configuration from the firmware (Create/Delete I/O SQ executed).
    pub qc_valid: Signal<In, Bit>,
    /// Configuration names an SQ (1) or a CQ (0).
    pub qc_sq: Signal<In, Bit>,
    /// Delete instead of create.
    pub qc_del: Signal<In, Bit>,
    /// Queue identifier 1..=8.
    pub qc_qid: Signal<In, Bits<4>>,
    /// Queue base, byte address (4 KiB aligned, physically contiguous).
    pub qc_base: Signal<In, Bits<64>>,
    /// Queue entries minus one.
    pub qc_size: Signal<In, Bits<16>>,
    /// To the arbiter: bit q set when SQ q exists and has an unfetched entry.
    pub arb_ready: Signal<Out, Bits<9>>,
    /// To the arbiter: the fetch engine can take a command this cycle (commit if found).
    pub arb_take: Signal<Out, Bit>,
    /// From the arbiter: some SQ is ready.
    pub arb_found: Signal<In, Bit>,
    /// From the arbiter: the SQ to fetch from.
    pub arb_pick: Signal<In, Bits<4>>,
    /// Hold arbitration (the next stage cannot take more commands).
    pub stall: Signal<In, Bit>,
    /// Fetch request offered to the requester mux.
    pub rq_valid: Signal<Out, Bit>,
    /// MRd descriptor (`pcie::tlp::ReqDesc`: 16 dwords, tag 0..3).
    pub rq_desc: Signal<Out, Bits<128>>,
    /// The mux took the request.
    pub rq_ready: Signal<In, Bit>,
    /// Requester completion beat (descriptor, then payload beats).
    pub rc_tdata: Signal<In, Bits<128>>,
    /// Requester completion beat valid (always accepted).
    pub rc_tvalid: Signal<In, Bit>,
    /// Last beat of the completion TLP.
    pub rc_tlast: Signal<In, Bit>,
    /// One cycle: a 64 B command is handed on.
    pub cmd_valid: Signal<Out, Bit>,
    /// SQ the command came from.
    pub cmd_sqid: Signal<Out, Bits<4>>,
    /// Command bytes 0..15 (CDW0 in bits 31:0).
    pub cmd_w0: Signal<Out, Bits<128>>,
    /// Command bytes 16..31.
    pub cmd_w1: Signal<Out, Bits<128>>,
    /// Command bytes 32..47.
    pub cmd_w2: Signal<Out, Bits<128>>,
    /// Command bytes 48..63.
    pub cmd_w3: Signal<Out, Bits<128>>,
    /// A rejected command waits (head of the rejection FIFO); complete it with `rej_status`.
    pub rej_valid: Signal<Out, Bit>,
    /// The completion path takes the head rejection this cycle (frees its tag).
    pub rej_ready: Signal<In, Bit>,
    /// SQ of the rejected command.
    pub rej_sqid: Signal<Out, Bits<4>>,
    /// CID of the rejected command.
    pub rej_cid: Signal<Out, Bits<16>>,
    /// Status field: SCT in bits 10:8, SC in bits 7:0.
    pub rej_status: Signal<Out, Bits<11>>,
    /// One cycle: SQ doorbell value beyond the queue size (AER info 01h).
    pub evt_bad_val: Signal<Out, Bit>,
    /// One cycle: SQ doorbell of a queue that does not exist (AER info 00h).
    pub evt_bad_q: Signal<Out, Bit>,
    /// SQ whose head the completion path asks for.
    pub hd_sel: Signal<In, Bits<4>>,
    /// Head (next entry to fetch) of SQ `hd_sel`, for CQE.SQHD.
    pub hd_val: Signal<Out, Bits<16>>,
    base: [DFF<Bits<64>>; 9],
    size: [DFF<Bits<16>>; 9],
    head: [DFF<Bits<16>>; 9],
    tail: [DFF<Bits<16>>; 9],
    live: [DFF<Bit>; 9],
    busy: [DFF<Bit>; 4],
    tqid: [DFF<Bits<4>>; 4],
    beat: [DFF<Bits<2>>; 4],
    buf: [DFF<Bits<128>>; 12],
    st: DFF<FetchState>,
    rdy9: Signal<Local, Bits<9>>,
    kbit: [Constant<Bits<9>>; 9],
    zero9: Constant<Bits<9>>,
    req_addr: DFF<Bits<64>>,
    req_tag: DFF<Bits<8>>,
    rx_in: DFF<Bit>,
    rx_tag: DFF<Bits<8>>,
    cv: DFF<Bit>,
    cq: DFF<Bits<4>>,
    c0: DFF<Bits<128>>,
    c1: DFF<Bits<128>>,
    c2: DFF<Bits<128>>,
    c3: DFF<Bits<128>>,
    trej: [DFF<Bit>; 4],
    tcode: [DFF<Bit>; 4],
    rfifo: [DFF<Bits<2>>; 4],
    rrd: DFF<Bits<2>>,
    rwr: DFF<Bits<2>>,
    rcnt: DFF<Bits<3>>,
    rhead: Signal<Local, Bits<2>>,
    rfield: Signal<Local, Bit>,
    rbad: Signal<Local, Bit>,
    rpop: Signal<Local, Bit>,
    pick: Signal<Local, Bits<4>>,
    pbase: Signal<Local, Bits<64>>,
    phead: Signal<Local, Bits<16>>,
    found: Signal<Local, Bit>,
    ftag: Signal<Local, Bits<8>>,
    hidx: Signal<Local, Index64>,
    hoff: Signal<Local, Bits<64>>,
    desc: Signal<Local, ReqDescWord>,
    tag_ok: Signal<Local, Bit>,
    done_t: Signal<Local, Bits<8>>,
    done: Signal<Local, Bit>,
    opc: Signal<Local, Bits<8>>,
    known: Signal<Local, Bit>,
    kq: [Constant<Bits<4>>; 9],
    kt: [Constant<Bits<8>>; 4],
    kb: [Constant<Bits<2>>; 4],
    one3: Constant<Bits<3>>,
    zero3: Constant<Bits<3>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    one2: Constant<Bits<2>>,
    three2: Constant<Bits<2>>,
    zero2: Constant<Bits<2>>,
    desc_mrd64: Constant<ReqDescWord>,
    idx_zero: Constant<Index64>,
    op00: Constant<Bits<8>>,
    op01: Constant<Bits<8>>,
    op02: Constant<Bits<8>>,
    op04: Constant<Bits<8>>,
    op05: Constant<Bits<8>>,
    op06: Constant<Bits<8>>,
    op0c: Constant<Bits<8>>,
    st_opcode: Constant<Bits<11>>,
    st_field: Constant<Bits<11>>,
}

impl Default for SubmissionPath {
    fn default() -> Self {
        use crate::pcie::tlp::REQ_MRD;
        use ssdlab_model::nvme::frontend::entry::{opc, Status};
        let mut desc = ReqDescWord::default();
        desc.dwords = bits::<11>(16);
        desc.req_type = bits::<4>(REQ_MRD as u64);
        let k8 = |v: u8| Constant::new(bits::<8>(v as u64));
        SubmissionPath {
            clock: Default::default(),
            rdy: Default::default(),
            en_pulse: Default::default(),
            rst_pulse: Default::default(),
            asq: Default::default(),
            asqs: Default::default(),
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
            arb_ready: Default::default(),
            arb_take: Default::default(),
            arb_found: Default::default(),
            arb_pick: Default::default(),
            stall: Default::default(),
            rq_valid: Default::default(),
            rq_desc: Default::default(),
            rq_ready: Default::default(),
            rc_tdata: Default::default(),
            rc_tvalid: Default::default(),
            rc_tlast: Default::default(),
            cmd_valid: Default::default(),
            cmd_sqid: Default::default(),
            cmd_w0: Default::default(),
            cmd_w1: Default::default(),
            cmd_w2: Default::default(),
            cmd_w3: Default::default(),
            rej_valid: Default::default(),
            rej_ready: Default::default(),
            rej_sqid: Default::default(),
            rej_cid: Default::default(),
            rej_status: Default::default(),
            evt_bad_val: Default::default(),
            evt_bad_q: Default::default(),
            hd_sel: Default::default(),
            hd_val: Default::default(),
            base: std::array::from_fn(|_| Default::default()),
            size: std::array::from_fn(|_| Default::default()),
            head: std::array::from_fn(|_| Default::default()),
            tail: std::array::from_fn(|_| Default::default()),
            live: std::array::from_fn(|_| Default::default()),
            busy: std::array::from_fn(|_| Default::default()),
            tqid: std::array::from_fn(|_| Default::default()),
            beat: std::array::from_fn(|_| Default::default()),
            buf: std::array::from_fn(|_| Default::default()),
            st: Default::default(),
            rdy9: Default::default(),
            kbit: std::array::from_fn(|i| Constant::new(bits::<9>(1 << i))),
            zero9: Constant::new(bits::<9>(0)),
            req_addr: Default::default(),
            req_tag: Default::default(),
            rx_in: Default::default(),
            rx_tag: Default::default(),
            cv: Default::default(),
            cq: Default::default(),
            c0: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            c3: Default::default(),
            trej: std::array::from_fn(|_| Default::default()),
            tcode: std::array::from_fn(|_| Default::default()),
            rfifo: std::array::from_fn(|_| Default::default()),
            rrd: Default::default(),
            rwr: Default::default(),
            rcnt: Default::default(),
            rhead: Default::default(),
            rfield: Default::default(),
            rbad: Default::default(),
            rpop: Default::default(),
            pick: Default::default(),
            pbase: Default::default(),
            phead: Default::default(),
            found: Default::default(),
            ftag: Default::default(),
            hidx: Default::default(),
            hoff: Default::default(),
            desc: Default::default(),
            tag_ok: Default::default(),
            done_t: Default::default(),
            done: Default::default(),
            opc: Default::default(),
            known: Default::default(),
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
            idx_zero: Constant::new(Index64::default()),
            op00: k8(opc::ADMIN_DELETE_IO_SQ),
            op01: k8(opc::ADMIN_CREATE_IO_SQ),
            op02: k8(opc::NVM_READ),
            op04: k8(opc::ADMIN_DELETE_IO_CQ),
            op05: k8(opc::ADMIN_CREATE_IO_CQ),
            op06: k8(opc::ADMIN_IDENTIFY),
            op0c: k8(opc::ADMIN_ASYNC_EVENT),
            st_opcode: Constant::new(bits::<11>(Status::INVALID_OPCODE.field() as u64)),
            st_field: Constant::new(bits::<11>(Status::INVALID_FIELD.field() as u64)),
        }
    }
}

impl Logic for SubmissionPath {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st, req_addr, req_tag, rx_in, rx_tag, cv, cq, c0, c1, c2, c3, rrd, rwr, rcnt);
        for i in 0..9 {
            self.base[i].clock.next = self.clock.val();
            self.size[i].clock.next = self.clock.val();
            self.head[i].clock.next = self.clock.val();
            self.tail[i].clock.next = self.clock.val();
            self.live[i].clock.next = self.clock.val();
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
        // Arbitration (round robin or weighted round robin: `super::arbiter::SqArbiter`, a
        // sibling block in the front end).
        self.rdy9.next = self.zero9.val();
        for i in 0..9 {
            if self.live[i].q.val() & (self.head[i].q.val() != self.tail[i].q.val()) {
                self.rdy9.next = self.rdy9.val() | self.kbit[i].val();
            }
        }
        self.arb_ready.next = self.rdy9.val();
        self.found.next = self.arb_found.val();
        self.pick.next = self.arb_pick.val();
        self.pbase.next = self.base[0].q.val();
        self.phead.next = self.head[0].q.val();
        for i in 0..9 {
            if self.pick.val() == self.kq[i].val() {
                self.pbase.next = self.base[i].q.val();
                self.phead.next = self.head[i].q.val();
            }
        }
        self.hidx.next = self.idx_zero.val();
        self.hidx.next.idx = self.phead.val();
        self.hoff.next = self.hidx.val().into();
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
        self.arb_take.next = (self.st.q.val() == FetchState::Idle) & self.rdy.val() & !self.stall.val() & self.tag_ok.val();
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
                    self.req_addr.d.next = self.pbase.val() + (self.hoff.val() << 6);
                    for i in 0..9 {
                        if self.pick.val() == self.kq[i].val() {
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
                        if self.beat[t].q.val() == self.three2.val() {
                            self.done.next = true;
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
                        | (self.opc.val() == self.op02.val());
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
        self.cv.d.next = self.done.val() & self.rdy.val() & self.known.val() & !self.rfield.val();
        self.rbad.next = self.done.val() & self.rdy.val() & (!self.known.val() | self.rfield.val());
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
                }
            }
        }
        if self.en_pulse.val() {
            self.live[0].d.next = true;
            self.base[0].d.next = self.asq.val();
            self.size[0].d.next = self.asqs.val();
            self.head[0].d.next = self.zero16.val();
            self.tail[0].d.next = self.zero16.val();
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

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog() -> String {
        crate::verilog_of(SubmissionPath::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submission_path_is_synthesizable() {
        yosys_validate("ssdlab_sq_fetch", &export_verilog()).unwrap();
    }
}
