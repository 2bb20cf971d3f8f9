//! Guard of `vr_run`'s fast-forward ([`super::shim`]): finds the memory reads of a generated
//! Verilog design that would make skipping a quiescent stretch inexact.
//!
//! The fast-forward compares only the non-memory state; it is exact because every memory of
//! rust_hdl's RAM widgets (`rust-hdl-widgets` 0.46 `ramrom/ram.rs`, `sync_rom.rs`) is read
//! synchronously into a plain register — `always @(posedge read_clock) read_data <=
//! mem[read_address];` — so memory contents reach the compared state only through registers,
//! and memory writes depend on registers and inputs only. A read anywhere else (`assign d =
//! mem[a];`, a read in `always @(*)`, a memory read in a condition or feeding another memory
//! write) breaks that argument. [`async_memory_reads`] lists every such read.
//!
//! Memories are the `reg [W:0] name [D:0];` declarations of each module (rust_hdl writes
//! `reg[31:0] mem[511:0];`); writes are statements starting `name[...] <=` / `=`. A read
//! passes only as a line `register <= ...name[...]...;` in an edge-triggered `always` block
//! (every sensitivity item `posedge`/`negedge`), or anywhere in an `initial` block (run once
//! at time 0: rust_hdl's memory initialisers). The scan is line based and conservative: a
//! form it does not recognise (e.g. `if (en) q <= mem[a];` on one line) is reported, never
//! passed.

use std::fmt;

/// A memory read that the fast-forward cannot account for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsyncMemRead {
    /// The Verilog module (rust_hdl's hierarchical name, e.g. `top$map$data_ram$0`).
    pub module: String,
    pub memory: String,
    /// 1-based line of the generated Verilog.
    pub line: usize,
    /// The line's text, trimmed.
    pub text: String,
    pub why: &'static str,
}

impl fmt::Display for AsyncMemRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "module `{}` reads memory `{}` {} (line {} of the generated Verilog: `{}`)",
            self.module, self.memory, self.why, self.line, self.text
        )
    }
}

/// The kind of code a token is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// Module level: continuous assignments, instance connections.
    Module,
    /// `always` with an all-edge sensitivity list.
    Edge,
    /// Any other `always` (`@*`, `@(*)`, level lists).
    Comb,
    Initial,
}

