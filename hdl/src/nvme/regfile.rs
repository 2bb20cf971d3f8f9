//! BAR0 register file of the NVMe controller on the completer streams (CQ in, CC out): CAP,
//! VS, INTMS/INTMC, CC, CSTS, AQA, ASQ, ACQ (NVM Express Base Specification 1.4, section 3.1),
//! the doorbell array with stride 0 (3.1.25-26, decoded into one strobe per write for the queue
//! blocks) and writes to the MSI-X table at BAR0 + 2000h (PCI Express Base 3.0, 7.7).
//! Handshakes (section 7.6.1-7.6.2): CC.EN 0→1 with valid AQA/ASQ/ACQ sets CSTS.RDY and pulses
//! `en_pulse` (queue blocks load the admin queues); without them CSTS.CFS is set instead;
//! CC.EN 1→0 clears RDY and pulses `rst_pulse`; CC.SHN ≠ 0 reports CSTS.SHST = 10b (complete:
//! the front end holds no state to flush). Offsets come from `ssdlab_model::encoding::nvme_regs`.
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
//! A request the hard block discontinues (`cq_discontinue`, PG156 CQ `tuser[41]`, in its last
//! beat) is dropped: no register changes, no completion. CC beats carry `cc_tkeep`.
//!
//! Files: this one declares the ports and registers; `regfile/elaborate.rs` builds the block
//! (reset values, constants from the model's config), `regfile/kernel.rs` is its logic.

use crate::pcie::words::{ByteCount13, CcDescWord, DwBeat, Qword, Size16};
use rust_hdl::prelude::*;

mod elaborate;
mod kernel;

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
    /// The beat ends a TLP the hard block discontinued (PG156 `m_axis_cq_tuser[41]`, asserted
    /// in a TLP's last beat on an uncorrectable error in its buffer): the request is dropped,
    /// a write's payload is not applied and no completion is sent.
    pub cq_discontinue: Signal<In, Bit>,
    /// Beat accepted (low while a read completion is being returned).
    pub cq_tready: Signal<Out, Bit>,
    /// Completer completion beat to the hard block (register read data).
    pub cc_tdata: Signal<Out, Bits<128>>,
    /// Completer completion beat valid.
    pub cc_tvalid: Signal<Out, Bit>,
    /// Last beat of the completion.
    pub cc_tlast: Signal<Out, Bit>,
    /// Dwords valid in the completion beat, bit `i` for dword `i` (PG156 `s_axis_cc_tkeep`):
    /// 0111b for the descriptor beat (the 3-dword completer completion descriptor), then 0001b
    /// or 0011b for a one- or two-dword read's data beat.
    pub cc_tkeep: Signal<Out, Bits<4>>,
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
    k_keep0: Constant<Bits<4>>,
    k_keep1: Constant<Bits<4>>,
    k_keep2: Constant<Bits<4>>,
    k_keep3: Constant<Bits<4>>,
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

/// Generated Verilog of the block for `queue_entries`-entry queues (top module `top`).
pub fn export_verilog(queue_entries: u32) -> String {
    crate::verilog_of(NvmeRegs::new(queue_entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvme_regs_is_synthesizable() {
        crate::test_support::yosys_validate("ssdlab_nvme_regs", &export_verilog(1024)).unwrap();
    }
}
