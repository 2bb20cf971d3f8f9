//! Reading `constraints/`: which generated block a file constrains (its `# block: <stem>`
//! header line; `none` for board-level files whose ports belong to a vendor wrapper;
//! `pnr_harness` for the place-and-route harness of hdl/src/pnr/harness.rs), the port names it
//! uses (`set_io NAME PIN` in a .pcf; every `get_ports` in an .xdc, bit indices dropped;
//! `LOCATE COMP "NAME"` and `IOBUF PORT "NAME"` in an .lpf), and the port list of a module.

use std::path::{Path, PathBuf};

/// What one constraint file says about ports.
pub struct Constraints {
    /// The generated block (`<stem>.v`) it constrains; None for `# block: none ...`.
    pub block: Option<String>,
    /// Port names used, without bit indices, in file order.
    pub ports: Vec<String>,
}

/// Every .pcf, .xdc and .lpf in constraints/, sorted.
pub fn constraint_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../constraints");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "pcf" || x == "xdc" || x == "lpf")
        })
        .collect();
    v.sort();
    v
}

/// `name[3]` / `name[*]` → `name`.
fn strip_index(name: &str) -> String {
    name.split('[').next().unwrap_or(name).to_string()
}

/// Port names after each `get_ports` of an .xdc line: `get_ports x`, `get_ports {x y}`,
/// `get_ports "x"`, `get_ports -quiet {x}`.
fn xdc_ports(line: &str, out: &mut Vec<String>) {
    let mut rest = line;
    while let Some(i) = rest.find("get_ports") {
        rest = rest[i + "get_ports".len()..].trim_start();
        while let Some(r) = rest
            .strip_prefix('-')
            .map(|r| r.split_once(' ').map_or("", |(_, t)| t.trim_start()))
        {
            rest = r;
        }
        let (names, tail) = if let Some(r) = rest.strip_prefix('{') {
            r.split_once('}').unwrap_or((r, ""))
        } else if let Some(r) = rest.strip_prefix('"') {
            r.split_once('"').unwrap_or((r, ""))
        } else {
            let end = rest.find([']', ' ', ';']).unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        };
        out.extend(names.split_whitespace().map(strip_index));
        rest = tail;
    }
}

/// Reads one constraint file. Panics naming the file when it lacks its `# block:` line or a
/// line saying which tool checks it.
pub fn read(path: &Path) -> Constraints {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let block_line = text
        .lines()
        .find_map(|l| l.strip_prefix("# block:"))
        .unwrap_or_else(|| panic!("{}: no `# block:` header line", path.display()));
    let block = match block_line.split_whitespace().next() {
        Some("none") | None => None,
        Some(stem) => Some(stem.to_string()),
    };
    assert!(
        text.lines().any(|l| l.starts_with("# checked")),
        "{}: no `# checked ...` line naming the tool",
        path.display()
    );
    let mut ports = vec![];
    let ext = path.extension().and_then(|x| x.to_str()).unwrap_or("");
    for line in text.lines().map(|l| l.split('#').next().unwrap_or("")) {
        if ext == "lpf" {
            lpf_ports(line, &mut ports);
        } else if ext == "pcf" {
            let t: Vec<&str> = line
                .split_whitespace()
                .filter(|w| !w.starts_with('-'))
                .collect();
            if t.first() == Some(&"set_io") && t.len() >= 3 {
                ports.push(strip_index(t[1]));
            }
        } else {
            xdc_ports(line, &mut ports);
        }
    }
    Constraints { block, ports }
}

/// The port of an .lpf line: `LOCATE COMP "x" SITE "A1";` or `IOBUF PORT "x" ...;`.
fn lpf_ports(line: &str, out: &mut Vec<String>) {
    let t = line.trim_start();
    for kw in ["LOCATE COMP", "IOBUF PORT"] {
        if let Some(r) = t.strip_prefix(kw) {
            if let Some(name) = r
                .trim_start()
                .strip_prefix('"')
                .and_then(|r| r.split('"').next())
            {
                out.push(strip_index(name));
            }
        }
    }
}

/// Port names of the file's first module: `module ssdlab_<block>(a,b,...);` or with the
/// declarations in the header (`module x(input wire a, output wire [3:0] b);`).
pub fn verilog_ports(verilog: &str) -> Vec<String> {
    let m = verilog.find("\nmodule ").expect("no `module`") + "\nmodule ".len();
    let start = m + verilog[m..].find('(').expect("no port list") + 1;
    let end = start + verilog[start..].find(");").expect("unterminated port list");
    verilog[start..end]
        .split(',')
        .filter_map(|p| p.split_whitespace().last())
        .map(str::to_string)
        .collect()
}

#[test]
fn xdc_and_pcf_port_names_are_found() {
    let mut v = vec![];
    xdc_ports(
        "set_property -dict {LOC K22 IOSTANDARD LVCMOS18} [get_ports {a[0] b}] ;# x",
        &mut v,
    );
    xdc_ports(
        "create_clock -period 5.000 -name core [get_ports clock]",
        &mut v,
    );
    xdc_ports("set_input_delay 1 [get_ports -quiet {phy$0$rb[*]}] ; set_false_path -from [get_ports \"c\"]", &mut v);
    assert_eq!(v, ["a", "b", "clock", "phy$0$rb", "c"]);
    let mut l = vec![];
    lpf_ports("LOCATE COMP \"clock\" SITE \"G2\";", &mut l);
    lpf_ports("IOBUF PORT \"d[3]\" IO_TYPE=LVCMOS33;", &mut l);
    lpf_ports("FREQUENCY PORT \"clock\" 100 MHZ;", &mut l);
    assert_eq!(l, ["clock", "d"]);
    assert_eq!(
        verilog_ports("\nmodule x_pnr(\n    input wire clock,\n    output wire [3:0] sout\n);"),
        ["clock", "sout"]
    );
    assert_eq!(
        verilog_ports("// header\nmodule ssdlab_b(clock,phy_ce,rd_data);\n input wire clock;"),
        ["clock", "phy_ce", "rd_data"]
    );
}