/// Scanner state carried from line to line.
struct Scan {
    module: String,
    mems: Vec<String>,
    ctx: Ctx,
    /// begin/case/fork nesting inside the current process.
    depth: u32,
    in_comment: bool,
    found: Vec<AsyncMemRead>,
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Identifiers (with rust_hdl's `$`) and single punctuation bytes of `s`, with byte offsets;
/// numbers like `8'hff` come out as pieces, which no rule looks at.
fn tokens(s: &str) -> Vec<(usize, &str)> {
    let b = s.as_bytes();
    let (mut v, mut i) = (Vec::new(), 0);
    while i < b.len() {
        let start = i;
        if ident_char(b[i]) {
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
        } else if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        } else {
            i += 1;
        }
        v.push((start, &s[start..i]));
    }
    v
}

/// `s` without comments and string literals (`in_comment`: inside a `/* */` across lines).
fn strip(s: &str, in_comment: &mut bool) -> String {
    let b = s.as_bytes();
    let (mut out, mut i) = (String::with_capacity(s.len()), 0);
    while i < b.len() {
        if *in_comment {
            if b[i..].starts_with(b"*/") {
                *in_comment = false;
                i += 2;
            } else {
                i += 1;
            }
            out.push(' ');
        } else if b[i..].starts_with(b"/*") {
            *in_comment = true;
            i += 2;
        } else if b[i..].starts_with(b"//") {
            break;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Index just past the bracket group opening at `open` (`s[open] == '['`), or `s.len()`.
fn close_bracket(s: &str, open: usize) -> usize {
    let mut depth = 0u32;
    for (i, c) in s.bytes().enumerate().skip(open) {
        match c {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// The rest of `s` from `i` without leading spaces.
fn after(s: &str, i: usize) -> &str {
    s[i.min(s.len())..].trim_start()
}

/// An edge-only sensitivity list: the text after `always` is `@(posedge a or negedge b)`.
fn edge_sensitivity(rest: &str) -> bool {
    let Some(list) = rest
        .trim_start()
        .strip_prefix('@')
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('('))
    else {
        return false;
    };
    let list = &list[..list.find(')').unwrap_or(list.len())];
    let items: Vec<&str> = list
        .split(',')
        .flat_map(|x| x.split(" or "))
        .map(str::trim)
        .collect();
    !items.is_empty()
        && items
            .iter()
            .all(|x| x.starts_with("posedge ") || x.starts_with("negedge "))
}

/// The memories declared by a `reg` at byte `i` of `s` (after the keyword): `reg [7:0] a [3:0], b;`.
fn declared_memories(s: &str, mut i: usize) -> Vec<String> {
    let mut v = Vec::new();
    if after(s, i).starts_with("signed") {
        i = s.len() - after(s, i).len() + "signed".len();
    }
    if after(s, i).starts_with('[') {
        i = close_bracket(s, s.len() - after(s, i).len());
    }
    loop {
        let r = after(s, i);
        let n = r.bytes().take_while(|&c| ident_char(c)).count();
        if n == 0 {
            return v;
        }
        let (name, rest) = (&r[..n], after(r, n));
        if rest.starts_with('[') {
            v.push(name.to_string());
        }
        let next = rest.find([',', ';']).unwrap_or(rest.len());
        if !rest[next..].starts_with(',') {
            return v;
        }
        i = s.len() - rest.len() + next + 1;
    }
}

impl Scan {
    fn end_process(&mut self) {
        self.ctx = Ctx::Module;
        self.depth = 0;
    }

    /// Classifies the use of memory `m` at byte `p` (its `[` at `open`) of line `s`.
    fn memory_use(&mut self, s: &str, p: usize, open: usize, m: &str, line: usize) {
        let t = s.trim_start();
        let at_start = s.len() - t.len() == p;
        let rhs = after(s, close_bracket(s, open));
        if at_start && (rhs.starts_with("<=") || (rhs.starts_with('=') && !rhs.starts_with("=="))) {
            return; // a write of m; its right-hand side is scanned as further tokens
        }
        let first: String = t
            .bytes()
            .take_while(|&c| ident_char(c))
            .map(char::from)
            .collect();
        let why = match self.ctx {
            Ctx::Initial => return,
            Ctx::Module => "outside any always block (continuous assignment or connection): an asynchronous read",
            Ctx::Comb => "in a combinational always block: an asynchronous read",
            Ctx::Edge if self.mems.contains(&first) => "into another memory's write",
            Ctx::Edge => {
                let lhs = after(t, first.len());
                let loads = !first.is_empty() && lhs.starts_with("<=") && p > s.len() - lhs.len();
                if loads {
                    return;
                }
                "other than as `register <= ...;` in a clocked always block (condition, address or blocking use)"
            }
        };
        self.found.push(AsyncMemRead {
            module: self.module.clone(),
            memory: m.to_string(),
            line,
            text: t.trim_end().to_string(),
            why,
        });
    }

    fn line(&mut self, raw: &str, line: usize) {
        let s = strip(raw, &mut self.in_comment);
        let toks = tokens(&s);
        let mut k = 0;
        while k < toks.len() {
            let (p, w) = toks[k];
            let in_proc = self.ctx != Ctx::Module;
            match w {
                "module" => {
                    self.module = toks.get(k + 1).map_or("?", |t| t.1).to_string();
                    self.mems.clear();
                    self.end_process();
                }
                "endmodule" => self.end_process(),
                "always" => {
                    self.ctx = if edge_sensitivity(&s[p + w.len()..]) {
                        Ctx::Edge
                    } else {
                        Ctx::Comb
                    };
                    self.depth = 0;
                    // Skip the sensitivity list (its `*` and names are no statement).
                    if toks.get(k + 1).is_some_and(|t| t.1 == "@")
                        && toks.get(k + 2).is_some_and(|t| t.1 == "(")
                    {
                        k += 3;
                        while k < toks.len() && toks[k].1 != ")" {
                            k += 1;
                        }
                    } else if toks.get(k + 1).is_some_and(|t| t.1 == "@") {
                        k += 2;
                    }
                }
                "initial" => {
                    self.ctx = Ctx::Initial;
                    self.depth = 0;
                }
                "reg" if !in_proc => {
                    self.mems.extend(declared_memories(&s, p + w.len()));
                    while k + 1 < toks.len() && toks[k].1 != ";" {
                        k += 1; // the declaration's names are no use
                    }
                }
                "begin" | "case" | "casez" | "casex" | "fork" if in_proc => self.depth += 1,
                "end" | "endcase" | "join" if in_proc => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.end_process();
                    }
                }
                ";" if in_proc && self.depth == 0 => self.end_process(),
                _ => {
                    let open = s.len() - after(&s, p + w.len()).len();
                    if s[open..].starts_with('[') && self.mems.iter().any(|m| m == w) {
                        self.memory_use(&s, p, open, w, line);
                    }
                }
            }
            k += 1;
        }
    }
}

/// Every memory read of `verilog` that is not a synchronous register load (see the module doc),
/// in file order; empty when the fast-forward is exact.
pub fn async_memory_reads(verilog: &str) -> Vec<AsyncMemRead> {
    let mut sc = Scan {
        module: String::new(),
        mems: Vec::new(),
        ctx: Ctx::Module,
        depth: 0,
        in_comment: false,
        found: Vec::new(),
    };
    for (i, l) in verilog.lines().enumerate() {
        sc.line(l, i + 1);
    }
    sc.found
}

#[cfg(test)]
mod tests;
