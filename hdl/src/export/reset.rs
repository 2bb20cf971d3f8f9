//! The reset pass of `make verilog` (docs/hdl.md, "Integrable Verilog"): gives an exported block
//! an explicit synchronous reset, active high, as FPGA and ASIC flows expect of a block they
//! integrate. rust-hdl's registers have none: each is a module of its own (`q <= d` at the clock
//! edge, its power-on value in an `initial` block), which simulation and FPGA configuration load
//! but a reset network cannot. This pass, on the integrable text of [`super::names`]:
//!
//! - in every register module, makes the clocked assignment `if (reset) q <= INIT; else q <= d;`
//!   with `INIT` the value of its `initial` block, so a reset puts it back in its power-on state;
//! - adds an input `reset` to every module that holds such a register, at any depth, and
//!   connects it to its parent's `reset` in each instance (`.reset(reset)`).
//!
//! Memories (rust-hdl `RAM`: a clocked write and a clocked read register) keep their contents
//! and their read register through a reset, as block RAM does; no exported block reads a
//! memory word it has not written since power-on to decide anything (the FIFOs' pointers and
//! flags are registers).
//!
//! A block with more than one clock input (the page buffer, the datapath and the NAND array with
//! a clock crossing) gets a reset per clock input whose registers it holds, synchronous to that
//! clock: `reset` for `clock`, `nand_reset` for `nand_clock`, `pcie_reset` for `pcie_clock`
//! ([`domains`] traces each register's clock to an input). A module holding registers of both
//! clocks at some depth gets both inputs.
//!
//! Like the names pass it is lexical (rust-hdl's output has one `module` header line per module,
//! one instance header line per child). It refuses, naming the module, a register module whose
//! power-on value it cannot find, a register whose clock it cannot trace, and a block that
//! already has a name it would add.

mod domains;

pub use domains::{is_clock_name, reset_name};
use std::collections::{BTreeSet, HashMap};

/// The clocked assignment of a rust-hdl register module.
const DFF_ASSIGN: &str = "q <= d;";

/// One module of the file: its name and its lines.
struct Module<'a> {
    name: &'a str,
    lines: Vec<&'a str>,
}

/// Adds the synchronous reset input(s) to `verilog` (integrable form, module doc). Returns the
/// text and the reset inputs its first module, the block, got, each with the clock input it is
/// synchronous to (none for a block without registers, combinational).
pub fn add_reset(verilog: &str) -> Result<(String, Vec<(String, String)>), String> {
    let (head, modules) = split_modules(verilog)?;
    let clocks = domains::clock_inputs(&modules[0]);
    let resets: Vec<String> = if clocks.len() > 1 {
        clocks.iter().map(|c| reset_name(c)).collect()
    } else {
        vec![reset_name("clock")]
    };
    let taken = |name: &str| {
        verilog
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .any(|w| w == name)
    };
    if let Some(r) = resets.iter().find(|r| taken(r)) {
        return Err(format!("the block already has a name `{r}`"));
    }
    let by_name: HashMap<&str, &Module> = modules.iter().map(|m| (m.name, m)).collect();
    let regs = if clocks.len() > 1 {
        domains::register_domains(&modules, &by_name, &clocks)?
    } else {
        HashMap::new()
    };
    let mut needs: HashMap<&str, BTreeSet<usize>> = HashMap::new();
    for m in &modules {
        needs_reset(m.name, &by_name, &regs, &mut needs, 0)?;
    }
    let mut out = head.to_string();
    for m in &modules {
        if needs[m.name].is_empty() {
            m.lines.iter().for_each(|l| {
                out += l;
                out.push('\n');
            });
        } else {
            out += &rewrite(m, &needs, &regs, &resets)?;
        }
    }
    let top: Vec<(String, String)> = needs[modules[0].name]
        .iter()
        .map(|&d| {
            let clock = clocks.get(d).copied().unwrap_or("clock");
            (clock.to_string(), resets[d].clone())
        })
        .collect();
    Ok((out, top))
}

/// The text before the first module, and the modules (each with the blank lines after it).
fn split_modules(v: &str) -> Result<(&str, Vec<Module<'_>>), String> {
    let first = v.find("\nmodule ").map(|i| i + 1).ok_or("no module")?;
    let mut modules: Vec<Module> = vec![];
    let mut cur: Option<Module> = None;
    for line in v[first..].split_inclusive('\n') {
        let l = line.trim_end_matches('\n');
        if let Some(rest) = l.strip_prefix("module ") {
            let name = rest.split('(').next().unwrap_or("");
            cur = Some(Module {
                name,
                lines: vec![],
            });
        }
        match (cur.as_mut(), modules.last_mut()) {
            (Some(m), _) => m.lines.push(l),
            // Blank lines between modules stay with the module before them.
            (None, Some(m)) if l.trim().is_empty() => m.lines.push(l),
            _ => return Err(format!("text between modules: `{l}`")),
        }
        if l.starts_with("endmodule") {
            modules.push(cur.take().ok_or("`endmodule` without `module`")?);
        }
    }
    if let Some(m) = cur {
        return Err(format!("module `{}` has no `endmodule`", m.name));
    }
    Ok((&v[..first], modules))
}

