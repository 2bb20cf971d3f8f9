//! Port list of a rust_hdl-generated `module top(...)`: direction, name and width, parsed from
//! the declarations that follow the module header (`input wire [43:0] cmd_op;`).

use super::RunnerError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    /// Bits.
    pub width: u32,
}

impl Port {
    /// 32-bit words the value takes.
    pub fn words(&self) -> usize {
        self.width.div_ceil(32) as usize
    }
}

/// The name of the first module of `verilog`: the block (`top` in rust_hdl's output,
/// `ssdlab_<block>` in the integrable form of `ssdlab_hdl::export`), and the byte offset of its
/// port list's `(`.
pub fn top_module(verilog: &str) -> Result<(&str, usize), RunnerError> {
    let start = if verilog.starts_with("module ") {
        0
    } else {
        verilog
            .find("\nmodule ")
            .ok_or_else(|| RunnerError::Parse("no `module` in the Verilog".into()))?
            + 1
    } + "module ".len();
    let open = verilog[start..]
        .find('(')
        .ok_or_else(|| RunnerError::Parse("no port list after `module`".into()))?
        + start;
    Ok((verilog[start..open].trim(), open))
}

/// Parses the ports of the first module (the block; see [`top_module`]).
pub fn parse_ports(verilog: &str) -> Result<Vec<Port>, RunnerError> {
    let (top, open) = top_module(verilog)?;
    let header_end = verilog[open..]
        .find(");")
        .ok_or_else(|| RunnerError::Parse(format!("unterminated `module {top}(` header")))?
        + open;
    let names: Vec<&str> = verilog[open + 1..header_end]
        .split(',')
        .map(str::trim)
        .collect();
    let body = &verilog[header_end..];
    let mut ports = Vec::with_capacity(names.len());
    for name in names {
        let port = body
            .lines()
            .take_while(|l| !l.trim_start().starts_with("endmodule"))
            .find_map(|l| parse_decl(l.trim(), name))
            .ok_or_else(|| {
                RunnerError::Parse(format!("no input/output declaration for port `{name}`"))
            })?;
        ports.push(port);
    }
    Ok(ports)
}

/// `input wire [7:0] name;` / `output reg name;` -> Port, when the line declares `name`.
fn parse_decl(line: &str, name: &str) -> Option<Port> {
    let line = line.strip_suffix(';')?;
    let (dir, rest) = if let Some(r) = line.strip_prefix("input ") {
        (Dir::In, r)
    } else if let Some(r) = line.strip_prefix("output ") {
        (Dir::Out, r)
    } else {
        return None;
    };
    let rest = rest
        .trim_start_matches("wire")
        .trim_start_matches("reg")
        .trim();
    let (width, decl_name) = if let Some(r) = rest.strip_prefix('[') {
        let (range, n) = r.split_once(']')?;
        let (hi, lo) = range.split_once(':')?;
        let (hi, lo): (u32, u32) = (hi.trim().parse().ok()?, lo.trim().parse().ok()?);
        (hi - lo + 1, n.trim())
    } else {
        (1, rest)
    };
    (decl_name == name).then(|| Port {
        name: name.to_string(),
        dir,
        width,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_module_is_the_block_whatever_its_name() {
        let v = "// header: module x\nmodule ssdlab_b(clock,phy_0_ce);\n  input wire clock;\n  output reg [3:0] phy_0_ce;\nendmodule\nmodule ssdlab_b__r(d);\nendmodule\n";
        assert_eq!(top_module(v).unwrap().0, "ssdlab_b");
        let p = parse_ports(v).unwrap();
        assert_eq!((p[1].name.as_str(), p[1].width), ("phy_0_ce", 4));
        assert!(top_module("// no module here\n").is_err());
    }

    #[test]
    fn parses_rust_hdl_header() {
        let v = "\n\nmodule top(clock,a,b);\n    \n    // Module arguments\n    input wire  clock;\n    input wire  [43:0] a;\n    output reg  [1:0] b;\n    reg x;\nendmodule\n";
        let p = parse_ports(v).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(
            p[1],
            Port {
                name: "a".into(),
                dir: Dir::In,
                width: 44
            }
        );
        assert_eq!(
            p[2],
            Port {
                name: "b".into(),
                dir: Dir::Out,
                width: 2
            }
        );
        assert_eq!(p[1].words(), 2);
    }

    #[test]
    fn missing_declaration_is_named() {
        let err = parse_ports("module top(clock,zz);\n input wire clock;\nendmodule")
            .unwrap_err()
            .to_string();
        assert!(err.contains("zz"), "{err}");
    }
}
