//! The rust_hdl mapping-cache block (`ssdlab_hdl::ftl::map_cache`) against the model's
//! `MapCache`, access by access, with the DRAM and translation-page mover models of
//! `ssdlab_testbench::devices::map_dram` on its memory ports: hand-derived latencies, dirty
//! write-backs, page moves, and seeded stress and FTL-shaped traces.

#[path = "hdl_map_cache/sim.rs"]
mod sim;

use sim::{run_rust_hdl, run_rust_hdl_with, small_config};
use ssdlab_model::config::MapCacheConfig;
use ssdlab_model::ftl::map_cache::{MapAccess, UNMAPPED};
use ssdlab_testbench::devices::map_dram::{DramTiming, TpReq};

fn look(lpn: u64) -> MapAccess {
    MapAccess { lpn, update: None }
}
fn upd(lpn: u64, v: u32) -> MapAccess {
    MapAccess {
        lpn,
        update: Some(v),
    }
}

#[test]
fn first_miss_then_hit_latency_from_hand_arithmetic() {
    // One lookup miss on an idle cache, then a lookup of the same line once it is answered.
    // DRAM: L = 10 cycles to the first beat, I = 2 cycles per beat, E = 4 beats per line.
    // Miss: handshake cycle 0, S1 cycle 1, engine Idle 2, SlotRead 3, SlotCheck 4, FillCmd 5
    // (command handshake), beats in 5+10, 17, 19, 21, Respond in 22: latency 22 = 6 + L + 3*I.
    let timing = DramTiming {
        latency: 10,
        interval: 2,
    };
    let b = run_rust_hdl(vec![look(5)], timing, 1, 200);
    assert_eq!(b.accepted_at, vec![0]);
    assert_eq!(b.responses, vec![(22, 0, UNMAPPED)]);
    // Update miss, then a lookup of the same line: the model calls it a hit (the tag was installed
    // at tag check), the hardware holds it in S1 until the fill completes: the miss answers in
    // cycle 22 (with the merged update), the MSHR frees, S1 proceeds in 23, S2 answers in 24.
    let b = run_rust_hdl(vec![upd(5, 0x1234), look(6), look(100)], timing, 1, 400);
    b.compare_with_model(&small_config()).unwrap();
    assert_eq!(b.accepted_at[..2], [0, 1]);
    assert!(b.decisions[1].hit && !b.decisions[0].hit);
    let r = |i: usize| *b.responses.iter().find(|r| r.1 == i).unwrap();
    assert_eq!(r(0), (22, 0, 0x1234));
    assert_eq!(r(1), (24, 1, UNMAPPED));
}

#[test]
fn dirty_miss_latency_from_hand_arithmetic() {
    // Fill set 0 (even lines) with 4 dirty lines, wait until idle, then miss line 8 (lpn 32):
    // the PLRU victim after touching ways 0,1,2,3 is way 0 (line 0, dirty). From its handshake
    // (cycle 0 below): S1 1, Idle 2, SlotRead 3, SlotCheck 4, WbCmd 5, WbRead 6, write beats at
    // 7 + j*I (j < E), SlotRead 8+(E-1)I, SlotCheck, FillCmd 10+(E-1)I, read beats L later,
    // Respond 11 + L + 2(E-1)I = 11 + 10 + 12 = 33 with L = 10, I = 2, E = 4.
    let timing = DramTiming {
        latency: 10,
        interval: 2,
    };
    let trace = vec![upd(0, 1), upd(8, 2), upd(16, 3), upd(24, 4), look(32)];
    let b = run_rust_hdl_with(trace, timing, 1, 1_000, Some(4));
    b.compare_with_model(&small_config()).unwrap();
    assert_eq!(b.decisions[4].evicted, Some((0, true)));
    let (cyc, idx, data) = *b.responses.last().unwrap();
    assert_eq!((idx, data), (4, UNMAPPED));
    assert_eq!(cyc - b.accepted_at[4], 33);
    assert_eq!(b.dram().word(0), 1, "write-back reached DRAM slot 0");
}

