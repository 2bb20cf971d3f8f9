//! The datapath block [`Datapath`] (Verilog `module ssdlab_datapath` in `make verilog`'s
//! `datapath.v`): ports and wiring. What it is, the hardware/firmware split, the clock and the
//! page buffer are documented in `top` (the parent module); its constructor is `Datapath::new`
//! there.

use super::page_buffer::PageBuffer;
use crate::ftl::map_cache::{MapCacheExport, TP_BITS};
use crate::nand::array::NandArray;
use crate::nand::op::OP_BITS;
use crate::nand::phy::{OnfiPhy, OnfiPins};
use crate::nvme::frontend::NvmeFrontEnd;
use rust_hdl::prelude::*;

/// The ports on `nand_clock`: the ONFI pins of each channel (`phy_<channel>_<pin>` in the Verilog);
/// every other port is on `clock`. The place-and-route harness clocks their registers by it
/// (`pnr::harness`).
pub const NAND_CLOCK_PORTS: &[&str] = &["phy_"];

#[derive(LogicBlock)]
pub struct Datapath {
    /// PCIe user clock, 250 MHz (PG213): the front end, the mapping cache, the firmware port and
    /// the page buffer's DMA side; also the NAND sequencer clock when `onfi.core_clock_mhz` is
    /// 250 (see the `top` module doc, "Clocks").
    pub clock: Signal<In, Clock>,
    /// NAND sequencer clock, `onfi.core_clock_mhz`: the NAND array and the page buffer's NAND
    /// side. Unused (tie it low) when that is 250 MHz: both then run on `clock`.
    pub nand_clock: Signal<In, Clock>,
    /// Completer request beat (host MMIO to BAR0), 16 bytes.
    pub cq_tdata: Signal<In, Bits<128>>,
    /// Completer request beat valid.
    pub cq_tvalid: Signal<In, Bit>,
    /// Completer request last beat.
    pub cq_tlast: Signal<In, Bit>,
    /// Completer request dwords valid, one bit per dword (PG156 `m_axis_cq_tkeep`; ignored).
    pub cq_tkeep: Signal<In, Bits<4>>,
    /// Completer request sideband (PG156 `m_axis_cq_tuser[84:0]`): discontinue `[41]` drops
    /// the request; the other fields are ignored (`nvme::frontend` says why each is safe).
    pub cq_tuser: Signal<In, Bits<85>>,
    /// Completer request beat accepted.
    pub cq_tready: Signal<Out, Bit>,
    /// Completer completion beat (BAR0 read data), 16 bytes.
    pub cc_tdata: Signal<Out, Bits<128>>,
    /// Completer completion beat valid.
    pub cc_tvalid: Signal<Out, Bit>,
    /// Completer completion last beat.
    pub cc_tlast: Signal<Out, Bit>,
    /// Completer completion dwords valid, one bit per dword (PG156 `s_axis_cc_tkeep`): 0111b
    /// in the descriptor beat, 0001b/0011b in a register read's data beat.
    pub cc_tkeep: Signal<Out, Bits<4>>,
    /// Completer completion sideband (PG156 `s_axis_cc_tuser[32:0]`: discontinue, parity), 0.
    pub cc_tuser: Signal<Out, Bits<33>>,
    /// Hard block takes the completer completion beat.
    pub cc_tready: Signal<In, Bit>,
    /// Requester request beat (fetches, CQEs, MSI-X, data MRd/MWr), 16 bytes.
    pub rq_tdata: Signal<Out, Bits<128>>,
    /// Requester request beat valid.
    pub rq_tvalid: Signal<Out, Bit>,
    /// Requester request last beat.
    pub rq_tlast: Signal<Out, Bit>,
    /// Requester request dwords valid, one bit per dword (PG156 `s_axis_rq_tkeep`): 1111b but
    /// in a packet's last payload beat, which marks the dwords left.
    pub rq_tkeep: Signal<Out, Bits<4>>,
    /// Requester request sideband (PG156 `s_axis_rq_tuser[59:0]`): first_be `[3:0]` = 1111b,
    /// last_be `[7:4]` = 1111b (0000b for a 1-dword request) in a packet's first beat; 0 else.
    pub rq_tuser: Signal<Out, Bits<60>>,
    /// Hard block takes the requester beat (link ceiling).
    pub rq_tready: Signal<In, Bit>,
    /// Requester completion beat (fetched SQEs, PRP lists, write data), 16 bytes.
    pub rc_tdata: Signal<In, Bits<128>>,
    /// Requester completion beat valid.
    pub rc_tvalid: Signal<In, Bit>,
    /// Requester completion last beat.
    pub rc_tlast: Signal<In, Bit>,
    /// Requester completion dwords valid, one bit per dword (PG156 `m_axis_rc_tkeep`; ignored).
    pub rc_tkeep: Signal<In, Bits<4>>,
    /// Requester completion sideband (PG156 `m_axis_rc_tuser[74:0]`): discontinue `[42]` fails
    /// the completion; the other fields are ignored (`nvme::frontend` says why each is safe).
    pub rc_tuser: Signal<In, Bits<75>>,
    /// Requester completion accepted (always).
    pub rc_tready: Signal<Out, Bit>,
    /// Max payload size, PCIe Device Control encoding (bytes = 128 << code).
    pub mps_code: Signal<In, Bits<3>>,
    /// Max read request size, Device Control encoding (bytes = 128 << code).
    pub mrrs_code: Signal<In, Bits<3>>,
    /// CSTS.RDY (controller ready).
    pub rdy: Signal<Out, Bit>,
    /// Firmware port: one cycle, a fetched 64-byte command is handed on.
    pub cmd_valid: Signal<Out, Bit>,
    /// SQ of the command (0 = admin).
    pub cmd_sqid: Signal<Out, Bits<4>>,
    /// Command bytes 0..15 (byte 0 in bits 7:0).
    pub cmd_w0: Signal<Out, Bits<128>>,
    /// Command bytes 16..31.
    pub cmd_w1: Signal<Out, Bits<128>>,
    /// Command bytes 32..47.
    pub cmd_w2: Signal<Out, Bits<128>>,
    /// Command bytes 48..63.
    pub cmd_w3: Signal<Out, Bits<128>>,
    /// Firmware cannot take more commands: stop fetching.
    pub cmd_stall: Signal<In, Bit>,
    /// Completion request valid (held until `cpl_ready`).
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
    /// For an SQ: QPRIO (00b urgent .. 11b low).
    pub qc_prio: Signal<In, Bits<2>>,
    /// For a CQ: MSI-X vector.
    pub qc_vec: Signal<In, Bits<4>>,
    /// For a CQ: interrupts enabled.
    pub qc_ien: Signal<In, Bit>,
    /// One cycle: an asynchronous event (invalid doorbell write).
    pub evt_valid: Signal<Out, Bit>,
    /// Event information: 00h invalid doorbell register, 01h invalid value.
    pub evt_info: Signal<Out, Bits<8>>,
    /// Data move offered: host memory <-> page-buffer region (held until `dma_ready`).
    pub dma_valid: Signal<In, Bit>,
    /// The PRP data path takes the move this cycle (if valid).
    pub dma_ready: Signal<Out, Bit>,
    /// 1 = region to host (NVM Read), 0 = host to region (NVM Write).
    pub dma_to_host: Signal<In, Bit>,
    /// PRP1 of the move, host byte address.
    pub dma_prp1: Signal<In, Bits<64>>,
    /// PRP2 (or PRP list pointer) of the move, host byte address.
    pub dma_prp2: Signal<In, Bits<64>>,
    /// Move length in bytes (whole dwords, 4..=128 KiB; within the region).
    pub dma_len: Signal<In, Bits<32>>,
    /// Channel of the page-buffer region (below `geometry.channels`).
    pub dma_channel: Signal<In, Bits<4>>,
    /// Way of the page-buffer region (below `geometry.ways_per_channel`).
    pub dma_way: Signal<In, Bits<3>>,
    /// Byte offset in the region (16-byte aligned).
    pub dma_offset: Signal<In, Bits<32>>,
    /// One cycle: the move ended.
    pub dma_done: Signal<Out, Bit>,
    /// Its status (0, 02h, 13h or 04h; SCT 10:8, SC 7:0).
    pub dma_status: Signal<Out, Bits<11>>,
    /// Sticky page-buffer error: a move outside its region or a firmware-rule violation.
    pub pb_err: Signal<Out, Bit>,
    /// Mapping lookup/update offered.
    pub map_req_valid: Signal<In, Bit>,
    /// Mapping request taken at the end of this cycle (if valid).
    pub map_req_ready: Signal<Out, Bit>,
    /// Logical page number (4 KiB unit) looked up or updated.
    pub map_req_lpn: Signal<In, Bits<32>>,
    /// 1: update the entry to `map_req_value`; 0: lookup.
    pub map_req_update: Signal<In, Bit>,
    /// New entry value (physical page address) for an update.
    pub map_req_value: Signal<In, Bits<32>>,
    /// Request tag, returned with the response.
    pub map_req_id: Signal<In, Bits<8>>,
    /// A mapping response this cycle (no back-pressure).
    pub map_resp_valid: Signal<Out, Bit>,
    /// Tag of the request answered.
    pub map_resp_id: Signal<Out, Bits<8>>,
    /// Entry value after the access.
    pub map_resp_data: Signal<Out, Bits<32>>,
    /// A cache decision this cycle (tag check, in request order).
    pub map_dec_valid: Signal<Out, Bit>,
    /// Tag of the request decided.
    pub map_dec_id: Signal<Out, Bits<8>>,
    /// The request hit.
    pub map_dec_hit: Signal<Out, Bit>,
    /// Cache way hit or allocated.
    pub map_dec_way: Signal<Out, Bits<2>>,
    /// A valid line is evicted.
    pub map_dec_evict: Signal<Out, Bit>,
    /// First LPN of the evicted line.
    pub map_dec_evict_lpn: Signal<Out, Bits<32>>,
    /// The evicted line is dirty (written back to DRAM).
    pub map_dec_evict_dirty: Signal<Out, Bit>,
    /// Translation-page fetch requested (held until `map_tp_done`).
    pub map_tp_req_valid: Signal<Out, Bit>,
    /// Translation page (lpn / 1024) to load into DRAM.
    pub map_tp_req_tp: Signal<Out, Bits<TP_BITS>>,
    /// DRAM slot to load it into.
    pub map_tp_req_slot: Signal<Out, Bits<8>>,
    /// Page currently in that slot (replaced).
    pub map_tp_req_evict_tp: Signal<Out, Bits<TP_BITS>>,
    /// The replaced page was modified: firmware writes it to NAND first.
    pub map_tp_req_evict_dirty: Signal<Out, Bit>,
    /// Firmware finished the page move (one-cycle pulse).
    pub map_tp_done: Signal<In, Bit>,
    /// Any mapping request in flight.
    pub map_busy: Signal<Out, Bit>,
    /// DRAM command offered (mapping table).
    pub dram_cmd_valid: Signal<Out, Bit>,
    /// DRAM accepts the command at the end of this cycle.
    pub dram_cmd_ready: Signal<In, Bit>,
    /// Command is a line write (else a line read).
    pub dram_cmd_write: Signal<Out, Bit>,
    /// DRAM word (32-bit) address of the line's first entry.
    pub dram_cmd_addr: Signal<Out, Bits<32>>,
    /// Write beat offered (one 32-bit entry).
    pub dram_wdata_valid: Signal<Out, Bit>,
    /// DRAM takes the write beat at the end of this cycle.
    pub dram_wdata_ready: Signal<In, Bit>,
    /// Write beat data.
    pub dram_wdata: Signal<Out, Bits<32>>,
    /// Read beat present this cycle.
    pub dram_rdata_valid: Signal<In, Bit>,
    /// Read beat data (entries in address order).
    pub dram_rdata: Signal<In, Bits<32>>,
    /// NAND op offered; taken at the clock edge when `nand_cmd_ready`.
    pub nand_cmd_valid: Signal<In, Bit>,
    /// Channel of the op (below `geometry.channels`).
    pub nand_cmd_channel: Signal<In, Bits<4>>,
    /// Way of the op within its channel (below `geometry.ways_per_channel`).
    pub nand_cmd_way: Signal<In, Bits<3>>,
    /// Packed op word (layout: `nand::op`; kind in bits 1:0).
    pub nand_cmd_op: Signal<In, Bits<OP_BITS>>,
    /// Array time of the op (tPROG/tBERS) in core cycles, for program/erase suspend (any value
    /// for a read or with `nand.suspend.policy = "never"`).
    pub nand_cmd_array: Signal<In, Bits<32>>,
    /// The op can be taken: the addressed channel's clock-crossing FIFO has room, or, with the
    /// sequencers on `clock`, the addressed way queue has (never for a channel or way the drive
    /// lacks).
    pub nand_cmd_ready: Signal<Out, Bit>,
    /// Per channel: a NAND op completed this cycle (`clock`; after the completion's crossing).
    pub nand_done_valid: Vec<Signal<Out, Bit>>,
    /// Per channel: way of the completed op (ops of a way complete in order).
    pub nand_done_way: Vec<Signal<Out, Bits<3>>>,
    /// Per channel: the ONFI pins (`nand::phy::OnfiPins`, per quarter of a `nand_clock` cycle
    /// where DDR), `phy_<i>_ce_n`, ... in Verilog, for the channel's io wrapper.
    pub phy: Vec<OnfiPins>,
    pub(super) fe: NvmeFrontEnd,
    pub(super) array: NandArray,
    /// Per channel: the ONFI PHY between the sequencer's beat port and the pins.
    pub(super) onfi: Vec<OnfiPhy>,
    pub(super) map: MapCacheExport,
    pub(super) pb: PageBuffer,
    /// The NAND side's clock: `nand_clock`, or `clock` when the sequencers run on it.
    pub(super) nclk: Signal<Local, Clock>,
    /// The NAND sequencers have a clock of their own (`top::crosses_clocks`).
    pub(super) crossed: Constant<Bit>,
}

