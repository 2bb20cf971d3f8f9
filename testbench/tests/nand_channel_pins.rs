//! The NAND channel with its NAND at the pins: the Verilated `NandChannel`'s beat port drives the
//! Verilated ONFI PHY (`OnfiPhy`, elaborated for the same `[onfi]`), whose pins drive the
//! pin-level target (`devices::onfi_pins`: every ONFI timing parameter it knows checked in ns;
//! the decoded latches and bytes go to one NAND target per way). The channel's bus trace and
//! completion cycles must equal the behavioural model's (`run_op_list_traced`), with 0 timing
//! violations at the pins and every read returning what was programmed, through the PHY's read
//! capture, by the op's completion (which waits for the PHY's read return); with program/erase
//! suspend too, where R/B# at the pins is what tells the way tSUS is over. Timing: the default
//! preset's `[onfi]` (800 MT/s on the 200 MHz sequencer clock, 4 bytes per cycle, the PHY's X2
//! gearing) and `[onfi.pins]` defaults.

use ssdlab_hdl::nand::phy::OnfiPhy;
use ssdlab_hdl::nand::timing::HdlTiming;
use ssdlab_model::config::OnfiConfig;
use ssdlab_model::config::{SuspendConfig, SuspendPolicyKind};
use ssdlab_model::nand::phy::PhyTiming;
use ssdlab_model::nand::sequencer::{
    run_op_list_suspend, run_op_list_traced, BusKind, SeqOp, SeqTiming, SuspendRules,
};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::{DriveConfig, SimTime};
use ssdlab_testbench::cosim::channel_bench::{
    compare_with_model, first_event, random_mix, run_bench_pins, BenchOp, MixParams, PinSide,
    TargetSuspend, WAYS,
};
use ssdlab_testbench::cosim::channel_dut::VerilatedChannel;
use ssdlab_testbench::devices::onfi_pins::dut::VerilatedPhy;
use ssdlab_testbench::devices::onfi_pins::{OnfiPinTarget, PinPhase};

const STRIDE: u32 = 2048;

fn onfi() -> OnfiConfig {
    DriveConfig::default_drive().onfi
}

/// Runs `ops` on the model and on the channel at the pins; asserts the same trace, completion
/// cycles and bus occupancy, 0 violations and the data; returns the pin target's phases.
fn at_the_pins(cfg: &OnfiConfig, ops: &[BenchOp], page: usize, ctx: &str) -> Vec<PinPhase> {
    at_the_pins_suspend(cfg, None, ops, page, ctx)
}

/// [`at_the_pins`] with program/erase suspend (`sus`) on the model, the channel and the targets.
fn at_the_pins_suspend(
    cfg: &OnfiConfig,
    sus: Option<&SuspendConfig>,
    ops: &[BenchOp],
    page: usize,
    ctx: &str,
) -> Vec<PinPhase> {
    let cfg = cfg.clone();
    let mut h = HdlTiming::new(&cfg, STRIDE).unwrap();
    let t: SeqTiming = h.seq;
    let list: Vec<(SimTime, SeqOp)> = ops.iter().map(|b| (b.issue, b.op)).collect();
    let (model_done, model_trace, model_busy) = match sus {
        Some(s) => {
            h = h.with_suspend(s).unwrap();
            run_op_list_suspend(&cfg, 4, 1, s, &list)
        }
        None => run_op_list_traced(&cfg, 4, 1, &list),
    };
    let mut dut = VerilatedChannel::new(&h).expect("verilator builds the channel");
    let mut phy = VerilatedPhy::new(OnfiPhy::new(&cfg).unwrap()).expect("verilator builds the PHY");
    let pt = PhyTiming::new(&cfg).unwrap();
    let mut target = OnfiPinTarget::new(&cfg, WAYS as u8, STRIDE, page);
    if let Some(s) = sus {
        let r = SuspendRules::new(s, &t);
        for w in target.ways.iter_mut() {
            w.set_suspend(TargetSuspend {
                commands: r.commands,
                t_suspend: r.t_suspend,
                t_resume: r.t_resume,
            });
        }
    }
    // The model's completions wait for the read return this PHY has.
    assert_eq!(
        t.rd_return,
        pt.read_return(),
        "{ctx}: the sequencer's read return"
    );
    let pins = PinSide::new(&mut phy, target);
    let res = run_bench_pins(&mut dut, &t, pins, STRIDE, page, ops, 20_000_000)
        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let worst = compare_with_model(&res, &model_done, &model_trace, &t)
        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
    println!(
        "{ctx} at the pins: {} ops, {} bus events, {} cycles, 0 violations",
        ops.len(),
        res.trace.len(),
        res.cycles
    );
    assert_eq!(worst, 0.0, "{ctx}: completion cycles differ from the model");
    assert_eq!(res.bus_cycles, model_busy, "{ctx}: bus occupancy");
    res.pin_phases
}

