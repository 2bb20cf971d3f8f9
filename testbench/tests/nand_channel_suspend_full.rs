//! Program/erase suspend at full time scale through the Verilated NAND channel: the issue's
//! hand case (a read arriving 500 us into a 2000 us program waits suspend + tR + transfer, and
//! the program finishes resume + the remaining time later) with the default preset's ONFI
//! timing and TLC tR and the default `[nand.suspend]` keys, about 426 000 sequencer cycles.
//! The expected cycles are derived here by hand from those values (times to 5 ns sequencer
//! cycles, rounded up as `SeqTiming::to_cycles_ceil` documents); the Verilated channel and the
//! behavioural model must both land on them.

use ssdlab_hdl::nand::timing::HdlTiming;
use ssdlab_model::config::{SuspendConfig, SuspendPolicyKind};
use ssdlab_model::encoding::onfi::SUSPEND_SAMSUNG;
use ssdlab_model::nand::sequencer::{run_op_list_suspend, BusKind, SeqOp};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::{DriveConfig, SimTime};
use ssdlab_testbench::cosim::channel_bench::{
    compare_with_model, run_bench_suspend, BenchOp, TargetSuspend,
};
use ssdlab_testbench::cosim::channel_dut::{ChannelDut, VerilatedChannel};

const STRIDE: u32 = 2048;
/// The preset's page with its spare area: 16384 + 2208 bytes.
const PAGE: u32 = 18_592;

// Hand values, in 5 ns cycles (the preset's 200 MHz sequencer clock, 4 bytes per cycle at
// 800 MT/s). ONFI: tWC 25 ns = 5 (one latch), tADL 150 ns = 30, tWB 100 ns = 20, tWHR 80 ns
// = 16, tRR 20 ns = 4; the PHY's RE# preamble tRPRE 15 ns = 3 and postamble tRPST 25 ns = 5
// around every data out; R/B# 2 cycles late through the PHY (`rb_lag`: the NAND latches
// behind the beat port, R/B# comes back through a register); the sequencer's intake 3, R/B#
// synchronizer 4, and 1 cycle between a
// completion and the next request (`INTAKE_CYCLES`, `RB_SYNC_CYCLES`, `NEXT_OP_CYCLES`).
const LATCH: u64 = 5;
const T_ADL: u64 = 30;
const T_WB: u64 = 20;
const T_WHR: u64 = 16;
const T_RR: u64 = 4;
const RPRE: u64 = 3;
const RPST: u64 = 5;
const RB_LAG: u64 = 2;
const INTAKE: u64 = 3;
const SYNC: u64 = 4;
const NEXT_OP: u64 = 1;
/// An op completes when its last byte is back through the PHY: the read return (pipe 4 +
/// tDQSRE 4 + io 2 + capture 1 = 11 cycles after the beat) less the postamble, after its last
/// phase ends.
const RETURN: u64 = 11 - RPST;
/// One page on the bus: 18 592 B / 4 B per cycle.
const TRANSFER: u64 = 4_648;
/// tPROG 2000 us (the issue's case), tR 50.4 us (the preset's TLC LSB tR).
const T_PROG: u64 = 400_000;
const T_R: u64 = 10_080;
/// tSUS 20 us and resume latency 10 us (the `[nand.suspend]` defaults).
const T_SUS: u64 = 4_000;
const T_RESUME: u64 = 2_000;

/// Program's first phase: 80h + 5 address latches, tADL, the page, 10h; starts after the
/// intake. Its array time starts tWB after that phase.
const PROG_ARRAY_START: u64 = INTAKE + 6 * LATCH + T_ADL + TRANSFER + LATCH + T_WB;
/// The read is offered 500 us into the program's array time.
const READ_ARRIVES: u64 = PROG_ARRAY_START + 100_000;
/// Intake, then the B0h latch; the array stops when the latch ends.
const SUSPEND_END: u64 = READ_ARRIVES + INTAKE + LATCH;
/// The read's last phase ends: tSUS and the synchronizer, then 00h-5 addr-30h, tWB, tR, tRR,
/// synchronizer, data out (preamble, page, postamble). It completes `RETURN` later.
const READ_DONE: u64 = SUSPEND_END
    + T_SUS
    + RB_LAG
    + SYNC
    + 7 * LATCH
    + T_WB
    + T_R
    + T_RR
    + RB_LAG
    + SYNC
    + RPRE
    + TRANSFER
    + RPST;
/// Array time the program had left at the suspend latch's end.
const LEFT: u64 = PROG_ARRAY_START + T_PROG - SUSPEND_END;
/// The program's status read ends: next request, D0h latch, resume latency + time left,
/// synchronizer, 70h, tWHR, status beat (with its preamble and postamble). It completes
/// `RETURN` later.
const PROG_DONE: u64 =
    READ_DONE + NEXT_OP + LATCH + T_RESUME + LEFT + RB_LAG + SYNC + LATCH + T_WHR + RPRE + 1 + RPST;

