//! Program/erase suspend on the NAND channel: the behavioural model and the rust_hdl sequencer
//! on the same op streams, with targets that accept suspend and resume (and reject a read
//! before tSUS, a resume without a suspend); same bus-cycle sequence, same completion cycles.
//! Array times are scaled down (cycles, not milliseconds) to keep the rust_hdl run short.

use ssdlab_hdl::nand::timing::HdlTiming;
use ssdlab_model::config::{SuspendConfig, SuspendPolicyKind};
use ssdlab_model::encoding::onfi::SUSPEND_SAMSUNG;
use ssdlab_model::nand::sequencer::{run_op_list_suspend, BusKind, SeqOp, SeqTiming};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::{DriveConfig, SimTime};
use ssdlab_testbench::cosim::channel_bench::{
    compare_with_model, first_event, run_bench_suspend, BenchOp, TargetSuspend,
};
use ssdlab_testbench::cosim::channel_dut::{ChannelDut, HdlSimChannel, VerilatedChannel};

const STRIDE: u32 = 2048;
const PAGE: u32 = 512;

fn op(id: u64, kind: NandOpKind, array_cycles: u64, t: &SeqTiming) -> SeqOp {
    SeqOp {
        id,
        way: 0,
        die: 0,
        kind,
        planes: 1,
        bus_bytes: if kind == NandOpKind::Erase { 0 } else { PAGE },
        array_time: t.to_time(array_cycles),
        pages: 1,
    }
}

/// tSUS 100 ns (20 cycles at 200 MHz), resume 50 ns (10), minimum progress 500 ns (100).
fn suspend(policy: SuspendPolicyKind, wait_over_us: f64) -> SuspendConfig {
    SuspendConfig {
        policy,
        t_suspend_us: 0.1,
        t_resume_us: 0.05,
        min_progress_us: 0.5,
        wait_over_us,
        ..SuspendConfig::default()
    }
}

/// The sequencer timing of the default drive's ONFI config (200 MHz).
fn seq_timing() -> SeqTiming {
    HdlTiming::new(&DriveConfig::default_drive().onfi, STRIDE)
        .unwrap()
        .seq
}

/// Op ids in the order the device completed them.
fn completion_order(done: &[(u64, u64)]) -> Vec<u64> {
    done.iter().map(|c| c.0).collect()
}

fn run(s: &SuspendConfig, ops: &[BenchOp]) -> Vec<(u64, u64)> {
    run_on(s, ops, false)
}

