//! The place-and-route harness of a block: an exported block has more ports than an FPGA package has pins
//! (the NVMe front end's four 64-bit AXI streams alone are 256 data bits), so `make pnr`
//! (`scripts/pnr.sh`) places and routes each block inside a harness with four pins:
//!
//! - `clock`: the block's clock;
//! - `sin`: every other input of the block is a bit of one shift register loaded from this pin
//!   (on a board these inputs come from on-chip logic, so registers feed them here too);
//! - `load`, `sout`: every output of the block is captured in a register, in parallel while
//!   `load` is high, and shifted out on `sout` otherwise (one 2-input mux per bit, no reduction
//!   tree that could become the critical path).
//!
//! Every path of the block then starts and ends at a register clocked by `clock`, as it would
//! inside a larger design, and no logic is optimised away (every output reaches `sout`).
//! The Fmax nextpnr reports is the block's register-to-register figure; paths through the
//! harness's own registers are one LUT deep.
//!
//! The block's synchronous `reset` (`crate::export::reset`) is held low: the figures are those
//! of the block's logic, the circuit the co-simulations check. The reset's own cost (one more
//! synchronous input on every flip-flop) is measured on the iCE40 NAND channel (`make synth`,
//! `scripts/nand_channel_pnr.v`), where a register drives it.

/// One port of an exported module: direction, width in bits, name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub input: bool,
    pub width: u32,
    pub name: String,
}

/// The name and ports of the first module of `verilog` (rust-hdl's export: one
/// `input wire [h:l] name;` / `output reg name;` declaration per line after the header and its
/// comments).
pub fn ports(verilog: &str) -> Result<(String, Vec<Port>), String> {
    let mut lines = verilog.lines();
    let module = lines
        .by_ref()
        .find_map(|l| l.strip_prefix("module "))
        .ok_or("no `module` line")?;
    let name = module
        .split(['(', ';', ' '])
        .next()
        .filter(|n| !n.is_empty())
        .ok_or("module without a name")?
        .to_string();
    let mut ports = Vec::new();
    for line in lines {
        let l = line.trim();
        if ports.is_empty() && (l.is_empty() || l.starts_with("//")) {
            continue;
        }
        let Some(port) = port_of(l)? else { break };
        ports.push(port);
    }
    if ports.is_empty() {
        return Err(format!("module {name}: no port declarations"));
    }
    Ok((name, ports))
}

/// A port declaration line, or `None` at the first line that is not one.
fn port_of(line: &str) -> Result<Option<Port>, String> {
    let mut words = line.split_whitespace();
    let input = match words.next() {
        Some("input") => true,
        Some("output") => false,
        _ => return Ok(None),
    };
    let rest: Vec<&str> = words.filter(|w| !matches!(*w, "wire" | "reg")).collect();
    let (width, name) = match rest.as_slice() {
        [name] => (1, *name),
        [range, name] => (range_width(range)?, *name),
        _ => return Err(format!("unexpected port declaration `{line}`")),
    };
    let name = name
        .strip_suffix(';')
        .ok_or_else(|| format!("port declaration without `;`: `{line}`"))?;
    Ok(Some(Port {
        input,
        width,
        name: name.to_string(),
    }))
}

/// Width of a `[h:l]` range.
fn range_width(range: &str) -> Result<u32, String> {
    let inner = range
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("bad range `{range}`"))?;
    let (h, l) = inner
        .split_once(':')
        .ok_or_else(|| format!("bad range `{range}`"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("bad range `{range}`"))
    };
    let (h, l) = (parse(h)?, parse(l)?);
    if h < l {
        return Err(format!("descending range expected, got `{range}`"));
    }
    Ok(h - l + 1)
}

/// The block's synchronous reset input, held low in the harness (module doc).
const RESET: &str = "reset";

/// The harness of module `name` with `ports` (module doc), clocked by the input `clock`:
/// module `<name>_pnr(clock, sin, load, sout)`.
pub fn harness(name: &str, ports: &[Port], clock: &str) -> Result<String, String> {
    if !ports
        .iter()
        .any(|p| p.input && p.width == 1 && p.name == clock)
    {
        return Err(format!("module {name}: no 1-bit input `{clock}`"));
    }
    let ins: Vec<&Port> = ports
        .iter()
        .filter(|p| p.input && p.name != clock && p.name != RESET)
        .collect();
    let outs: Vec<&Port> = ports.iter().filter(|p| !p.input).collect();
    if outs.is_empty() {
        return Err(format!("module {name}: no outputs"));
    }
    let in_bits: u32 = ins.iter().map(|p| p.width).sum();
    let out_bits: u32 = outs.iter().map(|p| p.width).sum();
    let mut v = String::new();
    v += &format!(
        "// Place-and-route harness of {name} (generated by `pnr-harness`, hdl/src/pnr.rs):\n\
         // its {in_bits} input bits come from a shift register loaded from `sin`, its {out_bits}\n\
         // output bits go to a register that loads them while `load` is high and shifts them\n\
         // out on `sout` otherwise, so every path starts and ends at a register.\n"
    );
    v += &format!("module {name}_pnr(\n    input wire {clock},\n    input wire sin,\n    input wire load,\n    output wire sout\n);\n");
    if in_bits > 0 {
        v += &format!("    reg [{}:0] in_sr = {in_bits}'d0;\n", in_bits - 1);
        let shift = if in_bits == 1 {
            "sin".to_string()
        } else {
            format!("{{in_sr[{}:0], sin}}", in_bits - 2)
        };
        v += &format!("    always @(posedge {clock}) in_sr <= {shift};\n");
    }
    v += &format!("    wire [{}:0] outs;\n", out_bits - 1);
    v += &format!("    reg [{}:0] out_sr = {out_bits}'d0;\n", out_bits - 1);
    let shifted = if out_bits == 1 {
        "1'b0".to_string()
    } else {
        format!("{{1'b0, out_sr[{}:1]}}", out_bits - 1)
    };
    v += &format!("    always @(posedge {clock}) out_sr <= load ? outs : {shifted};\n");
    v += "    assign sout = out_sr[0];\n";
    v += &format!("    {name} dut(\n        .{clock}({clock})");
    let (mut at_in, mut at_out) = (0u32, 0u32);
    for p in ports.iter().filter(|p| p.name != clock) {
        if p.input && p.name == RESET {
            v += &format!(",\n        .{RESET}(1'b0)");
            continue;
        }
        let at = if p.input { &mut at_in } else { &mut at_out };
        let bus = if p.input { "in_sr" } else { "outs" };
        let sel = if p.width == 1 {
            format!("{bus}[{at}]")
        } else {
            format!("{bus}[{}:{at}]", *at + p.width - 1)
        };
        *at += p.width;
        v += &format!(",\n        .{}({sel})", p.name);
    }
    v += "\n    );\nendmodule\n";
    Ok(v)
}

#[cfg(test)]
mod tests {
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
        let h = harness(&name, &ports, "clock").unwrap();
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
        assert!(harness(&name, &ports, "clk")
            .unwrap_err()
            .contains("no 1-bit input `clk`"));
        assert!(super::ports("// nothing\n")
            .unwrap_err()
            .contains("no `module`"));
        let bad = src.replace("[7:0]", "[0:7]");
        assert!(super::ports(&bad).unwrap_err().contains("descending"));
    }
}
