//! The renaming pass from rust-hdl's Verilog to integrable Verilog (docs/hdl.md, "Integrable
//! Verilog"). rust-hdl names every generated top module `top`, its children `top$path$to$child`,
//! and signals after their Rust paths (`phy$0$ce`, `active$d`, `CplState$Idle`): legal Verilog,
//! but every file defines `module top`, so two files cannot be compiled together, and `$` in a
//! name needs escaping in Tcl constraints and most vendor tools. This pass rewrites, per file:
//!
//! - module names: `top` -> `ssdlab_<block>`, `top$a$b` -> `ssdlab_<block>__a__b` (in `module`
//!   declarations, instantiations and the `endmodule // top` comments);
//! - the ports of each module: each `$` -> `_` (`phy$0$ce` -> `phy_0_ce`), in its body and
//!   where an instance connects them (`.phy$0$ce(...)`);
//! - every other identifier: each `$` -> `__` (`map$req_valid`, the `req_valid` port of child
//!   `map`, becomes `map__req_valid`, apart from the parent's own port `map_req_valid`).
//!
//! System tasks (`$display`), numbers (`64'ha`), strings and escaped identifiers are left as
//! they are. The pass refuses (an error naming both) when two different names would become one:
//! two modules of the file, or two identifiers in one module (`active$d` beside `active_d`).
//! It is lexical: rust-hdl's output has no macros, `include`s or generate blocks.

use std::collections::{BTreeSet, HashMap};

/// One lexical piece of the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `[A-Za-z_][A-Za-z0-9_$]*`.
    Ident,
    /// `//` or `/* */` comment.
    Comment,
    /// Whitespace.
    Space,
    /// Anything else kept verbatim: punctuation, numbers, strings, system tasks, escaped names.
    Other,
}

/// Splits `src` into tokens covering it exactly.
fn lex(src: &str) -> Vec<(Kind, &str)> {
    let b = src.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            Kind::Ident
        } else if src[i..].starts_with("//") {
            i += src[i..].find('\n').unwrap_or(b.len() - i);
            Kind::Comment
        } else if src[i..].starts_with("/*") {
            i += src[i..].find("*/").map_or(b.len() - i, |e| e + 2);
            Kind::Comment
        } else if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            Kind::Space
        } else {
            i += other_len(&src[i..]);
            Kind::Other
        };
        out.push((kind, &src[start..i]));
    }
    out
}

/// Length of the verbatim token at the start of `s` (not an identifier, comment or space).
fn other_len(s: &str) -> usize {
    let b = s.as_bytes();
    let run = |from: usize, ok: &dyn Fn(u8) -> bool| {
        from + b[from..].iter().take_while(|&&c| ok(c)).count()
    };
    match b[0] {
        // System task or function: `$` and its name.
        b'$' => run(1, &|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$'),
        // Escaped identifier: up to the next whitespace.
        b'\\' => run(1, &|c| !c.is_ascii_whitespace()),
        b'"' => s[1..].find('"').map_or(b.len(), |e| e + 2),
        // Size and based value (`11'b100`, `64'ha`, `'h0`): digits, then the base and its digits.
        b'0'..=b'9' | b'\'' => {
            let n = run(0, &|c| c.is_ascii_digit() || c == b'_');
            if b.get(n) == Some(&b'\'') {
                run(n + 1, &|c| {
                    c.is_ascii_alphanumeric() || c == b'_' || c == b'?'
                })
            } else {
                n.max(1)
            }
        }
        _ => s.chars().next().map_or(1, char::len_utf8),
    }
}

/// The integrable name of rust-hdl module `name` in the file of `block`.
pub fn module_name(block: &str, name: &str) -> String {
    match name.strip_prefix("top") {
        Some("") => format!("ssdlab_{block}"),
        Some(rest) if rest.starts_with('$') => format!("ssdlab_{block}{}", rest.replace('$', "__")),
        _ => format!("ssdlab_{block}__{}", name.replace('$', "__")),
    }
}

/// The integrable name of a port: each `$` becomes `_`.
pub fn port_name(name: &str) -> String {
    name.replace('$', "_")
}

/// The integrable name of an internal signal, instance or constant: each `$` becomes `__`.
pub fn signal_name(name: &str) -> String {
    name.replace('$', "__")
}

/// The identifiers of the port list that starts after token `i` (`module NAME(a,b,c);`).
fn port_list<'a>(toks: &[(Kind, &'a str)], i: usize) -> BTreeSet<&'a str> {
    let mut ports = BTreeSet::new();
    for &(k, t) in toks.iter().skip(i + 1) {
        match (k, t) {
            (Kind::Ident, _) => {
                ports.insert(t);
            }
            (_, ")") | (_, ";") => break,
            _ => {}
        }
    }
    ports
}

