//! The ONFI PHY (`ssdlab_hdl::nand::phy::OnfiPhy`, rust_hdl) at the pins against the pin-level
//! NAND target (`devices::onfi_pins`): ERASE, PROGRAM and READ with status polls, from
//! bus-engine-like beats; 0 timing violations, the decoded command/address bytes, the data read
//! back, and the pin cycles of each phase equal to the model's counts
//! (`ssdlab_model::nand::phy::PhyTiming`) and to hand arithmetic. Negative runs: a PHY built
//! with a too-short tWP, and a sequencer with a too-short tADL, make the target name them.
//!
//! Timing (hand): the default drive's `[onfi]` at 400 MT/s on the 200 MHz core clock (5 ns
//! cycles, 2 bytes per cycle): tWC 25 ns = 5-cycle latches, WE# low 2 cycles (tWP 10 ns) at the
//! window's start (tCLS 10 ns = 2 cycles), DQS/RE# preambles 3 cycles (15 ns), DQS postamble 2
//! (6.5 ns), RE# postamble 5 (25 ns), tADL 150 ns = 30, tWHR 80 ns = 16, tWB 100 ns = 20.

use ssdlab_hdl::nand::phy::OnfiPhy;
use ssdlab_model::config::OnfiConfig;
use ssdlab_model::encoding::onfi::*;
use ssdlab_model::nand::sequencer::SeqTiming;
use ssdlab_model::DriveConfig;
use ssdlab_testbench::devices::onfi_pins::bench::{Phases, PhyBench, Step};
use ssdlab_testbench::devices::onfi_pins::dut::{PhyDut, RustHdlPhy, VerilatedPhy};
use ssdlab_testbench::devices::onfi_pins::{BusCycle, OnfiPinTarget, PinPhase};

const STRIDE: u32 = 256;
const PAGE: usize = 16;
/// Row 0x0105: block 1, page 5 (stride 256).
const ROW: [u8; 3] = [0x05, 0x01, 0x00];

fn onfi() -> OnfiConfig {
    let mut o = DriveConfig::default_drive().onfi;
    o.transfer_mts = 400;
    o.core_clock_mhz = 200;
    o
}

fn bench<D: PhyDut>(phy: D, phy_onfi: &OnfiConfig, nand_onfi: &OnfiConfig) -> PhyBench<D> {
    let mut target = OnfiPinTarget::new(nand_onfi, 4, STRIDE, PAGE);
    // Array times (cycles) of the erase, the program and the read, in that order.
    for a in [60, 80, 40] {
        target.ways[0].push_array_cycles(a);
    }
    PhyBench::new(phy, target, phy_onfi.bytes_per_cycle())
}

fn page() -> Vec<u8> {
    (0..PAGE as u8).map(|i| i.wrapping_mul(37) ^ 0x5A).collect()
}

/// ERASE + status, PROGRAM + status, READ: the beats a bus engine drives with `t`.
fn script(t: SeqTiming) -> Vec<Step> {
    let p = Phases { t, way: 0 };
    let col_row = [&[0u8, 0][..], &ROW[..]].concat();
    let wait = Step::WaitReady {
        way: 0,
        t_wb: t.t_wb,
        t_rr: 0,
    };
    let status = [p.cmd(READ_STATUS), p.hold(t.t_whr), p.data_out(1)].concat();
    vec![
        Step::Beats([p.cmd(ERASE_1), p.addr(&ROW), p.cmd(ERASE_2)].concat()),
        wait.clone(),
        Step::Beats(status.clone()),
        Step::Beats(
            [
                p.hold(8),
                p.cmd(PROGRAM_1),
                p.addr(&col_row),
                p.hold(t.t_adl),
                p.data_in(&page()),
                p.cmd(PROGRAM_2),
            ]
            .concat(),
        ),
        wait,
        Step::Beats(status),
        Step::Beats([p.hold(8), p.cmd(READ_1), p.addr(&col_row), p.cmd(READ_2)].concat()),
        Step::WaitReady {
            way: 0,
            t_wb: t.t_wb,
            t_rr: t.t_rr,
        },
        Step::Beats(p.data_out(PAGE as u32)),
    ]
}

