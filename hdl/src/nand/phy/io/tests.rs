//! Checks of the io wrappers: the generic ones lint clean, the family ones keep one cell per
//! DDR pin and edge in their yosys flow, and every wrapper has its gearing's port list.

use super::*;

#[test]
fn generic_io_lints_clean_when_verilator_is_present() {
    for g in [Gearing::X1, Gearing::X2] {
        lint_generic(g);
    }
}

fn lint_generic(g: Gearing) {
    let v = io_verilog(IoFamily::Generic, g);
    assert!(v.contains(&format!("module {GENERIC_IO_MODULE}{} (", g.suffix())));
    let dir = tempfile::Builder::new()
        .prefix("ssdlab-phy-io-lint-")
        .tempdir()
        .unwrap();
    let path = dir
        .path()
        .join(format!("ssdlab_nand_phy_io{}.v", g.suffix()));
    std::fs::write(&path, &v).unwrap();
    let Ok(out) = std::process::Command::new("verilator")
        .args(["--lint-only", "-Wall"])
        .arg(&path)
        .output()
    else {
        return; // no verilator on this machine: `make lint` checks it
    };
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "verilator -Wall ({g:?}): {text}");
}

/// The cells of `family`'s wrapper after its family's yosys flow, from `stat`.
fn cells(family: IoFamily, g: Gearing, synth: &str) -> Option<String> {
    let dir = tempfile::Builder::new()
        .prefix(&format!("ssdlab-phy-io-{}{}-", family.module(), g.suffix()))
        .tempdir()
        .unwrap();
    let (path, stat) = (dir.path().join("io.v"), dir.path().join("stat.txt"));
    std::fs::write(&path, io_verilog(family, g)).unwrap();
    let script = format!(
        "read_verilog {}; {synth} -top {}{}; tee -q -o {} stat",
        path.display(),
        family.module(),
        g.suffix(),
        stat.display()
    );
    let out = std::process::Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .ok()?; // no yosys on this machine: `make test` installs it
    assert!(
        out.status.success(),
        "{synth}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(std::fs::read_to_string(&stat).unwrap())
}

/// The number of `cell` instances in a yosys `stat` listing.
fn count(stat: &str, cell: &str) -> u32 {
    stat.lines()
        .find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some(cell)).then(|| w.next()?.parse().ok())?
        })
        .unwrap_or(0)
}

/// By hand, per channel: DDR outputs RE_t, RE_c, DQS_t, DQS_c and DQ[7:0] (12 output cells),
/// DDR inputs DQ[7:0] (8 input cells), bidirectional pads DQS_t, DQS_c and DQ[7:0] (10),
/// and on UltraScale the output pads of RE_t and RE_c (2).
#[test]
fn family_wrappers_keep_one_cell_per_ddr_pin() {
    if let Some(stat) = cells(IoFamily::Ecp5, Gearing::X1, "synth_ecp5") {
        assert_eq!(count(&stat, "ODDRX1F"), 12, "{stat}");
        assert_eq!(count(&stat, "IDDRX1F"), 8, "{stat}");
        // synth_ecp5 maps each `BB` onto the IO site cell.
        assert_eq!(count(&stat, "TRELLIS_IO"), 10, "{stat}");
    }
    let xcu = "synth_xilinx -family xcu -noiopad";
    if let Some(stat) = cells(IoFamily::UltraScale, Gearing::X1, xcu) {
        assert_eq!(count(&stat, "ODDRE1"), 12, "{stat}");
        assert_eq!(count(&stat, "IDDRE1"), 8, "{stat}");
        assert_eq!(count(&stat, "IOBUF"), 10, "{stat}");
        assert_eq!(count(&stat, "OBUF"), 2, "{stat}");
    }
}

