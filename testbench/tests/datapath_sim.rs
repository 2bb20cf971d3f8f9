//! Three-way co-simulation of the controller datapath (issue #9): the shared firmware (model FTL)
//! and host drive the behavioural model blocks, the rust_hdl `Datapath` and its Verilated
//! Verilog; the scoreboard compares TLPs, NAND ops, mapping decisions and completions event by
//! event (completion latencies within 2 %). Short forms run in `make test`; `make sim` runs the
//! long randomized form (`sim_long`, >= 10^7 cycles). `SSDLAB_SEED` replays a seed.

use ssdlab_testbench::cosim::datapath::exec::{run, RunLimits};
use ssdlab_testbench::cosim::datapath::hdl_exec::{HdlExec, HdlSimDut};
use ssdlab_testbench::cosim::datapath::model_exec::map_cache_config;
use ssdlab_testbench::cosim::datapath::scoreboard::compare;
use ssdlab_testbench::cosim::datapath::setup::{cosim_config, run_model, stimulus};
use ssdlab_testbench::cosim::datapath::sim::{
    random_job, random_job_at, three_way, three_way_reading_data,
};

fn verilog() -> String {
    ssdlab_hdl::top::export_verilog(&cosim_config())
        .expect("the co-simulation drive fits the datapath")
}

/// Runs `f` on a thread with the stack rust-hdl needs for the datapath.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    let h = std::thread::Builder::new()
        .stack_size(ssdlab_hdl::top::BUILD_STACK_BYTES)
        .spawn(f)
        .expect("spawn");
    h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// `SSDLAB_SEED`, `default` when unset; a bad value stops the run naming it.
