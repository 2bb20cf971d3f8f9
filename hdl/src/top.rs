//! The controller datapath top level (docs/hdl.md): block [`Datapath`],
//! exported as Verilog `module ssdlab_datapath` (`datapath.v`). It composes the NVMe front end with its PRP data path
//! (`nvme::frontend::NvmeFrontEnd`), the NAND sequencer array (`nand::array::NandArray`, the
//! drive's channels x ways),
//! the mapping-table cache (`ftl::map_cache::MapCacheExport`) and the page buffer between NAND
//! and PCIe ([`page_buffer::PageBuffer`]).
//!
//! **Hardware / firmware split.** The hardware moves data and runs protocols: TLPs, NVMe queues,
//! PRP walks, ONFI bus phases, mapping-cache lookups, page-buffer fills and drains. Policy — which
//! LPN maps where, block allocation, GC, when to read/program/erase, when to move data, when to
//! complete a command — is firmware's and is *not* here: it drives the firmware port (commands
//! `cmd_*`, completions `cpl_*`, queue config `qc_*`, events `evt_*`, mapping lookups `map_*`,
//! NAND ops `nand_*`, data moves `dma_*`). In the co-simulation the behavioural model's FTL
//! plays firmware. The firmware never touches data; the hardware never decides policy.
//!
//! **Clocks.** `clock` is the PCIe user clock (250 MHz, PG213): the front end, the mapping
//! cache, the firmware port and the page buffer's DMA side run on it, and the behavioural front
//! end counts its cycles (`nvme::frontend::tlp::CLOCK_PS`). The NAND sequencers run on
//! `nand_clock` at `onfi.core_clock_mhz` (200 MHz in the presets: 800 MT/s at 4 bytes per
//! cycle), with NAND timing counts from `HdlTiming` at that clock. When it is not 250 MHz
//! ([`crosses_clocks`]) each channel's ops and completions cross through a pair of
//! asynchronous FIFOs (`nand::array`, "Clocks"; their model is
//! `ssdlab_model::ctrl::nand_crossing`, which the `Drive` charges on every NAND op), and the
//! page-buffer regions are true dual-port RAM, one port per clock (`lane_ram`), so data never
//! crosses through a FIFO. At 250 MHz the sequencers run on `clock` and `nand_clock` is unused.
//! [`Datapath::new`] refuses a sequencer clock above 250 MHz and NAND beats other than 1, 2 or
//! 4 bytes per sequencer cycle ([`small_drive_config`]: 250 MHz, 1000 MT/s, one clock).
//!
//! **Geometry.** Elaborated from `cfg.geometry`: `channels` (1-16) NAND channels of
//! `ways_per_channel` (1-8) ways each, one die per way, one page-buffer region per (channel,
//! way). Channel ids on the ports are 4 bits and way ids 3 bits whatever the geometry; a NAND op
//! naming a channel or way the drive lacks is never taken (`nand_cmd_ready` stays low), and a
//! data move naming one sets `pb_err`. Each channel's CE and R/B# vectors are 8 bits, bit w =
//! way w; the bits of ways the channel lacks stay 0 (CE) or are not read (R/B#).
//!
//! **Page buffer.** One region per (channel, way) of `region_bytes` (the largest data op, a
//! one-shot program of planes x bits per cell x (page + spare), in whole 16 KiB banks:
//! `ssdlab_model::ctrl::page_buffer::region_bytes`), held as four 32-bit
//! lanes (NAND word k in lane k mod 4, row k / 4), so the NAND side moves up to one 4-byte word
//! per cycle per channel while the DMA side moves one 16-byte beat per cycle. Narrower NAND
//! beats (1 or 2 bytes at 250 / 500 MT/s) are packed into the words by each channel's buffer
//! (`channel_buffer::ChannelBuffer`, "NAND beat width"); every data phase then moves whole words
//! (page and spare sizes multiples of 4, checked). A read op accepted on
//! (c, w) fills region (c, w) from offset 0 in data order; a program op on (c, w) takes its data
//! from region (c, w) from offset 0; with op bit 68 (`nand::op::HALF_LSB`) either starts at
//! the region's upper half instead. Firmware rule: each half (or the whole region) holds one
//! data op's data at a time — a program is issued only after the DMA into its data completed,
//! and the next data op into the same bytes only after the previous one's data has been moved
//! (DMA done for reads; op done for programs). Byte order: transfer order, byte 0 in bits 7:0.
//! Cost: channels x ways x banks x 4 RAMB36 (the co-simulation geometry: 8 x 4 x 1 x 4 = 128
//! RAMB36, 512 KiB; sm2262-512g: 8 x 2 x 7 x 4 = 448, 1.75 MiB); `hdl/synth-report.txt` has the
//! LUTs of the write and read muxes. It does not fit iCE40, whose block RAM has no second
//! write port.
//!
//! **Ports** (Verilog names; rust-hdl arrays appear as `name$i`), as in docs/hdl.md:
//! PCIe user side `cq_*`, `cc_*`, `rq_*`, `rc_*`, `mps_code`, `mrrs_code`; NAND pins `phy$i$*`;
//! DRAM `dram_*`; firmware port `cmd_*`, `cpl_*`, `qc_*`, `evt_*`, `rdy`, `map_*`, `nand_*`,
//! `dma_*`. Additions to the contract: `pb_err` (sticky page-buffer error, see
//! [`page_buffer::PageBuffer`]). `dma_offset` is 32 bits.
//!
//! **DMA latency** (derived register by register; asserted on `PrpDma` by
//! `tests::dma_latency_matches_the_documented_derivation` and on the whole top by
//! `testbench/tests/top_dma_latency.rs`). Handshake (`dma_valid & dma_ready`) in cycle 0;
//! everything between the top's ports and `PrpDma` is wiring. A move without a PRP list (PRP1
//! alone, or PRP2 as the second entry): cycle 1 the walker (`prp::walk`) has latched
//! PRP1/PRP2/length (`Idle -> Check`); 2 it has screened them (`Check -> Segs`) and offers the
//! first segment, which the splitter takes; 3 the splitter's `active` register offers the first
//! request, which `prp::read_data` loads (an MWr descriptor, or `prp::write_data`'s MRd through
//! it); 4 `read_data`'s stream register drives the data path's RQ stream and the idle requester mux
//! (`pcie::rq_mux`) locks onto it; 5 the descriptor is on `rq_tvalid`: [`DMA_START_CYCLES`] =
//! 5, both directions, where the behavioural `FrontEnd::transfer` sends its first TLP in the
//! cycle it is started. The page buffer's read priming is off this path: `bd_valid` rises in
//! cycle 2, the first payload beat is loaded in cycle 5. A PRP list read first takes one cycle
//! more (the walker's `ListStart` state: 6). The end: `done` is one register (`read_data.dn` /
//! `write_data.dn`) set by the last beat, so `dma_done` rises the cycle after the last MWr payload
//! beat is taken, or after the last completion beat arrives (one more cycle when the length
//! ends inside a 16-byte beat: the 1-3 dword residue goes out alone) — the behavioural
//! transfer's own end (requester port free = last beat + 1; last completion + 1):
//! [`DMA_END_CYCLES`] = 0.
//! Between TLPs: the requester mux stays on the data path for a packet that follows at once
//! (`pcie::rq_mux`), so data-path TLPs leave one per max(beats, link time), as the behavioural
//! port sends them, and an SQ fetch or CQE waiting at a packet's last beat goes next
//! (`FrontEnd::step_move`). A 4 KiB MWr move at MPS 256 on Gen3 x4 is link bound: headers at
//! 5 + (0, 18, 36, 54, 72, 89, ...) and `dma_done` at 5 + 267 + 17 = 289, the behavioural
//! transfer's end.

