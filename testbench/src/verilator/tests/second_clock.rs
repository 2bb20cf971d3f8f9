//! Tests of `run_quiet` with a second, slower clock: its edges are clocked where a bench that
//! clocks both in Rust puts them, and the fast-forward waits for state that holds over edges of
//! both clocks. The design counts down on the second clock while the main clock's state holds
//! still: a rule that looked at main-clock edges alone would see quiescent cycles between two
//! second-clock edges and skip the count.

use super::super::{SecondClock, VerilatorModel};

/// `left` counts 20 second-clock edges down to 0; `done` registers `left == 0` on the main clock.
const COUNT_DOWN: &str = "module top(clock,nand_clock,done);
    input wire clock;
    input wire nand_clock;
    output reg done;
    reg [7:0] left;
    initial begin
    left = 8'd20;
    done = 1'b0;
    end
    always @(posedge nand_clock) begin
        if (left != 8'd0) begin
            left <= left - 8'd1;
        end
    end
    always @(posedge clock) begin
        done <= left == 8'd0;
    end
endmodule
";

/// Runs from cycle 0 with the second clock at `period_ps` (main clock 4 ns) until `done`.
fn cycles_until_done(period_ps: u64, ff: bool) -> u64 {
    let mut m =
        VerilatorModel::build("count_down", COUNT_DOWN).expect("verilator builds the count-down");
    let (clk, nclk, done) = (
        m.port("clock").expect("clock"),
        m.port("nand_clock").expect("nand_clock"),
        m.port("done").expect("done"),
    );
    m.io(clk, false);
    let (mut nz, chg) = (m.out_mask(), m.out_mask());
    m.mask_port(&mut nz, done);
    let second = SecondClock {
        port: nclk,
        period_ps,
        main_period_ps: 4_000,
        first_cycle: 0,
    };
    m.run_quiet(clk, &nz, &chg, 1000, ff, Some(second))
}

/// At 200 MHz the 20th edge is at 100 ns, the end of cycle 24 (coincident with its main edge,
/// which still samples `left` = 1); the main edge ending cycle 25 registers `done`, so the run
/// stops before cycle 26: 26 cycles clocked.
#[test]
fn a_second_clock_at_200_mhz_is_clocked_edge_for_edge() {
    assert_eq!(cycles_until_done(5_000, false), 26);
    assert_eq!(cycles_until_done(5_000, true), 26);
}

/// At 100 MHz the second clock rises in 2 cycles of every 5 (at 10 ns in cycle 2, at 20 ns with
/// the main edge ending cycle 4), so two main-only cycles follow each other; the 20th edge is at
/// 200 ns, the end of cycle 49: `done` from cycle 51 on, 51 cycles clocked.
#[test]
fn a_quiet_main_clock_between_second_clock_edges_is_not_fast_forwarded() {
    assert_eq!(cycles_until_done(10_000, false), 51);
    assert_eq!(cycles_until_done(10_000, true), 51);
}
