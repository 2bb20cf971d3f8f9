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
//! The block's synchronous `reset` (`crate::export::reset`; and `nand_reset` of a block with
//! two clocks) is held low: the figures are those
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

/// Whether `p` is one of the block's synchronous reset inputs (`reset`, and `nand_reset` or
/// `pcie_reset` of a block with two clocks: `export::reset`), held low in the harness.
/// The reset pass names them after the block's clock inputs (`export::reset::reset_name`).
fn is_reset(p: &Port, ports: &[Port]) -> bool {
    use crate::export::reset::{is_clock_name, reset_name};
    p.input
        && p.width == 1
        && ports.iter().any(|c| {
            c.input && c.width == 1 && is_clock_name(&c.name) && reset_name(&c.name) == p.name
        })
}

/// A block's second clock input and the ports that belong to its domain.
#[derive(Clone, Copy, Debug)]
pub struct SecondClock {
    /// The clock input's name (`nand_clock`).
    pub clock: &'static str,
    /// Ports on that clock, by name: a port is on it when its name is one of these, or one of
    /// these followed by `_<index>` (the per-channel copies, `start_fill_3`), or starts with one
    /// that ends in `_` (`phy_` for the PHY bundles, `phy_0_ce`).
    pub ports: &'static [&'static str],
}

impl SecondClock {
    fn owns(&self, port: &str) -> bool {
        self.ports.iter().any(|p| {
            port == *p
                || (p.ends_with('_') && port.starts_with(p))
                || port
                    .strip_prefix(p)
                    .and_then(|r| r.strip_prefix('_'))
                    .is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()))
        })
    }
}

/// Second clocks of the two-clock blocks, by module name: the NAND side of the page buffer and
/// of the datapath (their `nand_clock` ports, listed beside each block).
pub fn second_clock(module: &str) -> Option<SecondClock> {
    match module {
        "ssdlab_page_buffer" => Some(SecondClock {
            clock: "nand_clock",
            ports: crate::top::page_buffer::NAND_CLOCK_PORTS,
        }),
        "ssdlab_datapath" => Some(SecondClock {
            clock: "nand_clock",
            ports: crate::top::DATAPATH_NAND_CLOCK_PORTS,
        }),
        _ => None,
    }
}

/// Clock inputs a block may have beside `clock` (the exports' two-clock blocks).
const OTHER_CLOCKS: [&str; 2] = ["nand_clock", "pcie_clock"];

/// What a block's second clock input carries, as its `// Clock:` header line says
/// (`export::clock_line`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondClockUse {
    /// A clock of its own (the sequencers off 250 MHz): the harness gives it a pin.
    Own,
    /// The same clock as `clock` (both at 250 MHz, [`crate::export::SECOND_CLOCK_SHARED`]):
    /// wired to `clock`.
    FromClock,
    /// Unused ([`crate::export::SECOND_CLOCK_UNUSED`]): tied low. Also a block with one clock.
    Unused,
}

/// The use of the second clock by the header of a block's Verilog `text`.
pub fn second_clock_use(text: &str) -> SecondClockUse {
    let line = text
        .lines()
        .find(|l| l.starts_with("// Clock:"))
        .unwrap_or("");
    let second = OTHER_CLOCKS
        .iter()
        .any(|c| line.contains(&format!("`{c}`")));
    if !second || line.contains(crate::export::SECOND_CLOCK_UNUSED) {
        SecondClockUse::Unused
    } else if line.contains(crate::export::SECOND_CLOCK_SHARED) {
        SecondClockUse::FromClock
    } else {
        SecondClockUse::Own
    }
}

/// A generated harness: its Verilog and its register bits (inputs, outputs).
#[derive(Clone, Debug)]
pub struct Harness {
    pub verilog: String,
    pub in_bits: u32,
    pub out_bits: u32,
}

