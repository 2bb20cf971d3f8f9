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
//! Arbitration starts from registers: each SQ's "has an entry" flag (`nonempty`, head register
//! against the tail as written in the cycle before) and its head entry's address (`faddr` =
//! base + 64 x head), so the path from the SQ state through the arbiter into the MRd address has
//! no comparator before the arbiter and no adder after it (the front end's critical path on the
//! ECP5, `make pnr`). The address moves in the cycle after the pick (`fadv`), which is an `Issue`
//! cycle, so only nine flags, not nine 64-bit registers, wait for the arbiter's decision. None of
//! this changes a cycle of the timing below.
//!
//! Timing (mirrored by `FrontEndTiming::HDL` of the model): a doorbell strobe in cycle `c`
//! is seen by the arbiter in `c + 1`; arbitration in `t` offers the MRd to the requester mux in
//! `t + 1` (header on the RQ stream in `t + 2`) and the arbiter is free again the cycle after
//! the mux takes it; the last completion beat in cycle `x` frees its tag and presents the
//! command in `x + 1` (a rejection is at the FIFO output in `x + 1`; its tag is free in the
//! cycle after the completion path takes it).
//!
//! Files: this one declares the ports and registers; `sq_fetch/elaborate.rs` builds the block
//! (reset values, constants), `sq_fetch/kernel.rs` is its logic.

use crate::pcie::words::ReqDescWord;
use rust_hdl::prelude::*;

mod elaborate;
mod kernel;

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
    /// The beat ends a completion the hard block discontinued (PG156 `m_axis_rc_tuser[42]`,
    /// in a TLP's last beat: its data is corrupt). A fetch with such a completion is dropped
    /// when its 64 bytes are in: no command, no rejection, the tag is freed (the host sees the
    /// command time out, as after a lost completion).
    pub rc_discontinue: Signal<In, Bit>,
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
    /// Address of each SQ's head entry: base + 64 x head, moved the cycle after the head.
    faddr: [DFF<Bits<64>>; 9],
    /// The SQ was picked last cycle: its `faddr` moves this cycle.
    fadv: [DFF<Bit>; 9],
    /// The SQ's head was at its last entry last cycle (so `faddr` wraps to the base).
    fwrap: [DFF<Bit>; 9],
    /// Each SQ's head differed from its tail in the cycle before (see the kernel).
    nonempty: [DFF<Bit>; 9],
    busy: [DFF<Bit>; 4],
    /// A discontinued completion arrived for the tag's fetch.
    tdsc: [DFF<Bit>; 4],
    /// The command finishing this cycle had a discontinued completion: dropped.
    dropc: Signal<Local, Bit>,
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
    /// Head entry address of the picked SQ.
    paddr: Signal<Local, Bits<64>>,
    found: Signal<Local, Bit>,
    ftag: Signal<Local, Bits<8>>,
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
    /// Bytes of one SQ entry.
    sqe64: Constant<Bits<64>>,
    op00: Constant<Bits<8>>,
    op01: Constant<Bits<8>>,
    op02: Constant<Bits<8>>,
    op04: Constant<Bits<8>>,
    op05: Constant<Bits<8>>,
    op06: Constant<Bits<8>>,
    op09: Constant<Bits<8>>,
    op0c: Constant<Bits<8>>,
    st_opcode: Constant<Bits<11>>,
    st_field: Constant<Bits<11>>,
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
        crate::test_support::yosys_validate("ssdlab_sq_fetch", &export_verilog()).unwrap();
    }
}
