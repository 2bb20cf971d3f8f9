//! Co-simulation of the datapath elaborated for a built-in preset (`setup::preset_config`):
//! the preset's geometry (8 channels x 2 ways, 2 planes of 16 KiB + 2208 B pages, TLC with
//! its SLC cache), its NAND and ONFI timing and its 200 MHz sequencer clock crossing to the
//! 250 MHz PCIe side, with the preset's FTL as the firmware's, against the model blocks event
//! by event, and every read's data compared in host memory. Host writes move into the half of
//! their way's region reserved for the open program unit, or wait in their host buffers when
//! none is free (the datapath has no DRAM data path to stage them in); a TLC program unit (the
//! SLC cache off) takes the whole region, its units waiting in host memory until it is full.
//! `make sim` runs the long form (`sim_preset`).

use ssdlab_hdl::nand::op::{kind_code, unpack_op, KIND_PROGRAM, KIND_READ};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nvme::frontend::tlp::TlpKind;
use ssdlab_testbench::cosim::datapath::drive_figures::{drive_figures, timed_job, HostFigures};
use ssdlab_testbench::cosim::datapath::exec::{run, RunLimits};
use ssdlab_testbench::cosim::datapath::hdl_exec::{HdlExec, HdlSimDut};
use ssdlab_testbench::cosim::datapath::model_exec::{map_cache_config, ModelExec};
use ssdlab_testbench::cosim::datapath::port::{TlpClass, TlpRec};
use ssdlab_testbench::cosim::datapath::scoreboard::compare;
use ssdlab_testbench::cosim::datapath::setup::{
    preset_config, preset_config_with, run_model, shipped_config_with, stimulus,
    without_firmware_time,
};
use ssdlab_testbench::cosim::datapath::sim::{three_way_reading_data, IoFigures, Report};
use ssdlab_testbench::cosim::knob::knob;
use std::collections::BTreeSet;

#[path = "datapath_preset/spread.rs"]
mod spread;

const PRESET: &str = "sm2262-512g";

/// A job over the first 64 MiB (written sequentially first, untimed).
fn reads(rw: &str, bs_kib: u32, iodepth: u32, ios: u64) -> String {
    clones(rw, bs_kib, iodepth, 1, ios)
}

/// [`reads`] as `numjobs` clones, each on its own queue pair.
fn clones(rw: &str, bs_kib: u32, iodepth: u32, numjobs: u32, ios: u64) -> String {
    format!(
        "[{rw}]\nrw={rw}\nbs={bs_kib}k\niodepth={iodepth}\nnumjobs={numjobs}\nsize=64m\nnumber_ios={ios}\n"
    )
}

/// The fields of a NAND op word but its row: (kind code, planes, data cycles per plane, column,
/// pages). The kind code tells a cache read from a read, which `unpack_op` folds into pages.
fn fields(op: u128) -> (u128, u8, u16, u16, u8) {
    let o = unpack_op(op);
    (kind_code(op), o.planes, o.data_cycles, o.column, o.pages)
}

/// A 4 KiB unit's share of a 16 384 + 2208 B page is 4096 + 2208 / 4 = 4648 B: a host read of
/// one unit moves 4648 / 4 = 1162 beats of 4 bytes from the column of its data, 4096 k for
/// slot k. Its op takes at least the SLC tR of the preset's cache (the 64 MiB written
/// sequentially is there): 28 us = 7000 PCIe cycles, plus the 1162 beats at 5 ns = 1452.5.
#[test]
fn verilator_matches_model_on_sm2262_512g_random_reads() {
    let cfg = preset_config(PRESET).expect("preset");
    let job = reads("randread", 4, 32, 256);
    let model = run_model(&cfg, &job, LIM, true).expect("the model runs");
    let mut columns = BTreeSet::new();
    for n in &model.nand {
        let (kind, planes, beats, column, pages) = fields(n.op);
        assert_eq!(
            (kind, planes, beats, pages),
            (KIND_READ, 1, 1162, 1),
            "{n:?}"
        );
        columns.insert(column);
        assert!(n.done - n.issue >= 7000 + 1452, "{n:?}");
    }
    assert_eq!(columns, BTreeSet::from([0, 4096, 8192, 12288]));
    let r = checked(&cfg, &job, &verilog(&cfg));
    assert_eq!((r.completions, r.units_checked), (256, 256), "{r}");
}