/// The pin phases of [`script`] at 200 MHz: 5-cycle latches (20 quarters), ERASE's 3 row
/// latches and the 5 address latches of PROGRAM and READ, with the data phases given.
fn script_phases(din: PinPhase, st: PinPhase, dout: PinPhase) -> Vec<PinPhase> {
    let cmd = PinPhase::Cle(20);
    let ale = |n: u32| PinPhase::Ale {
        quarters: 4 * 5 * n as u64,
        latches: n,
    };
    vec![
        cmd,
        ale(3),
        cmd,
        cmd,
        st,
        cmd,
        ale(5),
        din,
        cmd,
        cmd,
        st,
        cmd,
        ale(5),
        cmd,
        dout,
    ]
}

fn run(phy_onfi: &OnfiConfig, nand_onfi: &OnfiConfig) -> PhyBench<RustHdlPhy> {
    let phy = RustHdlPhy::new(OnfiPhy::new(phy_onfi).unwrap());
    let mut b = bench(phy, phy_onfi, nand_onfi);
    b.run(&script(SeqTiming::new(phy_onfi)), 40, 2000);
    b
}

#[test]
fn erase_program_read_at_the_pins_meet_onfi_timing() {
    let o = onfi();
    let mut b = run(&o, &o);
    let report = b.target.report();
    assert!(report.is_empty(), "timing violations:\n{report}");
    // Decoded latches: exactly the bytes sent.
    use BusCycle::{Address as A, Command as C};
    let mut want = vec![
        C(ERASE_1),
        A(0x05),
        A(0x01),
        A(0x00),
        C(ERASE_2),
        C(READ_STATUS),
    ];
    want.extend([
        C(PROGRAM_1),
        A(0),
        A(0),
        A(0x05),
        A(0x01),
        A(0x00),
        C(PROGRAM_2),
    ]);
    want.extend([
        C(READ_STATUS),
        C(READ_1),
        A(0),
        A(0),
        A(0x05),
        A(0x01),
        A(0x00),
    ]);
    want.push(C(READ_2));
    let got: Vec<BusCycle> = b
        .target
        .bus
        .iter()
        .map(|&(w, c)| {
            assert_eq!(w, 0, "way");
            c
        })
        .collect();
    assert_eq!(got, want);
    // Data: programmed bytes latched, read back through the PHY; status E0h (ready, pass)
    // twice per status beat (2 bytes per cycle).
    assert_eq!(b.target.bytes_in, page());
    let mut out = vec![0xE0, 0xE0, 0xE0, 0xE0];
    out.extend(page());
    assert_eq!(b.target.bytes_out, out);
    assert_eq!(b.read, out, "bytes on beat_dq_in");
    // Read return: pipe 4 + tDQSRE 4 + io 2 + capture 1 = 11 cycles after each read beat.
    let ret: Vec<u64> = b.rd_cycles.iter().map(|c| c + 11).collect();
    assert_eq!(b.read_valid_cycles, ret);
}

#[test]
fn pin_cycles_per_phase_match_the_model_and_hand_counts() {
    let o = onfi();
    let mut b = run(&o, &o);
    assert!(b.target.report().is_empty());
    let t = ssdlab_model::nand::phy::PhyTiming::new(&o).unwrap();
    // Hand: command 5 cycles = 20 quarters; 3 row latches 15 cycles, 5 latches 25 cycles;
    // 16 bytes in: 3 + 8 + 2 = 13 cycles, edges 16; status out (2 bytes): 3 + 1 + 5 = 9
    // cycles, page out: 3 + 8 + 5 = 16 cycles. Every phase starts and stops on a cycle
    // boundary, so its quarters are 4 per cycle.
    let din = PinPhase::DataIn {
        quarters: 52,
        edges: 16,
    };
    let st = PinPhase::DataOut {
        quarters: 36,
        edges: 2,
    };
    let dout = PinPhase::DataOut {
        quarters: 64,
        edges: 16,
    };
    assert_eq!(b.target.phases, script_phases(din, st, dout));
    // The same from the model's description.
    assert_eq!(4 * t.command_cycles() as u64, 20);
    assert_eq!(4 * t.address_cycles(5) as u64, 100);
    assert_eq!(4 * t.data_in_cycles(16) as u64, 52);
    assert_eq!(4 * t.data_out_cycles(2) as u64, 36);
    assert_eq!(4 * t.data_out_cycles(16) as u64, 64);
}