pub mod channel_buffer;
pub mod clock_crossing;
pub mod lane_ram;
pub mod page_buffer;
pub mod region;

use crate::ftl::map_cache::{self, MapCacheExport};
use crate::nand::array::NandArray;
use crate::nand::phy::OnfiPhy;
use crate::nand::timing::HdlTiming;
use crate::nvme::arbiter::Arbitration;
use crate::nvme::frontend::NvmeFrontEnd;
use page_buffer::PageBuffer;
use region::{BANK_BYTES, MAX_BANKS};
use rust_hdl::prelude::*;
use ssdlab_model::config::{DriveConfig, MapCacheConfig};
use ssdlab_model::ctrl::page_buffer::{one_shot_program_bytes, region_banks};
use ssdlab_model::nand::phy::PhyTiming;

/// Width of a region's row address (16-byte rows): regions up to 256 KiB, 16 banks (4 planes x
/// 3 TLC pages of 18 592 B: 223 104 B).
pub const ROW_BITS: usize = 14;
/// Cycles from the `dma` handshake to the first TLP on `rq_tvalid`, beyond what the behavioural
/// `FrontEnd::transfer` charges (none), and from the behavioural transfer's end (last beat + 1)
/// to `dma_done`: see the module doc's "DMA latency" (no PRP list). Defined once, in the page
/// buffer's behavioural model, which the `Drive` runs.
pub use ssdlab_model::ctrl::page_buffer::{DMA_END_CYCLES, DMA_START_CYCLES};
/// Core clock of the datapath, MHz (the front end's clock; see the module doc).
pub const CORE_CLOCK_MHZ: u32 = 250;