/// Index of the next token after `i` that is not space or comment.
fn next_code(toks: &[(Kind, &str)], i: usize) -> Option<usize> {
    (i + 1..toks.len()).find(|&j| !matches!(toks[j].0, Kind::Space | Kind::Comment))
}

/// Index of the previous token before `i` that is not space or comment.
fn prev_code(toks: &[(Kind, &str)], i: usize) -> Option<usize> {
    (0..i)
        .rev()
        .find(|&j| !matches!(toks[j].0, Kind::Space | Kind::Comment))
}

/// Is identifier token `i` a module name where it stands: after `module`, or the head of an
/// instantiation (`name instance (`)?
fn is_module_position(toks: &[(Kind, &str)], modules: &BTreeSet<&str>, i: usize) -> bool {
    if prev_code(toks, i).is_some_and(|p| toks[p].1 == "module") {
        return true;
    }
    if !modules.contains(toks[i].1) {
        return false;
    }
    let Some(inst) = next_code(toks, i).filter(|&j| toks[j].0 == Kind::Ident) else {
        return false;
    };
    next_code(toks, inst).is_some_and(|j| toks[j].1 == "(")
}

/// Records `old -> new` in `seen`; an error when another name already became `new`.
fn claim(
    seen: &mut HashMap<String, String>,
    old: &str,
    new: String,
    scope: &str,
) -> Result<String, String> {
    match seen.get(&new) {
        Some(prev) if prev != old => Err(format!(
            "renaming collision in {scope}: `{prev}` and `{old}` would both become `{new}`"
        )),
        _ => {
            seen.insert(new.clone(), old.to_string());
            Ok(new)
        }
    }
}

/// Rewrites the words of a comment: module names as modules, other names without `$`.
fn rename_comment(text: &str, block: &str, modules: &BTreeSet<&str>) -> String {
    let (open, body) = text.split_at(2);
    let words = lex(body).into_iter().map(|(k, t)| match k {
        Kind::Ident if modules.contains(t) => module_name(block, t),
        Kind::Ident => signal_name(t),
        _ => t.to_string(),
    });
    std::iter::once(open.to_string()).chain(words).collect()
}

/// The integrable form of `verilog`, one exported file of `block` (its file stem): see the module
/// doc. Errors name the two names that would collide.
pub fn integrable(block: &str, verilog: &str) -> Result<String, String> {
    let toks = lex(verilog);
    let modules: BTreeSet<&str> = (0..toks.len())
        .filter(|&i| toks[i].0 == Kind::Ident)
        .filter(|&i| prev_code(&toks, i).is_some_and(|p| toks[p].1 == "module"))
        .map(|i| toks[i].1)
        .collect();
    let mut module_names = HashMap::new();
    for m in &modules {
        claim(&mut module_names, m, module_name(block, m), "module names")?;
    }
    let (mut out, mut scope, mut seen) = (String::new(), String::from("(file)"), HashMap::new());
    let mut ports = BTreeSet::new();
    for (i, &(kind, text)) in toks.iter().enumerate() {
        match kind {
            Kind::Ident if is_module_position(&toks, &modules, i) => {
                if prev_code(&toks, i).is_some_and(|p| toks[p].1 == "module") {
                    (scope, seen) = (format!("module `{text}`"), HashMap::new());
                    ports = port_list(&toks, i);
                }
                out.push_str(&module_name(block, text));
            }
            // `.port(` of an instance: the child's port, checked in the child's scope.
            Kind::Ident if prev_code(&toks, i).is_some_and(|p| toks[p].1 == ".") => {
                out.push_str(&port_name(text))
            }
            Kind::Ident if ports.contains(text) => {
                out.push_str(&claim(&mut seen, text, port_name(text), &scope)?)
            }
            Kind::Ident => out.push_str(&claim(&mut seen, text, signal_name(text), &scope)?),
            Kind::Comment => out.push_str(&rename_comment(text, block, &modules)),
            _ => out.push_str(text),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