/// The module an instance header line instantiates (`    ssdlab_x__y y(`).
fn instance_of(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("    ")?;
    let (module, inst) = rest.split_once(' ')?;
    (module.starts_with("ssdlab_") && inst.ends_with('(') && !inst.contains(' ')).then_some(module)
}

/// Whether `m` is a register module.
fn is_register(m: &Module) -> bool {
    m.lines.iter().any(|l| l.trim() == DFF_ASSIGN)
}

/// The clock domains of the registers module `name` holds at any depth (memoised in `needs`);
/// `regs` gives a register's domain (absent: the block's one clock, domain 0).
fn needs_reset<'a>(
    name: &'a str,
    by_name: &HashMap<&'a str, &Module<'a>>,
    regs: &HashMap<&'a str, usize>,
    needs: &mut HashMap<&'a str, BTreeSet<usize>>,
    depth: usize,
) -> Result<BTreeSet<usize>, String> {
    if let Some(n) = needs.get(name) {
        return Ok(n.clone());
    }
    if depth > by_name.len() {
        return Err(format!("module `{name}` instantiates itself"));
    }
    let m = by_name
        .get(name)
        .ok_or_else(|| format!("instance of `{name}`, which the file does not define"))?;
    let mut n = BTreeSet::new();
    if is_register(m) {
        n.insert(regs.get(name).copied().unwrap_or(0));
    }
    for c in m.lines.iter().filter_map(|l| instance_of(l)) {
        n.extend(needs_reset(c, by_name, regs, needs, depth + 1)?);
    }
    needs.insert(name, n.clone());
    Ok(n)
}

/// Module `m` with its reset inputs (`resets[d]` for each domain d it holds registers of), its
/// registers' reset and its children's connections.
fn rewrite(
    m: &Module,
    needs: &HashMap<&str, BTreeSet<usize>>,
    regs: &HashMap<&str, usize>,
    resets: &[String],
) -> Result<String, String> {
    let init = power_on_value(m)?;
    let mine: Vec<&str> = needs[m.name].iter().map(|&d| resets[d].as_str()).collect();
    let mut out = String::new();
    let mut declared = false;
    for (i, &l) in m.lines.iter().enumerate() {
        if i == 0 {
            let head = l
                .strip_suffix(");")
                .ok_or_else(|| format!("module `{}`: header not on one line", m.name))?;
            out += &format!("{head},{});\n", mine.join(","));
            continue;
        }
        if l.trim() == DFF_ASSIGN {
            let indent = &l[..l.len() - l.trim_start().len()];
            let v = init.ok_or_else(|| format!("register `{}` has no power-on value", m.name))?;
            let r = &resets[regs.get(m.name).copied().unwrap_or(0)];
            out += &format!("{indent}if ({r}) q <= {v}; else q <= d;\n");
            continue;
        }
        out += l;
        out.push('\n');
        if l.trim() == "// Module arguments" {
            for r in &mine {
                out += &format!("    input wire  {r};\n");
            }
            declared = true;
        }
        if let Some(c) = instance_of(l) {
            for &d in needs.get(c).into_iter().flatten() {
                out += &format!("        .{0}({0}),\n", resets[d]);
            }
        }
    }
    if !declared {
        return Err(format!(
            "module `{}`: no `// Module arguments` section",
            m.name
        ));
    }
    Ok(out)
}

/// The value of `q = VALUE;` in the module's `initial` block, if it has one.
fn power_on_value<'a>(m: &Module<'a>) -> Result<Option<&'a str>, String> {
    let Some(at) = m.lines.iter().position(|l| l.trim() == "initial begin") else {
        return Ok(None);
    };
    let value = m
        .lines
        .get(at + 1)
        .and_then(|l| l.trim().strip_prefix("q = "))
        .and_then(|l| l.strip_suffix(';'));
    match value {
        Some(v) => Ok(Some(v)),
        None if is_register(m) => Err(format!(
            "register `{}`: its `initial` block does not set `q`",
            m.name
        )),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests;
