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
//! Timing: a completion request taken in cycle `c` registers its CQ id; `c + 1` (`Look`) looks
//! up that CQ's state and registers whether it is full; the CQE MWr is offered to the requester
//! mux in `c + 2` (header on RQ in `c + 3`), so the mux's inputs come from registers (the
//! completion engine was the front end's critical path into the mux, `make pnr`). A held CQE
//! sees a doorbell that frees a slot one cycle after the head register changes. A pending MSI-X
//! vector taken in `c` is offered in `c + 2` as well; the MSI-X MWr after a CQE is offered the
//! cycle after the CQE is taken.
//!
//! Files: this one declares the ports and registers; `cq_post/elaborate.rs` builds the block
//! (reset values, constants), `cq_post/kernel.rs` is its logic.

use crate::pcie::words::{CqeWord, DwBeat, Index64, Qword, ReqDescWord};
use rust_hdl::prelude::*;

mod elaborate;
mod kernel;

/// Completion engine state.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum CplState {
    Idle,
    /// The CQ's state is read and registered before the offer.
    Look,
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
    /// CQ of the working completion (looked up from its SQ when taken).
    wcq: DFF<Bits<4>>,
    /// The working completion's CQ was full in the cycle before.
    wfull: DFF<Bit>,
    /// The working job is a pending MSI-X vector (`wvec`), not a completion.
    wmsi: DFF<Bit>,
    /// Address of the working CQE (its CQ's tail slot), registered a cycle before the offer.
    waddr: DFF<Bits<64>>,
    /// SQ of the completion the idle engine would take.
    insq: Signal<Local, Bits<4>>,
    /// Its CQ.
    incq: Signal<Local, Bits<4>>,
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
        crate::test_support::yosys_validate("ssdlab_cq_post", &export_verilog(4, 25_000)).unwrap();
    }
}
