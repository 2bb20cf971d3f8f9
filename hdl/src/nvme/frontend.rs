//! The NVMe front end: BAR0 register file, submission path, completion path and requester mux
//! composed behind the hard block's four TLP streams (`pcie::tlp`). Mirrors
//! `ssdlab_model::nvme::frontend::FrontEnd`. The PRP data path (`nvme::prp::dma::PrpDma`) moves
//! a command's data when the firmware starts it on `dma_*`.
//!
//! Toward the next stage (firmware / FTL): fetched 64 B commands (`cmd_*`), completion
//! requests (`cpl_*`), queue configuration after Create/Delete I/O queue commands (`qc_*`) and
//! asynchronous events for invalid doorbell writes (`evt_*`, NVMe 1.4 section 5.2 Figure 147
//! info 00h "write to invalid doorbell register", 01h "invalid doorbell write value").

use super::arbiter::{Arbitration, SqArbiter};
use super::cq_post::CompletionPath;
use super::prp::dma::PrpDma;
use super::regfile::NvmeRegs;
use super::sq_fetch::SubmissionPath;
use crate::pcie::rq_mux::RqMux;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct NvmeFrontEnd {
    /// Front-end clock, 250 MHz (128-bit streams: 4 GB/s per direction).
    pub clock: Signal<In, Clock>,
    /// Completer request beat (host MMIO to BAR0).
    pub cq_tdata: Signal<In, Bits<128>>,
    /// Completer request beat valid.
    pub cq_tvalid: Signal<In, Bit>,
    /// Completer request last beat.
    pub cq_tlast: Signal<In, Bit>,
    /// Completer request dwords valid, one bit per dword (PG156 `m_axis_cq_tkeep`). Ignored:
    /// the descriptor's dword count gives the payload (Dword-aligned mode, straddle off).
    pub cq_tkeep: Signal<In, Bits<4>>,
    /// Completer request sideband (PG156 `m_axis_cq_tuser[84:0]`). Used: discontinue `[41]`
    /// (the request is dropped, `nvme::regfile`). Ignored: first/last byte enables `[7:0]` and
    /// byte_en `[39:8]` (NVMe registers are accessed whole, as 32- or 64-bit dwords), sop `[40]`
    /// (`tlast` delimits TLPs, straddle off), TPH `[52:42]` (hints), parity `[84:53]` (off).
    pub cq_tuser: Signal<In, Bits<85>>,
    /// Completer request beat accepted.
    pub cq_tready: Signal<Out, Bit>,
    /// Completer completion beat (BAR0 read data).
    pub cc_tdata: Signal<Out, Bits<128>>,
    /// Completer completion beat valid.
    pub cc_tvalid: Signal<Out, Bit>,
    /// Completer completion last beat.
    pub cc_tlast: Signal<Out, Bit>,
    /// Completer completion dwords valid, one bit per dword (PG156 `s_axis_cc_tkeep`): 0111b
    /// in the descriptor beat (3-dword descriptor), 0001b/0011b in a read's data beat.
    pub cc_tkeep: Signal<Out, Bits<4>>,
    /// Completer completion sideband (PG156 `s_axis_cc_tuser[32:0]`): discontinue `[0]` and
    /// parity `[32:1]`, always 0 (completions are never aborted; parity is off in the IP).
    pub cc_tuser: Signal<Out, Bits<33>>,
    /// Hard block takes the completer completion beat.
    pub cc_tready: Signal<In, Bit>,
    /// Requester request beat (MRd fetches, MWr CQEs and MSI-X).
    pub rq_tdata: Signal<Out, Bits<128>>,
    /// Requester request beat valid.
    pub rq_tvalid: Signal<Out, Bit>,
    /// Requester request last beat.
    pub rq_tlast: Signal<Out, Bit>,
    /// Requester request dwords valid, one bit per dword (PG156 `s_axis_rq_tkeep`; `pcie::rq_mux`).
    pub rq_tkeep: Signal<Out, Bits<4>>,
    /// Requester request sideband (PG156 `s_axis_rq_tuser[59:0]`, `pcie::words::RqUserWord`):
    /// first/last byte enables in a packet's first beat, every other field 0 (`pcie::rq_mux`).
    pub rq_tuser: Signal<Out, Bits<60>>,
    /// Hard block takes the requester beat (link ceiling).
    pub rq_tready: Signal<In, Bit>,
    /// Requester completion beat (data of fetches).
    pub rc_tdata: Signal<In, Bits<128>>,
    /// Requester completion beat valid.
    pub rc_tvalid: Signal<In, Bit>,
    /// Requester completion last beat.
    pub rc_tlast: Signal<In, Bit>,
    /// Requester completion dwords valid, one bit per dword (PG156 `m_axis_rc_tkeep`). Ignored:
    /// the completion descriptor's dword count gives the payload.
    pub rc_tkeep: Signal<In, Bits<4>>,
    /// Requester completion sideband (PG156 `m_axis_rc_tuser[74:0]`). Used: discontinue `[42]`
    /// (the completion fails: Data Transfer Error 04h for data and PRP list reads, a dropped
    /// command for an SQ fetch). Ignored: byte_en `[31:0]` (the front end reads whole dwords),
    /// is_sof/is_eof `[41:32]` (`tlast` delimits TLPs, straddle off), parity `[74:43]` (off).
    pub rc_tuser: Signal<In, Bits<75>>,
    /// Requester completion accepted (always).
    pub rc_tready: Signal<Out, Bit>,
    /// CSTS.RDY.
    pub rdy: Signal<Out, Bit>,
    /// One cycle: a 64 B command is handed on.
    pub cmd_valid: Signal<Out, Bit>,
    /// SQ of the command.
    pub cmd_sqid: Signal<Out, Bits<4>>,
    /// Command bytes 0..15.
    pub cmd_w0: Signal<Out, Bits<128>>,
    /// Command bytes 16..31.
    pub cmd_w1: Signal<Out, Bits<128>>,
    /// Command bytes 32..47.
    pub cmd_w2: Signal<Out, Bits<128>>,
    /// Command bytes 48..63.
    pub cmd_w3: Signal<Out, Bits<128>>,
    /// Next stage cannot take more commands: stop fetching.
    pub cmd_stall: Signal<In, Bit>,
    /// Completion request valid.
    pub cpl_valid: Signal<In, Bit>,
    /// SQ of the completed command.
    pub cpl_sqid: Signal<In, Bits<4>>,
    /// CID of the completed command.
    pub cpl_cid: Signal<In, Bits<16>>,
    /// Status field (SCT bits 10:8, SC bits 7:0).
    pub cpl_status: Signal<In, Bits<11>>,
    /// Command-specific DW0.
    pub cpl_dw0: Signal<In, Bits<32>>,
    /// Completion request taken.
    pub cpl_ready: Signal<Out, Bit>,
    /// Queue configuration strobe (after Create/Delete I/O SQ/CQ).
    pub qc_valid: Signal<In, Bit>,
    /// Configuration is for an SQ (1) or a CQ (0).
    pub qc_sq: Signal<In, Bit>,
    /// Delete the queue.
    pub qc_del: Signal<In, Bit>,
    /// Queue identifier 1..=8.
    pub qc_qid: Signal<In, Bits<4>>,
    /// Queue base, byte address (4 KiB aligned).
    pub qc_base: Signal<In, Bits<64>>,
    /// Queue entries minus one.
    pub qc_size: Signal<In, Bits<16>>,
    /// For an SQ: its CQ.
    pub qc_cqid: Signal<In, Bits<4>>,
    /// For an SQ: QPRIO (00b urgent, 01b high, 10b medium, 11b low; used by WRR).
    pub qc_prio: Signal<In, Bits<2>>,
    /// For a CQ: MSI-X vector.
    pub qc_vec: Signal<In, Bits<4>>,
    /// For a CQ: interrupts enabled.
    pub qc_ien: Signal<In, Bit>,
    /// One cycle: an asynchronous event (invalid doorbell write).
    pub evt_valid: Signal<Out, Bit>,
    /// Asynchronous event information: 00h invalid doorbell register, 01h invalid value.
    pub evt_info: Signal<Out, Bits<8>>,
    /// Max payload size, PCIe Device Control encoding (bytes = 128 << code), for data MWr.
    pub mps_code: Signal<In, Bits<3>>,
    /// Max read request size, Device Control encoding, for data and PRP list MRd.
    pub mrrs_code: Signal<In, Bits<3>>,
    /// PRP data path (`nvme::prp::dma`): a data transfer is offered by the firmware.
    pub dma_valid: Signal<In, Bit>,
    /// The data path takes the transfer this cycle (if valid).
    pub dma_ready: Signal<Out, Bit>,
    /// 1 = device→host (NVM Read, Identify), 0 = host→device (NVM Write).
    pub dma_to_host: Signal<In, Bit>,
    /// The command's PRP1, byte address.
    pub dma_prp1: Signal<In, Bits<64>>,
    /// The command's PRP2, byte address.
    pub dma_prp2: Signal<In, Bits<64>>,
    /// Transfer length in bytes.
    pub dma_len: Signal<In, Bits<32>>,
    /// Host→device data beat toward the data buffer (transfer order, byte 0 in bits 7:0).
    pub dma_wd_valid: Signal<Out, Bit>,
    /// The beat's 16 bytes.
    pub dma_wd_data: Signal<Out, Bits<128>>,
    /// Valid dwords in the beat (4, fewer only in the last).
    pub dma_wd_dwords: Signal<Out, Bits<3>>,
    /// The transfer's last beat.
    pub dma_wd_last: Signal<Out, Bit>,
    /// Device→host data: the buffer offers the transfer's next 16 bytes.
    pub dma_bd_valid: Signal<In, Bit>,
    /// The 16 bytes.
    pub dma_bd_data: Signal<In, Bits<128>>,
    /// The beat is taken this cycle.
    pub dma_bd_ready: Signal<Out, Bit>,
    /// One cycle: the transfer ended.
    pub dma_done: Signal<Out, Bit>,
    /// Its status (0, 02h, 13h or 04h; SCT 10:8, SC 7:0).
    pub dma_status: Signal<Out, Bits<11>>,
    regs: NvmeRegs,
    sq: SubmissionPath,
    arb: SqArbiter,
    cq: CompletionPath,
    mux: RqMux,
    dma: PrpDma,
    info_reg: Constant<Bits<8>>,
    info_val: Constant<Bits<8>>,
    k_cc_user0: Constant<Bits<33>>,
    /// The sideband inputs, named `*unused*` for Verilator: only the discontinue bits are used.
    cq_keep_unused: Signal<Local, Bits<4>>,
    cq_user_unused: Signal<Local, Bits<85>>,
    rc_keep_unused: Signal<Local, Bits<4>>,
    rc_user_unused: Signal<Local, Bits<75>>,
}