fn op(id: u64, kind: NandOpKind, array_time: SimTime) -> SeqOp {
    SeqOp {
        id,
        way: 0,
        die: 0,
        kind,
        planes: 1,
        bus_bytes: PAGE,
        array_time,
        pages: 1,
    }
}

#[test]
fn hand_values_follow_from_the_preset_and_the_suspend_defaults() {
    let cfg = DriveConfig::default_drive();
    let s = &cfg.nand.suspend;
    assert_eq!(s.policy, SuspendPolicyKind::Never, "off in the preset");
    assert_eq!((s.t_suspend_us, s.t_resume_us), (20.0, 10.0));
    assert_eq!(cfg.nand.tlc.t_read_lsb_us, 50.4);
    assert_eq!(cfg.geometry.page_bytes + cfg.geometry.spare_bytes, PAGE);
    let t = HdlTiming::new(&cfg.onfi, STRIDE).unwrap().seq;
    assert_eq!(t.period_ps, 5_000);
    assert_eq!(t.bytes_per_cycle, 4);
    for (us, want) in [
        (20.0, T_SUS),
        (10.0, T_RESUME),
        (50.4, T_R),
        (2000.0, T_PROG),
    ] {
        assert_eq!(t.to_cycles_ceil(SimTime::from_us_f64(us)), want, "{us} us");
    }
    let onfi = [
        t.latch, t.t_adl, t.t_wb, t.t_whr, t.t_rr, t.rd_lead, t.rd_tail, t.rb_lag,
    ]
    .map(u64::from);
    assert_eq!(onfi, [LATCH, T_ADL, T_WB, T_WHR, T_RR, RPRE, RPST, RB_LAG]);
    // The read waits tSUS + tR + transfer and 75 cycles (375 ns) of intake, latches, tWB, tRR
    // and synchronizers, 8 of RE# pre- and postamble and 2 x 2 of R/B# through the PHY; the
    // program finishes the resume latency + the 1500 us it had left (less the 8 cycles it ran
    // while the suspend was latched) + 42 cycles later.
    assert_eq!(
        READ_DONE - READ_ARRIVES,
        T_SUS + T_R + TRANSFER + 75 + 8 + 4
    );
    assert_eq!(LEFT, 300_000 - 8);
    assert_eq!(PROG_DONE - READ_DONE, T_RESUME + LEFT + 42);
    assert_eq!((READ_DONE, PROG_DONE), (123_551, 425_585));
}

#[test]
fn verilator_full_scale_read_500us_into_a_2000us_program() {
    let cfg = DriveConfig::default_drive();
    let onfi = cfg.onfi.clone();
    let s = SuspendConfig {
        policy: SuspendPolicyKind::Always,
        ..cfg.nand.suspend.clone()
    };
    let h = HdlTiming::new(&onfi, STRIDE)
        .and_then(|h| h.with_suspend(&s))
        .unwrap();
    let t = h.seq;
    let ops = [
        BenchOp {
            issue: SimTime::ZERO,
            op: op(1, NandOpKind::Program, SimTime::from_us(2000)),
            row: 5,
            column: 0,
        },
        BenchOp {
            issue: t.to_time(READ_ARRIVES),
            op: op(
                2,
                NandOpKind::Read,
                SimTime::from_us_f64(cfg.nand.tlc.t_read_lsb_us),
            ),
            row: 9,
            column: 0,
        },
    ];
    // The behavioural model on the same ops, at the hand cycles.
    let list: Vec<(SimTime, SeqOp)> = ops.iter().map(|b| (b.issue, b.op)).collect();
    let (done, trace, _) = run_op_list_suspend(&onfi, 4, 1, &s, &list);
    let at = |id| {
        let c = done.iter().find(|c| c.id == id).expect("op completed");
        t.to_cycles_ceil(c.completed)
    };
    assert_eq!(
        (at(2), at(1)),
        (READ_DONE + RETURN, PROG_DONE + RETURN),
        "model"
    );
    let cmds: Vec<u8> = trace
        .iter()
        .filter_map(|e| match e.kind {
            BusKind::Cmd(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(cmds, vec![0x80, 0x10, 0xB0, 0x00, 0x30, 0xD0, 0x70]);
    // The Verilated channel against targets with tSUS and the resume latency on R/B#.
    let ts = TargetSuspend {
        commands: SUSPEND_SAMSUNG,
        t_suspend: T_SUS,
        t_resume: T_RESUME,
    };
    let mut dut = VerilatedChannel::new(&h).expect("verilator builds the channel");
    let res = run_bench_suspend(
        &mut dut,
        &t,
        Some(ts),
        STRIDE,
        PAGE as usize,
        &ops,
        1_000_000,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", dut.name()));
    println!(
        "verilator: {} cycles, completions {:?}",
        res.cycles, res.completions
    );
    assert_eq!(
        res.completions,
        vec![(2, READ_DONE + RETURN), (1, PROG_DONE + RETURN)]
    );
    assert_eq!(res.cycles, PROG_DONE + RETURN + 1);
    let worst = compare_with_model(&res, &done, &trace, &t).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(worst, 0.0, "completion cycles differ from the model");
}
