//! Elaboration of the mapping-table cache [`MapCache`]: the const parameters checked against
//! `MapCacheConfig` (naming the `ftl.map_cache.*` field), the DRAM table's boot state (slot i
//! holds translation page i), the address masks of the tag/set/offset split, and the
//! replacement policy tabulated from the model's tree pseudo-LRU (`PlruTables`).

use super::{MapCache, PlruTables, TP_BITS};
use rust_hdl::prelude::*;
use ssdlab_model::config::MapCacheConfig;
use ssdlab_model::error::ConfigError;
use std::collections::BTreeMap;

fn c<T: Synth>(v: T) -> Constant<T> {
    Constant::new(v)
}

fn c32(v: u64) -> Constant<Bits<32>> {
    Constant::new(Bits::<32>::from(v & 0xFFFF_FFFF))
}

impl<
        const SB: usize,
        const OB: usize,
        const IB: usize,
        const LB: usize,
        const W: usize,
        const WB: usize,
        const PB: usize,
    > MapCache<SB, OB, IB, LB, W, WB, PB>
{
    /// Elaborate for `cfg`; the const parameters must match it (checked, naming the field).
    pub fn new(cfg: &MapCacheConfig) -> Result<Self, ConfigError> {
        check_config::<SB, OB, IB, LB, W, WB, PB>(cfg)?;
        let slot_init: BTreeMap<Bits<LB>, Bits<TP_BITS>> = (0..1u64 << LB)
            .map(|i| (Bits::<LB>::from(i), Bits::<TP_BITS>::from(i)))
            .collect();
        let plru = PlruTables::from_model(W);
        Ok(crate::elab::with_defaults!(MapCache {
            slot_tp_ram: RAM::new(slot_init),
            c_ob: c(Bits::<5>::from(OB as u64)),
            c_tag_mask: c32(!((1u64 << (SB + OB)) - 1)),
            c_set_mask: c32(((1u64 << SB) - 1) << OB),
            c_line_mask: c32(!((1u64 << OB) - 1)),
            c_dram_mask: c32((1u64 << (10 + LB)) - 1),
            c_one32: c32(1),
            c_last_beat: c(Bits::<OB>::from((1u64 << OB) - 1)),
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
        } defaults {
            clock, req_valid, req_ready, req_lpn, req_update, req_value, req_id, resp_valid, resp_id, resp_data,
            dec_valid, dec_id, dec_hit, dec_way, dec_evict, dec_evict_lpn, dec_evict_dirty, dram_cmd_valid,
            dram_cmd_ready, dram_cmd_write, dram_cmd_addr, dram_wdata_valid, dram_wdata_ready, dram_wdata,
            dram_rdata_valid, dram_rdata, tp_req_valid, tp_req_tp, tp_req_slot, tp_req_evict_tp,
            tp_req_evict_dirty, tp_done, busy, valid_ram, dirty_ram, plru_ram, slot_dirty_ram, s1_valid, s1_lpn,
            s1_upd, s1_value, s1_id, s2_valid, s2_upd, s2_value, s2_id, s2_way_oh, fwd_valid, fwd_set_eq, fwd_tag_eq,
            fwd_vbits, fwd_dbits, fwd_plru, fwd_tag_we, fwd_tag, held, hold_valid, hold_dirty, hold_plru, m_head, m_tail, state, eng_wb, eng_lpn, ev_tp,
            ev_dirty, eng_data, in_set, in_tagw, pend_way, s1_set, s1_tagw, s1_idx, fwd_hit, eff_valid, eff_dirty, eff_plru,
            hit_oh, hit, inv_oh, inv_found, plru_oh, way_oh, way_idx, new_plru, upd_oh, evict, vtag, vlpn,
            vdirty, pend, mshr_full, eng_owns, go, h_valid, h_lpn, h_way, h_vlpn, h_vdirty, h_upd, h_value,
            h_id, eng_next, eng_tp, eng_slot,
        } arrays {
            tag_ram, data_ram, m_valid, m_lpn, m_way, m_vlpn, m_vdirty, m_upd, m_value, m_id, eff_tag, tag_eq, m_set_hit, hold_tag, hold_tag_eq,
        }))
    }
}

/// The const parameters match `cfg` (an error naming the field where they do not) and each
/// other (asserted: a wrong instance type is a programming error).
fn check_config<
    const SB: usize,
    const OB: usize,
    const IB: usize,
    const LB: usize,
    const W: usize,
    const WB: usize,
    const PB: usize,
>(
    cfg: &MapCacheConfig,
) -> Result<(), ConfigError> {
    let bad = |f: &str, why: String| Err(ConfigError::invalid(format!("ftl.map_cache.{f}"), why));
    if cfg.ways as usize != W || W < 2 || W > 16 {
        return bad(
            "ways",
            format!(
                "HDL instance has {W} ways (2..=16), config has {}",
                cfg.ways
            ),
        );
    }
    assert!(
        1 << WB == W && PB == W - 1,
        "WB must be log2(W) and PB = W - 1"
    );
    if !cfg.sets.is_power_of_two() || 1u64 << SB != cfg.sets as u64 || SB == 0 {
        return bad(
            "sets",
            format!(
                "HDL instance has 2^{SB} sets (>= 2), config has {}",
                cfg.sets
            ),
        );
    }
    if !cfg.line_entries.is_power_of_two() || 1u64 << OB != cfg.line_entries as u64 || OB == 0 {
        return bad(
            "line_entries",
            format!(
                "HDL instance has 2^{OB} entries per line (>= 2), config has {}",
                cfg.line_entries
            ),
        );
    }
    if cfg.dram_table_mb as u64 * 256 != 1u64 << LB {
        return bad(
            "dram_table_mb",
            format!(
                "HDL instance has 2^{LB} translation-page slots = {} MiB, config has {} MiB",
                (1u64 << LB) / 256,
                cfg.dram_table_mb
            ),
        );
    }
    assert_eq!(IB, SB + OB, "IB must be SB + OB");
    assert!(
        SB + OB + LB <= 32 && OB <= 10 && LB + 10 <= 32,
        "address fields exceed the 32-bit LPN"
    );
    Ok(())
}