/// 128 KiB reads of data written in order, with the preset's read-ahead (512 KiB = 128 units):
/// a page row (2 planes x 4 units) holds 32 KiB, so every read is four two-plane page reads,
/// 4 x 4648 / 4 = 4648 beats per plane from column 0. The first two read their own pages
/// (8 ops); the second continues a stream, so the read-ahead prefetches the next 128 units,
/// 16 page rows; every later read is served from those prefetches and tops the window up by
/// its own 32 units, 4 rows: 8 + 16 + 62 x 4 = 272 ops. The prefetched units go to the host
/// from the region halves they were read into; 64 reads move 2048 units, each compared.
#[test]
fn verilator_matches_model_on_sm2262_512g_sequential_reads() {
    let cfg = preset_config(PRESET).expect("preset");
    assert_eq!(cfg.ftl.read_ahead_kib, 512);
    let job = reads("read", 128, 32, 64);
    let model = run_model(&cfg, &job, LIM, true).expect("the model runs");
    assert_eq!(model.nand.len(), 8 + 16 + 62 * 4);
    for n in &model.nand {
        assert_eq!(fields(n.op), (KIND_READ, 2, 4648, 0, 1), "{n:?}");
    }
    let r = checked(&cfg, &job, &verilog(&cfg));
    assert_eq!((r.completions, r.units_checked), (64, 2048), "{r}");
}

/// The preset's stream page cache (`ftl.stream_read_page_cache`) and read-ahead (128 units):
/// a read that continues the one before reads whole pages. 32 sequential 4 KiB reads from LBA
/// 0: the first starts no stream, so it reads its unit alone (slot 0 of plane 0: 1162 beats
/// from column 0, one plane); the second reads both planes' page whole, 4 x 4648 B = 18 592 B
/// = 4648 beats per plane from column 0, and its read-ahead prefetches units 2..130, the
/// rest of that page row and 16 more (the last one whole: to 136), 17 whole-row reads. The
/// others are served from the prefetches, each topping the window up to 128 units past its
/// end: reads 9, 17 and 25 (ending at 9, 17, 25) each reach one row further (136..144,
/// 144..152, 152..160). 1 + 1 + 17 + 3 ops. On Verilator against the model, each unit
/// compared.
#[test]
fn verilator_matches_model_on_sm2262_512g_stream_page_cache_reads() {
    let cfg = preset_config(PRESET).expect("preset");
    assert!(cfg.ftl.stream_read_page_cache);
    let job = reads("read", 4, 4, 32);
    let model = run_model(&cfg, &job, LIM, true).expect("the model runs");
    let got: Vec<_> = model.nand.iter().map(|n| fields(n.op)).collect();
    let mut want = vec![(KIND_READ, 2, 4648, 0, 1); 1 + 1 + 17 + 3];
    want[0] = (KIND_READ, 1, 1162, 0, 1);
    assert_eq!(got, want);
    let r = checked(&cfg, &job, &verilog(&cfg));
    assert_eq!((r.completions, r.units_checked), (32, 32), "{r}");
}

/// 128 KiB writes in order: each command's 32 units fill 4 SLC program units of 2 planes x 4
/// units in host order, so the firmware moves them host -> region two at a time: 8 KiB moves
/// (PRP2 the second page, no list) of 16 MRd of MRRS 512 B each, sent back to back (32 tags),
/// and a move starts only after the previous one's completions are in (the DMA port takes one
/// move at a time; a host read takes 800 ns = 200 cycles). So the data reads come in bursts
/// 100 cycles or more apart, each 16 MRd over 8 KiB of consecutive host addresses from a page
/// boundary: 32 x 16 bursts.
#[test]
fn verilator_matches_model_on_sm2262_512g_sequential_writes() {
    let cfg = preset_config(PRESET).expect("preset");
    let job = reads("write", 128, 32, 32);
    let model = run_model(&cfg, &job, LIM, true).expect("the model runs");
    let mrd: Vec<_> = model
        .tlps
        .iter()
        .filter(|t| matches!(t.0, TlpClass::Data(_)) && t.1.kind == TlpKind::MemRead)
        .map(|t| t.1)
        .collect();
    let mut bursts: Vec<Vec<TlpRec>> = Vec::new();
    for (i, t) in mrd.iter().enumerate() {
        match bursts.last_mut() {
            Some(b) if t.cycle - mrd[i - 1].cycle < 100 => b.push(*t),
            _ => bursts.push(vec![*t]),
        }
    }
    assert_eq!(bursts.len(), 32 * 16);
    for b in &bursts {
        assert_eq!(b[0].addr % 4096, 0, "{b:?}");
        let addrs: Vec<u64> = b.iter().map(|t| t.addr).collect();
        let want: Vec<u64> = (0..16).map(|k| b[0].addr + 512 * k).collect();
        assert_eq!(addrs, want, "16 MRd of 512 B over 8 KiB");
        assert!(b.iter().all(|t| t.len == 512), "{b:?}");
    }
    assert_eq!(checked(&cfg, &job, &verilog(&cfg)).completions, 32);
}

