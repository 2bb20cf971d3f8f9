//! The Verilator execution's speed modes (issue #9 speed target) change nothing but speed: the
//! same stimulus run per cycle (every cycle through Rust), with quiet stretches clocked inside
//! C++, and with a quiescent design fast-forwarded must record identical transaction streams
//! (every TLP, NAND op, mapping decision and completion, with its cycle) and run the same
//! number of cycles: on the co-simulation geometry (one clock) and on a preset's datapath,
//! whose sequencers run on a 200 MHz clock of their own that the quiet stretches clock too.
//! No wall-clock assertions.

use ssdlab_testbench::cosim::datapath::exec::{run, RunLimits};
use ssdlab_testbench::cosim::datapath::hw_exec::{Stepping, VerilatorExec};
use ssdlab_testbench::cosim::datapath::model_exec::map_cache_config;
use ssdlab_testbench::cosim::datapath::port::Streams;
use ssdlab_testbench::cosim::datapath::setup::{
    cosim_config, preload_precondition, preset_config, stimulus,
};

fn run_with(verilog: &str, job: &str, seed: u64, s: Stepping) -> (Streams, u64) {
    let cfg = cosim_config();
    let (mut fw, mut host) = stimulus(&cfg, job, seed, true).expect("stimulus");
    let mut x = VerilatorExec::verilated(&cfg, verilog, map_cache_config().line_entries, None)
        .unwrap_or_else(|e| panic!("{e}"));
    x.set_stepping(s).unwrap_or_else(|e| panic!("{e}"));
    let lim = RunLimits {
        submit_until: u64::MAX,
        max_cycles: 2_000_000,
        seed,
    };
    let got = run(&mut x, &mut fw, &mut host, lim).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    (got, x.ahead)
}

#[test]
fn run_ahead_and_fast_forward_give_the_per_cycle_streams() {
    let verilog = ssdlab_hdl::top::export_verilog(&cosim_config())
        .expect("the co-simulation drive fits the datapath");
    // Every memory of the generated top is read synchronously, so the fast-forward is exact
    // (and allowed): the check that refuses it for an asynchronous read passes the real RTL.
    let hazards = ssdlab_testbench::verilator::async_memory_reads(&verilog);
    assert!(
        hazards.is_empty(),
        "asynchronous memory reads in top: {}",
        hazards
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    );
    assert!(
        verilog.contains("read_data <= mem[read_address];"),
        "the top has rust_hdl RAMs, so the check had memories to look at"
    );
    let seed = 9;
    // Reads and writes on a preconditioned drive; the quiet stretches are the array waits,
    // DRAM latency and the host's read latency.
    let job = "[m]\nrw=randrw\nrwmixread=50\nbs=8k\niodepth=1\nnumber_ios=6\n";
    let (per_cycle, a0) = run_with(&verilog, job, seed, Stepping::PerCycle);
    assert_eq!(a0, 0, "per-cycle stepping never runs ahead");
    assert_eq!(
        per_cycle.cpl.len(),
        6,
        "all six commands complete (seed {seed})"
    );
    for s in [Stepping::Quiet, Stepping::FastForward] {
        let (got, ahead) = run_with(&verilog, job, seed, s);
        assert_eq!(
            got.cycles, per_cycle.cycles,
            "{s:?}: cycles run (seed {seed})"
        );
        assert_eq!(
            got, per_cycle,
            "{s:?}: streams differ from per-cycle stepping (seed {seed})"
        );
        // Every NAND read waits tR = 8 us = 2000 cycles at 250 MHz (a program tPROG = 10 000)
        // with nothing but R/B# moving; the job has at least one NAND op.
        assert!(
            !per_cycle.nand.is_empty(),
            "the job reached the NAND (seed {seed})"
        );
        assert!(
            ahead >= 2000,
            "{s:?}: only {ahead} cycles run ahead (seed {seed})"
        );
        println!(
            "{s:?}: {} cycles, {ahead} run ahead of the bench",
            got.cycles
        );
    }
}

/// `job` on the preset `cfg`'s Verilated datapath, stepped by `s`, its precondition's data in
/// the NAND targets and every read's data compared: the streams, cycles run ahead, units read.
fn run_preset_with(
    cfg: &ssdlab_model::config::DriveConfig,
    verilog: &str,
    job: &str,
    s: Stepping,
) -> (Streams, u64, u64) {
    let seed = 3;
    let (fw, host) = stimulus(cfg, job, seed, true).expect("stimulus");
    let (mut fw, mut host) = (fw.without_relocation(), host.check_read_data());
    let mut x = VerilatorExec::verilated(cfg, verilog, map_cache_config().line_entries, None)
        .unwrap_or_else(|e| panic!("{e}"));
    x.set_stepping(s).unwrap_or_else(|e| panic!("{e}"));
    preload_precondition(&host, &fw, &mut x);
    let lim = RunLimits {
        submit_until: u64::MAX,
        max_cycles: 4_000_000,
        seed,
    };
    let got = run(&mut x, &mut fw, &mut host, lim).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    (got, x.ahead, host.units_checked)
}

/// sm2262-512g: PCIe at 250 MHz, the sequencers at 200 MHz (four sequencer edges in every five
/// PCIe cycles, one of them coincident). A random mix at QD1: each read waits the SLC tR of the
/// preset's cache, 28 us = 7000 PCIe cycles, with nothing but R/B# to come.
#[test]
fn run_ahead_and_fast_forward_give_the_per_cycle_streams_on_a_preset() {
    let cfg = preset_config("sm2262-512g").expect("preset");
    let verilog = ssdlab_hdl::top::export_verilog(&cfg).expect("the preset elaborates");
    assert!(ssdlab_hdl::top::crosses_clocks(&cfg), "two clocks");
    let job = "[m]\nrw=randrw\nrwmixread=50\nbs=4k\niodepth=1\nsize=64m\nnumber_ios=12\n";
    let (per_cycle, a0, u0) = run_preset_with(&cfg, &verilog, job, Stepping::PerCycle);
    assert_eq!(a0, 0, "per-cycle stepping never runs ahead");
    assert_eq!(per_cycle.cpl.len(), 12, "all twelve commands complete");
    assert!(u0 >= 1, "a read's data was compared");
    for s in [Stepping::Quiet, Stepping::FastForward] {
        let (got, ahead, units) = run_preset_with(&cfg, &verilog, job, s);
        assert_eq!(got.cycles, per_cycle.cycles, "{s:?}: cycles run");
        assert_eq!(
            got, per_cycle,
            "{s:?}: streams differ from per-cycle stepping"
        );
        assert_eq!(units, u0, "{s:?}: read data compared");
        assert!(ahead >= 7000, "{s:?}: only {ahead} cycles run ahead");
        println!(
            "{s:?}: {} cycles, {ahead} run ahead of the bench",
            got.cycles
        );
    }
}
