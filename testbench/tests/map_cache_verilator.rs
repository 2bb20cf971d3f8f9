//! The mapping-cache block under Verilator (generic runner, `testbench::verilator`), replaying
//! long traces against the model's `MapCache`: identical hit/miss/evict/write-back and page-move
//! sequence and identical data, access by access; coherence checked independently of the model.
//! rust_hdl runs of the same bench are in `hdl/src/ftl/map_cache/tests.rs` (short).
//! Seeds: printed; override with `SSDLAB_SEED`. Long runs: `#[ignore]` (make test-slow).

use rust_hdl::prelude::*;
use ssdlab_hdl::ftl::map_cache::{export_config, export_verilog, MapCache};
use ssdlab_model::config::MapCacheConfig;
use ssdlab_model::ftl::map_cache::MapAccess;
use ssdlab_testbench::devices::map_cache_bench::{check_coherence, Bench, Outputs};
use ssdlab_testbench::devices::map_dram::{DramIn, DramTiming, TpReq};
use ssdlab_testbench::devices::map_traces::{ftl_shaped_trace, record_ftl_trace, stress_trace};
use ssdlab_testbench::verilator::{PortId, VerilatorModel};

const INS: [&str; 11] = [
    "req_valid",
    "req_lpn",
    "req_update",
    "req_value",
    "req_id",
    "dram_cmd_ready",
    "dram_wdata_ready",
    "dram_rdata_valid",
    "dram_rdata",
    "tp_done",
    "clock",
];
const OUTS: [&str; 22] = [
    "req_ready",
    "resp_valid",
    "resp_id",
    "resp_data",
    "dec_valid",
    "dec_id",
    "dec_hit",
    "dec_way",
    "dec_evict",
    "dec_evict_lpn",
    "dec_evict_dirty",
    "dram_cmd_valid",
    "dram_cmd_write",
    "dram_cmd_addr",
    "dram_wdata_valid",
    "dram_wdata",
    "tp_req_valid",
    "tp_req_tp",
    "tp_req_slot",
    "tp_req_evict_tp",
    "tp_req_evict_dirty",
    "busy",
];

struct Dut {
    m: VerilatorModel,
    i: [PortId; 11],
    o: [PortId; 22],
}

impl Dut {
    fn new(name: &str, verilog: &str) -> Dut {
        let m = VerilatorModel::build(name, verilog).unwrap_or_else(|e| panic!("{e}"));
        let i = INS.map(|n| m.port(n).unwrap());
        let o = OUTS.map(|n| m.port(n).unwrap());
        Dut { m, i, o }
    }

    fn run(&mut self, mut b: Bench, max_cycles: u64) -> Bench {
        self.m.eval();
        for cycle in 0..max_cycles {
            let x = b.drive(cycle);
            let v = [
                x.req_valid as u64,
                x.req_lpn as u64,
                x.req_update as u64,
                x.req_value as u64,
                x.req_id as u64,
                x.dram.cmd_ready as u64,
                x.dram.wdata_ready as u64,
                x.dram.rdata_valid as u64,
                x.dram.rdata as u64,
                x.tp_done as u64,
            ];
            for (k, &val) in v.iter().enumerate() {
                self.m.set(self.i[k], val);
            }
            self.m.eval();
            let g = |k: usize| self.m.get(self.o[k]);
            let o = Outputs {
                req_ready: g(0) != 0,
                resp_valid: g(1) != 0,
                resp_id: g(2) as u8,
                resp_data: g(3) as u32,
                dec_valid: g(4) != 0,
                dec_id: g(5) as u8,
                dec_hit: g(6) != 0,
                dec_way: g(7) as u8,
                dec_evict: g(8) != 0,
                dec_evict_lpn: g(9) as u32,
                dec_evict_dirty: g(10) != 0,
                dram: DramIn {
                    cmd_valid: g(11) != 0,
                    cmd_write: g(12) != 0,
                    cmd_addr: g(13) as u32,
                    wdata_valid: g(14) != 0,
                    wdata: g(15) as u32,
                },
                tp_req_valid: g(16) != 0,
                tp_req: TpReq {
                    tp: g(17),
                    slot: g(18),
                    evict_tp: g(19),
                    evict_dirty: g(20) != 0,
                },
                busy: g(21) != 0,
            };
            b.observe(cycle, &o);
            if b.finished(&o) {
                return b;
            }
            self.m.tick(self.i[10]);
        }
        panic!("trace not finished after {max_cycles} cycles");
    }
}

