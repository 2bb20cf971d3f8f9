//! Test of the traced (VCD) build of the generic runner on a hand-written 4-bit counter.

use super::super::VerilatorModel;

const COUNTER: &str = "module top(clock,q);\n    input wire clock;\n    output reg [3:0] q;\n    initial q = 4'd0;\n    always @(posedge clock) q <= q + 4'd1;\nendmodule\n";

#[test]
fn traced_build_counts_and_writes_a_vcd() {
    let dir = tempfile::Builder::new()
        .prefix("ssdlab-vcd-")
        .tempdir()
        .expect("temp dir");
    let vcd = dir.path().join("counter.vcd");
    {
        let mut m = VerilatorModel::build_traced("counter", COUNTER, &vcd)
            .expect("verilator builds the counter");
        let (clk, q) = (m.port("clock").expect("clock"), m.port("q").expect("q"));
        m.eval();
        for _ in 0..5 {
            m.tick(clk);
        }
        assert_eq!(m.get(q), 5, "five rising edges from 0");
    }
    let text = std::fs::read_to_string(&vcd).expect("the VCD was written on drop");
    assert!(
        text.contains("$var") && text.contains(" q "),
        "q declared in the VCD"
    );
    // Two time stamps per cycle: the fifth rising edge is at time 9, its falling half at 10.
    assert!(
        text.contains("\n#9\n") && text.contains("\n#10\n"),
        "time stamps 9 and 10 present"
    );
}