/// The harness of module `name` with `ports` (module doc), clocked by the input `clock`:
/// module `<name>_pnr(clock, sin, load, sout)`. A block whose second clock is its own
/// ([`SecondClockUse::Own`], the ports on it listed by [`second_clock`]) gets two more pins,
/// that clock and `<clock>_sout`: its ports are on register chains of their own, clocked by it,
/// loaded from the same `sin` and `load`.
pub fn harness(
    name: &str,
    ports: &[Port],
    clock: &str,
    second_use: SecondClockUse,
) -> Result<Harness, String> {
    let is_clock = |c: &str| ports.iter().any(|p| p.input && p.width == 1 && p.name == c);
    if !is_clock(clock) {
        return Err(format!("module {name}: no 1-bit input `{clock}`"));
    }
    let other = OTHER_CLOCKS.iter().copied().find(|c| is_clock(c));
    let second = match (other, second_use) {
        (Some(_), SecondClockUse::Own) => Some(second_clock(name).ok_or_else(|| {
            format!(
                "module {name}: a second clock of its own without a list of its ports (pnr::harness::second_clock)"
            )
        })?),
        _ => None,
    };
    if let Some(s) = second {
        if !is_clock(s.clock) {
            return Err(format!("module {name}: no 1-bit input `{}`", s.clock));
        }
    }
    let tied = match (other, second_use) {
        (Some(c), SecondClockUse::FromClock) => Some((c, clock.to_string())),
        (Some(c), SecondClockUse::Unused) => Some((c, "1'b0".to_string())),
        _ => None,
    };
    let clocks: Vec<&str> = std::iter::once(clock).chain(other).collect();
    let data: Vec<&Port> = ports
        .iter()
        .filter(|p| !clocks.contains(&p.name.as_str()) && !is_reset(p, ports))
        .collect();
    let (on2, on1): (Vec<&Port>, Vec<&Port>) = data
        .into_iter()
        .partition(|p| second.is_some_and(|s| s.owns(&p.name)));
    if on1.iter().all(|p| p.input) {
        return Err(format!("module {name}: no outputs"));
    }
    let chains = [(clock, "", on1)]
        .into_iter()
        .chain(second.map(|s| (s.clock, "2", on2)))
        .collect::<Vec<_>>();
    let bits = |ps: &[&Port], input: bool| -> u32 {
        ps.iter()
            .filter(|p| p.input == input)
            .map(|p| p.width)
            .sum()
    };
    let (in_bits, out_bits): (u32, u32) = chains
        .iter()
        .map(|c| (bits(&c.2, true), bits(&c.2, false)))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let mut v = format!(
        "// Place-and-route harness of {name} (generated by `pnr-harness`, hdl/src/pnr.rs):\n\
         // its {in_bits} input bits come from a shift register loaded from `sin`, its {out_bits}\n\
         // output bits go to a register that loads them while `load` is high and shifts them\n\
         // out on `sout` otherwise, so every path starts and ends at a register.\n"
    );
    let mut pins = format!("    input wire {clock},\n");
    if let Some(s) = second {
        v += &format!(
            "// The ports on `{0}` have chains of their own on `{0}`, shifted out on `{0}_sout`.\n",
            s.clock
        );
        pins += &format!("    input wire {},\n", s.clock);
    }
    pins += "    input wire sin,\n    input wire load,\n    output wire sout";
    if let Some(s) = second {
        pins += &format!(",\n    output wire {}_sout", s.clock);
    }
    v += &format!("module {name}_pnr(\n{pins}\n);\n");
    let mut wiring = String::new();
    for (clk, tag, ps) in &chains {
        let sout = if tag.is_empty() {
            "sout".to_string()
        } else {
            format!("{clk}_sout")
        };
        v += &chain(clk, tag, &sout, ps, &mut wiring);
    }
    v += &format!("    {name} dut(\n        .{clock}({clock})");
    if let Some(s) = second {
        v += &format!(",\n        .{0}({0})", s.clock);
    }
    if let Some((c, to)) = &tied {
        v += &format!(",\n        .{c}({to})");
    }
    for r in ports.iter().filter(|p| is_reset(p, ports)) {
        v += &format!(",\n        .{}(1'b0)", r.name);
    }
    v += &wiring;
    v += "\n    );\nendmodule\n";
    Ok(Harness {
        verilog: v,
        in_bits,
        out_bits,
    })
}

/// The input and output registers of the ports `ps` on clock `clk` (names suffixed `tag`), with
/// the output shifted out on `sout`; the ports' connections are appended to `wiring`.
fn chain(clk: &str, tag: &str, sout: &str, ps: &[&Port], wiring: &mut String) -> String {
    let (ins, outs): (Vec<&&Port>, Vec<&&Port>) = ps.iter().partition(|p| p.input);
    let in_bits: u32 = ins.iter().map(|p| p.width).sum();
    let out_bits: u32 = outs.iter().map(|p| p.width).sum();
    let (isr, osr, ow) = (
        format!("in_sr{tag}"),
        format!("out_sr{tag}"),
        format!("outs{tag}"),
    );
    let mut v = String::new();
    if in_bits > 0 {
        v += &format!("    reg [{}:0] {isr} = {in_bits}'d0;\n", in_bits - 1);
        let shift = if in_bits == 1 {
            "sin".to_string()
        } else {
            format!("{{{isr}[{}:0], sin}}", in_bits - 2)
        };
        v += &format!("    always @(posedge {clk}) {isr} <= {shift};\n");
    }
    if out_bits > 0 {
        v += &format!("    wire [{}:0] {ow};\n", out_bits - 1);
        v += &format!("    reg [{}:0] {osr} = {out_bits}'d0;\n", out_bits - 1);
        let shifted = if out_bits == 1 {
            "1'b0".to_string()
        } else {
            format!("{{1'b0, {osr}[{}:1]}}", out_bits - 1)
        };
        v += &format!("    always @(posedge {clk}) {osr} <= load ? {ow} : {shifted};\n");
        v += &format!("    assign {sout} = {osr}[0];\n");
    } else {
        v += &format!("    assign {sout} = 1'b0;\n");
    }
    let (mut at_in, mut at_out) = (0u32, 0u32);
    for p in ps {
        let at = if p.input { &mut at_in } else { &mut at_out };
        let bus = if p.input { &isr } else { &ow };
        let sel = if p.width == 1 {
            format!("{bus}[{at}]")
        } else {
            format!("{bus}[{}:{at}]", *at + p.width - 1)
        };
        *at += p.width;
        *wiring += &format!(",\n        .{}({sel})", p.name);
    }
    v
}

#[cfg(test)]
mod tests;