/// 2 sets x 4 ways x 4 entries, 256 slots: every trace evicts, writes back and moves pages.
fn small() -> (MapCacheConfig, String) {
    let cfg = MapCacheConfig {
        sets: 2,
        ways: 4,
        line_entries: 4,
        dram_table_mb: 1,
    };
    let mut uut = MapCache::<1, 2, 3, 8, 4, 2, 3>::new(&cfg).unwrap();
    uut.connect_all();
    (cfg, generate_verilog(&uut))
}

fn seeds(default: &[u64]) -> Vec<u64> {
    match std::env::var("SSDLAB_SEED") {
        Ok(s) => vec![s
            .parse()
            .unwrap_or_else(|_| panic!("SSDLAB_SEED={s} is not an integer"))],
        Err(_) => default.to_vec(),
    }
}

/// Runs `trace` on a fresh instance of `verilog` (the block has no reset: state comes from
/// configuration), compares with the model and checks coherence; returns the bench.
fn check(
    name: &str,
    verilog: &str,
    cfg: &MapCacheConfig,
    trace: Vec<MapAccess>,
    timing: DramTiming,
    tp: u64,
    ctx: &str,
) -> Bench {
    let n = trace.len() as u64;
    let mut dut = Dut::new(name, verilog);
    let t0 = std::time::Instant::now();
    let b = dut.run(Bench::new(trace.clone(), cfg, timing, tp), 200 * n + 1000);
    let secs = t0.elapsed().as_secs_f64();
    if let Err(e) = b.compare_with_model(cfg) {
        panic!("{ctx}: {e}");
    }
    if let Err(e) = check_coherence(&trace, &b) {
        panic!("{ctx}: {e}");
    }
    let hits = b.decisions.iter().filter(|d| d.hit).count();
    let wbs = b
        .decisions
        .iter()
        .filter(|d| d.evicted.is_some_and(|e| e.1))
        .count();
    let cycles = b.responses.iter().map(|r| r.0).max().unwrap_or(0) + 1;
    println!(
        "{ctx}: {n} accesses, {hits} hits ({:.1} %), {wbs} write-backs, {} page moves ({} dirty), {cycles} cycles ({:.3} accesses/cycle); {:.0} simulated cycles/s",
        100.0 * hits as f64 / n as f64,
        b.tp_reqs.len(),
        b.tp_reqs.iter().filter(|t| t.evict_dirty).count(),
        n as f64 / cycles as f64,
        cycles as f64 / secs
    );
    b
}

#[test]
fn verilated_small_cache_matches_model_on_stress_traces() {
    let (cfg, v) = small();
    for (k, seed) in seeds(&[0x8_1001, 0x8_1002, 0x8_1003])
        .into_iter()
        .enumerate()
    {
        let timing = DramTiming {
            latency: 1 + 7 * k as u64,
            interval: 1 + k as u64,
        };
        let ctx = format!("seed {seed:#x} {timing:?}");
        let b = check(
            "map_cache_small",
            &v,
            &cfg,
            stress_trace(seed, 4_000, 48, 2048),
            timing,
            1 + 9 * k as u64,
            &ctx,
        );
        assert!(
            b.tp_reqs.iter().any(|t| t.evict_dirty),
            "seed {seed:#x}: no dirty page write-back exercised"
        );
    }
}

#[test]
fn verilated_export_instance_matches_model_on_ftl_shaped_traces() {
    let (cfg, v) = (export_config(), export_verilog());
    for seed in seeds(&[0x8_2001, 0x8_2002]) {
        // 16 Mi units (64 GiB of 4 KiB units): the 1 MiB table window holds 1/64 of it.
        let trace = ftl_shaped_trace(seed, 10_000, 1 << 24);
        check(
            "map_cache",
            &v,
            &cfg,
            trace,
            DramTiming {
                latency: 12,
                interval: 1,
            },
            20,
            &format!("seed {seed:#x} ftl-shaped"),
        );
    }
}

