//! Mapping-table cache in block RAM: the hardware twin of `ssdlab_model::ftl::map_cache`, making
//! the same hit/miss/evict/write-back and translation-page decisions access by access.
//!
//! Structure (tree pseudo-LRU, write-back; sets, ways and line size from `MapCacheConfig`):
//! - **Request pipeline.** Cycle 0: request accepted, set index presented to the tag/meta RAMs.
//!   Cycle 1 (S1, *tag check*): hit/miss and victim decided from the RAM words (with a one-deep
//!   bypass of the write made by the previous request), meta (valid, dirty, PLRU) and tag written
//!   back, a miss allocates an MSHR, a hit reads/writes the data RAM. Cycle 2 (S2): hit response.
//!   Hits sustain one request per cycle.
//! - **Timing structure** (no cycle depends on it). The tag and meta RAMs are read at the input's
//!   set every cycle; a request kept in S1 sees its set's state of the last cycle from hold
//!   registers (no cycle without a decision writes those RAMs). The bypass's set and tag
//!   compares are made while the next request is accepted, the ways with a pending MSHR are
//!   found from registers and the victim's tag comes from the PLRU way, so between the RAMs and
//!   the registers lie only the tag compare, the hit and what depends on them: the chosen way's
//!   PLRU, valid and dirty updates and the stall decision.
//! - **Decision order.** Decisions are made in request order at tag-check time, exactly as the
//!   model's `MapCache::access` makes them one access after another: a miss installs its tag,
//!   marks dirty (if an update) and touches the PLRU *at tag check*, although the data arrives
//!   later. A later request that hits a line whose fill is still pending, or whose victim way is
//!   pending, waits in S1 (its decision is already fixed by the state; only timing changes).
//!   Requests to other lines continue: hit-under-miss.
//! - **Miss engine.** Processes MSHRs in allocation order (= request order), one at a time:
//!   dirty victim -> make its translation page resident -> burst write; then make the missing
//!   line's page resident -> burst read into the data RAM (an update's value merged at its
//!   offset) -> response. This is the model's order of DRAM-level events.
//! - **DRAM table.** Direct-mapped slots of 4 KiB translation pages (`2^LB` slots, slot = tp mod
//!   slots), boot state slot i = page i. A non-resident page raises `tp_req_*` (fetch page, after
//!   writing back the evicted page when dirty); the environment (FTL firmware / test bench) moves
//!   the page between NAND and the DRAM and pulses `tp_done`.
//! - **Memory interface.** One command at a time: `dram_cmd_*` (word address, burst of
//!   `line_entries` 32-bit beats), write beats on `dram_wdata_*` with ready, read beats on
//!   `dram_rdata_*` (no back-pressure: the engine always takes them).
//!
//! Miss latency, clean victim, page resident, engine idle: the response appears
//! `6 + L + (E-1)*I` cycles after the request handshake, where the DRAM delivers the first beat
//! L cycles after the command handshake and one beat every I cycles (E = line_entries); a hit
//! responds 2 cycles after its handshake. State is initialised at configuration (FPGA init
//! values); there is no reset port.
//!
//! Const parameters: `SB` = log2(sets), `OB` = log2(line_entries), `IB` = SB + OB (data RAM index
//! per way), `LB` = log2(DRAM table slots), `W` = ways (2..=16), `WB` = log2(W), `PB` = W - 1
//! (PLRU tree bits). Tags are kept as 32-bit words with the index bits
//! zeroed (so evicted-line addresses need no concatenation); LPNs are 32 bits.

mod elaborate;
mod kernel;
#[cfg(test)]
mod tests;

mod plru_tables;
pub use plru_tables::PlruTables;

use rust_hdl::prelude::*;
use ssdlab_model::config::MapCacheConfig;

/// Miss status holding registers (the count the behavioural pipeline timing models).
pub use ssdlab_model::ftl::map_cache::pipeline::MSHRS;
/// Width of the translation-page number (lpn bits 31..10).
pub const TP_BITS: usize = 22;

/// Miss-engine state.
#[derive(Copy, Clone, PartialEq, Eq, Debug, LogicState)]
pub enum EngineState {
    Idle,
    SlotRead,
    SlotCheck,
    TpWait,
    WbCmd,
    WbRead,
    WbData,
    FillCmd,
    FillData,
    Respond,
}

#[derive(LogicBlock)]
pub struct MapCache<
    const SB: usize,
    const OB: usize,
    const IB: usize,
    const LB: usize,
    const W: usize,
    const WB: usize,
    const PB: usize,
