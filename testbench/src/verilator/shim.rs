//! The C++ shim of a Verilated block, generated from its port list: the per-port
//! `vr_set`/`vr_get` switch (generic API), and the packed interface the cycle benches use — all
//! inputs in one word array, all outputs in another ([`layout`]), one `vr_io` call per cycle
//! (optional rising edge, new inputs, settle, outputs) and `vr_run`, which keeps clocking with
//! constant inputs inside C++ until a watched output is set or changes or a cycle budget ends.
//!
//! `vr_run` also fast-forwards a quiescent design: all memories of rust_hdl blocks are read
//! synchronously (`read_data <= mem[read_address]`), so when the non-memory state (every member
//! of Verilator's root struct except the memories and the declared free-running counters) is
//! unchanged over two consecutive cycles with constant inputs, memory writes are idempotent
//! from then on and the design is at a fixed point: the remaining cycles only advance the
//! counters, which `vr_run` adds directly. A counter is only excluded while its guard members
//! are all zero (the bench states which state reads it, see [`Quiesce`]).
//!
//! A design with a second, slower clock (`super::SecondClock`: a preset's NAND sequencers) has
//! edges of either clock alone and of both together. `vr_run` clocks them where the bench would
//! and compares the state after every edge evaluation: the design is at a fixed point once,
//! since its last change, each clock has had an edge that changed nothing, and then each clock
//! again. Two rounds for the reason above (the second sees the first's memory writes, also
//! those of a memory written on one clock and read on the other, as in a clock-crossing FIFO);
//! every clock in each, because between two edges of the slow clock the fast one alone finds
//! nothing to do while the slow domain is still counting. Coincident edges then change nothing
//! either: each domain's next state is the one it took alone.
//! The state table (`vr_state.h`) is written between `verilator --cc` and the C++ compile,
//! from the generated root header ([`state_header`]).

use super::{Dir, Port, RunnerError};
use std::fmt::Write as _;

/// Block knowledge for the fast-forward: free-running counters (Verilog hierarchical DFF names
/// as in rust_hdl's output, `top.fe.cq.now`: members `…now$q` and `…now$d`, width in bits) that
/// may be advanced arithmetically, and guard signals (`top.fe.cq.carm$0$q`) that must all be 0
/// for that to be exact. Empty: only a fully unchanged state is fast-forwarded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quiesce {
    pub counters: Vec<(String, u32)>,
    pub guards: Vec<String>,
}

impl Quiesce {
    /// Text for the cache key.
    pub fn key(&self) -> String {
        format!("{self:?}")
    }
}

/// Verilator's C++ member name of a Verilog hierarchical name.
fn member(verilog: &str) -> String {
    verilog.replace('.', "__DOT__").replace('$', "__024")
}

/// Word offset of every port in its direction's buffer (inputs and outputs separately), and
/// the two buffer lengths.
pub fn layout(ports: &[Port]) -> (Vec<usize>, usize, usize) {
    let (mut n_in, mut n_out) = (0, 0);
    let offs = ports
        .iter()
        .map(|p| {
            let n = if p.dir == Dir::In {
                &mut n_in
            } else {
                &mut n_out
            };
            let o = *n;
            *n += p.words();
            o
        })
        .collect();
    (offs, n_in, n_out)
}

fn copy_lines(ports: &[Port]) -> (String, String) {
    let (offs, _, _) = layout(ports);
    let (mut put, mut take) = (String::new(), String::new());
    for (p, o) in ports.iter().zip(offs) {
        let n = p.name.replace('$', "__024");
        let (s, line) = if p.dir == Dir::In {
            (&mut put, "m->{n} = in[{o}];")
        } else {
            (&mut take, "out[{o}] = m->{n};")
        };
        let text = match (p.dir, p.width) {
            (_, 0..=32) => line.replace("{n}", &n).replace("{o}", &o.to_string()),
            (Dir::In, 33..=64) => {
                format!("m->{n} = (uint64_t)in[{o}] | ((uint64_t)in[{o} + 1] << 32);")
            }
            (Dir::Out, 33..=64) => {
                format!("out[{o}] = (uint32_t)m->{n}; out[{o} + 1] = (uint32_t)(m->{n} >> 32);")
            }
            (Dir::In, _) => format!(
                "for (int k = 0; k < {w}; k++) m->{n}[k] = in[{o} + k];",
                w = p.words()
            ),
            (Dir::Out, _) => format!(
                "for (int k = 0; k < {w}; k++) out[{o} + k] = m->{n}[k];",
                w = p.words()
            ),
        };
        writeln!(s, "  {text}").expect("write to String");
    }
    (put, take)
}

fn switch_lines(ports: &[Port]) -> (String, String) {
    let (mut set, mut get) = (String::new(), String::new());
    for (i, p) in ports.iter().enumerate() {
        let n = &p.name.replace('$', "__024");
        let w = p.words();
        if p.dir == Dir::In {
            let t = match p.width {
                0..=32 => format!("m->{n} = words[0];"),
                33..=64 => format!("m->{n} = (uint64_t)words[0] | ((uint64_t)words[1] << 32);"),
                _ => format!("for (int k = 0; k < {w}; k++) m->{n}[k] = words[k];"),
            };
            writeln!(set, "    case {i}: {t} break;").expect("write to String");
        }
        let t = match p.width {
            0..=32 => format!("words[0] = m->{n};"),
            33..=64 => format!("words[0] = (uint32_t)m->{n}; words[1] = (uint32_t)(m->{n} >> 32);"),
            _ => format!("for (int k = 0; k < {w}; k++) words[k] = m->{n}[k];"),
        };
        writeln!(get, "    case {i}: {t} break;").expect("write to String");
    }
    (set, get)
}

