//! The renaming pass on small Verilog snippets shaped like rust-hdl's output.

use super::*;

const SNIPPET: &str = "\n\nmodule top(clock,phy$0$ce,q);\n    input wire clock;\n    output reg phy$0$ce;\n    output reg [10:0] q;\n    localparam  k32 = 11'b100000;\n    localparam  St$Idle = 64'ha;\n    reg  [10:0] lo$d;\n    wire  [10:0] lo$q;\n    top$lo lo(\n        .d(lo$d),\n        .q(lo$q),\n        .clock(clock)\n    );\n    always @(*) begin\n        lo$d = lo$q + k32;\n        q = lo$q;\n        phy$0$ce = 1'b1;\n        $display(\"a$b\");\n    end\nendmodule // top\n\n\nmodule top$lo(d,q,clock);\n    input wire [10:0] d;\n    output reg [10:0] q;\n    input wire clock;\n    always @(posedge clock) q <= d;\nendmodule // top$lo\n";

#[test]
fn modules_get_the_block_prefix_and_signals_lose_their_dollars() {
    let v = integrable("nvme_prp_split", SNIPPET).unwrap();
    assert!(
        v.contains("module ssdlab_nvme_prp_split(clock,phy_0_ce,q);"),
        "{v}"
    );
    assert!(
        v.contains("module ssdlab_nvme_prp_split__lo(d,q,clock);"),
        "{v}"
    );
    assert!(v.contains("    ssdlab_nvme_prp_split__lo lo(\n"), "{v}");
    assert!(v.contains("endmodule // ssdlab_nvme_prp_split\n"), "{v}");
    assert!(
        v.contains("endmodule // ssdlab_nvme_prp_split__lo\n"),
        "{v}"
    );
    assert!(v.contains("lo__d = lo__q + k32;"), "{v}");
    assert!(v.contains(".d(lo__d),"), "{v}");
    assert!(v.contains("phy_0_ce = 1'b1;"), "{v}");
    assert!(v.contains("localparam  St__Idle = 64'ha;"), "{v}");
    assert!(v.contains("localparam  k32 = 11'b100000;"), "{v}");
    assert!(!v.contains("top"), "{v}");
}

#[test]
fn system_tasks_and_strings_are_kept() {
    let v = integrable("b", SNIPPET).unwrap();
    assert!(v.contains("$display(\"a$b\");"), "{v}");
    assert_eq!(v.matches('$').count(), 2, "{v}");
}

#[test]
fn a_signal_named_like_a_module_stays_a_signal() {
    // `top` is the module; a port named `top` (a Rust field `top`) keeps its name.
    let v = "module top(top$x,top);\n  input wire top$x;\n  output reg top;\n  always @(*) top = top$x;\nendmodule\n";
    let out = integrable("blk", v).unwrap();
    assert!(out.contains("module ssdlab_blk(top_x,top);"), "{out}");
    assert!(out.contains("input wire top_x;"), "{out}");
    assert!(out.contains("always @(*) top = top_x;"), "{out}");
}

#[test]
fn a_child_port_stub_does_not_collide_with_a_parent_port() {
    // `map$req_valid` drives child `map`'s port `req_valid`; `map_req_valid` is the parent's.
    let v = "module top(map_req_valid,phy$1$ce);\n  output reg map_req_valid;\n  output reg phy$1$ce;\n  reg map$req_valid;\n  top$map map(\n    .req_valid(map$req_valid),\n    .phy$1$ce(phy$1$ce)\n  );\nendmodule\nmodule top$map(req_valid,phy$1$ce);\n  input wire req_valid;\n  output reg phy$1$ce;\nendmodule\n";
    let out = integrable("d", v).unwrap();
    assert!(out.contains("reg map__req_valid;"), "{out}");
    assert!(out.contains(".req_valid(map__req_valid),"), "{out}");
    assert!(out.contains(".phy_1_ce(phy_1_ce)"), "{out}");
    assert!(
        out.contains("module ssdlab_d__map(req_valid,phy_1_ce);"),
        "{out}"
    );
}

#[test]
fn two_names_that_become_one_are_refused() {
    let v = "module top(a$d,a_d);\n  input wire a$d;\n  output reg a_d;\nendmodule\n";
    let err = integrable("blk", v).unwrap_err();
    assert!(err.contains("`a$d`") && err.contains("`a_d`"), "{err}");
    assert!(err.contains("module `top`"), "{err}");
}

#[test]
fn the_same_name_in_two_modules_is_no_collision() {
    let v = "module top(x);\n  reg a$d;\nendmodule\nmodule top$c(x);\n  reg a__d;\nendmodule\n";
    let out = integrable("blk", v).unwrap();
    assert_eq!(out.matches("reg a__d;").count(), 2, "{out}");
}

#[test]
fn module_names_that_become_one_are_refused() {
    let v = "module top$a$b(x);\nendmodule\nmodule top$a__b(x);\nendmodule\n";
    let err = integrable("blk", v).unwrap_err();
    assert!(err.contains("ssdlab_blk__a__b"), "{err}");
}

#[test]
fn numbers_are_not_identifiers() {
    let v = "module top(q);\n  output reg [63:0] q;\n  always @(*) q = 64'hdead_beef + 8'sb1 + 'h0 + 12;\nendmodule\n";
    let out = integrable("n", v).unwrap();
    assert!(
        out.contains("q = 64'hdead_beef + 8'sb1 + 'h0 + 12;"),
        "{out}"
    );
}