fn op(id: u64, way: u8, kind: NandOpKind, planes: u8, page: u32, array: u64) -> SeqOp {
    let t = SeqTiming::new(&onfi());
    SeqOp {
        id,
        way,
        die: 0,
        kind,
        planes,
        bus_bytes: if kind == NandOpKind::Erase {
            0
        } else {
            page * planes as u32
        },
        array_time: t.to_time(array),
        pages: 1,
    }
}

/// Program two planes and one, read them back (two planes, one), erase, read the erased page,
/// a 3-page cache read, across the four ways with reads landing between other ways' latches.
#[test]
fn directed_ops_run_clean_at_the_pins_and_match_the_model() {
    let t = SeqTiming::new(&onfi());
    let p = 64;
    let b = |issue: u64, o: SeqOp, row: u32| BenchOp::at_cycle(&t, issue, o, row);
    let cache = |id, way, pages: u8, array| SeqOp {
        bus_bytes: p * pages as u32,
        pages,
        ..op(id, way, NandOpKind::Read, 1, p, array)
    };
    let ops = vec![
        b(0, op(0, 0, NandOpKind::Program, 2, p, 400), 0x0005),
        b(0, op(1, 1, NandOpKind::Program, 1, p, 300), 0x0003),
        b(10, op(2, 2, NandOpKind::Read, 1, p, 120), 0x0009),
        b(10, op(3, 0, NandOpKind::Read, 2, p, 150), 0x0005),
        b(20, op(4, 1, NandOpKind::Read, 1, p, 100), 0x0003),
        b(30, op(5, 3, NandOpKind::Erase, 2, p, 500), 0x0000),
        b(40, op(6, 0, NandOpKind::Erase, 2, p, 300), 0x0000),
        b(40, op(7, 0, NandOpKind::Read, 1, p, 100), STRIDE + 0x0005),
        b(50, cache(8, 1, 3, 90), 0x0002),
        b(80, op(9, 1, NandOpKind::Program, 1, p, 200), 0x0004),
    ];
    let phases = at_the_pins(&onfi(), &ops, p as usize, "directed");
    // By hand at 200 MHz (PhyTiming): a 64-byte page out is 16 beats inside a 3-cycle RE#
    // preamble and a 5-cycle postamble = 24 cycles = 96 quarters with 64 RE# edges; a status
    // poll is 9 cycles = 36 quarters with 4 edges; a 64-byte program is DQS 3 + 16 + 2 = 21
    // cycles = 84 quarters with 64 DQS edges.
    let count = |want: PinPhase| phases.iter().filter(|&&x| x == want).count();
    let page_out = PinPhase::DataOut {
        quarters: 96,
        edges: 64,
    };
    // Reads: 1 + 2 + 1 + 1 pages, 2 for the two-plane read, 3 for the cache read.
    assert_eq!(count(page_out), 1 + 2 + 1 + 1 + 3, "{phases:?}");
    let status = PinPhase::DataOut {
        quarters: 36,
        edges: 4,
    };
    // One status poll per program and erase: 3 programs, 2 erases.
    assert_eq!(count(status), 5, "{phases:?}");
    let page_in = PinPhase::DataIn {
        quarters: 84,
        edges: 64,
    };
    // 2 + 1 + 1 program pages.
    assert_eq!(count(page_in), 4, "{phases:?}");
}

/// 200 ops of 512-byte pages, a third of the plain reads partial, one-shot programs or not.
fn mix(one_shot: bool) -> MixParams {
    MixParams {
        ops: 200,
        page_bytes: 512,
        t_read: (200, 1200),
        t_prog: (1000, 4000),
        t_erase: (2000, 8000),
        mean_gap: 150,
        partial_reads: true,
        one_shot,
    }
}

/// A random mix (reads, cache reads, programs, erases on four ways, 512-byte pages) at the pins.
#[test]
fn a_random_mix_runs_clean_at_the_pins_and_matches_the_model() {
    let t = SeqTiming::new(&onfi());
    let ops = random_mix(0x91A5_0001, &mix(false), &t, &onfi(), STRIDE);
    at_the_pins(&onfi(), &ops, 512, "random mix seed 0x91a50001");
}

