//! The synchronous reset of `make verilog` (`ssdlab_hdl::export::reset`) under Verilator: a
//! block driven with random inputs, then reset, behaves from then on exactly as a copy of it
//! that has just been powered up (every register at its `initial` value): the same outputs,
//! cycle for cycle, under the same random inputs. A register the reset misses would carry the
//! first copy's history and, once it reaches an output, differ. The blocks are the NAND channel
//! (sequencer clock domain) and the NVMe front end (PCIe clock domain), which hold no memories.

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
    for p in &outs {
        writeln!(
            s,
            "    if (a_{n} !== b_{n}) begin bad = bad + 1; \
             $display(\"cycle %0d: {n} %h after reset, %h from power-on\", i, a_{n}, b_{n}); end",
            n = p.name
        )
        .unwrap();
    }
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

/// Builds and runs the bench of block `stem` (rust-hdl Verilog `raw`) in `dir`; its output.
fn run(stem: &str, raw: &str, dir: &Path) -> String {
    let (verilog, has_reset) = ssdlab_hdl::export::integrable(stem, raw).expect("exports");
    assert!(has_reset, "{stem} has registers");
    let (top, ports) = ports(&verilog).expect("ports");
    assert!(
        ports.iter().any(|p| p.input && p.name == "reset"),
        "{stem}: no reset input"
    );
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("block.v"), verilog).unwrap();
    std::fs::write(dir.join("bench.sv"), bench(&top, &ports)).unwrap();
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