#[test]
fn verilated_replay_of_a_trace_recorded_from_the_model_ftl() {
    // The model FTL on a scaled-down drive (88 473 units), preconditioned sequentially, then
    // 2 000 fio-like host operations with the map trace on; replayed on the export instance and
    // on the small one (where nearly every line is evicted).
    let seed = seeds(&[0x8_4001])[0];
    let trace = record_ftl_trace(seed, 2_000).unwrap();
    let (scfg, sv) = small();
    check(
        "map_cache",
        &export_verilog(),
        &export_config(),
        trace.clone(),
        DramTiming {
            latency: 12,
            interval: 1,
        },
        20,
        &format!("seed {seed:#x} FTL trace, export"),
    );
    check(
        "map_cache_small",
        &sv,
        &scfg,
        trace,
        DramTiming {
            latency: 5,
            interval: 2,
        },
        9,
        &format!("seed {seed:#x} FTL trace, small"),
    );
}

#[test]
fn verilated_miss_latency_and_hit_streaming_from_hand_arithmetic() {
    let cfg = export_config();
    let mut dut = Dut::new("map_cache", &export_verilog());
    // Clean miss on the idle 8-entry-line instance, L = 20, I = 4: 6 + 20 + 7*4 = 54 cycles.
    let t = DramTiming {
        latency: 20,
        interval: 4,
    };
    let b = dut.run(
        Bench::new(
            vec![MapAccess {
                lpn: 77,
                update: None,
            }],
            &cfg,
            t,
            1,
        ),
        1000,
    );
    assert_eq!(b.responses, vec![(54, 0, u32::MAX)]);
    // 256 lines warmed (64 sets x 4 ways), then 10 000 hits: one per cycle, 2 cycles each.
    let mut dut = Dut::new("map_cache", &export_verilog());
    let mut trace: Vec<MapAccess> = (0..256)
        .map(|l| MapAccess {
            lpn: l * 8,
            update: None,
        })
        .collect();
    let warm = trace.len();
    trace.extend((0..10_000u64).map(|i| MapAccess {
        lpn: (i * 13) % 2048,
        update: (i % 4 == 0).then_some(i as u32),
    }));
    let b = dut.run(Bench::new(trace, &cfg, t, 1).with_barrier(warm), 200_000);
    b.compare_with_model(&cfg).unwrap();
    let hits = b.decisions[warm..].iter().filter(|d| d.hit).count();
    let span = b.accepted_at.last().unwrap() - b.accepted_at[warm] + 1;
    println!(
        "hit-only trace under Verilator: hit rate {:.3} x throughput {:.3} req/cycle",
        hits as f64 / 10_000.0,
        10_000.0 / span as f64
    );
    assert_eq!((hits, span), (10_000, 10_000));
}

#[test]
#[ignore = "long randomized run (make test-slow)"]
fn verilated_long_randomized_runs() {
    let (cfg, v) = small();
    let ev = export_verilog();
    for (k, seed) in seeds(&[0x8_3001, 0x8_3002, 0x8_3003, 0x8_3004])
        .into_iter()
        .enumerate()
    {
        let timing = DramTiming {
            latency: 1 + 11 * (k as u64 % 3),
            interval: 1 + k as u64 % 2,
        };
        let tp = 1 + 17 * k as u64;
        check(
            "map_cache_small",
            &v,
            &cfg,
            stress_trace(seed, 200_000, 64, 8192),
            timing,
            tp,
            &format!("seed {seed:#x} small"),
        );
        check(
            "map_cache",
            &ev,
            &export_config(),
            ftl_shaped_trace(seed, 400_000, 1 << 26),
            timing,
            30,
            &format!("seed {seed:#x} export"),
        );
        let ftl = record_ftl_trace(seed, 20_000).unwrap();
        check(
            "map_cache",
            &ev,
            &export_config(),
            ftl,
            timing,
            30,
            &format!("seed {seed:#x} FTL trace"),
        );
    }
}
