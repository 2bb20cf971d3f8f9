//! Program/erase suspend, by hand (SM2262 ONFI timing, 5 ns cycles; see `tests/mod.rs`):
//! suspend latch 25 ns, tSUS 20 us, resume latch 25 ns, resume latency 10 us, R/B# synchronizer
//! 20 ns after every busy period, one 5 ns cycle between an op's last phase and the next latch.
//! Times below are when ops' last phases end; each op completes [`RETURN_NS`] later, when the
//! byte of its last beat is back through the PHY.

use super::{onfi, op, PAGE};
use crate::config::{SuspendConfig, SuspendPolicyKind};
use crate::nand::sequencer::{run_op_list, run_op_list_suspend, BusKind, SeqCompletion, SeqOp};
use crate::nand::NandOpKind;
use crate::time::SimTime;

fn cfg(policy: SuspendPolicyKind, max: u32, min_progress_us: f64) -> SuspendConfig {
    SuspendConfig {
        policy,
        t_suspend_us: 20.0,
        t_resume_us: 10.0,
        max_suspends_per_op: max,
        min_progress_us,
        wait_over_us: 200.0,
        ..SuspendConfig::default()
    }
}

fn read(id: u64) -> SeqOp {
    op(id, 0, NandOpKind::Read, 1, PAGE, SimTime::from_us(56))
}
fn program() -> SeqOp {
    op(1, 0, NandOpKind::Program, 1, PAGE, SimTime::from_us(2000))
}

/// The PHY's read return outlasts the RE# postamble: 11 cycles after the last beat against 5
/// (`tests/mod.rs`), 30 ns.
const RETURN_NS: u64 = 30;

/// When op `id`'s last phase ended: its completion less [`RETURN_NS`].
fn done_ns(done: &[SeqCompletion], id: u64) -> u64 {
    let c = done.iter().find(|c| c.id == id).expect("op completed");
    c.completed.as_ps() / 1000 - RETURN_NS
}

fn ns(t: u64) -> SimTime {
    SimTime::from_ns(t)
}

// The program's first phase (80h, 5 addresses, tADL, 18592 B, 10h) ends at 15 + 23 565 =
// 23 580 ns; its array runs from 23 680 ns (after tWB) to 2 023 680 ns.
const PROG_ARRAY_START_NS: u64 = 23_680;
const PROG_ARRAY_END_NS: u64 = 2_023_680;
// A read's own die and bus time once it may start: 00h-5 addr-30h 175 ns, tWB 100, tR 56 us,
// tRR 20, R/B# through the PHY (2 cycles) and the synchronizer (4) 30, data out 23 240 ns
// inside its RE# preamble (15) and postamble (25).
const READ_NS: u64 = 175 + 100 + 56_000 + 20 + 30 + 15 + 23_240 + 25;
// Status read after ready: R/B# 30 ns, 70h 25 ns, tWHR 80 ns, one beat 5 ns inside its RE#
// preamble and postamble.
const STATUS_NS: u64 = 30 + 25 + 80 + 15 + 5 + 25;

