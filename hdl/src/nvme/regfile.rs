//! BAR0 register file of the NVMe controller on the completer streams (CQ in, CC out): CAP,
//! VS, INTMS/INTMC, CC, CSTS, AQA, ASQ, ACQ (NVM Express Base Specification 1.4, section 3.1),
//! the doorbell array with stride 0 (3.1.25-26, decoded into one strobe per write for the queue
//! blocks) and writes to the MSI-X table at BAR0 + 2000h (PCI Express Base 3.0, 7.7).
//! Handshakes (section 7.6.1-7.6.2): CC.EN 0→1 with valid AQA/ASQ/ACQ sets CSTS.RDY and pulses
//! `en_pulse` (queue blocks load the admin queues); without them CSTS.CFS is set instead;
//! CC.EN 1→0 clears RDY and pulses `rst_pulse`; CC.SHN ≠ 0 reports CSTS.SHST = 10b (complete:
//! the front end holds no state to flush). Offsets come from `ssdlab_model::nvme::frontend::regs`.
//!
//! Timing: a write's payload beat accepted in cycle `c` shows as a strobe in cycle `c + 1`.
//! A read returns a completion descriptor beat and one data beat (one or two dwords).
//!
//! Request decode (PG213 completer request descriptor, `pcie::tlp::CqReq`): only BAR0 (BAR ID
//! 0, a 64-bit BAR) of function 0 with untranslated addresses (AT = 00b) is implemented. Every
//! other request is unsupported (PCI Express Base 3.0, 2.3.1): a non-posted one (memory read,
//! AtomicOp, I/O) gets a completion with status UR (001b) and no data; a posted one (memory
//! write, message) is dropped. A BAR0 read of more than two dwords gets Completer Abort (100b,
//! NVMe 1.4 section 3.1 allows only natural-size register accesses). Offsets beyond the 16 KiB
//! the registers use, in a larger BAR aperture, read as zero and ignore writes (reserved
//! space). Completions echo the request's requester ID, tag, TC and attributes (2.2.9). The
//! descriptor bits PG213 reserves (79, 127) are ignored as PCIe requires of reserved fields.

use crate::pcie::words::{ByteCount13, CcDescWord, DwBeat, Qword, Size16};
use rust_hdl::prelude::*;
use ssdlab_model::nvme::frontend::regs;

/// Completer-side state.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum RegState {
    Idle,
    WrData,
    RdCpl,
    RdData,
}

