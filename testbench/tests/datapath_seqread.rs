//! Sequential reads on the datapath (issue #9 target; `cosim::datapath::seqread` explains the
//! NAND-bound drive, the bus-occupancy meter and the window). Short form (`make test`): the
//! Verilated top at 250 MT/s (1-byte NAND beats packed by the page buffer) against the model
//! blocks — a 4 KiB read holds its channel's bus 49 + 4 + 4096 + 7 cycles on the pins (the
//! latches, the data out with its RE# preamble and postamble), and sequential
//! 128 KiB reads give the same event streams. Long form (`make sim`, ignored here): 128 KiB reads
//! at QD32 printing per-channel NAND bus occupancy and PCIe payload throughput of both
//! executions (a benchmark: figures printed, only the event streams asserted).
//! `SSDLAB_SEQ_IOS` sets the long form's command count (default 128), `SSDLAB_SEQ_MTS` its ONFI
//! rate (250 default, 500 or 1000: the what-if of a faster bus), `SSDLAB_SEED` the seed.

use ssdlab_testbench::cosim::datapath::hw_exec::VerilatorExec;
use ssdlab_testbench::cosim::datapath::model_exec::{map_cache_config, ModelExec};
use ssdlab_testbench::cosim::datapath::seqread::*;
use ssdlab_testbench::cosim::datapath::sig::CHANNELS;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// `name` from the environment, `default` when unset; a bad value stops the run naming it.
fn env_or(name: &str, default: u64, range: std::ops::RangeInclusive<u64>) -> u64 {
    ssdlab_testbench::cosim::knob::knob(name, default, range).unwrap_or_else(|e| panic!("{e}"))
}

/// The datapath's Verilog for the drive at `mts` MT/s, elaborated once per rate.
fn verilog(mts: u32) -> &'static str {
    static CACHE: Mutex<BTreeMap<u32, &'static str>> = Mutex::new(BTreeMap::new());
    let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    c.entry(mts).or_insert_with(|| {
        Box::leak(
            ssdlab_hdl::top::export_verilog(&seqread_config(mts))
                .expect("the drive fits the datapath")
                .into_boxed_str(),
        )
    })
}

/// Model and Verilator runs of `job` on the drive at `mts` MT/s: (streams, bus log, wall s).
fn both(
    mts: u32,
    job: &str,
    seed: u64,
    max_cycles: u64,
) -> [(
    ssdlab_testbench::cosim::datapath::port::Streams,
    BusLog,
    f64,
); 2] {
    let cfg = seqread_config(mts);
    let t0 = std::time::Instant::now();
    let mut mx = ModelExec::new(&cfg).expect("model execution");
    let (ms, ml) =
        run_metered(&mut mx, &cfg, job, seed, max_cycles).unwrap_or_else(|e| panic!("model: {e}"));
    let model_s = t0.elapsed().as_secs_f64();
    let mut vx =
        VerilatorExec::verilated(&cfg, verilog(mts), map_cache_config().line_entries, None)
            .expect("Verilator build");
    let t0 = std::time::Instant::now();
    let (vs, vl) = run_metered(&mut vx, &cfg, job, seed, max_cycles)
        .unwrap_or_else(|e| panic!("verilator: {e}"));
    [(ms, ml, model_s), (vs, vl, t0.elapsed().as_secs_f64())]
}