/// Four 32-bit lanes as one 128-bit row (lane 0 in bits 31:0).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Lanes4 {
    pub l0: Bits<32>,
    pub l1: Bits<32>,
    pub l2: Bits<32>,
    pub l3: Bits<32>,
}

mod datapath;
pub use datapath::{Datapath, NAND_CLOCK_PORTS as DATAPATH_NAND_CLOCK_PORTS};

/// The small drive the co-simulation runs on: the default preset with 4 KiB pages + 256 B spare,
/// 2 planes, SLC-native (a program moves one page per plane, as the co-simulation's
/// `cosim_config`), 8 channels x 4 ways x 1 die, and the datapath's clock (250 MHz core clock,
/// 1000 MT/s = 4 bytes per cycle).
pub fn small_drive_config() -> DriveConfig {
    let mut cfg = DriveConfig::default_drive();
    let g = &mut cfg.geometry;
    (
        g.channels,
        g.ways_per_channel,
        g.dies_per_way,
        g.planes_per_die,
    ) = (8, 4, 1, 2);
    (g.page_bytes, g.spare_bytes, g.bits_per_cell) = (4096, 256, 1);
    cfg.onfi.core_clock_mhz = CORE_CLOCK_MHZ;
    cfg.onfi.transfer_mts = 4 * CORE_CLOCK_MHZ;
    cfg
}

/// The mapping-cache configuration of the top's `MapCacheExport` instance.
pub fn map_cache_config() -> MapCacheConfig {
    map_cache::export_config()
}

impl Datapath {
    /// Elaborates the datapath for `cfg`. The error names every config field that does not fit,
    /// one per line (`checked_timing`), so a preset's report says all that the HDL still lacks.
    pub fn new(cfg: &DriveConfig) -> Result<Self, String> {
        let t = checked_timing(cfg).map_err(|refused| refused.join("\n"))?;
        let time = ssdlab_model::nvme::frontend::msix::coalesce_time_cycles(&cfg.nvme);
        let fe = NvmeFrontEnd::new(
            cfg.nvme.queue_entries,
            cfg.nvme.irq_coalesce_count,
            time,
            Arbitration::RoundRobin,
        );
        let map = MapCacheExport::new(&map_cache_config()).map_err(|e| e.to_string())?;
        let g = &cfg.geometry;
        let cross = crosses_clocks(cfg);
        let array = NandArray::new(&t, g.channels as usize, g.ways_per_channel as usize, cross);
        let phy = PhyTiming::new(&cfg.onfi).map_err(|e| e.to_string())?;
        let onfi = (0..g.channels)
            .map(|_| OnfiPhy::from_timing(&phy))
            .collect();
        Ok(Datapath::assemble(
            fe,
            array,
            map,
            page_buffer_for(cfg)?,
            onfi,
            cross,
        ))
    }
}