#[derive(LogicBlock)]
pub struct NvmeRegs {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// Completer request beat from the hard block (descriptor, then payload; `pcie::tlp`).
    pub cq_tdata: Signal<In, Bits<128>>,
    /// Completer request beat valid.
    pub cq_tvalid: Signal<In, Bit>,
    /// Last beat of the request TLP.
    pub cq_tlast: Signal<In, Bit>,
    /// Beat accepted (low while a read completion is being returned).
    pub cq_tready: Signal<Out, Bit>,
    /// Completer completion beat to the hard block (register read data).
    pub cc_tdata: Signal<Out, Bits<128>>,
    /// Completer completion beat valid.
    pub cc_tvalid: Signal<Out, Bit>,
    /// Last beat of the completion.
    pub cc_tlast: Signal<Out, Bit>,
    /// Hard block takes the completion beat.
    pub cc_tready: Signal<In, Bit>,
    /// CSTS.RDY: the controller is enabled and ready.
    pub rdy: Signal<Out, Bit>,
    /// One cycle when CSTS.RDY rises (admin queues to be loaded).
    pub en_pulse: Signal<Out, Bit>,
    /// One cycle when CC.EN falls (all queues deleted).
    pub rst_pulse: Signal<Out, Bit>,
    /// ASQ: admin SQ base, byte address.
    pub asq: Signal<Out, Bits<64>>,
    /// ACQ: admin CQ base, byte address.
    pub acq: Signal<Out, Bits<64>>,
    /// AQA.ASQS: admin SQ entries minus one.
    pub asqs: Signal<Out, Bits<16>>,
    /// AQA.ACQS: admin CQ entries minus one.
    pub acqs: Signal<Out, Bits<16>>,
    /// One cycle: a doorbell of queue pair `db_qid` (< 9) was written.
    pub db_valid: Signal<Out, Bit>,
    /// Doorbell is a CQ head (1) or SQ tail (0) doorbell.
    pub db_cq: Signal<Out, Bit>,
    /// Queue identifier of the doorbell.
    pub db_qid: Signal<Out, Bits<4>>,
    /// Value written (entry index).
    pub db_val: Signal<Out, Bits<16>>,
    /// One cycle: a doorbell of a queue pair this controller does not have was written.
    pub db_bad_reg: Signal<Out, Bit>,
    /// One cycle: an MSI-X table dword was written.
    pub mx_valid: Signal<Out, Bit>,
    /// Dword index within the MSI-X table (vector * 4 + 0 addr lo, 1 addr hi, 2 data, 3 control).
    pub mx_off: Signal<Out, Bits<6>>,
    /// MSI-X dword written.
    pub mx_data: Signal<Out, Bits<32>>,
    state: DFF<RegState>,
    off: DFF<Bits<14>>,
    two: DFF<Bit>,
    tag: DFF<Bits<8>>,
    rid: DFF<Bits<16>>,
    tcl: DFF<Bits<3>>,
    attr: DFF<Bits<3>>,
    func: DFF<Bits<8>>,
    bcnt: DFF<Bits<13>>,
    is_mrd: DFF<Bit>,
    wr_en: DFF<Bit>,
    beyond: DFF<Bit>,
    need_cpl: DFF<Bit>,
    cst: DFF<Bits<3>>,
    cc: DFF<Bits<32>>,
    csts: DFF<Bits<32>>,
    intms: DFF<Bits<32>>,
    aqa: DFF<Bits<32>>,
    asq_lo: DFF<Bits<32>>,
    asq_hi: DFF<Bits<32>>,
    acq_lo: DFF<Bits<32>>,
    acq_hi: DFF<Bits<32>>,
    en_p: DFF<Bit>,
    rst_p: DFF<Bit>,
    dbv: DFF<Bit>,
    dbc: DFF<Bit>,
    dbq: DFF<Bits<4>>,
    dbd: DFF<Bits<16>>,
    dbbad: DFF<Bit>,
    mxv: DFF<Bit>,
    mxo: DFF<Bits<6>>,
    mxd: DFF<Bits<32>>,
    w0: Signal<Local, Bits<32>>,
    w1: Signal<Local, Bits<32>>,
    db_hit: Signal<Local, Bit>,
    rd_lo: Signal<Local, Bits<32>>,
    rd_hi: Signal<Local, Bits<32>>,
    aq: Signal<Local, Qword>,
    cq: Signal<Local, Qword>,
    cpl: Signal<Local, CcDescWord>,
    rtype: Signal<Local, Bits<4>>,
    hit: Signal<Local, Bit>,
    oor: Signal<Local, Bit>,
    mrd: Signal<Local, Bit>,
    posted: Signal<Local, Bit>,
    bc: Signal<Local, ByteCount13>,
    rsvd79_unused: Signal<Local, Bit>,
    rsvd127_unused: Signal<Local, Bit>,
    beat: Signal<Local, DwBeat>,
    sz_s: Signal<Local, Size16>,
    sz_c: Signal<Local, Size16>,
    qword_zero: Constant<Qword>,
    cpl_zero: Constant<CcDescWord>,
    bc_zero: Constant<ByteCount13>,
    k_off_mask: Constant<Bits<14>>,
    k_ones64: Constant<Bits<64>>,
    k_hi64: Constant<Bits<64>>,
    k_zero64: Constant<Bits<64>>,
    k_zero8: Constant<Bits<8>>,
    k_zero3: Constant<Bits<3>>,
    k_msg: Constant<Bits<2>>,
    k_st_ur: Constant<Bits<3>>,
    k_st_ca: Constant<Bits<3>>,
    beat_zero: Constant<DwBeat>,
    size_zero: Constant<Size16>,
    zero128: Constant<Bits<128>>,
    cap_lo: Constant<Bits<32>>,
    cap_hi: Constant<Bits<32>>,
    vs: Constant<Bits<32>>,
    o_cap: Constant<Bits<14>>,
    o_cap_hi: Constant<Bits<14>>,
    o_vs: Constant<Bits<14>>,
    o_intms: Constant<Bits<14>>,
    o_intmc: Constant<Bits<14>>,
    o_cc: Constant<Bits<14>>,
    o_csts: Constant<Bits<14>>,
    o_aqa: Constant<Bits<14>>,
    o_asq: Constant<Bits<14>>,
    o_asq_hi: Constant<Bits<14>>,
    o_acq: Constant<Bits<14>>,
    o_acq_hi: Constant<Bits<14>>,
    k_mrd: Constant<Bits<4>>,
    k_mwr: Constant<Bits<4>>,
    k_pairs: Constant<Bits<9>>,
    k_mx_end: Constant<Bits<12>>,
    k_one11: Constant<Bits<11>>,
    k_two11: Constant<Bits<11>>,
    k_zero12: Constant<Bits<12>>,
    k_zero2: Constant<Bits<2>>,
    k_zero32: Constant<Bits<32>>,
    k_rdy: Constant<Bits<32>>,
    k_cfs: Constant<Bits<32>>,
    k_shst_mask: Constant<Bits<32>>,
    k_shst_done: Constant<Bits<32>>,
    k_aqa_mask: Constant<Bits<32>>,
    k_base_mask: Constant<Bits<32>>,
    k_bytes4: Constant<Bits<13>>,
}

fn k14(v: u32) -> Constant<Bits<14>> {
    Constant::new(bits::<14>(v as u64))
}

