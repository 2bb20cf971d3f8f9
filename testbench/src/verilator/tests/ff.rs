//! Test that `run_quiet`'s fast-forward stays exact on a design it cannot skip: a memory
//! incremented in place (`mem[0] <= mem[0] + 1`) while every register holds still — the
//! non-memory state is unchanged cycle after cycle, yet the memory keeps counting.

use super::super::VerilatorModel;

const MEM_COUNTER: &str = "module top(clock,load,q);
    input wire clock;
    input wire load;
    output reg [7:0] q;
    reg [7:0] mem [1:0];
    initial begin
    mem[0] = 8'd0;
    mem[1] = 8'd0;
    q = 8'd0;
    end
    always @(posedge clock) begin
        mem[0] <= mem[0] + 8'd1;
    end
    always @(posedge clock) begin
        if (load) begin
            q <= mem[0];
        end
    end
endmodule
";

#[test]
fn a_memory_counting_in_place_is_clocked_not_fast_forwarded() {
    let mut m = VerilatorModel::build("mem_counter", MEM_COUNTER)
        .expect("verilator builds the memory counter");
    let h = m
        .fast_forward_hazard()
        .expect("the in-place increment is found")
        .clone();
    assert_eq!((h.memory.as_str(), h.line), ("mem", 12), "{h}");
    let (clk, load, q) = (
        m.port("clock").expect("clock"),
        m.port("load").expect("load"),
        m.port("q").expect("q"),
    );
    m.put(load, 0);
    m.io(clk, false);
    let (nz, chg) = (m.out_mask(), m.out_mask());
    // Asked to fast-forward; q and load never move, so a skip would leave mem[0] near 2.
    assert_eq!(m.run_quiet(clk, &nz, &chg, 1000, true, None), 1000);
    m.put(load, 1);
    m.io(clk, false); // load applied with the clock low
    m.io(clk, true);
    // The loading edge samples mem[0] after 1000 increments: 1000 mod 256 = 232.
    assert_eq!(
        m.out(q),
        232,
        "every one of the 1000 quiet cycles was clocked"
    );
}
