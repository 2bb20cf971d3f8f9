//! Bus engine of one channel: executes one bus phase of a page operation for the way the arbiter
//! granted, as a sequence of ONFI bus primitives — command latch (CLE), address latch (ALE),
//! held wait (tADL/tCCS/tWHR), data in, data out — and drives the PHY-facing signals.
//! Every phase follows one template per plane: `[CMD a] [ADDR k] [CMD b] [HOLD h] [DATA d] [CMD c]`
//! with absent parts skipped; a single-plane read's data out is the template's DATA alone; a
//! cache read's steps (op kind 3, second half) are `[CMD c = 31h]`, `[DATA d][CMD c = 31h/3Fh]`
//! or `[DATA d]`, loaded at CMD c or DATA
//! (ONFI 4.1 section 5 command sequences; see
//! `ssdlab_model::nand::sequencer::SeqTiming::trace_phase`, which the model uses for the same
//! sequence). The serializer and IO cells behind the PHY boundary are out of scope.

// Field offsets are literals in the kernels (rust_hdl emits named constants in part-selects
// as undeclared identifiers); `op::tests` pins them to the `op` constants.
use crate::nand::op::ENGINE_OP_BITS;
use crate::nand::phy::NandPhy;
use crate::nand::timing::HdlTiming;
use rust_hdl::prelude::*;

/// Bus primitive the engine is executing.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum Seg {
    Idle,
    CmdA,
    Addr,
    CmdB,
    Hold,
    Data,
    CmdC,
}

