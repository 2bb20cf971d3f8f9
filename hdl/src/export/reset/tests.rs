//! The reset pass on a hand-written block in rust-hdl's shape: a top with a register child, a
//! combinational child and a child that only holds a register further down.

use super::add_reset;

const BLOCK: &str = "// header\n\n\nmodule ssdlab_b(clock,x,y);\n    \n    // Module arguments\n    input wire  clock;\n    input wire  x;\n    output wire  [1:0] y;\n    \n    // Sub module instances\n    ssdlab_b__r r(\n        .clock(r__clock),\n        .d(r__d),\n        .q(r__q)\n    );\n    ssdlab_b__c c(\n        .a(c__a),\n        .z(c__z)\n    );\n    ssdlab_b__w w(\n        .clock(w__clock)\n    );\nendmodule // ssdlab_b\n\n\nmodule ssdlab_b__r(d,q,clock);\n    \n    // Module arguments\n    input wire  [1:0] d;\n    output reg  [1:0] q;\n    input wire  clock;\n    \n    // Update code (custom)\n    initial begin\n       q = 2'h2;\n    end\n    \n    always @(posedge clock) begin\n       q <= d;\n    end\n          \nendmodule // ssdlab_b__r\n\n\nmodule ssdlab_b__c(a,z);\n    \n    // Module arguments\n    input wire  a;\n    output reg  z;\n    \nendmodule // ssdlab_b__c\n\n\nmodule ssdlab_b__w(clock);\n    \n    // Module arguments\n    input wire  clock;\n    \n    // Sub module instances\n    ssdlab_b__w__r r(\n        .clock(r__clock)\n    );\nendmodule // ssdlab_b__w\n\n\nmodule ssdlab_b__w__r(d,q,clock);\n    \n    // Module arguments\n    input wire  d;\n    output reg  q;\n    input wire  clock;\n    \n    // Update code (custom)\n    initial begin\n       q = 1'h0;\n    end\n    \n    always @(posedge clock) begin\n       q <= d;\n    end\n          \nendmodule // ssdlab_b__w__r\n";

#[test]
fn registers_reset_to_their_power_on_value_and_reset_reaches_them() {
    let (out, top) = add_reset(BLOCK).expect("well-formed block");
    assert_eq!(top, vec![("clock".to_string(), "reset".to_string())]);
    // Headers: the block, the register modules and the module holding one further down.
    for m in [
        "ssdlab_b(clock,x,y",
        "ssdlab_b__r(d,q,clock",
        "ssdlab_b__w(clock",
        "ssdlab_b__w__r(d,q,clock",
    ] {
        assert!(out.contains(&format!("module {m},reset);")), "{m}: {out}");
    }
    // The combinational child is left alone.
    assert!(out.contains("module ssdlab_b__c(a,z);\n"));
    assert_eq!(out.matches("    input wire  reset;\n").count(), 4);
    // Each register goes back to its `initial` value: 2'h2 and 1'h0.
    assert!(out.contains("       if (reset) q <= 2'h2; else q <= d;\n"));
    assert!(out.contains("       if (reset) q <= 1'h0; else q <= d;\n"));
    assert!(
        !out.contains("       q <= d;\n"),
        "a register without reset"
    );
    // Connected in the three instances that need it, not in the combinational one.
    assert_eq!(out.matches(".reset(reset),").count(), 3);
    assert!(out.contains("    ssdlab_b__c c(\n        .a(c__a),"));
    // Nothing else changed: removing what the pass added gives the input back.
    let undone = out
        .replace(",reset);", ");")
        .replace("    input wire  reset;\n", "")
        .replace("        .reset(reset),\n", "")
        .replace("if (reset) q <= 2'h2; else q <= d;", "q <= d;")
        .replace("if (reset) q <= 1'h0; else q <= d;", "q <= d;");
    assert_eq!(undone, BLOCK);
}

#[test]
fn a_block_without_registers_gets_no_reset() {
    let comb = "// c\nmodule ssdlab_c(a,z);\n    \n    // Module arguments\n    input wire  a;\n    output reg  z;\n    \nendmodule // ssdlab_c\n";
    assert_eq!(add_reset(comb), Ok((comb.to_string(), vec![])));
}