/// The shim source; `trace` builds the VCD variant.
pub fn shim(ports: &[Port], trace: bool) -> String {
    let (set, get) = switch_lines(ports);
    let (put, take) = copy_lines(ports);
    let (_, n_in, n_out) = layout(ports);
    let tr = trace as u8;
    format!("// Generated by ssdlab's Verilator runner. Do not edit.\n#define VR_TRACE {tr}\n#define VR_NIN {n_in}\n#define VR_NOUT {n_out}\n{}\nstatic inline void vr_put(Vtop* m, const uint32_t* in) {{\n{put}}}\nstatic inline void vr_take(Vtop* m, uint32_t* out) {{\n{take}}}\nextern \"C\" {{\nvoid vr_set(void* p, uint32_t port, const uint32_t* words) {{\n  Vtop* m = ((H*)p)->m;\n  switch (port) {{\n{set}    default: break;\n  }}\n}}\nvoid vr_get(void* p, uint32_t port, uint32_t* words) {{\n  Vtop* m = ((H*)p)->m;\n  switch (port) {{\n{get}    default: break;\n  }}\n}}\n{}}}\n// Verilator's --exe wants a main; never called when loaded as a library.\nint main() {{ return 0; }}\n", include_str!("shim_head.cpp"), include_str!("shim_run.cpp"))
}

/// `vr_state.h` from the generated `Vtop___024root.h`: the memories (excluded from the state
/// comparison), the counters and the guards of `q`; an unknown counter or guard is an error.
pub fn state_header(root_h: &str, q: &Quiesce) -> Result<String, RunnerError> {
    let mems: Vec<&str> = root_h
        .lines()
        .filter(|l| l.trim_start().starts_with("VlUnpacked<"))
        .filter_map(|l| {
            l.trim()
                .strip_suffix(';')?
                .rsplit(|c: char| c.is_whitespace() || c == '>')
                .next()
        })
        .collect();
    let has = |m: &str| {
        root_h.lines().any(|l| {
            l.trim()
                .strip_suffix(';')
                .is_some_and(|d| d.ends_with(&format!(" {m}")) || d.ends_with(&format!("/ {m}")))
        })
    };
    let mut s = String::from("// Generated by ssdlab's Verilator runner from Vtop___024root.h. Do not edit.\n#define VR_MEMS(X)");
    for m in &mems {
        write!(s, " X({m})").expect("write to String");
    }
    s.push_str("\n#define VR_COUNTERS(X)");
    for (c, w) in &q.counters {
        let (mq, md) = (member(&format!("{c}$q")), member(&format!("{c}$d")));
        for m in [&mq, &md] {
            if !has(m) {
                return Err(RunnerError::Parse(format!(
                    "fast-forward counter `{c}`: no member `{m}` in the Verilated model"
                )));
            }
        }
        assert!(*w >= 1 && *w <= 32, "counter {c}: width {w} not in 1..=32");
        write!(s, " X({mq}, {md}, {w})").expect("write to String");
    }
    s.push_str("\n#define VR_GUARDS(X)");
    for g in &q.guards {
        let m = member(g);
        if !has(&m) {
            return Err(RunnerError::Parse(format!(
                "fast-forward guard `{g}`: no member `{m}` in the Verilated model"
            )));
        }
        write!(s, " X({m})").expect("write to String");
    }
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_packs_inputs_and_outputs_separately() {
        let p = |n: &str, dir, width| Port {
            name: n.into(),
            dir,
            width,
        };
        let ports = [
            p("clock", Dir::In, 1),
            p("a", Dir::In, 44),
            p("q", Dir::Out, 128),
            p("b", Dir::In, 3),
            p("r", Dir::Out, 1),
        ];
        // Inputs: clock word 0, a words 1-2, b word 3; outputs: q words 0-3, r word 4.
        assert_eq!(layout(&ports), (vec![0, 1, 0, 3, 4], 4, 5));
    }

    #[test]
    fn state_header_lists_memories_and_checks_names() {
        let h = "        VlUnpacked<IData/*31:0*/, 64> top__DOT__m__DOT__mem;\n        IData/*23:0*/ top__DOT__cq__DOT__now__024q;\n        IData/*23:0*/ top__DOT__cq__DOT__now__024d;\n        CData/*0:0*/ top__DOT__cq__DOT__carm__0240__024q;\n";
        let q = Quiesce {
            counters: vec![("top.cq.now".into(), 24)],
            guards: vec!["top.cq.carm$0$q".into()],
        };
        let s = state_header(h, &q).expect("all names exist");
        assert!(s.contains("X(top__DOT__m__DOT__mem)"), "{s}");
        assert!(
            s.contains("X(top__DOT__cq__DOT__now__024q, top__DOT__cq__DOT__now__024d, 24)"),
            "{s}"
        );
        assert!(s.contains("X(top__DOT__cq__DOT__carm__0240__024q)"), "{s}");
        let bad = Quiesce {
            counters: vec![],
            guards: vec!["top.cq.nope".into()],
        };
        let e = state_header(h, &bad).unwrap_err().to_string();
        assert!(
            e.contains("top.cq.nope") && e.contains("top__DOT__cq__DOT__nope"),
            "{e}"
        );
    }
}
