//! The synchronous reset of `make verilog` (`ssdlab_hdl::export::reset`) under Verilator: a
//! block driven with random inputs, then reset, behaves from then on exactly as a copy of it
//! that has just been powered up (every register at its `initial` value): the same outputs,
//! cycle for cycle, under the same random inputs. A register the reset misses would carry the
//! first copy's history and, once it reaches an output, differ. The blocks are the NAND channel
//! (sequencer clock domain) and the NVMe front end (PCIe clock domain), which hold no memories,
//! and the NAND array with its clock crossing: two clocks of different periods, a reset each
//! (`reset` on its sequencer clock, `pcie_reset` on `pcie_clock`), each asserted for one edge
//! of its own clock only, so a register reset by the other clock's input would miss its reset.

use ssdlab_hdl::pnr::harness::{ports, Port};
use ssdlab_model::DriveConfig;
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

/// Cycles of random inputs before the reset, and compared after it.
const BEFORE: u32 = 400;
const AFTER: u32 = 400;

/// `{$urandom, ...}` wide enough for `width` bits.
fn random(width: u32) -> String {
    let words = width.div_ceil(32);
    let parts: Vec<&str> = (0..words).map(|_| "$urandom").collect();
    format!("{}'({{{}}})", width, parts.join(", "))
}

/// The bench lines that count and print each output where copy `a` differs from copy `b`.
fn compare_outputs(s: &mut String, outs: &[&Port], indent: &str) {
    for p in outs {
        writeln!(
            s,
            "{indent}if (a_{n} !== b_{n}) begin bad = bad + 1; \
             $display(\"cycle %0d: {n} %h after reset, %h from power-on\", i, a_{n}, b_{n}); end",
            n = p.name
        )
        .unwrap();
    }
}

/// A SystemVerilog bench: copies `a` (clocked throughout) and `b` (clocked from the reset
/// cycle on) of module `top`, the same inputs, `reset` high for one edge after `BEFORE` cycles,
/// every output compared before each of the `AFTER` edges that follow.
fn bench(top: &str, ports: &[Port]) -> String {
    let (ins, outs): (Vec<&Port>, Vec<&Port>) = ports
        .iter()
        .filter(|p| p.name != "clock" && p.name != "reset")
        .partition(|p| p.input);
    let mut s = String::from(
        "module bench;\n  reg clk_a = 0, clk_b = 0, reset = 0;\n  integer i, bad = 0;\n",
    );
    for p in &ins {
        writeln!(s, "  reg [{}:0] {} = 0;", p.width - 1, p.name).unwrap();
    }
    for p in &outs {
        writeln!(s, "  wire [{}:0] a_{n}, b_{n};", p.width - 1, n = p.name).unwrap();
    }
    for (inst, clk) in [("a", "clk_a"), ("b", "clk_b")] {
        let mut conns = vec![format!(".clock({clk})"), ".reset(reset)".to_string()];
        conns.extend(ins.iter().map(|p| format!(".{n}({n})", n = p.name)));
        conns.extend(outs.iter().map(|p| format!(".{n}({inst}_{n})", n = p.name)));
        writeln!(s, "  {top} {inst}({});", conns.join(", ")).unwrap();
    }
    s += "  task randomize; begin\n";
    for p in &ins {
        writeln!(s, "    {} = {};", p.name, random(p.width)).unwrap();
    }
    s += "  end endtask\n  task compare; begin\n";
    compare_outputs(&mut s, &outs, "    ");
    s += "  end endtask\n  initial begin\n";
    writeln!(
        s,
        "    for (i = 0; i < {BEFORE}; i = i + 1) begin randomize; #1 clk_a = 1; #1 clk_a = 0; end"
    )
    .unwrap();
    s += "    reset = 1; randomize; #1 clk_a = 1; clk_b = 1; #1 clk_a = 0; clk_b = 0; reset = 0;\n";
    writeln!(s, "    for (i = 0; i < {AFTER}; i = i + 1) begin randomize; #1 compare; clk_a = 1; clk_b = 1; #1 clk_a = 0; clk_b = 0; end").unwrap();
    s += "    if (bad == 0) $display(\"RESET OK\");\n    $finish;\n  end\nendmodule\n";
    s
}

