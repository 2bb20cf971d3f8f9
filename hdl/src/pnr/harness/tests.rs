//! The harness generator on hand-written port lists: wiring by hand, refusals, two clocks.

use super::*;

const BLOCK: &str = "// header\n\n\nmodule ssdlab_x(clock,a,b,y,z,reset);\n\n    // ports\n    input wire  reset;\n    input wire  clock;\n    input wire  a;\n    input wire  [7:0] b;\n    output reg  [3:0] y;\n    output wire  z;\n\n    reg [3:0] q;\nendmodule\n";

#[test]
fn ports_of_an_exported_module() {
    let (name, ports) = ports(BLOCK.replace("    // ports\n", "").as_str()).unwrap();
    assert_eq!(name, "ssdlab_x");
    let p = |input, width, name: &str| Port {
        input,
        width,
        name: name.to_string(),
    };
    assert_eq!(
        ports,
        vec![
            p(true, 1, "reset"),
            p(true, 1, "clock"),
            p(true, 1, "a"),
            p(true, 8, "b"),
            p(false, 4, "y"),
            p(false, 1, "z")
        ]
    );
}

/// By hand: inputs a (1 bit) and b (8) are in_sr[0] and in_sr[8:1] of a 9-bit register;
/// outputs y (4) and z (1) are outs[3:0] and outs[4] of a 5-bit one.
#[test]
fn harness_wires_every_port_to_a_register_bit() {
    let src = BLOCK.replace("    // ports\n", "");
    let (name, ports) = ports(&src).unwrap();
    let h = harness(&name, &ports, "clock", SecondClockUse::Unused)
        .unwrap()
        .verilog;
    for want in [
        "module ssdlab_x_pnr(",
        "reg [8:0] in_sr = 9'd0;",
        "in_sr <= {in_sr[7:0], sin};",
        "reg [4:0] out_sr = 5'd0;",
        "out_sr <= load ? outs : {1'b0, out_sr[4:1]};",
        ".clock(clock)",
        ".a(in_sr[0])",
        ".b(in_sr[8:1])",
        ".y(outs[3:0])",
        ".z(outs[4])",
        ".reset(1'b0)",
    ] {
        assert!(h.contains(want), "missing `{want}` in\n{h}");
    }
}

#[test]
fn refuses_what_it_cannot_wire() {
    let src = BLOCK.replace("    // ports\n", "");
    let (name, ports) = ports(&src).unwrap();
    assert!(harness(&name, &ports, "clk", SecondClockUse::Unused)
        .unwrap_err()
        .contains("no 1-bit input `clk`"));
    assert!(super::ports("// nothing\n")
        .unwrap_err()
        .contains("no `module`"));
    let bad = src.replace("[7:0]", "[0:7]");
    assert!(super::ports(&bad).unwrap_err().contains("descending"));
}

/// A two-clock block: the ports on its NAND clock (`phy_*`, by the datapath's list) get
/// chains of their own; by hand, input `a` (1 bit) and `phy_0_rb` (8) are `in_sr[0]` and
/// `in_sr2[7:0]`, outputs `y` (2) and `phy_0_ce` (8) are `outs[1:0]` and `outs2[7:0]`.
#[test]
fn a_second_clock_of_its_own_gets_pins_and_chains() {
    let src = "module ssdlab_datapath(clock,nand_clock,a,phy_0_rb,y,phy_0_ce,reset,nand_reset);\n    input wire  clock;\n    input wire  nand_clock;\n    input wire  a;\n    input wire  [7:0] phy_0_rb;\n    output reg  [1:0] y;\n    output reg  [7:0] phy_0_ce;\n    input wire  reset;\n    input wire  nand_reset;\n\nendmodule\n";
    let (name, ports) = ports(src).unwrap();
    let h = harness(&name, &ports, "clock", SecondClockUse::Own).unwrap();
    assert_eq!((h.in_bits, h.out_bits), (9, 10));
    for want in [
        "    input wire nand_clock,\n",
        "    output wire nand_clock_sout\n",
        "always @(posedge clock) in_sr <= sin;",
        "always @(posedge nand_clock) in_sr2 <= {in_sr2[6:0], sin};",
        "always @(posedge nand_clock) out_sr2 <= load ? outs2 : {1'b0, out_sr2[7:1]};",
        "assign nand_clock_sout = out_sr2[0];",
        ".nand_clock(nand_clock)",
        ".a(in_sr[0])",
        ".phy_0_rb(in_sr2[7:0])",
        ".y(outs[1:0])",
        ".phy_0_ce(outs2[7:0])",
        ".reset(1'b0)",
        ".nand_reset(1'b0)",
    ] {
        assert!(
            h.verilog.contains(want),
            "missing `{want}` in\n{}",
            h.verilog
        );
    }
    // The same block on one clock: every port on `clock`, the second tied or shared.
    for (u, tie) in [
        (SecondClockUse::Unused, ".nand_clock(1'b0)"),
        (SecondClockUse::FromClock, ".nand_clock(clock)"),
    ] {
        let h = harness(&name, &ports, "clock", u).unwrap().verilog;
        assert!(
            h.contains(tie) && h.contains(".phy_0_rb(in_sr[8:1])"),
            "{h}"
        );
        assert!(
            !h.contains("nand_clock_sout") && !h.contains("in_sr2"),
            "{h}"
        );
    }
    // A block with a second clock of its own but no list of its ports is refused.
    let other = src.replace("ssdlab_datapath", "ssdlab_other");
    let (name, ports) = super::ports(&other).unwrap();
    assert!(harness(&name, &ports, "clock", SecondClockUse::Own)
        .unwrap_err()
        .contains("without a list of its ports"));
}

/// The three forms of the export's `// Clock:` line (`export::clock_line`).
#[test]
fn the_second_clock_use_is_read_from_the_header() {
    let use_of = |line: &str| second_clock_use(&format!("// x\n{line}\nmodule m(clock);\n"));
    assert_eq!(
        use_of("// Clock: `clock`, 250 MHz (PCIe user clock, PG213); `nand_clock`, 200 MHz (NAND sequencer clock, onfi.core_clock_mhz)."),
        SecondClockUse::Own
    );
    assert_eq!(
        use_of("// Clock: `clock`, 250 MHz (PCIe user clock, PG213) and NAND sequencer clock (onfi.core_clock_mhz = 250); `nand_clock` is unused (tie it low)."),
        SecondClockUse::Unused
    );
    assert_eq!(
        use_of("// Clock: `clock`, 250 MHz (PCIe user clock, PG213); `nand_clock`, 250 MHz (NAND sequencer clock, onfi.core_clock_mhz): one clock here, drive both inputs from it."),
        SecondClockUse::FromClock
    );
    assert_eq!(use_of("// Clock: `clock`, 200 MHz"), SecondClockUse::Unused);
}