#[test]
fn a_too_short_twp_is_reported_by_the_target() {
    let nand = onfi();
    let mut phy = onfi();
    // The PHY believes tWP is 5 ns (1 cycle); the NAND needs 10 ns.
    phy.pins.t_wp_ns = 5.0;
    let mut b = run(&phy, &nand);
    let r = b.target.report();
    assert!(b.target.violations.iter().any(|v| v.param == "tWP"), "{r}");
    assert!(r.contains("tWP at quarter cycle"), "{r}");
    assert!(r.contains("5 ns, minimum 10 ns"), "{r}");
}

#[test]
fn a_too_short_tadl_is_reported_by_the_target() {
    let nand = onfi();
    let mut seq = onfi();
    // The sequencer waits tADL 20 ns (4 cycles): WE# rise to the first DQS edge is then the
    // 3-cycle CLE/ALE hold + 4 = 7 cycles = 35 ns, under the NAND's 150 ns.
    seq.t_adl_ns = 20.0;
    let mut b = run(&seq, &nand);
    let r = b.target.report();
    let v: Vec<_> = b
        .target
        .violations
        .iter()
        .filter(|v| v.param == "tADL")
        .collect();
    assert_eq!(v.len(), 1, "{r}");
    assert!(v[0].what.contains("35 ns, minimum 150 ns"), "{r}");
}

#[test]
fn one_byte_per_cycle_runs_clean_with_one_dqs_or_re_edge_per_cycle() {
    // 200 MT/s on the 200 MHz clock: 1 byte per cycle, DQS/RE# toggle once per cycle.
    let mut o = onfi();
    o.transfer_mts = 200;
    let mut b = run(&o, &o);
    let report = b.target.report();
    assert!(report.is_empty(), "timing violations:\n{report}");
    assert_eq!(b.target.bytes_in, page());
    // A 1-byte status beat leaves RE# high; its postamble's fall is one more RE# edge, so
    // the target drives status twice per poll while the PHY returns the one byte it read.
    let mut out = vec![0xE0; 4];
    out.extend(page());
    assert_eq!(b.target.bytes_out, out);
    let mut read = vec![0xE0; 2];
    read.extend(page());
    assert_eq!(b.read, read);
    // Hand: 16 bytes in = 3 + 16 + 2 = 21 cycles (84 quarters); out = 3 + 16 + 5 = 24
    // cycles (96 quarters); a status poll = 3 + 1 + 5 = 9 cycles (36 quarters) with 2 RE#
    // edges.
    let data: Vec<PinPhase> = b
        .target
        .phases
        .iter()
        .copied()
        .filter(|p| matches!(p, PinPhase::DataIn { .. } | PinPhase::DataOut { .. }))
        .collect();
    let st = PinPhase::DataOut {
        quarters: 36,
        edges: 2,
    };
    let want = vec![
        st,
        PinPhase::DataIn {
            quarters: 84,
            edges: 16,
        },
        st,
        PinPhase::DataOut {
            quarters: 96,
            edges: 16,
        },
    ];
    assert_eq!(data, want);
}

/// The default preset's own bus: 800 MT/s on the 200 MHz sequencer clock, 4 bytes per cycle.
fn onfi_800mts() -> OnfiConfig {
    let o = DriveConfig::default_drive().onfi;
    assert_eq!((o.transfer_mts, o.core_clock_mhz), (800, 200));
    o
}