/// Why the page buffer and the NAND array cannot be elaborated for `cfg`, each naming its config
/// field and the limit (empty: they can): the NAND beat width, whole-word data phases, the
/// array's channels, ways and dies (`nand::array_geometry`), planes, and the region size.
pub fn geometry_refusals(cfg: &DriveConfig) -> Vec<String> {
    let mut why = Vec::new();
    let bpc = cfg.onfi.bytes_per_cycle();
    let packs = matches!(bpc, 1 | 2 | 4);
    if !packs {
        why.push(format!(
            "onfi.transfer_mts: {} MT/s = {bpc} bytes per core cycle; the page buffer packs 1, 2 or 4-byte NAND beats into 4-byte words (set {}, {} or {} MT/s)",
            cfg.onfi.transfer_mts,
            cfg.onfi.core_clock_mhz,
            2 * cfg.onfi.core_clock_mhz,
            4 * cfg.onfi.core_clock_mhz
        ));
    }
    let g = &cfg.geometry;
    let fits = |bytes| ssdlab_model::ctrl::channel_buffer::ChannelBuffer::phase_fits(bpc, bytes);
    if packs && (!fits(g.page_bytes) || !fits(g.spare_bytes)) {
        why.push(format!(
            "geometry.page_bytes / spare_bytes: {} / {} B; with {bpc}-byte NAND beats every data phase must move whole 4-byte words",
            g.page_bytes, g.spare_bytes
        ));
    }
    if let Err(e) = crate::nand::array_geometry(cfg) {
        why.extend(e);
    }
    if !(1..=4).contains(&g.planes_per_die) {
        why.push(format!(
            "geometry.planes_per_die: {}; a NAND op word addresses 1..=4 planes",
            g.planes_per_die
        ));
    }
    let banks = region_banks(g);
    if banks > MAX_BANKS as u64 {
        why.push(format!(
            "geometry.page_bytes: planes x bits per cell x (page + spare) = {} B (a one-shot program) needs {banks} banks of {BANK_BYTES} B; a page-buffer region has at most {MAX_BANKS} ({} B)",
            one_shot_program_bytes(g),
            MAX_BANKS as u64 * BANK_BYTES
        ));
    }
    why
}

/// The page buffer for `cfg`'s geometry, or why it cannot be built ([`geometry_refusals`]).
pub fn page_buffer_for(cfg: &DriveConfig) -> Result<PageBuffer, String> {
    let why = geometry_refusals(cfg);
    if !why.is_empty() {
        return Err(why.join("\n"));
    }
    let g = &cfg.geometry;
    Ok(PageBuffer::new(
        cfg.onfi.bytes_per_cycle(),
        ssdlab_model::nand::phy::read_return_cycles(&cfg.onfi),
        g.channels as usize,
        g.ways_per_channel as usize,
        region_banks(g) as usize,
    ))
}

/// Whether `cfg`'s NAND sequencers run on a clock of their own (`onfi.core_clock_mhz` other
/// than the PCIe user clock's 250 MHz): the NAND array then crosses ops and completions through
/// FIFOs (`nand::array`), as the model's `NandCrossing` charges.
pub fn crosses_clocks(cfg: &DriveConfig) -> bool {
    ssdlab_model::ctrl::nand_crossing::NandCrossing::new(&cfg.onfi).is_some()
}

/// The sequencer's timing for `cfg`, or every reason the datapath cannot be elaborated for it,
/// each naming its config field and the limit: the sequencer clock, then [`geometry_refusals`],
/// then the timing counts.
pub fn checked_timing(cfg: &DriveConfig) -> Result<HdlTiming, Vec<String>> {
    let mut why = Vec::new();
    if cfg.onfi.core_clock_mhz > CORE_CLOCK_MHZ {
        why.push(format!(
            "onfi.core_clock_mhz: {} MHz; a sequencer clock above the PCIe user clock ({CORE_CLOCK_MHZ} MHz) could complete ops faster than the completion FIFOs drain",
            cfg.onfi.core_clock_mhz
        ));
    }
    why.extend(geometry_refusals(cfg));
    if let Err(e) = PhyTiming::new(&cfg.onfi) {
        why.push(e.to_string());
    }
    match HdlTiming::new(&cfg.onfi, crate::nand::plane_stride(cfg))
        .and_then(|t| t.with_suspend(&cfg.nand.suspend))
    {
        Ok(t) if why.is_empty() => Ok(t),
        Ok(_) => Err(why),
        Err(e) => {
            why.push(e);
            Err(why)
        }
    }
}