#[test]
fn refuses_a_name_reset_and_a_register_without_power_on_value() {
    let named = BLOCK.replace("output wire  [1:0] y;", "output wire  [1:0] reset;");
    assert!(add_reset(&named).unwrap_err().contains("`reset`"));
    let no_init = BLOCK.replace("       q = 2'h2;\n", "");
    let e = add_reset(&no_init).unwrap_err();
    assert!(e.contains("ssdlab_b__r"), "{e}");
}

/// A two-clock block in rust-hdl's shape: register `p` on `clock`, register `n` on `nclk`,
/// which the update block takes from `nand_clock` under the elaboration constant `crossed`.
fn two_clock_block(crossed: &str) -> String {
    let reg = |name: &str| {
        format!("module ssdlab_t__{name}(d,q,clock);\n    \n    // Module arguments\n    input wire  d;\n    output reg  q;\n    input wire  clock;\n    \n    // Update code (custom)\n    initial begin\n       q = 1'h1;\n    end\n    \n    always @(posedge clock) begin\n       q <= d;\n    end\n          \nendmodule // ssdlab_t__{name}\n\n\n")
    };
    format!("// header\n\n\nmodule ssdlab_t(clock,nand_clock,x);\n    \n    // Module arguments\n    input wire  clock;\n    input wire  nand_clock;\n    input wire  x;\n    \n    // Constant declarations\n    localparam  crossed = {crossed};\n    \n    // Sub module instances\n    ssdlab_t__p p(\n        .d(p__d),\n        .q(p__q),\n        .clock(p__clock)\n    );\n    ssdlab_t__n n(\n        .d(n__d),\n        .q(n__q),\n        .clock(n__clock)\n    );\n    \n    // Update code\n    always @(*) begin\n        nclk = clock;\n        if (crossed) begin\n            nclk = nand_clock;\n        end\n        p__clock = clock;\n        n__clock = nclk;\n    end\n    \nendmodule // ssdlab_t\n\n\n{}{}", reg("p"), reg("n"))
}

#[test]
fn each_register_is_reset_by_the_reset_of_its_own_clock() {
    let (out, top) = add_reset(&two_clock_block("1'b1")).unwrap();
    let pair = |c: &str, r: &str| (c.to_string(), r.to_string());
    assert_eq!(
        top,
        vec![pair("clock", "reset"), pair("nand_clock", "nand_reset")]
    );
    assert!(out.contains("module ssdlab_t(clock,nand_clock,x,reset,nand_reset);"));
    assert!(
        out.contains("module ssdlab_t__p(d,q,clock,reset);"),
        "{out}"
    );
    assert!(
        out.contains("module ssdlab_t__n(d,q,clock,nand_reset);"),
        "{out}"
    );
    assert!(out.contains("    ssdlab_t__p p(\n        .reset(reset),\n"));
    assert!(out.contains("    ssdlab_t__n n(\n        .nand_reset(nand_reset),\n"));
    assert!(out.contains("       if (nand_reset) q <= 1'h1; else q <= d;\n"));
    assert_eq!(out.matches("if (reset) q <= 1'h1").count(), 1);
    // Without the crossing both registers run on `clock`: one reset, `nand_clock` unused.
    let (out, top) = add_reset(&two_clock_block("1'b0")).unwrap();
    assert_eq!(top, vec![pair("clock", "reset")]);
    assert!(out.contains("module ssdlab_t(clock,nand_clock,x,reset);"));
    assert!(!out.contains("nand_reset"));
}

#[test]
fn refuses_a_clock_it_cannot_trace() {
    // A condition that is not an elaboration constant.
    let v = two_clock_block("1'b1").replace("if (crossed) begin", "if (x) begin");
    let e = add_reset(&v).unwrap_err();
    assert!(
        e.contains("`nclk`") && e.contains("not an elaboration constant"),
        "{e}"
    );
    // A register clock assigned from nothing the block's clocks reach.
    let v = two_clock_block("1'b1").replace("n__clock = nclk;", "n__clock = x;");
    let e = add_reset(&v).unwrap_err();
    assert!(
        e.contains("ssdlab_t__n") && e.contains("does not trace"),
        "{e}"
    );
    // A name the pass would add.
    let v = two_clock_block("1'b1").replace("input wire  x;", "input wire  nand_reset;");
    assert!(add_reset(&v).unwrap_err().contains("`nand_reset`"));
}
