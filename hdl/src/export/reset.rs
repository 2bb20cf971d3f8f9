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
//! flags are registers). One `reset` serves a block of two clocks too (the page buffer, the
//! datapath and the NAND array with a clock crossing): a reset per clock is not built, and the
//! file's header says how that one input must be released.
//!
//! Like the names pass it is lexical (rust-hdl's output has one `module` header line per module,
//! one instance header line per child). It refuses, naming the module, a register module whose
//! power-on value it cannot find, and a block that already has a name `reset`.

use std::collections::HashMap;

/// The clocked assignment of a rust-hdl register module.
const DFF_ASSIGN: &str = "q <= d;";

/// One module of the file: its name and its lines.
struct Module<'a> {
    name: &'a str,
    lines: Vec<&'a str>,
}

/// Adds the synchronous `reset` input to `verilog` (integrable form, module doc). Returns the
/// text and whether its first module, the block, got the input (a block without registers,
/// combinational, gets none).
pub fn add_reset(verilog: &str) -> Result<(String, bool), String> {
    if verilog
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .any(|w| w == "reset")
    {
        return Err("the block already has a name `reset`".into());
    }
    let (head, modules) = split_modules(verilog)?;
    let by_name: HashMap<&str, &Module> = modules.iter().map(|m| (m.name, m)).collect();
    let mut needs: HashMap<&str, bool> = HashMap::new();
    for m in &modules {
        needs_reset(m.name, &by_name, &mut needs, 0)?;
    }
    let mut out = head.to_string();
    for m in &modules {
        if needs[m.name] {
            out += &rewrite(m, &needs)?;
        } else {
            m.lines.iter().for_each(|l| {
                out += l;
                out.push('\n');
            });
        }
    }
    Ok((out, needs[modules[0].name]))
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

/// Whether module `name` holds a register at any depth (memoised in `needs`).
fn needs_reset<'a>(
    name: &'a str,
    by_name: &HashMap<&'a str, &Module<'a>>,
    needs: &mut HashMap<&'a str, bool>,
    depth: usize,
) -> Result<bool, String> {
    if let Some(&n) = needs.get(name) {
        return Ok(n);
    }
    if depth > by_name.len() {
        return Err(format!("module `{name}` instantiates itself"));
    }
    let m = by_name
        .get(name)
        .ok_or_else(|| format!("instance of `{name}`, which the file does not define"))?;
    let mut n = is_register(m);
    for c in m.lines.iter().filter_map(|l| instance_of(l)) {
        n |= needs_reset(c, by_name, needs, depth + 1)?;
    }
    needs.insert(name, n);
    Ok(n)
}

/// Module `m` with the `reset` input, its registers' reset and its children's connections.
fn rewrite(m: &Module, needs: &HashMap<&str, bool>) -> Result<String, String> {
    let init = power_on_value(m)?;
    let mut out = String::new();
    let mut declared = false;
    for (i, &l) in m.lines.iter().enumerate() {
        if i == 0 {
            let head = l
                .strip_suffix(");")
                .ok_or_else(|| format!("module `{}`: header not on one line", m.name))?;
            out += &format!("{head},reset);\n");
            continue;
        }
        if l.trim() == DFF_ASSIGN {
            let indent = &l[..l.len() - l.trim_start().len()];
            let v = init.ok_or_else(|| format!("register `{}` has no power-on value", m.name))?;
            out += &format!("{indent}if (reset) q <= {v}; else q <= d;\n");
            continue;
        }
        out += l;
        out.push('\n');
        if l.trim() == "// Module arguments" {
            out += "    input wire  reset;\n";
            declared = true;
        }
        if instance_of(l).is_some_and(|c| needs.get(c) == Some(&true)) {
            out += "        .reset(reset),\n";
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