impl Datapath {
    /// The block around its four children, every port at its default.
    fn assemble(
        fe: NvmeFrontEnd,
        array: NandArray,
        map: MapCacheExport,
        pb: PageBuffer,
        onfi: Vec<OnfiPhy>,
        cross: bool,
    ) -> Self {
        let channels = array.channels();
        crate::elab::with_defaults!(Datapath {
            crossed: Constant::new(cross),
            nand_done_valid: crate::elab::vec_of(channels),
            nand_done_way: crate::elab::vec_of(channels),
            phy: crate::elab::vec_of(channels),
            fe,
            array,
            map,
            pb,
            onfi,
        } defaults {
            clock, nand_clock, nclk, cq_tdata, cq_tvalid, cq_tlast, cq_tkeep, cq_tuser, cq_tready, cc_tdata, cc_tvalid, cc_tlast,
            cc_tkeep, cc_tuser, cc_tready, rq_tdata, rq_tvalid, rq_tlast, rq_tkeep, rq_tuser, rq_tready,
            rc_tdata, rc_tvalid, rc_tlast, rc_tkeep, rc_tuser, rc_tready, mps_code, mrrs_code, rdy,
            cmd_valid, cmd_sqid, cmd_w0, cmd_w1, cmd_w2, cmd_w3, cmd_stall, cpl_valid, cpl_sqid, cpl_cid,
            cpl_status, cpl_dw0, cpl_ready, qc_valid, qc_sq, qc_del, qc_qid, qc_base, qc_size, qc_cqid, qc_prio,
            qc_vec, qc_ien, evt_valid, evt_info, dma_valid, dma_ready, dma_to_host, dma_prp1, dma_prp2, dma_len,
            dma_channel, dma_way, dma_offset, dma_done, dma_status, pb_err, map_req_valid, map_req_ready,
            map_req_lpn, map_req_update, map_req_value, map_req_id, map_resp_valid, map_resp_id, map_resp_data,
            map_dec_valid, map_dec_id, map_dec_hit, map_dec_way, map_dec_evict, map_dec_evict_lpn,
            map_dec_evict_dirty, map_tp_req_valid, map_tp_req_tp, map_tp_req_slot, map_tp_req_evict_tp,
            map_tp_req_evict_dirty, map_tp_done, map_busy, dram_cmd_valid, dram_cmd_ready, dram_cmd_write,
            dram_cmd_addr, dram_wdata_valid, dram_wdata_ready, dram_wdata, dram_rdata_valid, dram_rdata,
            nand_cmd_valid, nand_cmd_channel, nand_cmd_way, nand_cmd_op, nand_cmd_array, nand_cmd_ready,
        })
    }
}

impl Datapath {
    /// Settles the combinational logic after inputs or the clock changed (at most 512 passes).
    pub fn settle(&mut self) {
        crate::settle(self, 512, "datapath");
    }
}

/// Stack for elaborating the datapath: the block is ~0.7 MB by value and rust-hdl's
/// construction, `connect_all` and Verilog generation move and recurse through it.
pub const BUILD_STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a thread with [`BUILD_STACK_BYTES`] of stack.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let h = std::thread::Builder::new()
        .stack_size(BUILD_STACK_BYTES)
        .spawn(f)
        .expect("spawn the elaboration thread");
    h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
}

impl Datapath {
    /// [`Datapath::new`] on the heap, elaborated on a big-stack thread (what benches use).
    pub fn new_boxed(cfg: &DriveConfig) -> Result<Box<Self>, String> {
        let cfg = cfg.clone();
        on_big_stack(move || Datapath::new(&cfg).map(Box::new))
    }
}

/// Generated Verilog of the datapath for `cfg` (rust-hdl's form, top module `top`; `make verilog`
/// writes it through `crate::export` as `module ssdlab_datapath`).
pub fn export_verilog(cfg: &DriveConfig) -> Result<String, String> {
    let cfg = cfg.clone();
    on_big_stack(move || Ok(crate::verilog_of(Datapath::new(&cfg)?)))
}

/// The Verilog `make verilog` writes for this area: the page buffer, and the whole datapath
/// elaborated for `cfg` (or the error of [`Datapath::new`], naming the field it refuses).
pub fn verilog_blocks(cfg: &DriveConfig) -> Vec<(&'static str, Result<String, String>)> {
    vec![
        ("page_buffer", page_buffer_for(cfg).map(crate::verilog_of)),
        ("datapath", export_verilog(cfg)),
    ]
}

#[cfg(test)]
mod tests;