fn seed_or(default: u64) -> u64 {
    ssdlab_testbench::cosim::knob::seed_or(default).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn verilator_matches_model_on_directed_and_random_jobs() {
    let v = verilog();
    let cfg = cosim_config();
    let jobs = [
        (
            "[w]\nrw=write\nbs=4k\niodepth=1\nnumber_ios=16\n".to_string(),
            1,
            16,
        ),
        (
            "[r]\nrw=randread\nbs=16k\niodepth=1\nnumber_ios=24\n".to_string(),
            2,
            24,
        ),
        (random_job(seed_or(3)), seed_or(3), 0),
    ];
    for (job, seed, ios) in jobs {
        let lim = RunLimits {
            submit_until: 200_000,
            max_cycles: 2_000_000,
            seed,
        };
        let r = three_way(&cfg, &job, lim, &v, None).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        println!("{r}");
        assert_eq!(r.mismatches(), 0, "{r}");
        assert!(r.completions > 0 && r.transactions > r.completions, "{r}");
        if ios > 0 {
            assert_eq!(
                r.completions, ios,
                "every command of the directed job completed: {r}"
            );
        }
    }
}

#[test]
fn rust_hdl_matches_model_on_a_short_job() {
    big_stack(rust_hdl_short);
}

fn rust_hdl_short() {
    rust_hdl_short_on(cosim_config());
}

/// The short job on rust_hdl's simulation with the sequencers on their own 200 MHz clock
/// (`HdlSimDut::nand_edge`, `nand_with_tick`): the same streams as the model with the same
/// crossing, every completion and NAND op time to the cycle.
#[test]
fn rust_hdl_matches_model_with_the_sequencers_on_their_own_clock() {
    big_stack(|| {
        let mut cfg = cosim_config();
        (cfg.onfi.core_clock_mhz, cfg.onfi.transfer_mts) = (200, 800);
        rust_hdl_short_on(cfg);
    });
}

fn rust_hdl_short_on(cfg: ssdlab_model::config::DriveConfig) {
    let job = "[w]\nrw=randrw\nbs=4k\niodepth=1\nnumber_ios=3\n";
    let lim = RunLimits {
        submit_until: u64::MAX,
        max_cycles: 200_000,
        seed: 4,
    };
    let want = run_model(&cfg, job, lim, true).expect("model runs");
    let (mut fw, mut host) = stimulus(&cfg, job, lim.seed, true).expect("stimulus");
    let mut x = HdlExec::new(
        &cfg,
        HdlSimDut::new(&cfg).expect("elaborates"),
        map_cache_config().line_entries,
    );
    let got = run(&mut x, &mut fw, &mut host, lim).expect("rust_hdl runs");
    let c = compare(&want, &got, lim.seed).unwrap_or_else(|d| panic!("{d}"));
    println!(
        "rust_hdl: {} cycles, {} transactions checked, worst time {:.3} %",
        got.cycles,
        c.transactions,
        100.0 * c.worst_time
    );
    assert_eq!(got.cpl.len(), 3);
    assert_eq!((c.worst_time, c.worst_nand), (0.0, 0.0), "cycle-exact");
}

/// Every read's data reaches the host as it was written (by the precondition or earlier in the
/// run): random 4 KiB mixes at QD 1 and 4, whose reads' data out often follows a status poll
/// of a programming way on the same channel. (The page buffer once kept one status-mode flag
/// per channel, and dropped such a read's data as status bytes; the timing was exact all the
/// same.)
#[test]
fn verilator_reads_back_what_was_written_on_a_mix() {
    let v = verilog();
    let cfg = cosim_config();
    for (qd, seed) in [(1, 2), (4, 2)] {
        let job = format!("[m]\nrw=randrw\nbs=4k\niodepth={qd}\nsize=8m\nnumber_ios=400\n");
        let lim = RunLimits {
            submit_until: u64::MAX,
            max_cycles: 4_000_000,
            seed,
        };
        let r = three_way_reading_data(&cfg, &job, lim, &v).unwrap_or_else(|e| panic!("{e}"));
        println!("{r}");
        assert_eq!(r.mismatches(), 0, "{r}");
        assert!(r.units_checked > 150, "most reads checked: {r}");
    }
}

/// Queue depth > 1: several commands in flight, so data moves, SQ fetches and CQEs share the
/// requester port packet by packet, map misses queue in the cache's miss engine and NAND ops of
/// different ways meet on the channel buses. Random 4 KiB reads at QD 4, random 4 KiB writes at
/// QD 8, a 4 KiB mix at QD 32, 16 KiB and 32 KiB mixes at QD 8 and 32: every command completes
/// (the count is the job's `number_ios`), the streams match event by event, completion latencies
/// within 2 %, and every read's data is what was written (PRP lists included).
#[test]
fn verilator_matches_model_at_queue_depth_above_one() {
    let v = verilog();
    let cfg = cosim_config();
    let jobs = [
        ("randread", 4, 4, 64),
        ("randwrite", 4, 8, 64),
        ("randrw", 4, 32, 96),
        ("randrw", 16, 8, 32),
        ("randrw", 32, 32, 40),
    ];
    for (i, (rw, bs_k, qd, ios)) in jobs.into_iter().enumerate() {
        let seed = seed_or(10 + i as u64);
        let job = format!("[q]\nrw={rw}\nbs={bs_k}k\niodepth={qd}\nnumber_ios={ios}\n");
        let lim = RunLimits {
            submit_until: u64::MAX,
            max_cycles: 2_000_000,
            seed,
        };
        let r = three_way_reading_data(&cfg, &job, lim, &v)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        println!("{r}");
        assert_eq!(r.mismatches(), 0, "{r}");
        assert_eq!(
            r.completions, ios as usize,
            "every command of the job completed: {r}"
        );
    }
}

/// A TLC-native drive (3 bits per cell, 8 word lines: 24 pages per block, no SLC cache; the
/// same Verilog as the SLC-native drive): every host program is a one-shot program of pages
/// `page`, `page + 1` and `page + 2` (one plane of 4 KiB pages: 12 KiB, more than half of the
/// way's 16 KiB region, so it takes the whole region and its units wait in host memory until
/// the FTL emits it). Sequential 4 KiB writes, then a random 4 KiB mix at QD 8 whose reads find
/// units still staged (padded and programmed first) or on NAND: every command completes, the
/// streams match event by event, every read's data is what was written, and every program is
/// one-shot (the pin-level targets take each page's 80h load, 1Ah, then 10h).
#[test]
fn verilator_reads_back_one_shot_tlc_programs() {
    let mut cfg = cosim_config();
    (cfg.geometry.bits_per_cell, cfg.geometry.wordlines_per_block) = (3, 8);
    let v = ssdlab_hdl::top::export_verilog(&cfg).expect("elaborates");
    assert_eq!(
        v,
        verilog(),
        "24 pages per block: the row stride (32) and the region (1 bank) of the SLC-native drive"
    );
    let jobs = [
        (
            "[w]\nrw=write\nbs=4k\niodepth=4\nsize=1m\nnumber_ios=48\n",
            48,
            41,
        ),
        (
            "[m]\nrw=randrw\nbs=4k\niodepth=8\nsize=1m\nnumber_ios=160\n",
            160,
            42,
        ),
    ];
    for (job, ios, seed) in jobs {
        let seed = seed_or(seed);
        let lim = RunLimits {
            submit_until: u64::MAX,
            max_cycles: 4_000_000,
            seed,
        };
        let r = three_way_reading_data(&cfg, job, lim, &v)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        println!("{r}");
        assert_eq!(r.mismatches(), 0, "{r}");
        assert_eq!(r.completions, ios, "every command completed: {r}");
        let (programs, one_shot) = r.programs;
        assert!(programs > 0, "the job programs: {r}");
        assert_eq!(one_shot, programs, "every program is one-shot: {r}");
    }
}

/// fio `numjobs`: each clone of the job on its own I/O queue pair (created one per clone, with an
/// MSI-X vector each), so the front end's SQ arbiter round-robins between them and CQEs go to
/// several CQs. 4 clones of a random 4 KiB mix at QD 8, and 8 clones at QD 2 (16 queue creates:
/// a 32-entry admin queue, 9 vectors): every clone's commands complete (clones x `number_ios`),
/// the streams match event by event and every read's data is what was written.
#[test]
fn verilator_matches_model_with_one_queue_pair_per_job() {
    let v = verilog();
    let cfg = cosim_config();
    for (jobs, qd, ios, seed) in [(4, 8, 16, 31), (8, 2, 6, 32)] {
        let job = format!(
            "[q]\nrw=randrw\nbs=4k\niodepth={qd}\nnumjobs={jobs}\nsize=8m\nnumber_ios={ios}\n"
        );
        let lim = RunLimits {
            submit_until: u64::MAX,
            max_cycles: 2_000_000,
            seed: seed_or(seed),
        };
        let r = three_way_reading_data(&cfg, &job, lim, &v)
            .unwrap_or_else(|e| panic!("{jobs} jobs: {e}"));
        println!("{r}");
        assert_eq!(r.mismatches(), 0, "{r}");
        assert_eq!(r.completions, jobs * ios, "every clone's commands: {r}");
        assert!(r.units_checked > 10, "reads checked: {r}");
    }
}

/// The datapath elaborated for 2 and for 8 ways per channel (the co-simulation drive otherwise):
/// a random 4 KiB mix at QD 16 completes every command and matches the model event by event,
/// so the arbiter, the way queues, the CE and R/B# vectors and the regions follow the geometry.
#[test]
fn verilator_matches_model_with_two_and_eight_ways() {
    for ways in [2, 8] {
        let mut cfg = cosim_config();
        cfg.geometry.ways_per_channel = ways;
        let v = ssdlab_hdl::top::export_verilog(&cfg).expect("elaborates");
        let seed = seed_or(20 + ways as u64);
        let job = "[q]\nrw=randrw\nbs=4k\niodepth=16\nnumber_ios=64\n";
        let lim = RunLimits {
            submit_until: u64::MAX,
            max_cycles: 2_000_000,
            seed,
        };
        let r = three_way(&cfg, job, lim, &v, None)
            .unwrap_or_else(|e| panic!("{ways} ways, seed {seed}: {e}"));
        println!("{ways} ways: {r}");
        assert_eq!(r.mismatches(), 0, "{ways} ways: {r}");
        assert_eq!(
            r.completions, 64,
            "{ways} ways: every command completed: {r}"
        );
    }
}

/// The sequencers on their own 200 MHz clock (800 MT/s, 4 bytes per cycle, as the presets),
/// the PCIe side at 250 MHz: the datapath crosses every NAND op and completion per channel
/// (`nand::array`, "Clocks") and the model charges the same crossing (`NandCrossing`: op
/// FIFO room, one op per sequencer cycle, two synchronizer edges each way). Directed writes,
/// random reads and a random 4 KiB mix at QD 16 complete every command and match event by
/// event, every completion and NAND op time to the cycle (a model without the crossing is off
/// by 0.03-0.15 % on these jobs, inside the 2 % the other tests allow).
#[test]
fn verilator_matches_model_with_the_sequencers_on_their_own_clock() {
    let mut cfg = cosim_config();
    (cfg.onfi.core_clock_mhz, cfg.onfi.transfer_mts) = (200, 800);
    assert!(ssdlab_hdl::top::crosses_clocks(&cfg));
    let v = ssdlab_hdl::top::export_verilog(&cfg).expect("elaborates");
    let jobs = [
        ("[w]\nrw=write\nbs=4k\niodepth=1\nnumber_ios=16\n", 16),
        ("[r]\nrw=randread\nbs=16k\niodepth=4\nnumber_ios=24\n", 24),
        ("[q]\nrw=randrw\nbs=4k\niodepth=16\nnumber_ios=64\n", 64),
    ];
    for (i, (job, ios)) in jobs.into_iter().enumerate() {
        let seed = seed_or(30 + i as u64);
        let lim = RunLimits {
            submit_until: u64::MAX,
            max_cycles: 2_000_000,
            seed,
        };
        let r = three_way(&cfg, job, lim, &v, None).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        println!("200 MHz sequencers: {r}");
        assert_eq!(r.mismatches(), 0, "{r}");
        assert_eq!((r.worst_time, r.worst_nand), (0.0, 0.0), "cycle-exact: {r}");
        assert_eq!(r.completions, ios, "every command completed: {r}");
    }
}

/// `make sim`: a randomized co-simulation of at least 10^7 cycles (SSDLAB_SIM_CYCLES), its job
/// and queue depth drawn from the seed (SSDLAB_QD overrides the depth), printing cycles per
/// wall-second, transactions checked and mismatches; SSDLAB_WAVE=file.vcd for GTKWave.
#[test]
#[ignore]
fn sim_long() {
    let seed = seed_or(2026);
    let cycles: u64 = std::env::var("SSDLAB_SIM_CYCLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    let job = match std::env::var("SSDLAB_QD").ok().map(|s| s.parse::<u32>()) {
        Some(Ok(qd)) => random_job_at(seed, qd),
        Some(Err(e)) => panic!("SSDLAB_QD: {e}"),
        None => random_job(seed),
    };
    let wave = std::env::var_os("SSDLAB_WAVE").map(std::path::PathBuf::from);
    let lim = RunLimits {
        submit_until: cycles,
        max_cycles: cycles + 5_000_000,
        seed,
    };
    let r = three_way(&cosim_config(), &job, lim, &verilog(), wave.as_deref())
        .unwrap_or_else(|e| panic!("{e}"));
    println!("{r}");
    assert!(r.cycles >= cycles, "ran {} cycles", r.cycles);
    assert_eq!(r.mismatches(), 0, "{r}");
}

/// GC on the TLC-native drive of [`verilator_reads_back_one_shot_tlc_programs`] (24 pages per
/// block): after the precondition 24 of 32 blocks per die hold data and
/// GC starts below 3 free, after 5 x 24 = 120 writes per die, 3840 in all; 5000 random writes
/// relocate and erase. Its relocation reads and one-shot programs keep their data in the
/// way's region, the program taking it whole: every write completes and the streams match
/// event by event, every program one-shot. 13.9 M cycles, about 2 minutes of Verilator: in
/// `make sim`.
#[test]
#[ignore]
fn verilator_matches_model_on_gc_with_one_shot_programs() {
    let mut cfg = cosim_config();
    (cfg.geometry.bits_per_cell, cfg.geometry.wordlines_per_block) = (3, 8);
    let v = ssdlab_hdl::top::export_verilog(&cfg).expect("elaborates");
    let seed = seed_or(11);
    let job = "[w]\nrw=randwrite\nbs=4k\niodepth=8\nnumber_ios=5000\n";
    let lim = RunLimits {
        submit_until: u64::MAX,
        max_cycles: 200_000_000,
        seed,
    };
    let r = three_way(&cfg, job, lim, &v, None).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    println!("{r}");
    assert_eq!(r.mismatches(), 0, "{r}");
    assert_eq!(r.completions, 5000, "every write completed: {r}");
    assert!(r.programs.0 > 5000 / 3, "{r}");
    assert_eq!(r.programs.0, r.programs.1, "every program one-shot: {r}");
}