impl NvmeFrontEnd {
    /// A front end for `queue_entries`-entry queues with MSI-X aggregation threshold
    /// `threshold` and aggregation time `time_cycles` (0: none), arbitrating SQs by `arb`.
    pub fn new(queue_entries: u32, threshold: u32, time_cycles: u64, arb: Arbitration) -> Self {
        crate::elab::with_defaults!(NvmeFrontEnd {
            regs: NvmeRegs::new(queue_entries),
            sq: SubmissionPath::default(),
            arb: SqArbiter::new(arb),
            cq: CompletionPath::new(threshold, time_cycles),
            mux: RqMux::default(),
            dma: PrpDma::default(),
            info_reg: Constant::new(bits::<8>(0x00)),
            info_val: Constant::new(bits::<8>(0x01)),
            k_cc_user0: Constant::new(bits::<33>(0)),
        } defaults {
            clock, cq_tdata, cq_tvalid, cq_tlast, cq_tkeep, cq_tuser, cq_tready, cc_tdata, cc_tvalid, cc_tlast,
            cc_tkeep, cc_tuser, cc_tready, rq_tdata, rq_tvalid, rq_tlast, rq_tkeep, rq_tuser, rq_tready,
            rc_tdata, rc_tvalid, rc_tlast, rc_tkeep, rc_tuser, rc_tready, rdy, cmd_valid, cmd_sqid,
            cmd_w0, cmd_w1, cmd_w2, cmd_w3, cmd_stall, cpl_valid, cpl_sqid, cpl_cid, cpl_status, cpl_dw0,
            cpl_ready, qc_valid, qc_sq, qc_del, qc_qid, qc_base, qc_size, qc_cqid, qc_prio, qc_vec, qc_ien,
            evt_valid, evt_info, mps_code, mrrs_code, dma_valid, dma_ready, dma_to_host, dma_prp1, dma_prp2,
            dma_len, dma_wd_valid, dma_wd_data, dma_wd_dwords, dma_wd_last, dma_bd_valid, dma_bd_data,
            dma_bd_ready, dma_done, dma_status, cq_keep_unused, cq_user_unused, rc_keep_unused,
            rc_user_unused,
        })
    }
}