#[test]
fn four_bytes_per_cycle_run_clean_with_four_strobe_edges_per_cycle() {
    let o = onfi_800mts();
    let mut b = run(&o, &o);
    let report = b.target.report();
    assert!(report.is_empty(), "timing violations:\n{report}");
    assert_eq!(b.target.bytes_in, page());
    // A 1-byte status beat is one data cycle: 4 RE# edges, 4 status bytes per poll, all
    // returned on `beat_dq_in` (4 bytes per read beat).
    let mut out = vec![0xE0; 8];
    out.extend(page());
    assert_eq!(b.target.bytes_out, out);
    assert_eq!(b.read, out);
    // Hand: 16 bytes in = 3 + 4 + 2 = 9 cycles (36 quarters); out = 3 + 4 + 5 = 12 cycles
    // (48 quarters); a status poll = 3 + 1 + 5 = 9 cycles (36 quarters) with 4 RE# edges.
    let st = PinPhase::DataOut {
        quarters: 36,
        edges: 4,
    };
    let din = PinPhase::DataIn {
        quarters: 36,
        edges: 16,
    };
    let dout = PinPhase::DataOut {
        quarters: 48,
        edges: 16,
    };
    assert_eq!(b.target.phases, script_phases(din, st, dout));
    // The model's counts agree, and each read beat returns 11 cycles later as at 2 bytes.
    let t = ssdlab_model::nand::phy::PhyTiming::new(&o).unwrap();
    assert_eq!(4 * t.data_in_cycles(16) as u64, 36);
    assert_eq!(4 * t.data_out_cycles(16) as u64, 48);
    assert_eq!(t.read_return(), 11);
    let ret: Vec<u64> = b.rd_cycles.iter().map(|c| c + 11).collect();
    assert_eq!(b.read_valid_cycles, ret);
}

#[test]
fn the_verilated_phy_drives_the_same_pins_as_rust_hdl() {
    // The PHY's generated Verilog under Verilator, through the same script: the same
    // latches, bytes, phases and read-back cycles as the rust_hdl run, 0 violations; at
    // 2 bytes per cycle and at the default preset's 4.
    for o in [onfi(), onfi_800mts()] {
        verilated_matches_rust_hdl(&o);
    }
}

fn verilated_matches_rust_hdl(o: &OnfiConfig) {
    let o = o.clone();
    let mut r = run(&o, &o);
    let phy = VerilatedPhy::new(OnfiPhy::new(&o).unwrap()).expect("verilator builds the PHY");
    let mut v = bench(phy, &o, &o);
    v.run(&script(SeqTiming::new(&o)), 40, 2000);
    let report = v.target.report();
    assert!(report.is_empty(), "timing violations:\n{report}");
    assert!(r.target.report().is_empty());
    assert_eq!(v.target.bus, r.target.bus);
    assert_eq!(v.target.bytes_in, page());
    assert_eq!(v.target.phases, r.target.phases);
    assert_eq!(v.read, r.read);
    assert_eq!(v.read_valid_cycles, r.read_valid_cycles);
    assert_eq!(v.cycle, r.cycle);
}

#[test]
fn too_short_preambles_are_reported_by_the_target() {
    let nand = onfi();
    let mut phy = onfi();
    // The PHY drives 5 ns (1-cycle) DQS and RE# preambles; the NAND needs 15 ns: 4 quarters
    // of 1.25 ns before the first edge. Reported once per burst: 1 data in, 3 data out (two
    // status polls and the page).
    phy.pins.t_wpre_ns = 5.0;
    phy.pins.t_rpre_ns = 5.0;
    let mut b = run(&phy, &nand);
    let r = b.target.report();
    let count = |p: &str| b.target.violations.iter().filter(|v| v.param == p).count();
    assert_eq!((count("tWPRE"), count("tRPRE")), (1, 3), "{r}");
    assert!(r.contains("5 ns, minimum 15 ns"), "{r}");
}