> {
    /// Core clock (one request per cycle on hits).
    pub clock: Signal<In, Clock>,
    /// Request offered this cycle.
    pub req_valid: Signal<In, bool>,
    /// Request taken at the end of this cycle when `req_valid` is also high.
    pub req_ready: Signal<Out, bool>,
    /// Logical page number (4 KiB unit) whose mapping entry is looked up or updated.
    pub req_lpn: Signal<In, Bits<32>>,
    /// High: update the entry to `req_value`; low: lookup.
    pub req_update: Signal<In, bool>,
    /// New entry value (physical page address) for an update.
    pub req_value: Signal<In, Bits<32>>,
    /// Request tag, returned with the response (responses of misses come back out of order).
    pub req_id: Signal<In, Bits<8>>,
    /// A response this cycle (no back-pressure: the consumer must take it).
    pub resp_valid: Signal<Out, bool>,
    /// Tag of the request answered.
    pub resp_id: Signal<Out, Bits<8>>,
    /// Entry value after the access (lookup result, or the value written).
    pub resp_data: Signal<Out, Bits<32>>,
    /// A decision was made this cycle (tag check of one request, in request order).
    pub dec_valid: Signal<Out, bool>,
    /// Tag of the request decided.
    pub dec_id: Signal<Out, Bits<8>>,
    /// The request hit.
    pub dec_hit: Signal<Out, bool>,
    /// Way hit or allocated (0..3).
    pub dec_way: Signal<Out, Bits<WB>>,
    /// A valid line is evicted.
    pub dec_evict: Signal<Out, bool>,
    /// First LPN of the evicted line (meaningful with `dec_evict`).
    pub dec_evict_lpn: Signal<Out, Bits<32>>,
    /// The evicted line is dirty (written back to DRAM).
    pub dec_evict_dirty: Signal<Out, bool>,
    /// DRAM command offered.
    pub dram_cmd_valid: Signal<Out, bool>,
    /// DRAM accepts the command at the end of this cycle.
    pub dram_cmd_ready: Signal<In, bool>,
    /// Command is a line write (else a line read).
    pub dram_cmd_write: Signal<Out, bool>,
    /// DRAM word (32-bit) address of the line's first entry.
    pub dram_cmd_addr: Signal<Out, Bits<32>>,
    /// Write beat offered (32-bit entry).
    pub dram_wdata_valid: Signal<Out, bool>,
    /// DRAM takes the write beat at the end of this cycle.
    pub dram_wdata_ready: Signal<In, bool>,
    /// Write beat data.
    pub dram_wdata: Signal<Out, Bits<32>>,
    /// Read beat present this cycle.
    pub dram_rdata_valid: Signal<In, bool>,
    /// Read beat data (entries in address order).
    pub dram_rdata: Signal<In, Bits<32>>,
    /// Translation-page fetch requested (held until `tp_done`).
    pub tp_req_valid: Signal<Out, bool>,
    /// Translation page (lpn / 1024) to load into DRAM.
    pub tp_req_tp: Signal<Out, Bits<TP_BITS>>,
    /// DRAM slot to load it into.
    pub tp_req_slot: Signal<Out, Bits<LB>>,
    /// Page currently in that slot (replaced).
    pub tp_req_evict_tp: Signal<Out, Bits<TP_BITS>>,
    /// The replaced page was modified: write it to NAND first.
    pub tp_req_evict_dirty: Signal<Out, bool>,
    /// The environment finished the page move (one-cycle pulse).
    pub tp_done: Signal<In, bool>,
    /// Any request in flight (pipeline, MSHRs or miss engine).
    pub busy: Signal<Out, bool>,

    tag_ram: [RAM<Bits<32>, SB>; W],
    valid_ram: RAM<Bits<W>, SB>,
    dirty_ram: RAM<Bits<W>, SB>,
    plru_ram: RAM<Bits<PB>, SB>,
    data_ram: [RAM<Bits<32>, IB>; W],
    slot_tp_ram: RAM<Bits<TP_BITS>, LB>,
    slot_dirty_ram: RAM<bool, LB>,

    s1_valid: DFF<bool>,
    s1_lpn: DFF<Bits<32>>,
    s1_upd: DFF<bool>,
    s1_value: DFF<Bits<32>>,
    s1_id: DFF<Bits<8>>,
    s2_valid: DFF<bool>,
    s2_upd: DFF<bool>,
    s2_value: DFF<Bits<32>>,
    s2_id: DFF<Bits<8>>,
    s2_way_oh: DFF<Bits<W>>,
    fwd_valid: DFF<bool>,
    /// The request behind the one that wrote the bypass registers is in the same set.
    fwd_set_eq: DFF<bool>,
    /// ... and has the tag those registers hold (compared while it was being accepted).
    fwd_tag_eq: DFF<bool>,
    fwd_vbits: DFF<Bits<W>>,
    fwd_dbits: DFF<Bits<W>>,
    fwd_plru: DFF<Bits<PB>>,
    fwd_tag_we: DFF<Bits<W>>,
    fwd_tag: DFF<Bits<32>>,
    /// S1 kept its request last cycle: the hold registers below are its set's state.
    held: DFF<bool>,
    hold_valid: DFF<Bits<W>>,
    hold_dirty: DFF<Bits<W>>,
    hold_plru: DFF<Bits<PB>>,
    hold_tag: [DFF<Bits<32>>; W],
    hold_tag_eq: [DFF<bool>; W],

    m_valid: [DFF<bool>; MSHRS],
    m_lpn: [DFF<Bits<32>>; MSHRS],
    m_way: [DFF<Bits<WB>>; MSHRS],
    m_vlpn: [DFF<Bits<32>>; MSHRS],
    m_vdirty: [DFF<bool>; MSHRS],
    m_upd: [DFF<bool>; MSHRS],
    m_value: [DFF<Bits<32>>; MSHRS],
    m_id: [DFF<Bits<8>>; MSHRS],
    m_head: DFF<Bits<2>>,
    m_tail: DFF<Bits<2>>,

    state: DFF<EngineState>,
    eng_wb: DFF<bool>,
    eng_lpn: DFF<Bits<32>>,
    ev_tp: DFF<Bits<TP_BITS>>,
    ev_dirty: DFF<bool>,
    eng_data: DFF<Bits<32>>,

    c_ob: Constant<Bits<5>>,
    c_tag_mask: Constant<Bits<32>>,
    c_set_mask: Constant<Bits<32>>,
    c_line_mask: Constant<Bits<32>>,
    c_dram_mask: Constant<Bits<32>>,
    c_one32: Constant<Bits<32>>,
    c_last_beat: Constant<Bits<OB>>,
    c_one2: Constant<Bits<2>>,
    c_zero_w: Constant<Bits<W>>,
    c_idx: [Constant<Bits<WB>>; W],
    c_midx: [Constant<Bits<2>>; MSHRS],
    c_oh: [Constant<Bits<W>>; W],
    c_plru_keep: [Constant<Bits<PB>>; W],
    c_plru_set: [Constant<Bits<PB>>; W],
    c_path_mask: [Constant<Bits<PB>>; W],
    c_path_val: [Constant<Bits<PB>>; W],

    in_set: Signal<Local, Bits<SB>>,
    in_tagw: Signal<Local, Bits<32>>,
    s1_set: Signal<Local, Bits<SB>>,
    s1_tagw: Signal<Local, Bits<32>>,
    s1_idx: Signal<Local, Bits<IB>>,
    fwd_hit: Signal<Local, bool>,
    eff_valid: Signal<Local, Bits<W>>,
    eff_dirty: Signal<Local, Bits<W>>,
    eff_plru: Signal<Local, Bits<PB>>,
    eff_tag: [Signal<Local, Bits<32>>; W],
    tag_eq: [Signal<Local, bool>; W],
    m_set_hit: [Signal<Local, bool>; MSHRS],
    pend_way: Signal<Local, Bits<W>>,
    hit_oh: Signal<Local, Bits<W>>,
    hit: Signal<Local, bool>,
    inv_oh: Signal<Local, Bits<W>>,
    inv_found: Signal<Local, bool>,
    plru_oh: Signal<Local, Bits<W>>,
    way_oh: Signal<Local, Bits<W>>,
    way_idx: Signal<Local, Bits<WB>>,
    new_plru: Signal<Local, Bits<PB>>,
    upd_oh: Signal<Local, Bits<W>>,
    evict: Signal<Local, bool>,
    vtag: Signal<Local, Bits<32>>,
    vlpn: Signal<Local, Bits<32>>,
    vdirty: Signal<Local, bool>,
    pend: Signal<Local, bool>,
    mshr_full: Signal<Local, bool>,
    eng_owns: Signal<Local, bool>,
    go: Signal<Local, bool>,
    h_valid: Signal<Local, bool>,
    h_lpn: Signal<Local, Bits<32>>,
    h_way: Signal<Local, Bits<WB>>,
    h_vlpn: Signal<Local, Bits<32>>,
    h_vdirty: Signal<Local, bool>,
    h_upd: Signal<Local, bool>,
    h_value: Signal<Local, Bits<32>>,
    h_id: Signal<Local, Bits<8>>,
    eng_next: Signal<Local, Bits<32>>,
    eng_tp: Signal<Local, Bits<TP_BITS>>,
    eng_slot: Signal<Local, Bits<LB>>,
}

/// The instance exported by `make verilog` and synthesized by `make synth`: 64 sets x 4 ways x 8
/// entries (8 KiB of entries, fits an iCE40 HX8K's block RAM), 256 DRAM table slots (1 MiB).
pub type MapCacheExport = MapCache<6, 3, 9, 8, 4, 2, 3>;

/// Config matching [`MapCacheExport`].
pub fn export_config() -> MapCacheConfig {
    MapCacheConfig {
        sets: 64,
        ways: 4,
        line_entries: 8,
        dram_table_mb: 1,
    }
}

/// Generated Verilog of the exported instance (top module `top`).
pub fn export_verilog() -> String {
    crate::verilog_of(
        MapCacheExport::new(&export_config()).expect("export config matches the export instance"),
    )
}