#[test]
fn read_500us_into_a_program_waits_suspend_tr_and_transfer() {
    let t_read = PROG_ARRAY_START_NS + 500_000;
    let ops = [(SimTime::ZERO, program()), (ns(t_read), read(2))];
    let s = cfg(SuspendPolicyKind::Always, 5, 50.0);
    let (done, trace, _) = run_op_list_suspend(&onfi(), 1, 1, &s, &ops);
    // intake 15 ns, suspend latch 25 ns (the array stops at its end), tSUS 20 us + 30 ns of
    // R/B# delay, then the read.
    let suspend_end = t_read + 15 + 25;
    let read_done = suspend_end + 20_000 + 30 + READ_NS;
    assert_eq!(done_ns(&done, 2), read_done);
    // = tSUS + tR + transfer + 395 ns of latches, synchronizers and the PHY's R/B# delay + 40 ns
    // of RE# pre- and postamble.
    assert_eq!(read_done - t_read, 20_000 + 56_000 + 23_240 + 395 + 40);
    // The program had 2 023 680 - 523 720 = 1 499 960 ns left: resume 5 ns after the read, latch
    // 25 ns, resume latency 10 us, the rest of tPROG, status.
    let left = PROG_ARRAY_END_NS - suspend_end;
    assert_eq!(left, 1_499_960);
    let prog_done = read_done + 5 + 25 + 10_000 + left + STATUS_NS;
    assert_eq!(done_ns(&done, 1), prog_done);
    let cmds: Vec<u8> = trace
        .iter()
        .filter_map(|e| match e.kind {
            BusKind::Cmd(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(cmds, vec![0x80, 0x10, 0xB0, 0x00, 0x30, 0xD0, 0x70]);
}

#[test]
fn read_500us_into_an_erase_suspends_it_likewise() {
    // 60h + 3 row addresses + D0h = 125 ns: the first phase ends at 140 ns, tBERS 3 ms runs from
    // 240 ns to 3 000 240 ns.
    let erase = op(1, 0, NandOpKind::Erase, 1, 0, SimTime::from_ms(3));
    let t_read = 240 + 500_000;
    let ops = [(SimTime::ZERO, erase), (ns(t_read), read(2))];
    let s = cfg(SuspendPolicyKind::Always, 5, 50.0);
    let (done, trace, _) = run_op_list_suspend(&onfi(), 1, 1, &s, &ops);
    let suspend_end = t_read + 15 + 25;
    let read_done = suspend_end + 20_030 + READ_NS;
    assert_eq!(done_ns(&done, 2), read_done);
    let left = 3_000_240 - suspend_end;
    assert_eq!(left, 2_499_960);
    assert_eq!(
        done_ns(&done, 1),
        read_done + 5 + 25 + 10_000 + left + STATUS_NS
    );
    assert!(trace.iter().any(|e| e.kind == BusKind::Cmd(0xB0)));
}

#[test]
fn cap_on_suspends_makes_a_later_read_wait_for_the_program() {
    // First read as above; the second arrives at 1 ms, in the resumed program.
    let ops = [
        (SimTime::ZERO, program()),
        (ns(PROG_ARRAY_START_NS + 500_000), read(2)),
        (ns(1_000_000), read(3)),
    ];
    let first_read_done = PROG_ARRAY_START_NS + 500_000 + 40 + 20_030 + READ_NS;
    let prog_done = first_read_done + 30 + 10_000 + 1_499_960 + STATUS_NS;
    // Cap 1: read 3 starts 5 ns after the program's status read.
    let (done, _, _) =
        run_op_list_suspend(&onfi(), 1, 1, &cfg(SuspendPolicyKind::Always, 1, 0.0), &ops);
    assert_eq!(done_ns(&done, 1), prog_done);
    assert_eq!(done_ns(&done, 3), prog_done + 5 + READ_NS);
    // Cap 2: read 3 suspends too, with the same latency as the first one.
    let (done, _, _) =
        run_op_list_suspend(&onfi(), 1, 1, &cfg(SuspendPolicyKind::Always, 2, 0.0), &ops);
    assert_eq!(
        done_ns(&done, 3),
        1_000_000 + 20_000 + 56_000 + 23_240 + 395 + 40
    );
    // The program lost both suspensions' time: 20 us + one read + 10 us resume each.
    assert!(done_ns(&done, 1) > prog_done + 30_000);
}

#[test]
fn minimum_progress_delays_the_next_suspend() {
    // The first suspension's resume latch ends at first_read_done + 30 ns; the array works again
    // 10 us later. A read at 640 us is 6.67 us after that latch.
    let first_read_done = PROG_ARRAY_START_NS + 500_000 + 40 + 20_030 + READ_NS;
    let resume_end = first_read_done + 30;
    assert_eq!(resume_end, 623_385);
    let ops = [
        (SimTime::ZERO, program()),
        (ns(PROG_ARRAY_START_NS + 500_000), read(2)),
        (ns(640_000), read(3)),
    ];
    // Minimum progress 0: read 3 suspends at once (15 ns intake).
    let (done, _, _) =
        run_op_list_suspend(&onfi(), 1, 1, &cfg(SuspendPolicyKind::Always, 5, 0.0), &ops);
    assert_eq!(done_ns(&done, 3), 640_000 + 99_675);
    // 50 us: the suspend latch waits until resume_end + 10 us + 50 us = 683 385 ns.
    let (done, _, _) = run_op_list_suspend(
        &onfi(),
        1,
        1,
        &cfg(SuspendPolicyKind::Always, 5, 50.0),
        &ops,
    );
    assert_eq!(done_ns(&done, 3), 683_385 + 25 + 20_030 + READ_NS);
}

#[test]
fn wait_over_policy_suspends_only_for_a_long_wait() {
    // 150 us of tPROG left (< 200 us): the read waits for the program, then runs.
    let late = PROG_ARRAY_END_NS - 150_000;
    let ops = [(SimTime::ZERO, program()), (ns(late), read(2))];
    let s = cfg(SuspendPolicyKind::WaitOver, 5, 50.0);
    let (done, _, _) = run_op_list_suspend(&onfi(), 1, 1, &s, &ops);
    let prog_done = PROG_ARRAY_END_NS + STATUS_NS;
    assert_eq!(done_ns(&done, 1), prog_done);
    assert_eq!(done_ns(&done, 2), prog_done + 5 + READ_NS);
    // 1.5 ms left: it suspends.
    let early = [
        (SimTime::ZERO, program()),
        (ns(PROG_ARRAY_START_NS + 500_000), read(2)),
    ];
    let (done, _, _) = run_op_list_suspend(&onfi(), 1, 1, &s, &early);
    assert_eq!(done_ns(&done, 2), PROG_ARRAY_START_NS + 500_000 + 99_675);
}

#[test]
fn never_policy_runs_as_without_suspend() {
    let ops = [
        (SimTime::ZERO, program()),
        (ns(PROG_ARRAY_START_NS + 500_000), read(2)),
        (ns(700_000), read(3)),
    ];
    let plain = run_op_list(&onfi(), 1, 1, &ops);
    let (never, _, _) =
        run_op_list_suspend(&onfi(), 1, 1, &cfg(SuspendPolicyKind::Never, 5, 50.0), &ops);
    assert_eq!(plain, never);
    assert_eq!(
        done_ns(&plain, 2),
        PROG_ARRAY_END_NS + STATUS_NS + 5 + READ_NS
    );
}

#[test]
fn a_suspend_shorter_than_twb_waits_twb_before_r_b() {
    // tSUS 5 ns (1 cycle): R/B# falls only tWB (100 ns) after the suspend latch, so the way
    // looks at it then (20 cycles), plus 2 cycles to its request; with the R/B# delay (30 ns)
    // after tSUS alone the read would start 35 ns after the latch.
    let t_read = PROG_ARRAY_START_NS + 500_000;
    let ops = [(SimTime::ZERO, program()), (ns(t_read), read(2))];
    let s = SuspendConfig {
        t_suspend_us: 0.005,
        ..cfg(SuspendPolicyKind::Always, 5, 50.0)
    };
    let (done, _, _) = run_op_list_suspend(&onfi(), 1, 1, &s, &ops);
    let suspend_end = t_read + 15 + 25;
    assert_eq!(done_ns(&done, 2), suspend_end + 100 + 10 + READ_NS);
}
