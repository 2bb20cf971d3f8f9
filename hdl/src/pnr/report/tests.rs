use super::*;

/// A trimmed nextpnr-ecp5 `--report`: two clocks, an async path first, then a path of each.
const REPORT: &str = r#"{
  "fmax": {"$glbnet$clock": {"achieved": 199.44, "constraint": 200},
           "$glbnet$nand_clock": {"achieved": 150.5, "constraint": 200}},
  "utilization": {"TRELLIS_COMB": {"available": 83640, "used": 2499},
                  "TRELLIS_FF": {"available": 83640, "used": 1939},
                  "DP16KD": {"available": 208, "used": 3}},
  "critical_paths": [
    {"from": "<async>", "to": "posedge $glbnet$clock",
     "path": [{"from": {"cell": "sin"}, "to": {"cell": "in_sr_TRELLIS_FF_Q"}}]},
    {"from": "posedge $glbnet$clock", "to": "posedge $glbnet$clock",
     "path": [{"from": {"cell": "dut.cq.wsq.q_TRELLIS_FF_Q"}, "to": {"cell": "x"}},
              {"from": {"cell": "y"}, "to": {"cell": "dut.mux.hold.q_TRELLIS_FF_Q_98"}}]},
    {"from": "posedge $glbnet$nand_clock", "to": "posedge $glbnet$nand_clock",
     "path": [{"from": {"cell": "dut.a.st.q_TRELLIS_FF_Q_1"}, "to": {"cell": "dut.b.q_TRELLIS_FF_Q"}}]}
  ]
}"#;

#[test]
fn a_seed_report_gives_each_clock_and_its_path() {
    let r = parse_seed(3, REPORT).unwrap();
    let c = r.clock("clock").unwrap();
    assert_eq!(c.fmax_mhz, 199.44);
    assert_eq!((r.luts, r.ffs, r.ebr), (2499, 1939, 3));
    assert_eq!(
        c.critical,
        Some(("cq.wsq.q".to_string(), "mux.hold.q".to_string()))
    );
    let n = r.clock("nand_clock").unwrap();
    assert_eq!(n.fmax_mhz, 150.5);
    assert_eq!(n.critical, Some(("a.st.q".to_string(), "b.q".to_string())));
    assert!(r.clock("other").is_none());
    assert!(parse_seed(1, "{}").unwrap_err().contains("fmax"));
    assert!(parse_seed(1, "not json").unwrap_err().contains("not JSON"));
}

#[test]
fn the_section_is_replaced_or_appended_and_kept_by_its_prefix() {
    let synth = "# header\nmap_cache xcu 1 0 1 0 -\n# TOTAL ...\n";
    let sec = "# pnr: a\n# pnr: b\n";
    let once = with_section(synth, sec);
    assert_eq!(once, format!("{synth}{sec}"));
    assert_eq!(section_of(&once), sec);
    assert_eq!(
        with_section(&once, "# pnr: c\n"),
        format!("{synth}# pnr: c\n")
    );
    assert_eq!(section_of(synth), "");
}

#[test]
fn a_block_section_from_its_files() {
    let tmp = tempfile::Builder::new()
        .prefix("ssdlab-pnr-report-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("tools.txt"), "device: LFE5UM5G-85F\n").unwrap();
    std::fs::write(dir.join("x.target"), "clock 200\n").unwrap();
    std::fs::write(dir.join("x.harness"), "156 80\n").unwrap();
    for (seed, f) in [(1, "199.44"), (2, "170.5"), (3, "180.25")] {
        let r = REPORT.replace("199.44", f);
        std::fs::write(dir.join(format!("x.seed{seed}.json")), r).unwrap();
    }
    std::fs::write(
        dir.join("y.fail"),
        "nextpnr-ecp5: 400 DP16KD, the part has 208\n",
    )
    .unwrap();
    let s = section(dir, &["x", "y"], None).unwrap();
    // Min / median / max of 199.44, 170.5 and 180.25; 156 + 80 harness bits.
    assert!(
        s.contains("Fmax  170.5 /  180.2 /  199.4 MHz (min / median / max, seeds 1 2 3)"),
        "{s}"
    );
    assert!(
        s.contains("the harness's 236 register bits included"),
        "{s}"
    );
    assert!(
        s.contains("critical path (seed 1): cq.wsq.q -> mux.hold.q"),
        "{s}"
    );
    assert!(
        s.contains("# pnr: y              no figures: nextpnr-ecp5: 400 DP16KD"),
        "{s}"
    );
    assert!(s.lines().all(|l| l.starts_with("# pnr")));
    assert!(section(dir, &["z"], None).unwrap_err().contains("z.target"));
}

/// A two-clock block: a line per clock, each named; the second with its own critical path.
#[test]
fn a_two_clock_block_has_a_line_per_clock() {
    let tmp = tempfile::Builder::new()
        .prefix("ssdlab-pnr-report2-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("tools.txt"), "device: LFE5UM5G-85F\n").unwrap();
    std::fs::write(dir.join("d.target"), "clock 250\nnand_clock 200\n").unwrap();
    std::fs::write(dir.join("d.harness"), "10 20\n").unwrap();
    for (seed, f) in [(1, "140.25"), (2, "160.75")] {
        let r = REPORT.replace("150.5", f);
        std::fs::write(dir.join(format!("d.seed{seed}.json")), r).unwrap();
    }
    let s = section(dir, &["d"], Some("sm2262-512g")).unwrap();
    let lines: Vec<&str> = s
        .lines()
        .filter(|l| l.contains("MHz  Fmax") || l.contains("LUT4"))
        .collect();
    assert_eq!(lines.len(), 3, "{s}");
    assert!(
        s.contains("# pnr: command: make pnr PRESET=sm2262-512g ("),
        "{s}"
    );
    // Two seeds: the median is the upper of the two.
    assert!(
        lines[0].contains(
            " 250 MHz  Fmax  199.4 /  199.4 /  199.4 MHz (min / median / max, seeds 1 2): `clock`"
        ),
        "{s}"
    );
    assert!(lines[1].contains(" 200 MHz  Fmax  140.2 /  160.8 /  160.8 MHz (min / median / max, seeds 1 2): `nand_clock`, critical path (seed 1): a.st.q -> b.q"), "{s}");
    assert!(
        lines[2].contains("critical path (seed 1): cq.wsq.q -> mux.hold.q"),
        "{s}"
    );
    std::fs::write(dir.join("d.target"), "clock 250\nother 200\n").unwrap();
    assert!(section(dir, &["d"], Some("sm2262-512g"))
        .unwrap_err()
        .contains("no clock `other`"));
    std::fs::write(dir.join("d.target"), "250\n").unwrap();
    assert!(section(dir, &["d"], Some("sm2262-512g"))
        .unwrap_err()
        .contains("bad target line"));
}
