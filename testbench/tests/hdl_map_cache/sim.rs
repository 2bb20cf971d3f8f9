//! rust_hdl simulations of the mapping cache against the model (kept short: rust_hdl simulates
//! ~10^4 cycles/s; long randomized runs go through Verilator in `testbench/tests`).

use rust_hdl::prelude::*;
use ssdlab_hdl::ftl::map_cache::MapCache;
use ssdlab_model::config::MapCacheConfig;
use ssdlab_model::ftl::map_cache::MapAccess;
use ssdlab_testbench::devices::map_cache_bench::{Bench, Inputs, Outputs};
use ssdlab_testbench::devices::map_dram::{DramIn, DramTiming, TpReq};
use std::sync::{Arc, Mutex};

/// Config of the small instance `MapCache<1, 2, 3, 8, 4, 2, 3>` used by most runs: 2 sets x 4
/// ways x 4 entries, 256 DRAM table slots (1 MiB), small enough that short traces evict, write
/// back and fetch translation pages.
pub fn small_config() -> MapCacheConfig {
    MapCacheConfig {
        sets: 2,
        ways: 4,
        line_entries: 4,
        dram_table_mb: 1,
    }
}

fn apply<
    const SB: usize,
    const OB: usize,
    const IB: usize,
    const LB: usize,
    const W: usize,
    const WB: usize,
    const PB: usize,
>(
    x: &mut MapCache<SB, OB, IB, LB, W, WB, PB>,
    i: &Inputs,
) {
    x.req_valid.next = i.req_valid;
    x.req_lpn.next = (i.req_lpn as u64).into();
    x.req_update.next = i.req_update;
    x.req_value.next = (i.req_value as u64).into();
    x.req_id.next = (i.req_id as u64).into();
    x.dram_cmd_ready.next = i.dram.cmd_ready;
    x.dram_wdata_ready.next = i.dram.wdata_ready;
    x.dram_rdata_valid.next = i.dram.rdata_valid;
    x.dram_rdata.next = (i.dram.rdata as u64).into();
    x.tp_done.next = i.tp_done;
}

fn read<
    const SB: usize,
    const OB: usize,
    const IB: usize,
    const LB: usize,
    const W: usize,
    const WB: usize,
    const PB: usize,
>(
    x: &MapCache<SB, OB, IB, LB, W, WB, PB>,
) -> Outputs {
    Outputs {
        req_ready: x.req_ready.val(),
        resp_valid: x.resp_valid.val(),
        resp_id: x.resp_id.val().to_u8(),
        resp_data: x.resp_data.val().to_u32(),
        dec_valid: x.dec_valid.val(),
        dec_id: x.dec_id.val().to_u8(),
        dec_hit: x.dec_hit.val(),
        dec_way: x.dec_way.val().to_u8(),
        dec_evict: x.dec_evict.val(),
        dec_evict_lpn: x.dec_evict_lpn.val().to_u32(),
        dec_evict_dirty: x.dec_evict_dirty.val(),
        dram: DramIn {
            cmd_valid: x.dram_cmd_valid.val(),
            cmd_write: x.dram_cmd_write.val(),
            cmd_addr: x.dram_cmd_addr.val().to_u32(),
            wdata_valid: x.dram_wdata_valid.val(),
            wdata: x.dram_wdata.val().to_u32(),
        },
        tp_req_valid: x.tp_req_valid.val(),
        tp_req: TpReq {
            tp: x.tp_req_tp.val().to_u64(),
            slot: x.tp_req_slot.val().to_u64(),
            evict_tp: x.tp_req_evict_tp.val().to_u64(),
            evict_dirty: x.tp_req_evict_dirty.val(),
        },
        busy: x.busy.val(),
    }
}

/// Run `trace` through the rust_hdl simulation of the small instance; returns the filled bench.
pub fn run_rust_hdl(
    trace: Vec<MapAccess>,
    timing: DramTiming,
    tp_latency: u64,
    max_cycles: u64,
) -> Bench {
    run_rust_hdl_with(trace, timing, tp_latency, max_cycles, None)
}

/// As [`run_rust_hdl`], holding request `barrier` until all earlier ones are answered.
pub fn run_rust_hdl_with(
    trace: Vec<MapAccess>,
    timing: DramTiming,
    tp_latency: u64,
    max_cycles: u64,
    barrier: Option<usize>,
) -> Bench {
    run_instance::<1, 2, 3, 8, 4, 2, 3>(
        &small_config(),
        trace,
        timing,
        tp_latency,
        max_cycles,
        barrier,
    )
}

/// Run `trace` on the rust_hdl simulation of the instance with these const parameters.
pub fn run_instance<
    const SB: usize,
    const OB: usize,
    const IB: usize,
    const LB: usize,
    const W: usize,
    const WB: usize,
    const PB: usize,
>(
    cfg: &MapCacheConfig,
    trace: Vec<MapAccess>,
    timing: DramTiming,
    tp_latency: u64,
    max_cycles: u64,
    barrier: Option<usize>,
) -> Bench {
    let cfg = cfg.clone();
    let mut uut = MapCache::<SB, OB, IB, LB, W, WB, PB>::new(&cfg).unwrap();
    uut.connect_all();
    let out: Arc<Mutex<Option<Bench>>> = Arc::new(Mutex::new(Some(match barrier {
        Some(k) => Bench::new(trace, &cfg, timing, tp_latency).with_barrier(k),
        None => Bench::new(trace, &cfg, timing, tp_latency),
    })));
    let out2 = out.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<MapCache<SB, OB, IB, LB, W, WB, PB>>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<MapCache<SB, OB, IB, LB, W, WB, PB>>| {
        let mut x = sim.init()?;
        let mut b = out2.lock().unwrap().take().expect("bench present");
        let mut cycle = 0u64;
        wait_clock_true!(sim, clock, x);
        loop {
            let i = b.drive(cycle);
            apply(&mut x, &i);
            wait_clock_false!(sim, clock, x);
            let o = read(&x);
            b.observe(cycle, &o);
            if b.finished(&o) {
                break;
            }
            sim_assert!(sim, cycle < max_cycles, x);
            wait_clock_true!(sim, clock, x);
            cycle += 1;
        }
        *out2.lock().unwrap() = Some(b);
        sim.done(x)
    });
    sim.run(Box::new(uut), max_cycles * 10 + 100).unwrap();
    let b = out.lock().unwrap().take();
    b.expect("simulation ended before the trace completed")
}