#[test]
fn one_byte_nand_beats_match_the_model_and_hold_the_bus_as_derived() {
    // One 4 KiB read: tWC 25 ns = 7 cycles at 250 MHz, 00h + 5 address + 30h = 49 cycles, then
    // the data out: RE# preamble 15 ns = 4 cycles, 4096 one-byte beats, postamble 25 ns = 7;
    // the pins' CE shows exactly these on one channel.
    let [(ms, ml, _), (vs, vl, _)] = both(SEQREAD_MTS, &seqread_job(4, 1, 1, 1), 1, 200_000);
    for (name, s, l) in [("model", &ms, &ml), ("verilator", &vs, &vl)] {
        assert_eq!(s.nand.len(), 1, "{name}: one NAND read");
        let ch = s.nand[0].channel as usize;
        let busy: Vec<u64> = (0..CHANNELS)
            .map(|c| l.busy_cycles(c, 0, s.cycles))
            .collect();
        let want: Vec<u64> = (0..CHANNELS)
            .map(|c| if c == ch { 49 + 4 + 4096 + 7 } else { 0 })
            .collect();
        assert_eq!(
            busy, want,
            "{name}: busy cycles per channel ({:?})",
            l.busy[ch]
        );
    }
    let a = agreement(&ms, &vs, 1);
    let c = a
        .events
        .unwrap_or_else(|d| panic!("4 KiB read at 1 byte per beat: {d}"));
    assert!(
        a.worst_latency <= 0.02,
        "QD1 latency within 2 %: {:.3} %",
        100.0 * a.worst_latency
    );
    println!(
        "4 KiB read: {} transactions match, latency difference {:.3} %",
        c.transactions,
        100.0 * a.worst_latency
    );
    // Sequential 128 KiB reads at QD1: 32 units each, one per (channel, way) of the drive.
    let seed = env_or("SSDLAB_SEED", 5, 0..=u64::MAX);
    let [(ms, _, _), (vs, _, _)] = both(SEQREAD_MTS, &seqread_job(128, 1, 3, 4), seed, 2_000_000);
    assert_eq!(
        (ms.cpl.len(), vs.cpl.len()),
        (3, 3),
        "three commands completed in both"
    );
    assert_eq!(vs.nand.len(), 96, "3 x 128 KiB = 96 page reads");
    let a = agreement(&ms, &vs, seed);
    let c = a
        .events
        .unwrap_or_else(|d| panic!("sequential 128 KiB reads at 1 byte per beat: {d}"));
    assert!(
        a.worst_latency <= 0.02,
        "QD1 latency within 2 % (seed {seed}): {:.3} %",
        100.0 * a.worst_latency
    );
    println!(
        "3 x 128 KiB QD1: {} transactions match, worst latency difference {:.3} %",
        c.transactions,
        100.0 * a.worst_latency
    );
}

/// `make sim`: sequential 128 KiB reads at QD32 on the NAND-bound drive, both executions.
#[test]
#[ignore]
fn seqread_figures() {
    let (seed, ios, qd) = (
        env_or("SSDLAB_SEED", 2026, 0..=u64::MAX),
        env_or("SSDLAB_SEQ_IOS", 128, 1..=1 << 20),
        32u32,
    );
    let mts = env_or("SSDLAB_SEQ_MTS", SEQREAD_MTS as u64, 1..=u32::MAX as u64) as u32;
    let job = seqread_job(128, qd, ios, (ios * 128 / 1024).max(1) as u32);
    let runs = both(mts, &job, seed, 40_000 * ios + 2_000_000);
    // Per 4 KiB page a channel's bus carries 49 cycles of read command + 4096 / B data cycles
    // inside the 4 + 7 cycles of RE# preamble and postamble + 2 turnaround cycles (B = bytes
    // per cycle = MT/s / 250).
    let page = 49 + 4 + 4096 / (mts as u64 / 250) + 7 + 2;
    println!(
        "sequential reads: {} (seed {seed}), ONFI {mts} MT/s = {} B/cycle, NAND-bound ceiling 8 x 4096 B / ({page} x 4 ns) = {:.3} GB/s",
        job.replace('\n', " "),
        mts / 250,
        8.0 * 4096.0 / (page as f64 * CYCLE_NS)
    );
    let mut gbps = Vec::new();
    for ((s, l, wall), name) in runs.iter().zip(["model blocks", "verilator"]) {
        let f = figures(s, l, qd as usize).unwrap_or_else(|e| panic!("{name}: {e}"));
        let per: Vec<String> = f
            .bus_busy
            .iter()
            .map(|b| format!("{:.2}", 100.0 * b))
            .collect();
        println!(
            "{name}: window cycles {}..{} ({} commands), NAND bus busy min {:.2} % mean {:.2} % [{}], PCIe payload {:.4} GB/s; {} cycles in {:.1} s wall",
            f.window.0,
            f.window.1,
            ios - 2 * qd as u64,
            100.0 * f.min_busy(),
            100.0 * f.mean_busy(),
            per.join(" "),
            f.gbps(),
            s.cycles,
            wall
        );
        gbps.push(f.gbps());
    }
    println!(
        "throughput verilator / model = {:.4} ({:+.2} %; target within 5 %)",
        gbps[1] / gbps[0],
        100.0 * (gbps[1] / gbps[0] - 1.0)
    );
    let a = agreement(&runs[0].0, &runs[1].0, seed);
    match &a.events {
        Ok(c) => println!("event streams: {} transactions match; worst completion-latency difference {:.3} % (the +-2 % check at QD > 1 is helper qd's)", c.transactions, 100.0 * a.worst_latency),
        Err(d) => println!("event streams: {d}"),
    }
    assert!(
        a.events.is_ok(),
        "event streams of the two executions differ (seed {seed})"
    );
}