impl Logic for NvmeFrontEnd {
    #[hdl_gen]
    fn update(&mut self) {
        self.regs.clock.next = self.clock.val();
        self.sq.clock.next = self.clock.val();
        self.cq.clock.next = self.clock.val();
        self.mux.clock.next = self.clock.val();
        self.dma.clock.next = self.clock.val();
        // PRP data path: its own tags (0x20..0x40) on the shared RC stream, its RQ stream as the
        // mux's lowest-priority source.
        self.dma.mps_code.next = self.mps_code.val();
        self.dma.mrrs_code.next = self.mrrs_code.val();
        self.dma.cmd_valid.next = self.dma_valid.val();
        self.dma_ready.next = self.dma.cmd_ready.val();
        self.dma.cmd_to_host.next = self.dma_to_host.val();
        self.dma.cmd_prp1.next = self.dma_prp1.val();
        self.dma.cmd_prp2.next = self.dma_prp2.val();
        self.dma.cmd_len.next = self.dma_len.val();
        self.dma_wd_valid.next = self.dma.wd.valid.val();
        self.dma_wd_data.next = self.dma.wd.data.val();
        self.dma_wd_dwords.next = self.dma.wd.dwords.val();
        self.dma_wd_last.next = self.dma.wd.last.val();
        self.dma.bd.valid.next = self.dma_bd_valid.val();
        self.dma.bd.data.next = self.dma_bd_data.val();
        self.dma_bd_ready.next = self.dma.bd.ready.val();
        self.dma_done.next = self.dma.done.val();
        self.dma_status.next = self.dma.status.val();
        self.dma.rc.tdata.next = self.rc_tdata.val();
        self.dma.rc.tvalid.next = self.rc_tvalid.val();
        self.dma.rc.tlast.next = self.rc_tlast.val();
        self.dma.rc.discontinue.next = self.rc_tuser.val().get_bit(42);
        self.mux.s2_tdata.next = self.dma.rq_tdata.val();
        self.mux.s2_tvalid.next = self.dma.rq_tvalid.val();
        self.mux.s2_tlast.next = self.dma.rq_tlast.val();
        self.dma.rq_tready.next = self.mux.s2_tready.val();
        // Completer streams ↔ register file.
        self.regs.cq_tdata.next = self.cq_tdata.val();
        self.regs.cq_tvalid.next = self.cq_tvalid.val();
        self.regs.cq_tlast.next = self.cq_tlast.val();
        self.regs.cq_discontinue.next = self.cq_tuser.val().get_bit(41);
        self.cq_keep_unused.next = self.cq_tkeep.val();
        self.cq_user_unused.next = self.cq_tuser.val();
        self.rc_keep_unused.next = self.rc_tkeep.val();
        self.rc_user_unused.next = self.rc_tuser.val();
        self.cq_tready.next = self.regs.cq_tready.val();
        self.cc_tdata.next = self.regs.cc_tdata.val();
        self.cc_tvalid.next = self.regs.cc_tvalid.val();
        self.cc_tlast.next = self.regs.cc_tlast.val();
        self.cc_tkeep.next = self.regs.cc_tkeep.val();
        self.cc_tuser.next = self.k_cc_user0.val();
        self.regs.cc_tready.next = self.cc_tready.val();
        self.rdy.next = self.regs.rdy.val();
        // Register file → queue blocks.
        self.sq.rdy.next = self.regs.rdy.val();
        self.sq.en_pulse.next = self.regs.en_pulse.val();
        self.sq.rst_pulse.next = self.regs.rst_pulse.val();
        self.sq.asq.next = self.regs.asq.val();
        self.sq.asqs.next = self.regs.asqs.val();
        self.sq.db_valid.next = self.regs.db_valid.val();
        self.sq.db_cq.next = self.regs.db_cq.val();
        self.sq.db_qid.next = self.regs.db_qid.val();
        self.sq.db_val.next = self.regs.db_val.val();
        self.cq.en_pulse.next = self.regs.en_pulse.val();
        self.cq.rst_pulse.next = self.regs.rst_pulse.val();
        self.cq.acq.next = self.regs.acq.val();
        self.cq.acqs.next = self.regs.acqs.val();
        self.cq.db_valid.next = self.regs.db_valid.val();
        self.cq.db_cq.next = self.regs.db_cq.val();
        self.cq.db_qid.next = self.regs.db_qid.val();
        self.cq.db_val.next = self.regs.db_val.val();
        self.cq.mx_valid.next = self.regs.mx_valid.val();
        self.cq.mx_off.next = self.regs.mx_off.val();
        self.cq.mx_data.next = self.regs.mx_data.val();
        // Queue configuration.
        self.sq.qc_valid.next = self.qc_valid.val();
        self.sq.qc_sq.next = self.qc_sq.val();
        self.sq.qc_del.next = self.qc_del.val();
        self.sq.qc_qid.next = self.qc_qid.val();
        self.sq.qc_base.next = self.qc_base.val();
        self.sq.qc_size.next = self.qc_size.val();
        self.arb.clock.next = self.clock.val();
        self.arb.qc_valid.next = self.qc_valid.val();
        self.arb.qc_sq.next = self.qc_sq.val();
        self.arb.qc_qid.next = self.qc_qid.val();
        self.arb.qc_prio.next = self.qc_prio.val();
        self.arb.ready.next = self.sq.arb_ready.val();
        self.arb.take.next = self.sq.arb_take.val();
        self.sq.arb_found.next = self.arb.found.val();
        self.sq.arb_pick.next = self.arb.pick.val();
        self.cq.qc_valid.next = self.qc_valid.val();
        self.cq.qc_sq.next = self.qc_sq.val();
        self.cq.qc_del.next = self.qc_del.val();
        self.cq.qc_qid.next = self.qc_qid.val();
        self.cq.qc_base.next = self.qc_base.val();
        self.cq.qc_size.next = self.qc_size.val();
        self.cq.qc_cqid.next = self.qc_cqid.val();
        self.cq.qc_vec.next = self.qc_vec.val();
        self.cq.qc_ien.next = self.qc_ien.val();
        // Submission path.
        self.sq.stall.next = self.cmd_stall.val();
        self.sq.rc_tdata.next = self.rc_tdata.val();
        self.sq.rc_tvalid.next = self.rc_tvalid.val();
        self.sq.rc_tlast.next = self.rc_tlast.val();
        self.sq.rc_discontinue.next = self.rc_tuser.val().get_bit(42);
        self.rc_tready.next = true;
        self.cmd_valid.next = self.sq.cmd_valid.val();
        self.cmd_sqid.next = self.sq.cmd_sqid.val();
        self.cmd_w0.next = self.sq.cmd_w0.val();
        self.cmd_w1.next = self.sq.cmd_w1.val();
        self.cmd_w2.next = self.sq.cmd_w2.val();
        self.cmd_w3.next = self.sq.cmd_w3.val();
        self.sq.hd_sel.next = self.cq.hd_sel.val();
        self.cq.hd_val.next = self.sq.hd_val.val();
        // Completion path.
        self.cq.cpl_valid.next = self.cpl_valid.val();
        self.cq.cpl_sqid.next = self.cpl_sqid.val();
        self.cq.cpl_cid.next = self.cpl_cid.val();
        self.cq.cpl_status.next = self.cpl_status.val();
        self.cq.cpl_dw0.next = self.cpl_dw0.val();
        self.cpl_ready.next = self.cq.cpl_ready.val();
        self.cq.rej_valid.next = self.sq.rej_valid.val();
        self.cq.rej_sqid.next = self.sq.rej_sqid.val();
        self.cq.rej_cid.next = self.sq.rej_cid.val();
        self.cq.rej_status.next = self.sq.rej_status.val();
        self.sq.rej_ready.next = self.cq.rej_ready.val();
        // Requester mux: completions (source 0) before fetches (source 1).
        self.mux.s0_valid.next = self.cq.rq_valid.val();
        self.mux.s0_desc.next = self.cq.rq_desc.val();
        self.mux.s0_has_data.next = true;
        self.mux.s0_data.next = self.cq.rq_data.val();
        self.cq.rq_ready.next = self.mux.s0_ready.val();
        self.mux.s1_valid.next = self.sq.rq_valid.val();
        self.mux.s1_desc.next = self.sq.rq_desc.val();
        self.mux.s1_has_data.next = false;
        self.mux.s1_data.next = self.sq.rq_desc.val();
        self.sq.rq_ready.next = self.mux.s1_ready.val();
        self.rq_tdata.next = self.mux.rq_tdata.val();
        self.rq_tvalid.next = self.mux.rq_tvalid.val();
        self.rq_tlast.next = self.mux.rq_tlast.val();
        self.rq_tkeep.next = self.mux.rq_tkeep.val();
        self.rq_tuser.next = self.mux.rq_tuser.val();
        self.mux.rq_tready.next = self.rq_tready.val();
        // Asynchronous events.
        self.evt_valid.next = self.regs.db_bad_reg.val()
            | self.sq.evt_bad_q.val()
            | self.sq.evt_bad_val.val()
            | self.cq.evt_bad_q.val()
            | self.cq.evt_bad_val.val();
        self.evt_info.next = self.info_reg.val();
        if self.sq.evt_bad_val.val() | self.cq.evt_bad_val.val() {
            self.evt_info.next = self.info_val.val();
        }
    }
}

/// Generated Verilog of the composed front end (top module `top`).
pub fn export_verilog(
    queue_entries: u32,
    threshold: u32,
    time_cycles: u64,
    arb: Arbitration,
) -> String {
    crate::verilog_of(NvmeFrontEnd::new(
        queue_entries,
        threshold,
        time_cycles,
        arb,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvme_frontend_is_synthesizable() {
        crate::test_support::yosys_validate(
            "ssdlab_nvme_frontend",
            &export_verilog(1024, 1, 0, Arbitration::RoundRobin),
        )
        .unwrap();
    }
}
