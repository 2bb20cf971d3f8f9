//! Reading `constraints/`: which generated block a file constrains (its `# block: <stem>`
//! header line; `none` for board-level files whose ports belong to a vendor wrapper), the port
//! names it uses (`set_io NAME PIN` in a .pcf; every `get_ports` in an .xdc, bit indices
//! dropped), and the port list of an exported block (`module ssdlab_<block>(...)`).

use std::path::{Path, PathBuf};

/// What one constraint file says about ports.
pub struct Constraints {
    /// The generated block (`<stem>.v`) it constrains; None for `# block: none ...`.
    pub block: Option<String>,
    /// Port names used, without bit indices, in file order.
    pub ports: Vec<String>,
}

/// Every .pcf and .xdc in constraints/, sorted.
pub fn constraint_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../constraints");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pcf" || x == "xdc"))
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
    let pcf = path.extension().is_some_and(|x| x == "pcf");
    for line in text.lines().map(|l| l.split('#').next().unwrap_or("")) {
        if pcf {
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

/// Port names of the file's first module (its block, `module ssdlab_<block>(a,b,...);`).
pub fn verilog_ports(verilog: &str) -> Vec<String> {
    let m = verilog.find("\nmodule ").expect("no `module`") + "\nmodule ".len();
    let start = m + verilog[m..].find('(').expect("no port list") + 1;
    let end = start + verilog[start..].find(");").expect("unterminated port list");
    verilog[start..end]
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
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
    assert_eq!(
        verilog_ports("// header\nmodule ssdlab_b(clock,phy_ce,rd_data);\n input wire clock;"),
        ["clock", "phy_ce", "rd_data"]
    );
}