#[test]
fn translation_page_fetch_is_signalled_and_costs_its_latency() {
    // lpn 262144 is translation page 256 -> DRAM slot 0, which holds page 0 at boot (clean).
    // With tp latency T = 5: TpWait starts in cycle 5 (where FillCmd would have been), done is
    // driven in cycle 10, FillCmd in 11 = 5 + T + 1, so the response comes T + 1 = 6 cycles after
    // the 22 of a resident miss: cycle 28.
    let timing = DramTiming {
        latency: 10,
        interval: 2,
    };
    let far = 256 * 1024;
    let b = run_rust_hdl(vec![upd(far + 1, 7)], timing, 5, 200);
    assert_eq!(
        b.tp_reqs,
        vec![TpReq {
            tp: 256,
            slot: 0,
            evict_tp: 0,
            evict_dirty: false
        }]
    );
    assert_eq!(b.responses, vec![(28, 0, 7)]);
    b.compare_with_model(&small_config()).unwrap();
}

fn random_trace(seed: u64, n: usize) -> Vec<MapAccess> {
    ssdlab_testbench::devices::map_traces::stress_trace(seed, n, 48, 2048)
}

#[test]
fn random_trace_matches_model_access_by_access() {
    for (k, seed) in [0x8_0001u64, 0x8_0002].into_iter().enumerate() {
        let timing = DramTiming {
            latency: 4 + 3 * k as u64,
            interval: 1 + k as u64,
        };
        let trace = random_trace(seed, 250);
        let b = run_rust_hdl(trace.clone(), timing, 3, 40_000);
        if let Err(e) = b.compare_with_model(&small_config()) {
            panic!("seed {seed:#x} timing {timing:?}: {e}");
        }
        // Coherence, independent of the model: a lookup returns the latest update before it.
        if let Err(e) = ssdlab_testbench::devices::map_cache_bench::check_coherence(&trace, &b) {
            panic!("seed {seed:#x}: {e}");
        }
        let wb = b
            .decisions
            .iter()
            .filter(|d| d.evicted.is_some_and(|e| e.1))
            .count();
        let hits = b.decisions.iter().filter(|d| d.hit).count();
        println!(
            "seed {seed:#x}: {} accesses, {hits} hits, {wb} write-backs, {} page moves ({} dirty), {} cycles",
            trace.len(),
            b.tp_reqs.len(),
            b.tp_reqs.iter().filter(|t| t.evict_dirty).count(),
            b.responses.iter().map(|r| r.0).max().unwrap()
        );
        assert!(
            wb > 0 && b.tp_reqs.iter().any(|t| t.evict_dirty),
            "seed {seed:#x}: trace too tame"
        );
    }
}

#[test]
fn hit_only_trace_sustains_one_request_per_cycle() {
    // Warm 8 lines (2 sets x 4 ways, lpns 0..31), then 200 lookups/updates inside them.
    let mut trace: Vec<MapAccess> = (0..8).map(|l| look(l * 4)).collect();
    let warm = trace.len();
    trace.extend((0..200u64).map(|i| {
        if i % 3 == 0 {
            upd(i % 32, i as u32)
        } else {
            look((i * 7) % 32)
        }
    }));
    let b = run_rust_hdl_with(
        trace,
        DramTiming {
            latency: 6,
            interval: 1,
        },
        1,
        5_000,
        Some(warm),
    );
    b.compare_with_model(&small_config()).unwrap();
    let hits = b.decisions[warm..].iter().filter(|d| d.hit).count();
    assert_eq!(hits, 200);
    // After the warm-up drains, the 200 hits are taken on 200 consecutive cycles and each is
    // answered 2 cycles after its handshake.
    let acc = &b.accepted_at[warm..];
    let span = acc.last().unwrap() - acc[0] + 1;
    assert_eq!(span, 200, "hits did not stream at one per cycle");
    for &(cyc, i, _) in &b.responses[warm..] {
        assert_eq!(cyc, b.accepted_at[i] + 2, "hit {i} latency");
    }
    let thr = 200.0 / span as f64;
    let hit_rate = hits as f64 / 200.0;
    println!(
        "hit-only trace: hit rate {hit_rate:.2} x throughput {thr:.3} req/cycle = {:.3} hits/cycle",
        hit_rate * thr
    );
}