fn verilog(cfg: &DriveConfig) -> String {
    ssdlab_hdl::top::export_verilog(cfg).expect("the preset elaborates")
}

/// Seed 1, submitting until every command of the job is in.
const LIM: RunLimits = RunLimits {
    submit_until: u64::MAX,
    max_cycles: 8_000_000,
    seed: 1,
};

/// `job` on Verilator against the model, data checked: no mismatch, every completion and NAND
/// op at the model's cycle.
fn checked(cfg: &DriveConfig, job: &str, v: &str) -> Report {
    let r = three_way_reading_data(cfg, job, LIM, v).unwrap_or_else(|e| panic!("{e}"));
    println!("{r}");
    assert_eq!(r.mismatches(), 0, "{r}");
    assert_eq!((r.worst_time, r.worst_nand), (0.0, 0.0), "cycle-exact: {r}");
    r
}

/// Two reads on rust_hdl's simulation of the preset's datapath, sequencers on their own
/// 200 MHz clock: the same streams as the model, every completion and NAND op to the cycle.
#[test]
fn rust_hdl_matches_model_on_sm2262_512g() {
    let h = std::thread::Builder::new()
        .stack_size(ssdlab_hdl::top::BUILD_STACK_BYTES)
        .spawn(|| {
            let cfg = preset_config(PRESET).expect("preset");
            let job = reads("randread", 4, 2, 2);
            let lim = RunLimits {
                submit_until: u64::MAX,
                max_cycles: 100_000,
                seed: 2,
            };
            let want = run_model(&cfg, &job, lim, true).expect("the model runs");
            let (mut fw, mut host) = stimulus(&cfg, &job, lim.seed, true).expect("stimulus");
            let dut = HdlSimDut::new(&cfg).expect("the preset elaborates");
            let mut x = HdlExec::new(&cfg, dut, map_cache_config().line_entries);
            let got = run(&mut x, &mut fw, &mut host, lim).expect("rust_hdl runs");
            let c = compare(&want, &got, lim.seed).unwrap_or_else(|d| panic!("{d}"));
            println!(
                "rust_hdl: {} cycles, {} transactions checked",
                got.cycles, c.transactions
            );
            assert_eq!(got.nand.len(), 2);
            assert_eq!((c.worst_time, c.worst_nand), (0.0, 0.0), "cycle-exact");
        })
        .expect("spawn");
    h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Host writes on the preset: the FTL stages each 4 KiB unit in its SLC program unit (2 planes
/// x 4 units), and the firmware moves a unit's data into the region when its program is
/// planned, so 256 random writes are 256 / 8 = 32 two-plane programs of 4 x 4648 / 4 = 4648
/// beats per plane from column 0. Then a random mix at QD32 whose reads find the data written
/// before them (or the precondition's) at the host. Without firmware CPU time: with the
/// preset's (2 cores, 6.8 us per 4 KiB write) 8 writes take 27 us to arrive, longer than the
/// 20 us a staged unit waits before the firmware pads its program unit (`sim_preset` runs
/// with it).
#[test]
fn verilator_matches_model_on_sm2262_512g_writes_and_a_mix() {
    let cfg = without_firmware_time(preset_config(PRESET).expect("preset"));
    let writes = reads("randwrite", 4, 32, 256);
    let model = run_model(&cfg, &writes, LIM, true).expect("the model runs");
    assert_eq!(model.nand.len(), 32);
    for n in &model.nand {
        assert_eq!(fields(n.op), (KIND_PROGRAM, 2, 4648, 0, 1), "{n:?}");
    }
    let v = verilog(&cfg);
    for job in [writes, reads("randrw", 4, 32, 256)] {
        assert_eq!(checked(&cfg, &job, &v).completions, 256);
    }
}

/// With the SLC cache off (an architect's what-if), host data goes to TLC blocks: each
/// program is one-shot, 3 pages on each of the 2 planes, a page and plane loaded at a time
/// (4 x 4648 B = 18 592 B, 4648 beats of 4 bytes), 6 x 18 592 = 111 552 B of the way's 7-bank
/// (112 KiB) region, more than its half. 48 random writes are at least 48 / 24 = 2 program
/// units of 24 units, at most one (padded) per die: 2 to 16 programs, all of that shape. On
/// Verilator against the model, then a random mix whose reads find the data at the host: no
/// mismatch, every event at the model's cycle, every program one-shot.
#[test]
fn verilator_matches_model_on_sm2262_512g_one_shot_tlc_writes() {
    let mut cfg = without_firmware_time(preset_config(PRESET).expect("preset"));
    let c = &mut cfg.ftl.slc_cache;
    (c.enabled, c.static_blocks_per_plane, c.fold_ahead_blocks) = (false, 0, 0);
    c.fold_when_full = false;
    let writes = reads("randwrite", 4, 32, 48);
    let model = run_model(&cfg, &writes, LIM, true).expect("the model runs");
    assert!((2..=16).contains(&model.nand.len()), "{:?}", model.nand);
    for n in &model.nand {
        assert_eq!(fields(n.op), (KIND_PROGRAM, 2, 4648, 0, 3), "{n:?}");
    }
    let v = verilog(&cfg);
    for job in [writes, reads("randrw", 4, 32, 64)] {
        let r = checked(&cfg, &job, &v);
        assert_eq!(r.programs.0, r.programs.1, "every program one-shot: {r}");
    }
}

/// The drive's figures that `make sim` sets beside the datapath's are the ones `ssdlab run`
/// prints: the same job file with the timing options (`timed_job`), `--precondition sequential`,
/// the preset as it ships (the co-simulation runs it unchanged), the same seed. fio's JSON
/// gives the group's reads (`group_reporting`: one entry for the 4 clones), IO/s and `lat_ns`.
#[test]
fn drive_figures_are_what_ssdlab_run_reports() {
    let cfg = preset_config(PRESET).expect("preset");
    let job = timed_job(&clones("randread", 4, 32, 4, 1 << 20), 200, 1_000);
    let d = drive_figures(&cfg, &job, 1).expect("the drive runs");
    let dir = tempfile::Builder::new()
        .prefix("ssdlab-drive-figures-")
        .tempdir()
        .expect("temp dir");
    let file = dir.path().join("randread.fio");
    std::fs::write(&file, &job).expect("job file");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args([
            "run",
            file.to_str().expect("utf-8 path"),
            "--preset",
            PRESET,
        ])
        .args([
            "--precondition",
            "sequential",
            "--output-format",
            "json",
            "--seed",
            "1",
        ])
        .output()
        .expect("run ssdlab");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let jobs = v["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 1, "group_reporting: one entry");
    let r = &jobs[0]["read"];
    let iops = r["iops"].as_f64().expect("iops");
    let mean_us = r["lat_ns"]["mean"].as_f64().expect("lat_ns.mean") / 1e3;
    assert!(d.iops > 0.0, "{d:?}");
    assert!((d.iops - iops).abs() <= 1e-6 * iops, "{d:?} against {iops}");
    assert!(
        (d.mean_us - mean_us).abs() <= 1e-6 * mean_us,
        "{d:?} against {mean_us} us"
    );
}

/// `name` from the environment (`cosim::knob`), `default` when unset; a value that is not a
/// whole number in `range` stops the run naming the variable.
fn env_in(name: &str, default: u64, range: std::ops::RangeInclusive<u64>) -> u64 {
    knob(name, default, range).unwrap_or_else(|e| panic!("{e}"))
}

/// The jobs of `all` that `SSDLAB_SIM_JOBS` names (comma-separated fio `rw` values), all when
/// unset; a name not in `all` stops the run naming it.
fn picked_jobs<'a>(all: &[&'a str]) -> Vec<&'a str> {
    let Ok(s) = std::env::var("SSDLAB_SIM_JOBS") else {
        return all.to_vec();
    };
    s.split(',')
        .map(|n| {
            let n = n.trim();
            *all.iter()
                .find(|&&a| a == n)
                .unwrap_or_else(|| panic!("SSDLAB_SIM_JOBS: no job `{n}` (jobs: {all:?})"))
        })
        .collect()
}