/// The two-clock form of [`bench`] for a block with two reset inputs `resets` (each with its
/// clock). Clock 0 has a period of 10 time units (rising at 10 j + 5), clock 1 of 8 (rising at
/// 8 i + 4); inputs change at clock 1's falling edges (8 i), which no rising edge shares. After
/// `BEFORE` x 40 units of random inputs (T, both clocks falling), each reset is high around one
/// rising edge of its own clock and no edge of the other: reset 0 over [T + 13, T + 18) (clock 0
/// rises at T + 15; clock 1 at T + 12 and T + 20), reset 1 over [T + 17, T + 22) (clock 1 rises
/// at T + 20; clock 0 at T + 15 and T + 25). Copy `b` gets each clock from just before that
/// clock's reset edge (gated on while it is low), so from T + 22 both copies are in their
/// power-on state, if every register was reset by its own clock's reset; the outputs are
/// compared at each falling edge of clock 1 over `AFTER` of its cycles.
fn two_clock_bench(top: &str, ports: &[Port], resets: &[(String, String)]) -> String {
    let named = |p: &&Port| resets.iter().any(|(c, r)| p.name == *c || p.name == *r);
    let (ins, outs): (Vec<&Port>, Vec<&Port>) =
        ports.iter().filter(|p| !named(p)).partition(|p| p.input);
    let mut s = String::from(
        "module bench;\n  reg k0 = 0, k1 = 0, en0 = 0, en1 = 0, r0 = 0, r1 = 0, cmp = 0;\n  \
         integer i = 0, bad = 0;\n  always #5 k0 = ~k0;\n  always #4 k1 = ~k1;\n  \
         wire g0 = k0 & en0, g1 = k1 & en1;\n",
    );
    for p in &ins {
        writeln!(s, "  reg [{}:0] {} = 0;", p.width - 1, p.name).unwrap();
    }
    for p in &outs {
        writeln!(s, "  wire [{}:0] a_{n}, b_{n};", p.width - 1, n = p.name).unwrap();
    }
    let (c0, r0n) = (&resets[0].0, &resets[0].1);
    let (c1, r1n) = (&resets[1].0, &resets[1].1);
    for (inst, k0, k1) in [("a", "k0", "k1"), ("b", "g0", "g1")] {
        let mut conns = vec![
            format!(".{c0}({k0})"),
            format!(".{c1}({k1})"),
            format!(".{r0n}(r0)"),
            format!(".{r1n}(r1)"),
        ];
        conns.extend(ins.iter().map(|p| format!(".{n}({n})", n = p.name)));
        conns.extend(outs.iter().map(|p| format!(".{n}({inst}_{n})", n = p.name)));
        writeln!(s, "  {top} {inst}({});", conns.join(", ")).unwrap();
    }
    s += "  always @(negedge k1) begin\n    if (cmp) begin i = i + 1;\n";
    compare_outputs(&mut s, &outs, "      ");
    s += "    end\n";
    for p in &ins {
        writeln!(s, "    {} = {};", p.name, random(p.width)).unwrap();
    }
    s += "  end\n  initial begin\n";
    writeln!(s, "    #{};", 40 * BEFORE).unwrap();
    s += "    #11 en0 = 1; #2 r0 = 1; #4 en1 = 1; r1 = 1; #1 r0 = 0; #4 r1 = 0; cmp = 1;\n";
    writeln!(s, "    #{};", 8 * AFTER).unwrap();
    s += "    if (bad == 0) $display(\"RESET OK\");\n    $finish;\n  end\nendmodule\n";
    s
}

/// Builds and runs the bench of block `stem` (rust-hdl Verilog `raw`) in `dir`; its output.
fn run(stem: &str, raw: &str, dir: &Path) -> String {
    let (verilog, resets) = ssdlab_hdl::export::integrable(stem, raw).expect("exports");
    let (top, ports) = ports(&verilog).expect("ports");
    for (_, r) in &resets {
        assert!(
            ports.iter().any(|p| p.input && &p.name == r),
            "{stem}: no input {r}"
        );
    }
    let sv = match resets.as_slice() {
        [(c, r)] if c == "clock" && r == "reset" => bench(&top, &ports),
        [_, _] => two_clock_bench(&top, &ports, &resets),
        _ => panic!("{stem}: resets {resets:?}"),
    };
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("block.v"), verilog).unwrap();
    std::fs::write(dir.join("bench.sv"), sv).unwrap();
    let build = Command::new("verilator")
        .current_dir(dir)
        .args([
            "--binary",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "--top-module",
            "bench",
        ])
        .args(["-Mdir", "obj", "block.v", "bench.sv"])
        .output()
        .expect("verilator installed (scripts/ensure-tools.sh)");
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let out = Command::new(dir.join("obj/Vbench")).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn check(stem: &str, raw: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("export-reset-{stem}-{}", std::process::id()));
    let out = run(stem, raw, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.contains("RESET OK"),
        "{stem}: after reset, not the power-on state:\n{out}"
    );
}

#[test]
fn the_nand_channel_after_reset_is_the_nand_channel_after_power_on() {
    let cfg = DriveConfig::default_drive();
    let blocks = ssdlab_hdl::nand::verilog_blocks(&cfg).expect("default preset elaborates");
    let (_, raw) = blocks
        .iter()
        .find(|b| b.0 == "nand_channel")
        .expect("nand_channel");
    check("nand_channel", raw);
}

#[test]
fn the_nvme_front_end_after_reset_is_the_front_end_after_power_on() {
    let cfg = DriveConfig::default_drive();
    let blocks = ssdlab_hdl::nvme::verilog_blocks(&cfg);
    let (_, raw) = blocks
        .iter()
        .find(|b| b.0 == "nvme_frontend")
        .expect("nvme_frontend");
    check("nvme_frontend", raw);
}

#[test]
fn the_nand_array_after_each_clock_s_reset_is_the_array_after_power_on() {
    // The default preset's sequencers at 200 MHz cross to the 250 MHz PCIe clock; 2 channels
    // keep the Verilator build short.
    let mut cfg = DriveConfig::default_drive();
    cfg.geometry.channels = 2;
    let blocks = ssdlab_hdl::nand::verilog_blocks(&cfg).expect("elaborates");
    let (_, raw) = blocks
        .iter()
        .find(|b| b.0 == "nand_array")
        .expect("nand_array");
    let (_, resets) = ssdlab_hdl::export::integrable("nand_array", raw).unwrap();
    let pair = |c: &str, r: &str| (c.to_string(), r.to_string());
    assert_eq!(
        resets,
        vec![pair("clock", "reset"), pair("pcie_clock", "pcie_reset")]
    );
    check("nand_array", raw);
}