/// One-shot TLC programs at the pins (3 pages per plane, 1Ah between pages): 0 violations, the
/// model's trace and completions, each page's data read back.
#[test]
fn a_random_mix_with_one_shot_programs_runs_clean_at_the_pins() {
    let t = SeqTiming::new(&onfi());
    let ops = random_mix(0x91A5_0501, &mix(true), &t, &onfi(), STRIDE);
    assert!(
        ops.iter().any(|b| b.op.is_one_shot()),
        "the mix has one-shot programs"
    );
    let phases = at_the_pins(&onfi(), &ops, 512, "one-shot mix seed 0x91a50501");
    // A 512-byte page load is DQS 3 + 128 + 2 = 133 cycles = 532 quarters with 512 edges (as
    // the 64-byte load of the directed test): a one-shot program has 3 per plane.
    let loads = phases
        .iter()
        .filter(|&&x| {
            x == PinPhase::DataIn {
                quarters: 532,
                edges: 512,
            }
        })
        .count();
    let want: usize = ops
        .iter()
        .filter(|b| b.op.kind == NandOpKind::Program)
        .map(|b| b.op.planes as usize * b.op.pages as usize)
        .sum();
    assert_eq!(loads, want);
}

/// The e12-960g preset's bus at the pins: 600 MT/s on a 150 MHz sequencer clock (4 bytes per
/// cycle, 6.67 ns), where the 15 ns RE# preamble (3 cycles) outlasts the 2-cycle CLE hold
/// after WE# (tWC 25 ns = 4 cycles, tWP 10 ns = 2): the preamble is in each burst's own
/// lead-in, so tWHR and tCCS hold at the pins all the same.
#[test]
fn the_e12_preset_runs_clean_at_the_pins() {
    let (file, text) = ssdlab_model::config::builtin_preset("e12-960g").unwrap();
    let cfg = DriveConfig::from_toml_str(text, file).unwrap().onfi;
    let pt = PhyTiming::new(&cfg).unwrap();
    assert_eq!((pt.bytes_per_cycle, pt.rpre, pt.cl_hold), (4, 3, 2));
    let t = SeqTiming::new(&cfg);
    let p = MixParams {
        ops: 120,
        page_bytes: 512,
        t_read: (150, 900),
        t_prog: (800, 3000),
        t_erase: (1500, 6000),
        mean_gap: 120,
        partial_reads: true,
        one_shot: false,
    };
    let ops = random_mix(0xE12_0001, &p, &t, &cfg, STRIDE);
    at_the_pins(&cfg, &ops, 512, "e12-960g random mix seed 0xe120001");
}

/// A suspend latch that waits for the bus past the end of the program it suspends (`always`,
/// tSUS 1 us = 200 cycles, resume 0.5 us): way 0's 2 KiB program has 100 cycles of array
/// time; way 1's 2 KiB program takes the bus for its data in (about 520 cycles) right after way
/// 0's, and the read that arrives on way 0 meanwhile decides the suspend, whose latch waits for
/// way 1's data in. R/B# was high when the suspend reached the pins and falls only after it:
/// the way must not look at it before tWB, and the read's 00h waits for tSUS.
#[test]
fn a_suspend_latched_after_the_program_ended_waits_tsus_at_the_pins() {
    let t = SeqTiming::new(&onfi());
    let p = 2048;
    let b = |issue: u64, o: SeqOp, row: u32| BenchOp::at_cycle(&t, issue, o, row);
    let ops = vec![
        b(0, op(1, 0, NandOpKind::Program, 1, p, 100), 0x0005),
        b(10, op(2, 1, NandOpKind::Program, 1, p, 3000), 0x0006),
        b(600, op(3, 0, NandOpKind::Read, 1, p, 100), 0x0009),
    ];
    let s = SuspendConfig {
        policy: SuspendPolicyKind::Always,
        t_suspend_us: 1.0,
        t_resume_us: 0.5,
        min_progress_us: 0.5,
        ..SuspendConfig::default()
    };
    let (_, trace, _) = run_op_list_suspend(
        &onfi(),
        4,
        1,
        &s,
        &ops.iter().map(|b| (b.issue, b.op)).collect::<Vec<_>>(),
    );
    let first = |way: u8, k: BusKind| first_event(&trace, way, k).expect("latched");
    // Way 0's array ends tWB + 100 cycles after its 10h latch, before its suspend latch.
    let array_end = first(0, BusKind::Cmd(0x10)) + t.latch as u64 + t.t_wb as u64 + 100;
    let sus = first(0, BusKind::Cmd(0xB0));
    assert!(sus > array_end, "suspend at {sus}, array end {array_end}");
    // The read's 00h comes no earlier than tSUS (200 cycles at 200 MHz) after the latch.
    assert!(first(0, BusKind::Cmd(0x00)) >= sus + t.latch as u64 + 200);
    at_the_pins_suspend(
        &onfi(),
        Some(&s),
        &ops,
        p as usize,
        "suspend after the program's end",
    );
}