/// `make sim`: on the preset (`SSDLAB_SIM_PRESET`, default sm2262-512g), random 4 KiB and
/// sequential 128 KiB reads and writes at QD32 and a random 4 KiB mix, each with fio's
/// `time_based`, `ramp_time` of `SSDLAB_SIM_RAMP_US` (default 10 000 us) and `runtime` of
/// `SSDLAB_SIM_RUNTIME_US` (default 10 000 us): submitting for 20 ms = 5 000 000 PCIe cycles
/// from the job's first command, as `ssdlab run` does from its start, and counting the
/// completions of the last 10 ms on. Read data compared: a table of the host's IO/s and
/// latencies, cycles per wall-second and mismatches; then the same job file's figures from the
/// drive (`drive_figures`) beside the datapath's, with the error, and, when the preset as it
/// ships differs from the co-simulation's config (read-ahead), the
/// drive's figures on the shipped preset beside them again. `SSDLAB_SEED` (default 1)
/// seeds both; `SSDLAB_SIM_JOBS` runs some of the jobs (e.g. `write,randrw`);
/// `SSDLAB_SIM_SET` holds `--set` overrides of the preset, separated by spaces (a what-if:
/// `ftl.slc_cache.enabled=false`), for both.
///
/// Why a ramp: the drive takes its first 128 KiB writes into its DRAM write buffer (8 MiB on
/// the sm2262 presets) at the link's rate, faster than its dies drain them, for about 6 ms;
/// the datapath has no DRAM data path. After the ramp both run at the rate of their dies.
/// Why 10 ms counted: fio's IO/s divide by the time to the last completion, so the drain of
/// the 128 commands outstanding when submission stops (up to a p99 latency, 0.7 ms on the
/// random reads) weighs on a short run, and which die holds the longest queue then differs
/// between two models whose events differ in order. docs/hdl.md gives the spread over seeds.
#[test]
#[ignore]
fn sim_preset() {
    let name = std::env::var("SSDLAB_SIM_PRESET").unwrap_or_else(|_| PRESET.to_string());
    let ramp_us = env_in("SSDLAB_SIM_RAMP_US", 10_000, 0..=1_000_000);
    let runtime_us = env_in("SSDLAB_SIM_RUNTIME_US", 10_000, 1..=1_000_000);
    let sets: Vec<String> = std::env::var("SSDLAB_SIM_SET")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let cfg = preset_config_with(&name, &sets).unwrap_or_else(|e| panic!("SSDLAB_SIM_SET: {e}"));
    // The preset as `ssdlab run` runs it, when the co-simulation's config differs from it
    // (read-ahead): its figures go in a table of their own.
    let shipped = shipped_config_with(&name, &sets).unwrap_or_else(|e| panic!("{name}: {e}"));
    let shipped = (shipped != cfg).then_some(shipped);
    let v = ssdlab_hdl::top::export_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
    let submit_cycles = (ramp_us + runtime_us) * 250;
    let lim = sim_limits(ramp_us, runtime_us, env_in("SSDLAB_SEED", 1, 0..=u64::MAX));
    println!(
        "preset {name}{}, seed {}, {ramp_us} us ramp + {runtime_us} us per job: Verilator against the model blocks, read data compared",
        sets.iter().map(|s| format!(" --set {s}")).collect::<String>(),
        lim.seed
    );
    println!("| job | cycles | I/Os counted | units compared | IO/s | MB/s | mean / p99 latency | cycles/s | mismatches |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let picked = picked_jobs(&SIM_JOBS.map(|j| j.0));
    let mut against = Vec::new();
    for (rw, bs_kib, numjobs) in SIM_JOBS.into_iter().filter(|j| picked.contains(&j.0)) {
        let job = clones(rw, bs_kib, 32, numjobs, 1 << 20);
        let timed = timed_job(&job, ramp_us, runtime_us);
        let r = three_way_reading_data(&cfg, &timed, lim, &v).unwrap_or_else(|e| panic!("{e}"));
        let d = drive_figures(&cfg, &timed, lim.seed).unwrap_or_else(|e| panic!("{e}"));
        let s = shipped
            .as_ref()
            .map(|c| drive_figures(c, &timed, lim.seed).unwrap_or_else(|e| panic!("{e}")));
        let name = format!("{rw} {bs_kib} KiB QD32 x {numjobs}");
        println!(
            "| {name} | {} | {} | {} | {:.0} | {:.0} | {:.1} / {:.1} us | {:.0} | {} |",
            r.cycles,
            r.io.ios,
            r.units_checked,
            r.io.iops(),
            r.io.iops() * bs_kib as f64 * 1024.0 / 1e6,
            us(r.io.mean_cycles),
            r.io.p99_ns as f64 / 1e3,
            r.cycles_per_s(),
            r.mismatches()
        );
        assert!(r.cycles >= submit_cycles, "ran {} cycles", r.cycles);
        assert_eq!(r.mismatches(), 0, "{r}");
        against.push((name, d, s, r.io));
    }
    // The issue's target is agreement within 2 %; printed, not asserted while the datapath has
    // no DRAM data path (docs/hdl.md).
    println!("\nthe drive (`ssdlab run --precondition sequential`, {ramp_us} us ramp + {runtime_us} us, same config and seed) against the datapath:");
    drive_table(against.iter().map(|(n, d, _, io)| (n, *d, io)));
    if shipped.is_some() {
        println!("\nthe preset as it ships (read-ahead as configured; `ssdlab run --preset {name}`, same job file and seed) against the datapath:");
        drive_table(
            against
                .iter()
                .filter_map(|(n, _, s, io)| Some((n, (*s)?, io))),
        );
    }
}

/// `make sim`'s jobs: fio `rw`, block size in KiB, clones (the random ones as 4 clones, each
/// on its own queue pair).
const SIM_JOBS: [(&str, u32, u32); 5] = [
    ("randread", 4, 4),
    ("read", 128, 1),
    ("randwrite", 4, 4),
    ("write", 128, 1),
    ("randrw", 4, 1),
];

/// The limits of a `make sim` run of `ramp_us` + `runtime_us` from `seed`: submission cycles at
/// the 250 MHz PCIe clock; the drain of a 128 KiB write backlog on the slowest preset fits in
/// as many again.
fn sim_limits(ramp_us: u64, runtime_us: u64, seed: u64) -> RunLimits {
    let submit_cycles = (ramp_us + runtime_us) * 250;
    RunLimits {
        submit_until: u64::MAX,
        max_cycles: 3 * submit_cycles + 2_000_000,
        seed,
    }
}

/// The error of `got` against `want`, in %.
fn pct_err(got: f64, want: f64) -> f64 {
    100.0 * (got - want) / want.max(1e-9)
}

/// Microseconds of `cycles` of the 250 MHz PCIe clock.
fn us(cycles: f64) -> f64 {
    cycles * 4e-3
}

/// Prints the drive's figures beside the datapath's for each job, with the errors.
fn drive_table<'a>(rows: impl Iterator<Item = (&'a String, HostFigures, &'a IoFigures)>) {
    println!("| job | drive IO/s | datapath IO/s | error | drive mean / p99 | datapath mean / p99 | error mean / p99 |");
    println!("|---|---|---|---|---|---|---|");
    for (name, d, io) in rows {
        let (mean, p99) = (us(io.mean_cycles), io.p99_ns as f64 / 1e3);
        println!(
            "| {name} | {:.0} | {:.0} | {:+.1} % | {:.1} / {:.1} us | {mean:.1} / {p99:.1} us | {:+.1} / {:+.1} % |",
            d.iops,
            io.iops(),
            pct_err(io.iops(), d.iops),
            d.mean_us,
            d.p99_us,
            pct_err(mean, d.mean_us),
            pct_err(p99, d.p99_us)
        );
    }
}

