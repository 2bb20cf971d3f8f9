//! The clock-crossing FIFO against its behavioural model, in rust_hdl's simulation and under
//! Verilator (`ssdlab_testbench::cosim::clock_crossing`): the PCIe user clock (250 MHz, edges
//! from 0 ps) and the NAND clock (200 MHz, edges from 500 ps, so no two rising edges coincide),
//! each direction, three traffic patterns. Expected counts are bounds from the patterns'
//! probabilities (2 000 write edges).

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
    covered(&check_all(RustHdlCrossing::new));
}

#[test]
fn verilated_crossing_follows_the_model_edge_for_edge() {
    let seen = check_all(|| VerilatedCrossing::new().expect("verilator builds the crossing FIFO"));
    covered(&seen);
    // Both executions see the same run (the patterns depend on the seed only).
    assert_eq!(seen, check_all(RustHdlCrossing::new));
}