fn run_on(s: &SuspendConfig, ops: &[BenchOp], verilator: bool) -> Vec<(u64, u64)> {
    let onfi = DriveConfig::default_drive().onfi;
    let h = HdlTiming::new(&onfi, STRIDE)
        .and_then(|h| h.with_suspend(s))
        .unwrap();
    let t = h.seq;
    let list: Vec<(SimTime, SeqOp)> = ops.iter().map(|b| (b.issue, b.op)).collect();
    let (done, trace, _) = run_op_list_suspend(&onfi, 4, 1, s, &list);
    let ts = TargetSuspend {
        commands: SUSPEND_SAMSUNG,
        t_suspend: t.to_cycles_ceil(s.t_suspend()),
        t_resume: t.to_cycles_ceil(s.t_resume()),
    };
    let mut dut: Box<dyn ChannelDut> = if verilator {
        Box::new(VerilatedChannel::new(&h).expect("verilator builds the channel"))
    } else {
        Box::new(HdlSimChannel::new(&h))
    };
    let res = run_bench_suspend(
        dut.as_mut(),
        &t,
        Some(ts),
        STRIDE,
        PAGE as usize,
        ops,
        10_000_000,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", dut.name()));
    let worst = compare_with_model(&res, &done, &trace, &t).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(worst, 0.0, "completion cycles differ from the model");
    let sus = trace
        .iter()
        .filter(|e| e.kind == BusKind::Cmd(0xB0))
        .count();
    println!("{} ops, {sus} suspends, {} cycles", ops.len(), res.cycles);
    res.completions
}

/// A read 500 cycles into a 2000-cycle program (the hand case scaled 1000 x down).
fn program_then_read(t: &SeqTiming) -> Vec<BenchOp> {
    let prog = op(1, NandOpKind::Program, 2000, t);
    let read = op(2, NandOpKind::Read, 100, t);
    vec![
        BenchOp {
            issue: SimTime::ZERO,
            op: prog,
            row: 5,
            column: 0,
        },
        BenchOp {
            issue: t.to_time(600),
            op: read,
            row: 9,
            column: 0,
        },
    ]
}

#[test]
fn rust_hdl_suspends_like_the_model_with_always() {
    let t = seq_timing();
    let done = run(
        &suspend(SuspendPolicyKind::Always, 0.0),
        &program_then_read(&t),
    );
    // The read overtakes the program it suspended.
    assert_eq!(completion_order(&done), vec![2, 1]);
}

#[test]
fn rust_hdl_wait_over_suspends_only_for_a_long_wait() {
    let t = seq_timing();
    // About 1500 cycles (7.5 us) are left when the read comes: 5 us suspends, 10 us does not.
    let done = run(
        &suspend(SuspendPolicyKind::WaitOver, 5.0),
        &program_then_read(&t),
    );
    assert_eq!(completion_order(&done), vec![2, 1]);
    let done = run(
        &suspend(SuspendPolicyKind::WaitOver, 10.0),
        &program_then_read(&t),
    );
    assert_eq!(completion_order(&done), vec![1, 2]);
}

#[test]
fn rust_hdl_matches_the_model_with_several_reads_and_two_ways() {
    let t = seq_timing();
    let b = |issue: u64, op: SeqOp, row: u32| BenchOp::at_cycle(&t, issue, op, row);
    let mut s = suspend(SuspendPolicyKind::Always, 0.0);
    s.max_suspends_per_op = 2;
    // Two reads together (one suspension runs both), an erase suspended on another way, two
    // later reads spaced closer than the minimum progress.
    let mut erase = op(9, NandOpKind::Erase, 3000, &t);
    erase.way = 1;
    let mut r10 = op(10, NandOpKind::Read, 80, &t);
    r10.way = 1;
    let ops = [
        b(0, op(1, NandOpKind::Program, 4000, &t), 5),
        b(5, erase, 2 * STRIDE),
        b(700, op(2, NandOpKind::Read, 100, &t), 9),
        b(701, op(3, NandOpKind::Read, 120, &t), 10),
        b(1200, r10, 11),
        b(2000, op(4, NandOpKind::Read, 100, &t), 12),
        b(2010, op(5, NandOpKind::Read, 100, &t), 13),
    ];
    let done = run(&s, &ops);
    let order = completion_order(&done);
    // Reads 2 and 3 run in one suspension of program 1; read 10 suspends erase 9.
    let pos = |id| order.iter().position(|&x| x == id).unwrap();
    assert!(pos(2) < pos(1) && pos(3) < pos(1), "{order:?}");
    assert!(pos(10) < pos(9), "{order:?}");
}

/// A suspend latch that waits for the bus past the end of the program it suspends: way 0's
/// program has 100 cycles of array time; a program on way 1 takes the bus for its data in just
/// after way 0's, and the read that arrives meanwhile decides the suspend, whose latch then
/// waits for way 1's data in. The target still holds R/B# low for tSUS from tWB after the
/// latch (the suspension's read must not start before), and the model and the sequencer agree.
#[test]
fn rust_hdl_suspend_latched_after_the_program_ended_waits_tsus() {
    let t = seq_timing();
    let b = |issue: u64, op: SeqOp, row: u32| BenchOp::at_cycle(&t, issue, op, row);
    let mut other = op(3, NandOpKind::Program, 2000, &t);
    other.way = 1;
    let ops = [
        b(0, op(1, NandOpKind::Program, 100, &t), 5),
        b(10, other, 6),
        b(160, op(2, NandOpKind::Read, 100, &t), 9),
    ];
    let s = suspend(SuspendPolicyKind::Always, 0.0);
    let onfi = DriveConfig::default_drive().onfi;
    let list: Vec<(SimTime, SeqOp)> = ops.iter().map(|b| (b.issue, b.op)).collect();
    let (_, trace, _) = run_op_list_suspend(&onfi, 4, 1, &s, &list);
    let start = |way: u8, k: BusKind| first_event(&trace, way, k).expect("latched");
    // Way 0's array ends tWB + 100 cycles after its 10h latch, before the suspend latch.
    let array_end = start(0, BusKind::Cmd(0x10)) + t.latch as u64 + t.t_wb as u64 + 100;
    let sus = start(0, BusKind::Cmd(0xB0));
    assert!(sus > array_end, "suspend at {sus}, array end {array_end}");
    // The read's 00h comes no earlier than tSUS after the suspend latch.
    let t_sus = t.to_cycles_ceil(s.t_suspend());
    assert!(start(0, BusKind::Cmd(0x00)) >= sus + t.latch as u64 + t_sus);
    let done = run(&s, &ops);
    assert_eq!(completion_order(&done), vec![2, 1, 3]);
}

/// A seeded stream on four ways: programs (1500..2500 cycles), erases (3000..4000) and reads
/// (80..150) of never-programmed rows, one op per way every 2400 cycles on average.
fn random_stream(n: u64, seed: u64, t: &SeqTiming) -> Vec<BenchOp> {
    let mut x = seed;
    let mut next = move |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    let mut ops = Vec::new();
    let mut issue = 0;
    for k in 0..n {
        issue += 300 + next(600);
        let way = (k % 4) as u8;
        let r = next(6);
        let (kind, cycles, row) = match r {
            0 | 1 => (NandOpKind::Program, 1500 + next(1000), k as u32),
            2 => (
                NandOpKind::Erase,
                3000 + next(1000),
                (100 + k as u32) * STRIDE,
            ),
            _ => (NandOpKind::Read, 80 + next(70), 1000 + k as u32),
        };
        let mut o = op(k, kind, cycles, t);
        o.way = way;
        ops.push(BenchOp {
            issue: t.to_time(issue),
            op: o,
            row,
            column: 0,
        });
    }
    ops
}

#[test]
fn verilator_matches_the_model_on_random_streams_with_suspend() {
    let t = seq_timing();
    for (policy, over) in [
        (SuspendPolicyKind::Always, 0.0),
        (SuspendPolicyKind::WaitOver, 5.0),
    ] {
        for seed in 1..=3 {
            let ops = random_stream(400, seed, &t);
            let done = run_on(&suspend(policy, over), &ops, true);
            assert_eq!(done.len(), ops.len());
        }
    }
}