/// A sequential read stream beside a sequential write stream (fio `rw=rw`, 4 KiB at QD4, 160
/// commands): the reads' read-ahead holds prefetched page rows in a half of each way's region
/// while the writes' programs need a half of the same ways. A program that finds both halves held takes
/// a quiet prefetch's (read done, no hit waiting), and the FTL forgets that prefetch's units,
/// so a later read of one reads NAND: the model execution gives some prefetch up. On Verilator
/// against the model, every read's data compared, the forgotten units' included.
#[test]
fn verilator_matches_model_on_sm2262_512g_prefetches_giving_way() {
    let cfg = preset_config(PRESET).expect("preset");
    let job = reads("rw", 4, 4, 160);
    let (mut fw, mut host) = stimulus(&cfg, &job, LIM.seed, true).expect("stimulus");
    let mut x = ModelExec::new(&cfg).expect("the model builds");
    run(&mut x, &mut fw, &mut host, LIM).expect("the model runs");
    assert!(
        fw.ftl().stats().read_ahead_ops > 0,
        "the reads form a stream"
    );
    assert!(fw.prefetches_given_up() > 0, "no prefetch gave its half up");
    let r = checked(&cfg, &job, &verilog(&cfg));
    assert_eq!(r.completions, 160, "{r}");
}