#[derive(LogicBlock)]
pub struct BusEngine {
    /// Sequencer clock (the PHY boundary runs at this rate).
    pub clock: Signal<In, Clock>,
    /// Start a phase: sampled at the clock edge; the phase's first bus cycle is the next cycle.
    pub start: Signal<In, Bit>,
    /// Way (chip enable index) of the phase to start.
    pub start_way: Signal<In, Bits<2>>,
    /// 0: first phase (command/address/data in); 1: second phase (data out or status read).
    pub start_second: Signal<In, Bit>,
    /// Packed op word (see `nand::op`) of the phase to start.
    pub start_op: Signal<In, Bits<ENGINE_OP_BITS>>,
    /// Precomputed by the way FSM for this start: begin with data (single-plane read out).
    pub start_data: Signal<In, Bit>,
    /// Cycle count of the first segment.
    pub start_cnt: Signal<In, Bits<16>>,
    /// `start_cnt == 1`.
    pub start_c1: Signal<In, Bit>,
    /// The op has one plane.
    pub start_lastp: Signal<In, Bit>,
    /// Cache read step: the phase has a 31h/3Fh latch (CMD c; alone, or after the data).
    pub start_cc: Signal<In, Bit>,
    /// That latch is 3Fh (read cache end), not 31h.
    pub start_3f: Signal<In, Bit>,
    /// The phase's first segment is its last (single-plane data out, lone 31h, last page out).
    pub start_final: Signal<In, Bit>,
    /// Program data from the write buffer, 4 bytes (byte 0 in bits 7:0); consumed on `wr_beat`.
    pub wr_data: Signal<In, Bits<32>>,
    /// A phase is on the bus this cycle.
    pub busy: Signal<Out, Bit>,
    /// This is the last cycle of the phase.
    pub phase_end: Signal<Out, Bit>,
    /// Way owning the bus (valid while `busy`).
    pub way: Signal<Out, Bits<2>>,
    /// The phase on the bus is a second phase (data out / status / cache step).
    pub phase_second: Signal<Out, Bit>,
    /// The phase on the bus is a cache step with a 31h/3Fh latch: its op continues after it.
    pub phase_more: Signal<Out, Bit>,
    /// The PHY boundary (CE, CLE, ALE, WE, DQ out, data beats; R/B# and DQ in pass through to
    /// `rb` and `rd_data`/`rd_valid`).
    pub phy: NandPhy,
    /// R/B# per way from the PHY (1 = ready), to the way FSMs.
    pub rb: Signal<Out, Bits<4>>,
    /// Read data from the PHY, to the controller's buffer.
    pub rd_data: Signal<Out, Bits<32>>,
    /// `rd_data` holds a read beat.
    pub rd_valid: Signal<Out, Bit>,
    latch: Constant<Bits<16>>,
    t_adl: Constant<Bits<16>>,
    t_ccs: Constant<Bits<16>>,
    t_whr: Constant<Bits<16>>,
    addr_n: Constant<Bits<3>>,
    row_n: Constant<Bits<3>>,
    col_n: Constant<Bits<3>>,
    plane_stride: Constant<Bits<32>>,
    row_mask: Constant<Bits<32>>,
    byte_mask: Constant<Bits<32>>,
    has_adl: Constant<Bit>,
    has_ccs: Constant<Bit>,
    has_whr: Constant<Bit>,
    latch_1: Constant<Bit>,
    adl_1: Constant<Bit>,
    ccs_1: Constant<Bit>,
    whr_1: Constant<Bit>,
    two16: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    one3: Constant<Bits<3>>,
    one2: Constant<Bits<2>>,
    one4: Constant<Bits<4>>,
    zero4: Constant<Bits<4>>,
    zero16: Constant<Bits<16>>,
    zero3: Constant<Bits<3>>,
    k_read: Constant<Bits<2>>,
    k_prog: Constant<Bits<2>>,
    k_erase: Constant<Bits<2>>,
    k_cache: Constant<Bits<2>>,
    op_31: Constant<Bits<32>>,
    op_3f: Constant<Bits<32>>,
    op_00: Constant<Bits<32>>,
    op_06: Constant<Bits<32>>,
    op_10: Constant<Bits<32>>,
    op_11: Constant<Bits<32>>,
    op_30: Constant<Bits<32>>,
    op_32: Constant<Bits<32>>,
    op_60: Constant<Bits<32>>,
    op_70: Constant<Bits<32>>,
    op_80: Constant<Bits<32>>,
    op_d0: Constant<Bits<32>>,
    op_d1: Constant<Bits<32>>,
    op_e0: Constant<Bits<32>>,
    seg: DFF<Seg>,
    cnt: DFF<Bits<16>>,
    acnt: DFF<Bits<3>>,
    aidx: DFF<Bits<3>>,
    plane: DFF<Bits<2>>,
    way_r: DFF<Bits<2>>,
    second: DFF<Bit>,
    kind: DFF<Bits<2>>,
    planes_m1: DFF<Bits<2>>,
    row: DFF<Bits<32>>,
    rsr: DFF<Bits<32>>,
    dcyc: DFF<Bits<16>>,
    /// Registered `cnt == 1`: the current segment's last cycle (keeps compares off the paths).
    c1: DFF<Bit>,
    /// Registered "the current plane is the op's last".
    lastp: DFF<Bit>,
    /// Registered `phase_end`: set one cycle early from the segment state (lookahead), so the
    /// way FSMs' enables start at a flip-flop instead of behind the segment decode.
    pe: DFF<Bit>,
    /// Cache step with a 31h/3Fh latch / that latch is 3Fh.
    ccmd: DFF<Bit>,
    f3: DFF<Bit>,
    is_cs: Signal<Local, Bit>,
    is_rf: Signal<Local, Bit>,
    is_rs: Signal<Local, Bit>,
    is_pg: Signal<Local, Bit>,
    is_er: Signal<Local, Bit>,
    is_st: Signal<Local, Bit>,
    last_plane: Signal<Local, Bit>,
    hold_len: Signal<Local, Bits<16>>,
    data_len: Signal<Local, Bits<16>>,
    addr_len: Signal<Local, Bits<3>>,
    after_plane: Signal<Local, Seg>,
    after_data: Signal<Local, Seg>,
    after_hold: Signal<Local, Seg>,
    after_b: Signal<Local, Seg>,
    after_addr: Signal<Local, Seg>,
    after_a: Signal<Local, Seg>,
    nxt: Signal<Local, Seg>,
    seg_done: Signal<Local, Bit>,
    is_final: Signal<Local, Bit>,
    /// Registered "the current segment is the plane's final one" (`is_final`), set on entering
    /// each segment: keeps the segment decode off the plane-advance and `pe` paths.
    fin: DFF<Bit>,
    fin_next: Signal<Local, Bit>,
    pe_next: Signal<Local, Bit>,
    hold_is_1: Signal<Local, Bit>,
    cmd_byte: Signal<Local, Bits<32>>,
    addr_byte: Signal<Local, Bits<32>>,
}