impl Logic for Datapath {
    #[hdl_gen]
    fn update(&mut self) {
        self.nclk.next = self.clock.val();
        if self.crossed.val() {
            self.nclk.next = self.nand_clock.val();
        }
        self.fe.clock.next = self.clock.val();
        self.array.clock.next = self.nclk.val();
        self.array.pcie_clock.next = self.clock.val();
        self.map.clock.next = self.clock.val();
        self.pb.clock.next = self.clock.val();
        self.pb.nand_clock.next = self.nclk.val();
        // Front end, mapping cache, NAND command port: unchanged pass-through.
        self.fe.cq_tdata.next = self.cq_tdata.val();
        self.fe.cq_tvalid.next = self.cq_tvalid.val();
        self.fe.cq_tlast.next = self.cq_tlast.val();
        self.fe.cq_tkeep.next = self.cq_tkeep.val();
        self.fe.cq_tuser.next = self.cq_tuser.val();
        self.cq_tready.next = self.fe.cq_tready.val();
        self.cc_tdata.next = self.fe.cc_tdata.val();
        self.cc_tvalid.next = self.fe.cc_tvalid.val();
        self.cc_tlast.next = self.fe.cc_tlast.val();
        self.cc_tkeep.next = self.fe.cc_tkeep.val();
        self.cc_tuser.next = self.fe.cc_tuser.val();
        self.fe.cc_tready.next = self.cc_tready.val();
        self.rq_tdata.next = self.fe.rq_tdata.val();
        self.rq_tvalid.next = self.fe.rq_tvalid.val();
        self.rq_tlast.next = self.fe.rq_tlast.val();
        self.rq_tkeep.next = self.fe.rq_tkeep.val();
        self.rq_tuser.next = self.fe.rq_tuser.val();
        self.fe.rq_tready.next = self.rq_tready.val();
        self.fe.rc_tdata.next = self.rc_tdata.val();
        self.fe.rc_tvalid.next = self.rc_tvalid.val();
        self.fe.rc_tlast.next = self.rc_tlast.val();
        self.fe.rc_tkeep.next = self.rc_tkeep.val();
        self.fe.rc_tuser.next = self.rc_tuser.val();
        self.rc_tready.next = self.fe.rc_tready.val();
        self.fe.mps_code.next = self.mps_code.val();
        self.fe.mrrs_code.next = self.mrrs_code.val();
        self.rdy.next = self.fe.rdy.val();
        self.cmd_valid.next = self.fe.cmd_valid.val();
        self.cmd_sqid.next = self.fe.cmd_sqid.val();
        self.cmd_w0.next = self.fe.cmd_w0.val();
        self.cmd_w1.next = self.fe.cmd_w1.val();
        self.cmd_w2.next = self.fe.cmd_w2.val();
        self.cmd_w3.next = self.fe.cmd_w3.val();
        self.fe.cmd_stall.next = self.cmd_stall.val();
        self.fe.cpl_valid.next = self.cpl_valid.val();
        self.fe.cpl_sqid.next = self.cpl_sqid.val();
        self.fe.cpl_cid.next = self.cpl_cid.val();
        self.fe.cpl_status.next = self.cpl_status.val();
        self.fe.cpl_dw0.next = self.cpl_dw0.val();
        self.cpl_ready.next = self.fe.cpl_ready.val();
        self.fe.qc_valid.next = self.qc_valid.val();
        self.fe.qc_sq.next = self.qc_sq.val();
        self.fe.qc_del.next = self.qc_del.val();
        self.fe.qc_qid.next = self.qc_qid.val();
        self.fe.qc_base.next = self.qc_base.val();
        self.fe.qc_size.next = self.qc_size.val();
        self.fe.qc_cqid.next = self.qc_cqid.val();
        self.fe.qc_prio.next = self.qc_prio.val();
        self.fe.qc_vec.next = self.qc_vec.val();
        self.fe.qc_ien.next = self.qc_ien.val();
        self.evt_valid.next = self.fe.evt_valid.val();
        self.evt_info.next = self.fe.evt_info.val();
        self.fe.dma_valid.next = self.dma_valid.val();
        self.dma_ready.next = self.fe.dma_ready.val();
        self.fe.dma_to_host.next = self.dma_to_host.val();
        self.fe.dma_prp1.next = self.dma_prp1.val();
        self.fe.dma_prp2.next = self.dma_prp2.val();
        self.fe.dma_len.next = self.dma_len.val();
        self.pb.channel.next = self.dma_channel.val();
        self.pb.way.next = self.dma_way.val();
        self.pb.offset.next = self.dma_offset.val();
        self.dma_done.next = self.fe.dma_done.val();
        self.dma_status.next = self.fe.dma_status.val();
        self.pb_err.next = self.pb.err.val();
        self.map.req_valid.next = self.map_req_valid.val();
        self.map_req_ready.next = self.map.req_ready.val();
        self.map.req_lpn.next = self.map_req_lpn.val();
        self.map.req_update.next = self.map_req_update.val();
        self.map.req_value.next = self.map_req_value.val();
        self.map.req_id.next = self.map_req_id.val();
        self.map_resp_valid.next = self.map.resp_valid.val();
        self.map_resp_id.next = self.map.resp_id.val();
        self.map_resp_data.next = self.map.resp_data.val();
        self.map_dec_valid.next = self.map.dec_valid.val();
        self.map_dec_id.next = self.map.dec_id.val();
        self.map_dec_hit.next = self.map.dec_hit.val();
        self.map_dec_way.next = self.map.dec_way.val();
        self.map_dec_evict.next = self.map.dec_evict.val();
        self.map_dec_evict_lpn.next = self.map.dec_evict_lpn.val();
        self.map_dec_evict_dirty.next = self.map.dec_evict_dirty.val();
        self.map_tp_req_valid.next = self.map.tp_req_valid.val();
        self.map_tp_req_tp.next = self.map.tp_req_tp.val();
        self.map_tp_req_slot.next = self.map.tp_req_slot.val();
        self.map_tp_req_evict_tp.next = self.map.tp_req_evict_tp.val();
        self.map_tp_req_evict_dirty.next = self.map.tp_req_evict_dirty.val();
        self.map.tp_done.next = self.map_tp_done.val();
        self.map_busy.next = self.map.busy.val();
        self.dram_cmd_valid.next = self.map.dram_cmd_valid.val();
        self.map.dram_cmd_ready.next = self.dram_cmd_ready.val();
        self.dram_cmd_write.next = self.map.dram_cmd_write.val();
        self.dram_cmd_addr.next = self.map.dram_cmd_addr.val();
        self.dram_wdata_valid.next = self.map.dram_wdata_valid.val();
        self.map.dram_wdata_ready.next = self.dram_wdata_ready.val();
        self.dram_wdata.next = self.map.dram_wdata.val();
        self.map.dram_rdata_valid.next = self.dram_rdata_valid.val();
        self.map.dram_rdata.next = self.dram_rdata.val();
        self.array.cmd_valid.next = self.nand_cmd_valid.val();
        self.array.cmd_channel.next = self.nand_cmd_channel.val();
        self.array.cmd_way.next = self.nand_cmd_way.val();
        self.array.cmd_op.next = self.nand_cmd_op.val();
        self.array.cmd_array.next = self.nand_cmd_array.val();
        self.nand_cmd_ready.next = self.array.cmd_ready.val();
        // The front end's data beats go to the page buffer (internal; no top-level ports).
        self.pb.take.next = self.dma_valid.val() & self.fe.dma_ready.val();
        self.pb.len.next = self.dma_len.val();
        self.pb.to_host.next = self.dma_to_host.val();
        self.pb.done.next = self.fe.dma_done.val();
        self.pb.wd_valid.next = self.fe.dma_wd_valid.val();
        self.pb.wd_data.next = self.fe.dma_wd_data.val();
        self.pb.wd_dwords.next = self.fe.dma_wd_dwords.val();
        self.pb.wd_last.next = self.fe.dma_wd_last.val();
        self.fe.dma_bd_valid.next = self.pb.bd_valid.val();
        self.fe.dma_bd_data.next = self.pb.bd_data.val();
        self.pb.bd_ready.next = self.fe.dma_bd_ready.val();
        for i in 0..self.phy.len() {
            // An op enters a way queue: the page buffer restarts the way's fill or drain pointer.
            self.pb.start_fill[i].next = self.array.start_fill[i].val();
            self.pb.start_drain[i].next = self.array.start_drain[i].val();
            self.pb.start_half[i].next = self.array.start_half[i].val();
            self.nand_done_valid[i].next = self.array.done_valid[i].val();
            self.nand_done_way[i].next = self.array.done_way[i].val();
            self.array.wr_data[i].next = self.pb.wr_data[i].val();
            self.pb.data_way[i].next = self.array.data_way[i].val();
            self.pb.cmd_we[i].next = self.array.phy[i].we.val() & self.array.phy[i].cle.val();
            self.pb.cmd_byte[i].next = self.array.phy[i].dq_out.val().get_bits::<8>(0);
            self.pb.rd_beat[i].next = self.array.phy[i].rd_beat.val();
            self.pb.wr_beat[i].next = self.array.phy[i].wr_beat.val();
            // The sequencer's beat port drives the ONFI PHY, whose pins are the channel's ports.
            self.onfi[i].clock.next = self.nclk.val();
            self.onfi[i].beat_ce.next = self.array.phy[i].ce.val();
            self.onfi[i].beat_cle.next = self.array.phy[i].cle.val();
            self.onfi[i].beat_ale.next = self.array.phy[i].ale.val();
            self.onfi[i].beat_we.next = self.array.phy[i].we.val();
            self.onfi[i].beat_dq.next = self.array.phy[i].dq_out.val();
            self.onfi[i].beat_wr.next = self.array.phy[i].wr_beat.val();
            self.onfi[i].beat_rd.next = self.array.phy[i].rd_beat.val();
            self.array.phy[i].rb.next = self.onfi[i].beat_rb.val();
            self.array.phy[i].dq_in.next = self.onfi[i].beat_dq_in.val();
            self.array.phy[i].dq_in_valid.next = self.onfi[i].beat_dq_in_valid.val();
            self.phy[i].ce_n.next = self.onfi[i].ce_n.val();
            self.phy[i].cle.next = self.onfi[i].cle.val();
            self.phy[i].ale.next = self.onfi[i].ale.val();
            self.phy[i].we_n.next = self.onfi[i].we_n.val();
            self.phy[i].wp_n.next = self.onfi[i].wp_n.val();
            self.phy[i].re.next = self.onfi[i].re.val();
            self.phy[i].dqs.next = self.onfi[i].dqs.val();
            self.phy[i].dqs_oe.next = self.onfi[i].dqs_oe.val();
            self.phy[i].dq.next = self.onfi[i].dq.val();
            self.phy[i].dq_oe.next = self.onfi[i].dq_oe.val();
            self.onfi[i].rb_n.next = self.phy[i].rb_n.val();
            self.onfi[i].dq_in.next = self.phy[i].dq_in.val();
            self.pb.rd_valid[i].next = self.array.rd_valid[i].val();
            self.pb.rd_data[i].next = self.array.rd_data[i].val();
        }
    }
}