impl NvmeRegs {
    /// A register file for queues of `queue_entries` entries (CAP.MQES = entries - 1).
    pub fn new(queue_entries: u32) -> Self {
        let cap = regs::cap_value(queue_entries);
        NvmeRegs {
            clock: Default::default(),
            cq_tdata: Default::default(),
            cq_tvalid: Default::default(),
            cq_tlast: Default::default(),
            cq_tready: Default::default(),
            cc_tdata: Default::default(),
            cc_tvalid: Default::default(),
            cc_tlast: Default::default(),
            cc_tready: Default::default(),
            rdy: Default::default(),
            en_pulse: Default::default(),
            rst_pulse: Default::default(),
            asq: Default::default(),
            acq: Default::default(),
            asqs: Default::default(),
            acqs: Default::default(),
            db_valid: Default::default(),
            db_cq: Default::default(),
            db_qid: Default::default(),
            db_val: Default::default(),
            db_bad_reg: Default::default(),
            mx_valid: Default::default(),
            mx_off: Default::default(),
            mx_data: Default::default(),
            state: Default::default(),
            off: Default::default(),
            two: Default::default(),
            tag: Default::default(),
            rid: Default::default(),
            tcl: Default::default(),
            attr: Default::default(),
            func: Default::default(),
            bcnt: Default::default(),
            is_mrd: Default::default(),
            wr_en: Default::default(),
            beyond: Default::default(),
            need_cpl: Default::default(),
            cst: Default::default(),
            cc: Default::default(),
            csts: Default::default(),
            intms: Default::default(),
            aqa: Default::default(),
            asq_lo: Default::default(),
            asq_hi: Default::default(),
            acq_lo: Default::default(),
            acq_hi: Default::default(),
            en_p: Default::default(),
            rst_p: Default::default(),
            dbv: Default::default(),
            dbc: Default::default(),
            dbq: Default::default(),
            dbd: Default::default(),
            dbbad: Default::default(),
            mxv: Default::default(),
            mxo: Default::default(),
            mxd: Default::default(),
            w0: Default::default(),
            w1: Default::default(),
            db_hit: Default::default(),
            rd_lo: Default::default(),
            rd_hi: Default::default(),
            aq: Default::default(),
            cq: Default::default(),
            cpl: Default::default(),
            rtype: Default::default(),
            hit: Default::default(),
            oor: Default::default(),
            mrd: Default::default(),
            posted: Default::default(),
            bc: Default::default(),
            rsvd79_unused: Default::default(),
            rsvd127_unused: Default::default(),
            beat: Default::default(),
            sz_s: Default::default(),
            sz_c: Default::default(),
            qword_zero: Constant::new(Qword::default()),
            cpl_zero: Constant::new(CcDescWord::default()),
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
            k_pairs: Constant::new(bits::<9>(super::QUEUE_PAIRS as u64)),
            k_mx_end: Constant::new(bits::<12>(16 * super::QUEUE_PAIRS as u64)),
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
        }
    }
}

impl Logic for NvmeRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, off, two, tag, rid, tcl, attr, func, bcnt, is_mrd, wr_en, beyond, need_cpl, cst, cc, csts, intms, aqa, asq_lo, asq_hi, acq_lo, acq_hi, en_p, rst_p, dbv, dbc, dbq, dbd,
            dbbad, mxv, mxo, mxd
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
        self.posted.next = (self.rtype.val() == self.k_mwr.val()) | (self.rtype.val().get_bits::<2>(2) == self.k_msg.val());
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
                    self.wr_en.d.next = (self.rtype.val() == self.k_mwr.val()) & self.hit.val() & !self.oor.val();
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
                    if !self.cq_tlast.val() {
                        self.state.d.next = RegState::WrData;
                    } else if !self.posted.val() {
                        self.state.d.next = RegState::RdCpl;
                    }
                }
            }
            RegState::WrData => {
                self.cq_tready.next = true;
                if self.cq_tvalid.val() {
                    if self.cq_tlast.val() {
                        self.state.d.next = RegState::Idle;
                        if self.need_cpl.q.val() {
                            self.state.d.next = RegState::RdCpl;
                        }
                    }
                    if self.wr_en.q.val() {
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
                                    & ((self.asq_lo.q.val() != self.k_zero32.val()) | (self.asq_hi.q.val() != self.k_zero32.val()))
                                    & ((self.acq_lo.q.val() != self.k_zero32.val()) | (self.acq_hi.q.val() != self.k_zero32.val()))
                                {
                                    self.csts.d.next = (self.csts.q.val() | self.k_rdy.val()) & !self.k_cfs.val();
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
                                self.csts.d.next = (self.csts.q.val() & !self.k_shst_mask.val()) | self.k_shst_done.val();
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

/// Generated Verilog of the block for `queue_entries`-entry queues (top module `top`).
pub fn export_verilog(queue_entries: u32) -> String {
        crate::verilog_of(NvmeRegs::new(queue_entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvme_regs_is_synthesizable() {
        yosys_validate("ssdlab_nvme_regs", &export_verilog(1024)).unwrap();
    }
}