impl BusEngine {
    pub fn new(t: &HdlTiming) -> Self {
        let c16 = |v: u32| Constant::new(bits::<16>(v as u64));
        let c8 = |v: u8| Constant::new(bits::<32>(v as u64));
        BusEngine {
            clock: Default::default(),
            start: Default::default(),
            start_way: Default::default(),
            start_second: Default::default(),
            start_op: Default::default(),
            start_data: Default::default(),
            start_cnt: Default::default(),
            start_c1: Default::default(),
            start_lastp: Default::default(),
            start_cc: Default::default(),
            start_3f: Default::default(),
            start_final: Default::default(),
            wr_data: Default::default(),
            busy: Default::default(),
            phase_end: Default::default(),
            way: Default::default(),
            phase_second: Default::default(),
            phase_more: Default::default(),
            phy: Default::default(),
            rb: Default::default(),
            rd_data: Default::default(),
            rd_valid: Default::default(),
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
            adl_1: Constant::new(t.seq.t_adl == 1),
            ccs_1: Constant::new(t.seq.t_ccs == 1),
            whr_1: Constant::new(t.seq.t_whr == 1),
            two16: c16(2),
            one16: c16(1),
            one3: Constant::new(bits::<3>(1u64)),
            one2: Constant::new(bits::<2>(1u64)),
            one4: Constant::new(bits::<4>(1u64)),
            zero4: Constant::new(bits::<4>(0u64)),
            zero16: c16(0),
            zero3: Constant::new(bits::<3>(0u64)),
            k_read: Constant::new(bits::<2>(0u64)),
            k_prog: Constant::new(bits::<2>(1u64)),
            k_erase: Constant::new(bits::<2>(2u64)),
            k_cache: Constant::new(bits::<2>(3u64)),
            op_31: c8(0x31),
            op_3f: c8(0x3F),
            op_00: c8(0x00),
            op_06: c8(0x06),
            op_10: c8(0x10),
            op_11: c8(0x11),
            op_30: c8(0x30),
            op_32: c8(0x32),
            op_60: c8(0x60),
            op_70: c8(0x70),
            op_80: c8(0x80),
            op_d0: c8(0xD0),
            op_d1: c8(0xD1),
            op_e0: c8(0xE0),
            seg: Default::default(),
            cnt: Default::default(),
            acnt: Default::default(),
            aidx: Default::default(),
            plane: Default::default(),
            way_r: Default::default(),
            second: Default::default(),
            kind: Default::default(),
            planes_m1: Default::default(),
            row: Default::default(),
            rsr: Default::default(),
            dcyc: Default::default(),
            c1: Default::default(),
            lastp: Default::default(),
            pe: Default::default(),
            ccmd: Default::default(),
            f3: Default::default(),
            is_cs: Default::default(),
            is_rf: Default::default(),
            is_rs: Default::default(),
            is_pg: Default::default(),
            is_er: Default::default(),
            is_st: Default::default(),
            last_plane: Default::default(),
            hold_len: Default::default(),
            data_len: Default::default(),
            addr_len: Default::default(),
            after_plane: Default::default(),
            after_data: Default::default(),
            after_hold: Default::default(),
            after_b: Default::default(),
            after_addr: Default::default(),
            after_a: Default::default(),
            nxt: Default::default(),
            seg_done: Default::default(),
            is_final: Default::default(),
            fin: Default::default(),
            fin_next: Default::default(),
            pe_next: Default::default(),
            hold_is_1: Default::default(),
            cmd_byte: Default::default(),
            addr_byte: Default::default(),
        }
    }
}