/// The same pins in X2 gearing: one 4:1 serializer per DDR output, one 1:4 deserializer
/// per DQ input, and no DDR cell left.
#[test]
fn x2_wrappers_keep_one_serializer_per_ddr_pin() {
    if let Some(stat) = cells(IoFamily::Ecp5, Gearing::X2, "synth_ecp5") {
        assert_eq!(count(&stat, "ODDRX2F"), 12, "{stat}");
        assert_eq!(count(&stat, "IDDRX2F"), 8, "{stat}");
        assert_eq!(count(&stat, "ODDRX1F"), 0, "{stat}");
        assert_eq!(count(&stat, "TRELLIS_IO"), 10, "{stat}");
    }
    let xcu = "synth_xilinx -family xcu -noiopad";
    if let Some(stat) = cells(IoFamily::UltraScale, Gearing::X2, xcu) {
        assert_eq!(count(&stat, "OSERDESE3"), 12, "{stat}");
        assert_eq!(count(&stat, "ISERDESE3"), 8, "{stat}");
        assert_eq!(count(&stat, "ODDRE1"), 0, "{stat}");
        assert_eq!(count(&stat, "IOBUF"), 10, "{stat}");
        assert_eq!(count(&stat, "OBUF"), 2, "{stat}");
    }
}

#[test]
fn every_wrapper_has_the_generic_port_list() {
    let ports = |v: &str| -> Vec<String> {
        let start = v.find("module ").unwrap();
        let end = v[start..].find(");").unwrap() + start;
        v[start..end]
            .lines()
            .skip(1)
            .map(|l| l.split("//").next().unwrap().trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    // By hand: 12 PHY-side ports, 11 pins, and 2 clocks (X1) or 3 (X2).
    for (g, n) in [(Gearing::X1, 25), (Gearing::X2, 26)] {
        let generic = ports(&io_verilog(IoFamily::Generic, g));
        assert_eq!(generic.len(), n, "{generic:?}");
        for f in [IoFamily::Ecp5, IoFamily::UltraScale] {
            let v = io_verilog(f, g);
            assert!(v.contains(&format!("module {}{} (", f.module(), g.suffix())));
            assert_eq!(ports(&v), generic, "{f:?} {g:?}");
        }
    }
}

/// The KCU105 board file names channel c's pins `nand<c>_<name>` after the UltraScale
/// wrapper's `pin_<name>` ports: every NAND name it constrains is a wrapper pin, and every
/// wrapper pin gets an IO standard there.
#[test]
fn kcu105_nand_pin_names_are_the_xcu_wrappers_pins() {
    let xdc = include_str!("../../../../../constraints/kcu105_board.xdc");
    let v = io_verilog(IoFamily::UltraScale, Gearing::X2);
    let head = &v[v.find("module ").unwrap()..v.find(");").unwrap()];
    let pins: Vec<&str> = head
        .lines()
        .filter_map(|l| l.split("//").next())
        .filter_map(|l| l.trim().trim_end_matches(',').split_whitespace().last())
        .filter_map(|p| p.strip_prefix("pin_"))
        .collect();
    assert_eq!(pins.len(), 11, "the wrapper's pin ports: {pins:?}");
    let mut named = std::collections::BTreeSet::new();
    for line in xdc.lines().filter(|l| !l.starts_with('#')) {
        let Some(rest) = line.split("get_ports {").nth(1) else {
            continue;
        };
        for tok in rest.split('}').next().unwrap().split_whitespace() {
            let name = tok.split('[').next().unwrap();
            let pin = name
                .strip_prefix("nand*_")
                .unwrap_or_else(|| panic!("kcu105_board.xdc: `{tok}` is not a `nand*_` pin name"));
            assert!(
                pins.contains(&pin),
                "kcu105_board.xdc: `{tok}` is no wrapper pin_{pin}"
            );
            named.insert(pin);
        }
    }
    for p in &pins {
        assert!(
            named.contains(p),
            "kcu105_board.xdc: pin_{p} has no IO standard"
        );
    }
}
