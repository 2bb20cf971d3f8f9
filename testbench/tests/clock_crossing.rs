//! The clock-crossing FIFO against its behavioural model, in rust_hdl's simulation and under
//! Verilator (`ssdlab_testbench::cosim::clock_crossing`): the PCIe user clock (250 MHz, edges
//! from 0 ps) and the NAND clock (200 MHz, edges from 500 ps, so no two rising edges coincide),
//! each direction, three traffic patterns, 4 and 8 words deep. Expected counts are bounds from
//! the patterns' probabilities (2 000 write edges).

use ssdlab_model::ctrl::clock_crossing::{ClockCrossing, ClockDomain};
use ssdlab_testbench::cosim::clock_crossing::{
    run, CrossingDut, RustHdlCrossing, Seen, Traffic, VerilatedCrossing,
};

const PCIE: ClockDomain = ClockDomain {
    period_ps: 4_000,
    phase_ps: 0,
};
const NAND: ClockDomain = ClockDomain {
    period_ps: 5_000,
    phase_ps: 500,
};

fn traffic(push_in_8: u64, pop_in_8: u64, seed: u64) -> Traffic {
    Traffic {
        push_in_8,
        pop_in_8,
        seed,
        write_edges: 2_000,
    }
}

/// Each direction, three patterns, through `make` fresh DUTs; returns what each run saw.
fn check_all<D: CrossingDut>(mut make: impl FnMut() -> D) -> Vec<Seen> {
    let there = ClockCrossing {
        from: PCIE,
        to: NAND,
    };
    let back = ClockCrossing {
        from: NAND,
        to: PCIE,
    };
    let mut all = Vec::new();
    for x in [there, back] {
        for t in [traffic(1, 8, 1), traffic(8, 3, 2), traffic(5, 5, 3)] {
            let seen = run(&mut make(), x, t).unwrap_or_else(|e| panic!("{x:?} {t:?}: {e}"));
            all.push(seen);
        }
    }
    all
}

/// The runs exercised what they are for: a sparse writer moves about 2 000 / 8 = 250 words; a
/// writer offering every edge against a reader taking 3 in 8 fills the FIFO; the mixed pattern
/// moves words steadily.
fn covered(seen: &[Seen]) {
    for pair in seen.chunks(3) {
        assert!(pair[0].moved > 150, "sparse: {:?}", pair[0]);
        assert!(pair[1].full_edges > 100, "filling: {:?}", pair[1]);
        assert!(pair[2].moved > 500, "mixed: {:?}", pair[2]);
    }
}

#[test]
fn rust_hdl_crossing_follows_the_model_edge_for_edge() {
    covered(&check_all(RustHdlCrossing::<4, 2, 3>::new));
    covered(&check_all(RustHdlCrossing::<8, 3, 4>::new));
}

#[test]
fn verilated_crossing_follows_the_model_edge_for_edge() {
    let built = "verilator builds the crossing FIFO";
    let four = check_all(|| VerilatedCrossing::new::<4, 2, 3>().expect(built));
    let eight = check_all(|| VerilatedCrossing::new::<8, 3, 4>().expect(built));
    covered(&four);
    covered(&eight);
    // Both executions see the same runs (the patterns depend on the seed only).
    assert_eq!(four, check_all(RustHdlCrossing::<4, 2, 3>::new));
    assert_eq!(eight, check_all(RustHdlCrossing::<8, 3, 4>::new));
}

/// A NAND data burst into the PCIe clock: a word pushed at every 200 MHz edge, the 250 MHz
/// reader taking each word at the first edge after it sees it. By hand, a word pushed at `w`
/// is seen by the reader by `w` + 8 ns (its second edge after `w`), popped by `w` + 12 ns, and
/// its slot is free for the writer by `w` + 22 ns (the writer's second edge after the pop): up
/// to 22 / 5 + 1 = 5 words are in flight from the writer's side. So 4 slots fill and the burst
/// would have to stall (a NAND data phase cannot), while 8 slots never fill.
#[test]
fn eight_words_carry_a_nand_burst_without_filling() {
    let back = ClockCrossing {
        from: NAND,
        to: PCIE,
    };
    let burst = Traffic {
        push_in_8: 8,
        pop_in_8: 8,
        seed: 4,
        write_edges: 2_000,
    };
    let four = run(&mut RustHdlCrossing::<4, 2, 3>::new(), back, burst).unwrap();
    let eight = run(&mut RustHdlCrossing::<8, 3, 4>::new(), back, burst).unwrap();
    assert!(four.full_edges > 0, "4 slots: {four:?}");
    assert_eq!(eight.full_edges, 0, "8 slots: {eight:?}");
    // Every edge pushes: 2 000 words, all but the last few in flight at the end have crossed.
    assert!(eight.moved >= 1_995, "8 slots: {eight:?}");
}
