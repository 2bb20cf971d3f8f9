//! Bus engine of one channel: executes one bus phase of a page operation for the way the arbiter
//! granted, as a sequence of ONFI bus primitives — command latch (CLE), address latch (ALE),
//! held wait (tADL/tCCS/tWHR), data in, data out — and drives the PHY-facing signals.
//! Every phase follows one template per plane (a one-shot program's: per page and plane, the
//! page's planes first, CMD c = 11h / 1Ah at its last plane / 10h at the op's last):
//! `[CMD a] [ADDR k] [CMD b] [HOLD h] [DATA d] [CMD c]`
//! with absent parts skipped (a data-out DATA is the ONFI PHY's RE# preamble, d beats and its
//! postamble: `SeqTiming::rd_lead` + d + `rd_tail` cycles); a single-plane read's data out is the template's DATA alone; a
//! cache read's steps (op kind 3, second half) are `[CMD c = 31h]`, `[DATA d][CMD c = 31h/3Fh]`
//! or `[DATA d]`, loaded at CMD c or DATA; a suspend or resume latch (`[CMD c = B0h]`,
//! `[CMD c = D0h/30h]`, `nand.suspend.commands`) is CMD c alone
//! (ONFI 4.1 section 5 command sequences; see
//! `ssdlab_model::nand::sequencer::SeqTiming::trace_phase`, which the model uses for the same
//! sequence). The serializer and IO cells behind the PHY boundary are out of scope.
//!
//! Files: this one declares the ports and registers; `bus_engine/elaborate.rs` builds the block
//! (reset values, constants from the timing), `bus_engine/kernel.rs` is its logic.

// Field offsets are literals in the kernels (rust_hdl emits named constants in part-selects
// as undeclared identifiers); `op::tests` pins them to the `op` constants.
use crate::nand::arbiter::MAX_WAYS;
use crate::nand::op::ENGINE_OP_BITS;
use crate::nand::phy::NandPhy;
use crate::nand::timing::HdlTiming;
use rust_hdl::prelude::*;

mod elaborate;
mod kernel;

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
    pub start_way: Signal<In, Bits<3>>,
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
    /// The phase is the program/erase suspend latch (one command, no address).
    pub start_sus: Signal<In, Bit>,
    /// The phase is the resume latch (one command, no address).
    pub start_res: Signal<In, Bit>,
    /// Program data from the write buffer, 4 bytes (byte 0 in bits 7:0); consumed on `wr_beat`.
    pub wr_data: Signal<In, Bits<32>>,
    /// A phase is on the bus this cycle.
    pub busy: Signal<Out, Bit>,
    /// This is the last cycle of the phase.
    pub phase_end: Signal<Out, Bit>,
    /// Way owning the bus (valid while `busy`).
    pub way: Signal<Out, Bits<3>>,
    /// The phase on the bus is a second phase (data out / status / cache step).
    pub phase_second: Signal<Out, Bit>,
    /// The phase on the bus is a cache step with a 31h/3Fh latch: its op continues after it.
    pub phase_more: Signal<Out, Bit>,
    /// The PHY boundary (CE, CLE, ALE, WE, DQ out, data beats; R/B# and DQ in pass through to
    /// `rb` and `rd_data`/`rd_valid`).
    pub phy: NandPhy,
    /// R/B# per way from the PHY (1 = ready), to the way FSMs.
    pub rb: Signal<Out, Bits<MAX_WAYS>>,
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
    /// RE# preamble + postamble cycles around every data out (`SeqTiming::rd_lead + rd_tail`).
    rd_extra: Constant<Bits<16>>,
    /// RE# postamble cycles (`SeqTiming::rd_tail`, at least 1).
    rd_tail: Constant<Bits<16>>,
    /// A status read's data-out length (preamble + 1 beat + postamble) and its beat's count.
    st_len: Constant<Bits<16>>,
    st_top: Constant<Bits<16>>,
    adl_1: Constant<Bit>,
    ccs_1: Constant<Bit>,
    whr_1: Constant<Bit>,
    two16: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    one3: Constant<Bits<3>>,
    one2: Constant<Bits<2>>,
    one_ce: Constant<Bits<MAX_WAYS>>,
    zero_ce: Constant<Bits<MAX_WAYS>>,
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
    op_1a: Constant<Bits<32>>,
    zero2: Constant<Bits<2>>,
    one32: Constant<Bits<32>>,
    op_30: Constant<Bits<32>>,
    op_32: Constant<Bits<32>>,
    op_60: Constant<Bits<32>>,
    op_70: Constant<Bits<32>>,
    op_80: Constant<Bits<32>>,
    op_d0: Constant<Bits<32>>,
    op_d1: Constant<Bits<32>>,
    op_e0: Constant<Bits<32>>,
    /// Suspend / resume command bytes (`nand.suspend.commands`).
    op_sus: Constant<Bits<32>>,
    op_res: Constant<Bits<32>>,
    /// The phase on the bus is the suspend / resume latch.
    sus_r: DFF<Bit>,
    res_r: DFF<Bit>,
    seg: DFF<Seg>,
    cnt: DFF<Bits<16>>,
    acnt: DFF<Bits<3>>,
    aidx: DFF<Bits<3>>,
    plane: DFF<Bits<2>>,
    way_r: DFF<Bits<3>>,
    second: DFF<Bit>,
    kind: DFF<Bits<2>>,
    planes_m1: DFF<Bits<2>>,
    row: DFF<Bits<32>>,
    /// The op's column (byte address in each plane's page), and its bytes left to latch.
    col: DFF<Bits<32>>,
    csr: DFF<Bits<32>>,
    rsr: DFF<Bits<32>>,
    dcyc: DFF<Bits<16>>,
    /// Data cycles + RE# postamble of the phase's data out: the highest count with a beat.
    rtop: DFF<Bits<16>>,
    /// Registered `cnt == 1`: the current segment's last cycle (keeps compares off the paths).
    c1: DFF<Bit>,
    /// Registered "the current plane is the op's last" (of its last page).
    lastp: DFF<Bit>,
    /// Registered "the current plane is its page's last" (a one-shot program's 1Ah).
    plast: DFF<Bit>,
    /// One-shot program: the page being loaded, the op's pages minus one, and the row of the
    /// page's first plane (page k of plane 0 is at the op's row + k).
    pg: DFF<Bits<2>>,
    pages_m1: DFF<Bits<2>>,
    row0: DFF<Bits<32>>,
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
    rd_win: Signal<Local, Bit>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::DriveConfig;

    #[test]
    fn bus_engine_is_synthesizable() {
        let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10).unwrap();
        let vlog = crate::verilog_of(BusEngine::new(&t));
        crate::test_support::yosys_validate("ssdlab_bus_engine", &vlog).unwrap();
    }
}
