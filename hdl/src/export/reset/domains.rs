//! The clock domain of each register of a block with more than one clock input, for the reset
//! pass: a reset input per clock input (`clock` -> `reset`, `nand_clock` -> `nand_reset`,
//! `pcie_clock` -> `pcie_reset`), each register reset by the one of the clock it runs on.
//!
//! rust-hdl wires clocks through its combinational update blocks: a child's clock port is
//! connected to a net of its parent (`.clock(rway__clock)`) that the parent assigns from one of
//! its own clock nets (`rway__clock = nand_clock;`), possibly under an elaboration constant
//! (`nclk = clock; if (crossed) begin nclk = nand_clock; end` with `localparam crossed = 1'b1;`).
//! This module follows those plain assignments from the block's clock inputs down through every
//! instance, evaluating `if` conditions that are 1-bit localparams. It refuses, naming the
//! module, a register whose clock it cannot trace to exactly one input, a clock net assigned
//! under a condition it cannot evaluate, and a module instantiated twice on different clocks.

use super::{instance_of, is_register, Module};
use std::collections::HashMap;

/// The reset input that serves clock input `clock`.
pub fn reset_name(clock: &str) -> String {
    match clock.strip_suffix("_clock") {
        Some(domain) => format!("{domain}_reset"),
        None => "reset".to_string(),
    }
}

/// Whether an input of this name is a clock input of an exported block: `clock` or `<x>_clock`.
pub fn is_clock_name(name: &str) -> bool {
    name == "clock" || name.ends_with("_clock")
}

/// The block's clock inputs, in port order: 1-bit inputs named as [`is_clock_name`] says.
pub fn clock_inputs<'a>(top: &Module<'a>) -> Vec<&'a str> {
    top.lines
        .iter()
        .filter_map(|l| l.trim().strip_prefix("input wire  "))
        .filter_map(|n| n.strip_suffix(';'))
        .filter(|n| is_clock_name(n))
        .collect()
}

/// How an `if` frame of an update block stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// Not a condition (`always`, `initial`, a `case` branch), or a condition known true.
    Taken,
    /// A condition known false: its assignments do not happen.
    NotTaken,
    /// A condition this pass cannot evaluate.
    Unknown,
}

/// An identifier (`rway__clock`), as rust-hdl's integrable names are.
fn ident(s: &str) -> Option<&str> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')).then_some(s)
}

/// The domains of module `m`'s nets that carry a clock, from its clock ports' `bound` domains
/// and its plain assignments.
fn clock_nets<'a>(
    m: &Module<'a>,
    bound: &HashMap<&'a str, usize>,
) -> Result<HashMap<&'a str, usize>, String> {
    let mut nets = bound.clone();
    let mut consts: HashMap<&str, bool> = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    for l in &m.lines[1..] {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("localparam") {
            if let Some((name, value)) = rest.trim().trim_end_matches(';').split_once(" = ") {
                match value.trim() {
                    "1'b1" | "1'h1" => consts.insert(name.trim(), true),
                    "1'b0" | "1'h0" => consts.insert(name.trim(), false),
                    _ => None,
                };
            }
        } else if t == "end" {
            stack.pop();
        } else if t == "end else begin" {
            if let Some(f) = stack.last_mut() {
                *f = match *f {
                    Frame::Taken => Frame::NotTaken,
                    Frame::NotTaken => Frame::Taken,
                    Frame::Unknown => Frame::Unknown,
                };
            }
        } else if t.starts_with("end else if") {
            if let Some(f) = stack.last_mut() {
                *f = Frame::Unknown;
            }
        } else if t.ends_with("begin") {
            let cond = t
                .strip_prefix("if (")
                .and_then(|c| c.strip_suffix(") begin"));
            stack.push(match cond.map(|c| consts.get(c.trim())) {
                None => Frame::Taken,
                Some(Some(true)) => Frame::Taken,
                Some(Some(false)) => Frame::NotTaken,
                Some(None) => Frame::Unknown,
            });
        } else if let Some((a, b)) = t.strip_suffix(';').and_then(|s| s.split_once(" = ")) {
            let (Some(a), Some(b)) = (ident(a.trim()), ident(b.trim())) else {
                continue;
            };
            let Some(&d) = nets.get(b) else { continue };
            if stack.contains(&Frame::NotTaken) {
                continue;
            }
            if stack.contains(&Frame::Unknown) && nets.get(a).is_some_and(|&was| was != d) {
                return Err(format!(
                    "module `{}`: clock net `{a}` is assigned under a condition that is not an elaboration constant",
                    m.name
                ));
            }
            nets.insert(a, d);
        }
    }
    Ok(nets)
}

/// The children of `m` with the clock domain of each of their ports that `nets` knows.
fn children<'a>(
    m: &Module<'a>,
    nets: &HashMap<&'a str, usize>,
) -> Vec<(&'a str, HashMap<&'a str, usize>)> {
    let mut out = Vec::new();
    let mut cur: Option<(&str, HashMap<&str, usize>)> = None;
    for &l in &m.lines {
        if let Some(c) = instance_of(l) {
            cur = Some((c, HashMap::new()));
            continue;
        }
        let Some((_, ports)) = cur.as_mut() else {
            continue;
        };
        let t = l.trim();
        if t == ");" {
            out.extend(cur.take());
        } else if let Some((port, net)) = t
            .strip_prefix('.')
            .map(|s| s.trim_end_matches(','))
            .and_then(|s| s.strip_suffix(')'))
            .and_then(|s| s.split_once('('))
        {
            if let Some(&d) = nets.get(net) {
                ports.insert(port, d);
            }
        }
    }
    out
}

/// The clock each register module runs on (an index into `clocks`, the block's clock inputs),
/// tracing from the first module of `modules`, the block.
pub fn register_domains<'a>(
    modules: &[Module<'a>],
    by_name: &HashMap<&'a str, &Module<'a>>,
    clocks: &[&'a str],
) -> Result<HashMap<&'a str, usize>, String> {
    let top = &modules[0];
    let mut bound: HashMap<&str, HashMap<&str, usize>> = HashMap::new();
    let mut todo = vec![(
        top.name,
        clocks
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i))
            .collect::<HashMap<_, _>>(),
    )];
    let mut regs = HashMap::new();
    while let Some((name, ports)) = todo.pop() {
        if let Some(was) = bound.get(name) {
            if *was != ports {
                return Err(format!(
                    "module `{name}` is instantiated on two different clocks"
                ));
            }
            continue;
        }
        let m = by_name
            .get(name)
            .ok_or_else(|| format!("instance of `{name}`, which the file does not define"))?;
        let nets = clock_nets(m, &ports)?;
        if is_register(m) {
            let clk = m
                .lines
                .iter()
                .find_map(|l| {
                    l.trim()
                        .strip_prefix("always @(posedge ")
                        .and_then(|r| r.strip_suffix(") begin"))
                })
                .ok_or_else(|| format!("register `{name}`: no `always @(posedge ...)`"))?;
            let d = *ports.get(clk).ok_or_else(|| {
                format!("register `{name}`: its clock `{clk}` does not trace to a clock input of the block")
            })?;
            regs.insert(name, d);
        }
        todo.extend(children(m, &nets));
        bound.insert(name, ports);
    }
    Ok(regs)
}
