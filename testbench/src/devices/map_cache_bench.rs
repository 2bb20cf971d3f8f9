//! Simulator-independent test bench of the mapping cache: drives a trace of `MapAccess`es into the
//! request port, plays DRAM ([`DramModel`]) and the translation-page mover ([`TpMover`]), records
//! what the block decided and answered, and compares it with the model's `MapCache`, access by
//! access. Used by the rust_hdl simulation tests here and by the Verilator tests in `testbench`.
//!
//! Cycle protocol (any simulator): `drive(cycle)` is called just after the rising edge and gives
//! every input for the cycle; `observe(cycle, outputs)` is called once the combinational logic has
//! settled (falling edge) and records the handshakes that complete at the next rising edge.

use crate::devices::map_dram::{DramIn, DramModel, DramOut, DramTiming, TpMover, TpReq};
use ssdlab_model::config::MapCacheConfig;
use ssdlab_model::ftl::map_cache::{MapAccess, MapCache};

/// Every input of the block for one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub req_valid: bool,
    pub req_lpn: u32,
    pub req_update: bool,
    pub req_value: u32,
    pub req_id: u8,
    pub dram: DramOut,
    pub tp_done: bool,
}

/// Every output of the block for one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outputs {
    pub req_ready: bool,
    pub resp_valid: bool,
    pub resp_id: u8,
    pub resp_data: u32,
    pub dec_valid: bool,
    pub dec_id: u8,
    pub dec_hit: bool,
    pub dec_way: u8,
    pub dec_evict: bool,
    pub dec_evict_lpn: u32,
    pub dec_evict_dirty: bool,
    pub dram: DramIn,
    pub tp_req_valid: bool,
    pub tp_req: TpReq,
    pub busy: bool,
}

/// One decision as the hardware reported it (evicted line as its first LPN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwDecision {
    pub hit: bool,
    pub way: u32,
    pub evicted: Option<(u64, bool)>,
}

pub struct Bench {
    trace: Vec<MapAccess>,
    next: usize,
    dram: DramModel,
    dram_out: DramOut,
    mover: TpMover,
    tp_latency: u64,
    tp_done_at: Option<u64>,
    barrier: Option<usize>,
    pub accepted_at: Vec<u64>,
    pub decisions: Vec<HwDecision>,
    /// (cycle, request index, data), in arrival order.
    pub responses: Vec<(u64, usize, u32)>,
    pub tp_reqs: Vec<TpReq>,
    done: usize,
}

impl Bench {
    pub fn new(
        trace: Vec<MapAccess>,
        cfg: &MapCacheConfig,
        timing: DramTiming,
        tp_latency: u64,
    ) -> Bench {
        assert!(
            trace.iter().all(|a| a.lpn < 1 << 32),
            "the HDL takes 32-bit LPNs"
        );
        assert!(tp_latency >= 1);
        Bench {
            trace,
            next: 0,
            dram: DramModel::new(timing, cfg.line_entries),
            dram_out: DramOut::default(),
            mover: TpMover::default(),
            tp_latency,
            tp_done_at: None,
            barrier: None,
            accepted_at: Vec::new(),
            decisions: Vec::new(),
            responses: Vec::new(),
            tp_reqs: Vec::new(),
            done: 0,
        }
    }

    /// Hold request `k` until every earlier request has been answered (separates a warm-up).
    pub fn with_barrier(mut self, k: usize) -> Bench {
        self.barrier = Some(k);
        self
    }

    /// All responses received and the block idle.
    pub fn finished(&self, o: &Outputs) -> bool {
        self.done == self.trace.len() && !o.busy
    }

    pub fn dram(&self) -> &DramModel {
        &self.dram
    }

    pub fn drive(&mut self, cycle: u64) -> Inputs {
        self.dram_out = self.dram.outputs(cycle);
        let mut i = Inputs {
            dram: self.dram_out,
            tp_done: self.tp_done_at == Some(cycle),
            ..Default::default()
        };
        let held = self.barrier == Some(self.next) && self.done < self.next;
        if let (Some(a), false) = (self.trace.get(self.next), held) {
            i.req_valid = true;
            i.req_lpn = a.lpn as u32;
            i.req_update = a.update.is_some();
            i.req_value = a.update.unwrap_or(0);
            i.req_id = self.next as u8;
        }
        i
    }

