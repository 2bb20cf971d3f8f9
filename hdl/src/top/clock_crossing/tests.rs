//! The crossing FIFO elaborates to Verilog yosys accepts, and one word crosses at the edge hand
//! arithmetic gives. The randomized runs against the behavioural model, in rust_hdl and under
//! Verilator, are `testbench/tests/clock_crossing.rs`.

use super::*;

#[test]
fn clock_crossing_fifo_is_synthesizable() {
    let vlog = crate::verilog_of(CrossingFifo4::<16>::default());
    crate::test_support::yosys_validate("ssdlab_clock_crossing", &vlog).unwrap();
    let vlog = crate::verilog_of(CrossingFifo8::<32>::default());
    crate::test_support::yosys_validate("ssdlab_clock_crossing8", &vlog).unwrap();
}

/// One word, written by a 4 ns clock (edges at 0, 4, 8, ... ns) and read by a 5 ns clock (edges
/// at 0.5, 5.5, 10.5, ... ns): pushed at the write edge at 8 ns, it is counted by the reader
/// from the second read edge after it, 15.5 ns (10.5 ns takes the pointer into the first
/// synchronizer flip-flop, 15.5 ns into the second).
#[test]
fn one_word_reaches_the_reader_two_read_edges_after_its_push() {
    let mut u = CrossingFifo4::<8>::default();
    u.connect_all();
    let settle = |u: &mut CrossingFifo4<8>| crate::settle(u, 16, "clock crossing fifo");
    // (time ps, write clock, level): the two clocks' transitions up to 16 ns.
    let mut tr: Vec<(u64, bool, bool)> = Vec::new();
    for k in 0..5u64 {
        tr.extend([(k * 4_000, true, true), (k * 4_000 + 2_000, true, false)]);
        tr.extend([
            (500 + k * 5_000, false, true),
            (3_000 + k * 5_000, false, false),
        ]);
    }
    tr.sort_unstable();
    let mut empty_until = None;
    for (t, write, high) in tr.into_iter().filter(|e| e.0 <= 16_000) {
        // Offer the word for the write edge at 8 ns only.
        u.push.next = t > 4_000 && t <= 8_000;
        u.data_in.next = bits::<8>(0xA5);
        if write {
            u.write_clock.next = Clock { clk: high };
        } else {
            u.read_clock.next = Clock { clk: high };
        }
        settle(&mut u);
        if !u.empty.val() && empty_until.is_none() {
            empty_until = Some(t);
            assert_eq!(u.data_out.val(), bits::<8>(0xA5));
        }
    }
    assert_eq!(empty_until, Some(15_500));
}