impl Logic for BusEngine {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, seg, cnt, acnt, aidx, plane, way_r, second, kind, planes_m1, row, rsr, dcyc, c1, lastp, pe, ccmd, f3, fin);
        // Decode the phase being run.
        // A cache read's first phase is a read's (00h-addr-30h); its second-half steps are `is_cs`.
        self.is_rf.next = ((self.kind.q.val() == self.k_read.val()) | (self.kind.q.val() == self.k_cache.val())) & !self.second.q.val();
        self.is_rs.next = (self.kind.q.val() == self.k_read.val()) & self.second.q.val();
        self.is_cs.next = (self.kind.q.val() == self.k_cache.val()) & self.second.q.val();
        self.is_pg.next = (self.kind.q.val() == self.k_prog.val()) & !self.second.q.val();
        self.is_er.next = (self.kind.q.val() == self.k_erase.val()) & !self.second.q.val();
        self.is_st.next = ((self.kind.q.val() == self.k_prog.val()) | (self.kind.q.val() == self.k_erase.val())) & self.second.q.val();
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
        self.data_len.next = self.zero16.val();
        if self.is_pg.val() | self.is_rs.val() {
            self.data_len.next = self.dcyc.q.val();
        }
        if self.is_st.val() {
            self.data_len.next = self.one16.val();
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
        if (self.is_pg.val() & self.has_adl.val()) | (self.is_rs.val() & self.has_ccs.val()) | (self.is_st.val() & self.has_whr.val()) {
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
        self.fin_next.next = ((self.nxt.val() == Seg::CmdB) & (self.is_rf.val() | self.is_er.val()))
            | ((self.nxt.val() == Seg::Data) & (self.is_rs.val() | self.is_st.val() | (self.is_cs.val() & !self.ccmd.q.val())))
            | ((self.nxt.val() == Seg::CmdC) & (self.is_pg.val() | self.is_cs.val()));
        self.is_final.next = self.fin.q.val();
        // `phase_end` is registered: `pe` is set when the *next* cycle is the phase's last, i.e.
        // (a) the final segment of the last plane continues and its count reaches 1 next cycle
        // (`cnt == 2`, the same compare that sets `c1`); (b) the segment ends now and the next one
        // is final with a count of 1 (the plane is unchanged: only entering CmdA advances it);
        // (c) a single-plane data-out phase of one cycle is loaded. Equal, cycle for cycle, to
        // `c1 & is_final & (lastp | is_st)` of the state it precedes.
        self.pe_next.next = self.is_final.val() & (self.lastp.q.val() | self.is_st.val()) & (self.cnt.q.val() == self.two16.val());
        if self.seg_done.val() & (self.lastp.q.val() | self.is_st.val()) {
            if (self.nxt.val() == Seg::CmdB) & (self.is_rf.val() | self.is_er.val()) & self.latch_1.val() {
                self.pe_next.next = true;
            }
            if (self.nxt.val() == Seg::CmdC) & (self.is_pg.val() | self.is_cs.val()) & self.latch_1.val() {
                self.pe_next.next = true;
            }
            if (self.nxt.val() == Seg::Data) & (self.is_rs.val() | self.is_st.val()) & (self.is_st.val() | (self.dcyc.q.val() == self.one16.val())) {
                self.pe_next.next = true;
            }
        }
        if self.start.val() & (self.seg.q.val() == Seg::Idle) & self.start_final.val() & self.start_c1.val() {
            self.pe_next.next = true;
        }
        self.pe.d.next = self.pe_next.val();
        self.phase_end.next = self.pe.q.val();
        self.hold_is_1.next = (self.is_pg.val() & self.adl_1.val()) | (self.is_rs.val() & self.ccs_1.val()) | (self.is_st.val() & self.whr_1.val());
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
                self.c1.d.next = self.is_st.val() | (self.dcyc.q.val() == self.one16.val());
            }
            if self.nxt.val() == Seg::Idle {
                self.c1.d.next = false;
            }
            if self.nxt.val() == Seg::Addr {
                self.acnt.d.next = self.addr_len.val();
                self.aidx.d.next = self.zero3.val();
                self.rsr.d.next = self.row.q.val();
            }
        }
        // Next plane: the plane's final segment ends and it is not the op's last plane (same as
        // `seg_done & nxt == CmdA`, without the segment-order muxes on the 34 enables).
        if self.c1.q.val() & self.is_final.val() & !self.lastp.q.val() & !self.is_st.val() {
            self.lastp.d.next = (self.plane.q.val() + self.one2.val()) == self.planes_m1.q.val();
            self.plane.d.next = self.plane.q.val() + self.one2.val();
            self.row.d.next = self.row.q.val() + self.plane_stride.val();
        }
        // Loading a new phase.
        if self.start.val() & (self.seg.q.val() == Seg::Idle) {
            self.way_r.d.next = self.start_way.val();
            self.second.d.next = self.start_second.val();
            self.kind.d.next = self.start_op.val().get_bits::<2>(0);
            self.planes_m1.d.next = self.start_op.val().get_bits::<2>(2);
            self.row.d.next = self.start_op.val().get_bits::<32>(4) & self.row_mask.val();
            self.dcyc.d.next = self.start_op.val().get_bits::<16>(28);
            self.plane.d.next = self.k_read.val();
            self.ccmd.d.next = self.start_cc.val();
            self.f3.d.next = self.start_3f.val();
            self.fin.d.next = self.start_final.val();
            self.seg.d.next = Seg::CmdA;
            if self.start_cc.val() {
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
            if self.last_plane.val() {
                self.cmd_byte.next = self.op_10.val();
            }
            if self.is_cs.val() {
                self.cmd_byte.next = self.op_31.val();
                if self.f3.q.val() {
                    self.cmd_byte.next = self.op_3f.val();
                }
            }
        }
        self.addr_byte.next = self.rsr.q.val() & self.byte_mask.val();
        if !self.is_er.val() & (self.aidx.q.val() < self.col_n.val()) {
            self.addr_byte.next = self.op_00.val();
        }
        // PHY-facing signals; R/B# and read data pass through.
        self.rb.next = self.phy.rb.val();
        self.rd_data.next = self.phy.dq_in.val();
        self.rd_valid.next = self.phy.dq_in_valid.val();
        self.phy.ce.next = self.zero4.val();
        if self.busy.val() {
            self.phy.ce.next = self.one4.val() << self.way_r.q.val();
        }
        self.phy.cle.next = (self.seg.q.val() == Seg::CmdA) | (self.seg.q.val() == Seg::CmdB) | (self.seg.q.val() == Seg::CmdC);
        self.phy.ale.next = self.seg.q.val() == Seg::Addr;
        self.phy.we.next = (self.phy.cle.val() | self.phy.ale.val()) & (self.cnt.q.val() == self.latch.val());
        self.phy.wr_beat.next = (self.seg.q.val() == Seg::Data) & self.is_pg.val();
        self.phy.rd_beat.next = (self.seg.q.val() == Seg::Data) & !self.is_pg.val();
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

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::DriveConfig;

    #[test]
    fn bus_engine_is_synthesizable() {
        let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10).unwrap();
        let vlog = crate::verilog_of(BusEngine::new(&t));
        yosys_validate("ssdlab_bus_engine", &vlog).unwrap();
    }
}