    pub fn observe(&mut self, cycle: u64, o: &Outputs) {
        let held = self.barrier == Some(self.next) && self.done < self.next;
        if o.req_ready && self.next < self.trace.len() && !held {
            self.accepted_at.push(cycle);
            self.next += 1;
        }
        if o.dec_valid {
            let n = self.decisions.len();
            assert_eq!(
                o.dec_id, n as u8,
                "decision out of request order at cycle {cycle}"
            );
            let evicted = o
                .dec_evict
                .then_some((o.dec_evict_lpn as u64, o.dec_evict_dirty));
            self.decisions.push(HwDecision {
                hit: o.dec_hit,
                way: o.dec_way as u32,
                evicted,
            });
        }
        if o.resp_valid {
            // Ids are 8 bits; at most MSHRS + 2 requests are in flight, so the newest match wins.
            let idx = (0..self.next)
                .rev()
                .find(|&k| k as u8 == o.resp_id)
                .expect("response for an unknown id");
            self.responses.push((cycle, idx, o.resp_data));
            self.done += 1;
        }
        self.dram.step(cycle, self.dram_out, o.dram);
        if self.tp_done_at == Some(cycle) {
            self.tp_done_at = None;
        } else if o.tp_req_valid && self.tp_done_at.is_none() {
            self.mover.apply(o.tp_req, &mut self.dram);
            self.tp_reqs.push(o.tp_req);
            self.tp_done_at = Some(cycle + self.tp_latency);
        }
    }

    /// Replay the trace on the model and compare decisions, page moves and data access by access.
    /// Returns a description of the first difference.
    pub fn compare_with_model(&self, cfg: &MapCacheConfig) -> Result<(), String> {
        let mut m = MapCache::new(cfg).map_err(|e| e.to_string())?;
        if self.decisions.len() != self.trace.len() || self.responses.len() != self.trace.len() {
            return Err(format!(
                "{} accesses, {} decisions, {} responses",
                self.trace.len(),
                self.decisions.len(),
                self.responses.len()
            ));
        }
        let mut data = vec![None; self.trace.len()];
        for &(_, idx, v) in &self.responses {
            if data[idx].replace(v).is_some() {
                return Err(format!("access {idx} answered twice"));
            }
        }
        let e = cfg.line_entries as u64;
        let mut tps = Vec::new();
        for (i, &a) in self.trace.iter().enumerate() {
            let d = m.access(a);
            let want = HwDecision {
                hit: d.hit,
                way: d.way,
                evicted: d.evicted.map(|v| (v.line * e, v.dirty)),
            };
            if self.decisions[i] != want {
                return Err(format!(
                    "access {i} {a:?}: hardware {:?}, model {want:?}",
                    self.decisions[i]
                ));
            }
            if data[i] != Some(d.data) {
                return Err(format!(
                    "access {i} {a:?}: hardware data {:?}, model {:#x}",
                    data[i], d.data
                ));
            }
            for f in [d.wb_fetch, d.fill_fetch].into_iter().flatten() {
                tps.push(TpReq {
                    tp: f.tp,
                    slot: f.slot,
                    evict_tp: f.evicted_tp,
                    evict_dirty: f.evicted_dirty,
                });
            }
        }
        if tps != self.tp_reqs {
            let k = tps
                .iter()
                .zip(&self.tp_reqs)
                .take_while(|(a, b)| a == b)
                .count();
            return Err(format!(
                "translation-page moves differ at #{k}: hardware {:?}, model {:?} ({} vs {})",
                self.tp_reqs.get(k),
                tps.get(k),
                self.tp_reqs.len(),
                tps.len()
            ));
        }
        Ok(())
    }
}

/// Coherence, independent of the model: every lookup returned the latest update before it in
/// the trace (or `UNMAPPED`). Returns the first violation.
pub fn check_coherence(trace: &[MapAccess], b: &Bench) -> Result<(), String> {
    use ssdlab_model::ftl::map_cache::UNMAPPED;
    let mut data = vec![None; trace.len()];
    for &(_, i, v) in &b.responses {
        data[i] = Some(v);
    }
    let mut last = std::collections::HashMap::new();
    for (i, a) in trace.iter().enumerate() {
        match a.update {
            Some(v) => {
                last.insert(a.lpn, v);
            }
            None => {
                let want = last.get(&a.lpn).copied().unwrap_or(UNMAPPED);
                if data[i] != Some(want) {
                    return Err(format!(
                        "access {i} lookup of lpn {} returned {:?}, last update {want:#x}",
                        a.lpn, data[i]
                    ));
                }
            }
        }
    }
    Ok(())
}