#[test]
fn ftl_shaped_trace_matches_model() {
    // Same statistical shape as the model FTL's map trace (see `traces`), over 1 Mi units so
    // that the table is only partly resident (256 slots x 1024 entries = 256 Ki units).
    let seed = 0x8_F710;
    let trace = ssdlab_testbench::devices::map_traces::ftl_shaped_trace(seed, 400, 1 << 20);
    let b = run_rust_hdl(
        trace,
        DramTiming {
            latency: 8,
            interval: 1,
        },
        5,
        40_000,
    );
    if let Err(e) = b.compare_with_model(&small_config()) {
        panic!("seed {seed:#x}: {e}");
    }
    let hits = b.decisions.iter().filter(|d| d.hit).count();
    println!(
        "seed {seed:#x}: ftl-shaped trace, {hits}/400 hits, {} page moves",
        b.tp_reqs.len()
    );
    assert!(
        hits > 100,
        "seed {seed:#x}: sequential runs should hit within lines"
    );
}

#[test]
fn trace_recorded_from_the_model_ftl_matches_model() {
    // A real FTL map trace (host reads/writes + GC on a scaled-down drive); its first 400
    // accesses on rust_hdl (the Verilator test replays long ones).
    let seed = 0x8_F7F7;
    let trace = ssdlab_testbench::devices::map_traces::record_ftl_trace(seed, 200).unwrap();
    let updates = trace.iter().filter(|a| a.update.is_some()).count();
    assert!(
        trace.len() > 400 && updates > 0,
        "seed {seed:#x}: FTL trace too short: {}",
        trace.len()
    );
    let head = trace[..400].to_vec();
    let b = run_rust_hdl(
        head.clone(),
        DramTiming {
            latency: 8,
            interval: 1,
        },
        5,
        40_000,
    );
    if let Err(e) = b.compare_with_model(&small_config()) {
        panic!("seed {seed:#x}: {e}");
    }
    ssdlab_testbench::devices::map_cache_bench::check_coherence(&head, &b)
        .unwrap_or_else(|e| panic!("seed {seed:#x}: {e}"));
    let hits = b.decisions.iter().filter(|d| d.hit).count();
    println!(
        "seed {seed:#x}: FTL trace of {} accesses ({updates} updates), first 400: {hits} hits",
        trace.len()
    );
}

#[test]
fn two_and_eight_way_instances_match_model() {
    // The same block elaborated for 2 and 8 ways (PLRU tables of 1 and 7 bits).
    use sim::run_instance;
    let timing = DramTiming {
        latency: 5,
        interval: 1,
    };
    let seed = 0x8_0208;
    let trace = random_trace(seed, 200);
    let cfg2 = MapCacheConfig {
        sets: 2,
        ways: 2,
        line_entries: 4,
        dram_table_mb: 1,
    };
    let b = run_instance::<1, 2, 3, 8, 2, 1, 1>(&cfg2, trace.clone(), timing, 2, 40_000, None);
    b.compare_with_model(&cfg2)
        .unwrap_or_else(|e| panic!("seed {seed:#x}, 2 ways: {e}"));
    let cfg8 = MapCacheConfig {
        sets: 2,
        ways: 8,
        line_entries: 4,
        dram_table_mb: 1,
    };
    let b = run_instance::<1, 2, 3, 8, 8, 3, 7>(&cfg8, trace, timing, 2, 40_000, None);
    b.compare_with_model(&cfg8)
        .unwrap_or_else(|e| panic!("seed {seed:#x}, 8 ways: {e}"));
    assert!(
        b.decisions.iter().any(|d| d.way == 7),
        "seed {seed:#x}: way 7 never used"
    );
}
