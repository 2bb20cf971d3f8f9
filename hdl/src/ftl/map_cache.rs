//! Mapping-table cache in block RAM: the hardware twin of `ssdlab_model::ftl::map_cache`, making
//! the same hit/miss/evict/write-back and translation-page decisions access by access.
//!
//! Structure (tree pseudo-LRU, write-back; sets, ways and line size from `MapCacheConfig`):
//! - **Request pipeline.** Cycle 0: request accepted, set index presented to the tag/meta RAMs.
//!   Cycle 1 (S1, *tag check*): hit/miss and victim decided from the RAM words (with a one-deep
//!   bypass of the write made by the previous request), meta (valid, dirty, PLRU) and tag written
//!   back, a miss allocates an MSHR, a hit reads/writes the data RAM. Cycle 2 (S2): hit response.
//!   Hits sustain one request per cycle.
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

mod kernel;
#[cfg(test)]
mod sim_tests;
#[cfg(test)]
mod tests;

pub mod bench;
pub mod dram_model;
mod plru_tables;
pub use plru_tables::PlruTables;
pub mod traces;

use rust_hdl::prelude::*;
use ssdlab_model::config::MapCacheConfig;
use ssdlab_model::error::ConfigError;
use std::collections::BTreeMap;

/// Miss status holding registers.
pub const MSHRS: usize = 4;
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
    /// First LPN of the evicted line.
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
    fwd_set: DFF<Bits<SB>>,
    fwd_vbits: DFF<Bits<W>>,
    fwd_dbits: DFF<Bits<W>>,
    fwd_plru: DFF<Bits<PB>>,
    fwd_tag_we: DFF<Bits<W>>,
    fwd_tag: DFF<Bits<32>>,

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
    s1_set: Signal<Local, Bits<SB>>,
    s1_tagw: Signal<Local, Bits<32>>,
    s1_idx: Signal<Local, Bits<IB>>,
    fwd_hit: Signal<Local, bool>,
    eff_valid: Signal<Local, Bits<W>>,
    eff_dirty: Signal<Local, Bits<W>>,
    eff_plru: Signal<Local, Bits<PB>>,
    eff_tag: [Signal<Local, Bits<32>>; W],
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

fn c<T: Synth>(v: T) -> Constant<T> {
    Constant::new(v)
}

fn c32(v: u64) -> Constant<Bits<32>> {
    Constant::new(Bits::<32>::from(v as u64 & 0xFFFF_FFFF))
}

impl<const SB: usize, const OB: usize, const IB: usize, const LB: usize, const W: usize, const WB: usize, const PB: usize>
    MapCache<SB, OB, IB, LB, W, WB, PB>
{
    /// Elaborate for `cfg`; the const parameters must match it (checked, naming the field).
    pub fn new(cfg: &MapCacheConfig) -> Result<Self, ConfigError> {
        let bad = |f: &str, why: String| Err(ConfigError::invalid(format!("ftl.map_cache.{f}"), why));
        if cfg.ways as usize != W || W < 2 || W > 16 {
            return bad("ways", format!("HDL instance has {W} ways (2..=16), config has {}", cfg.ways));
        }
        assert!(1 << WB == W && PB == W - 1, "WB must be log2(W) and PB = W - 1");
        if !cfg.sets.is_power_of_two() || 1u64 << SB != cfg.sets as u64 || SB == 0 {
            return bad("sets", format!("HDL instance has 2^{SB} sets (>= 2), config has {}", cfg.sets));
        }
        if !cfg.line_entries.is_power_of_two() || 1u64 << OB != cfg.line_entries as u64 || OB == 0 {
            return bad("line_entries", format!("HDL instance has 2^{OB} entries per line (>= 2), config has {}", cfg.line_entries));
        }
        if cfg.dram_table_mb as u64 * 256 != 1u64 << LB {
            return bad("dram_table_mb", format!("HDL instance has 2^{LB} translation-page slots = {} MiB, config has {} MiB", (1u64 << LB) / 256, cfg.dram_table_mb));
        }
        assert_eq!(IB, SB + OB, "IB must be SB + OB");
        assert!(SB + OB + LB <= 32 && OB <= 10 && LB + 10 <= 32, "address fields exceed the 32-bit LPN");
        let slot_init: BTreeMap<Bits<LB>, Bits<TP_BITS>> =
            (0..1u64 << LB).map(|i| (Bits::<LB>::from(i as u64), Bits::<TP_BITS>::from(i as u64))).collect();
        let plru = PlruTables::from_model(W);
        Ok(MapCache {
            clock: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_lpn: Default::default(),
            req_update: Default::default(),
            req_value: Default::default(),
            req_id: Default::default(),
            resp_valid: Default::default(),
            resp_id: Default::default(),
            resp_data: Default::default(),
            dec_valid: Default::default(),
            dec_id: Default::default(),
            dec_hit: Default::default(),
            dec_way: Default::default(),
            dec_evict: Default::default(),
            dec_evict_lpn: Default::default(),
            dec_evict_dirty: Default::default(),
            dram_cmd_valid: Default::default(),
            dram_cmd_ready: Default::default(),
            dram_cmd_write: Default::default(),
            dram_cmd_addr: Default::default(),
            dram_wdata_valid: Default::default(),
            dram_wdata_ready: Default::default(),
            dram_wdata: Default::default(),
            dram_rdata_valid: Default::default(),
            dram_rdata: Default::default(),
            tp_req_valid: Default::default(),
            tp_req_tp: Default::default(),
            tp_req_slot: Default::default(),
            tp_req_evict_tp: Default::default(),
            tp_req_evict_dirty: Default::default(),
            tp_done: Default::default(),
            busy: Default::default(),
            tag_ram: std::array::from_fn(|_| Default::default()),
            valid_ram: Default::default(),
            dirty_ram: Default::default(),
            plru_ram: Default::default(),
            data_ram: std::array::from_fn(|_| Default::default()),
            slot_tp_ram: RAM::new(slot_init),
            slot_dirty_ram: Default::default(),
            s1_valid: Default::default(),
            s1_lpn: Default::default(),
            s1_upd: Default::default(),
            s1_value: Default::default(),
            s1_id: Default::default(),
            s2_valid: Default::default(),
            s2_upd: Default::default(),
            s2_value: Default::default(),
            s2_id: Default::default(),
            s2_way_oh: Default::default(),
            fwd_valid: Default::default(),
            fwd_set: Default::default(),
            fwd_vbits: Default::default(),
            fwd_dbits: Default::default(),
            fwd_plru: Default::default(),
            fwd_tag_we: Default::default(),
            fwd_tag: Default::default(),
            m_valid: std::array::from_fn(|_| Default::default()),
            m_lpn: std::array::from_fn(|_| Default::default()),
            m_way: std::array::from_fn(|_| Default::default()),
            m_vlpn: std::array::from_fn(|_| Default::default()),
            m_vdirty: std::array::from_fn(|_| Default::default()),
            m_upd: std::array::from_fn(|_| Default::default()),
            m_value: std::array::from_fn(|_| Default::default()),
            m_id: std::array::from_fn(|_| Default::default()),
            m_head: Default::default(),
            m_tail: Default::default(),
            state: Default::default(),
            eng_wb: Default::default(),
            eng_lpn: Default::default(),
            ev_tp: Default::default(),
            ev_dirty: Default::default(),
            eng_data: Default::default(),
            c_ob: c(Bits::<5>::from(OB as u64)),
            c_tag_mask: c32(!((1u64 << (SB + OB)) - 1)),
            c_set_mask: c32(((1u64 << SB) - 1) << OB),
            c_line_mask: c32(!((1u64 << OB) - 1)),
            c_dram_mask: c32((1u64 << (10 + LB)) - 1),
            c_one32: c32(1),
            c_last_beat: c(Bits::<OB>::from(((1u64 << OB) - 1) as u64)),
            c_one2: c(Bits::<2>::from(1u64)),
            c_zero_w: c(Bits::<W>::from(0u64)),
            c_idx: std::array::from_fn(|w| c(Bits::<WB>::from(w as u64))),
            c_midx: std::array::from_fn(|m| c(Bits::<2>::from(m as u64))),
            c_oh: std::array::from_fn(|w| c(Bits::<W>::from(1u64 << w))),
            // The replacement policy is tabulated from the model's TreePlru at elaboration, so
            // both sides run the same policy by construction.
            c_plru_keep: std::array::from_fn(|w| c(Bits::<PB>::from(plru.keep[w]))),
            c_plru_set: std::array::from_fn(|w| c(Bits::<PB>::from(plru.set[w]))),
            c_path_mask: std::array::from_fn(|w| c(Bits::<PB>::from(plru.path_mask[w]))),
            c_path_val: std::array::from_fn(|w| c(Bits::<PB>::from(plru.path_val[w]))),
            in_set: Default::default(),
            s1_set: Default::default(),
            s1_tagw: Default::default(),
            s1_idx: Default::default(),
            fwd_hit: Default::default(),
            eff_valid: Default::default(),
            eff_dirty: Default::default(),
            eff_plru: Default::default(),
            eff_tag: std::array::from_fn(|_| Default::default()),
            hit_oh: Default::default(),
            hit: Default::default(),
            inv_oh: Default::default(),
            inv_found: Default::default(),
            plru_oh: Default::default(),
            way_oh: Default::default(),
            way_idx: Default::default(),
            new_plru: Default::default(),
            upd_oh: Default::default(),
            evict: Default::default(),
            vtag: Default::default(),
            vlpn: Default::default(),
            vdirty: Default::default(),
            pend: Default::default(),
            mshr_full: Default::default(),
            eng_owns: Default::default(),
            go: Default::default(),
            h_valid: Default::default(),
            h_lpn: Default::default(),
            h_way: Default::default(),
            h_vlpn: Default::default(),
            h_vdirty: Default::default(),
            h_upd: Default::default(),
            h_value: Default::default(),
            h_id: Default::default(),
            eng_next: Default::default(),
            eng_tp: Default::default(),
            eng_slot: Default::default(),
        })
    }
}

/// The instance exported by `make verilog` and synthesized by `make synth`: 64 sets x 4 ways x 8
/// entries (8 KiB of entries, fits an iCE40 HX8K's block RAM), 256 DRAM table slots (1 MiB).
pub type MapCacheExport = MapCache<6, 3, 9, 8, 4, 2, 3>;

/// Config matching [`MapCacheExport`].
pub fn export_config() -> MapCacheConfig {
    MapCacheConfig { sets: 64, ways: 4, line_entries: 8, dram_table_mb: 1 }
}

/// Generated Verilog of the exported instance (top module `top`).
pub fn export_verilog() -> String {
        crate::verilog_of(MapCacheExport::new(&export_config()).expect("export config matches the export instance"))
}
