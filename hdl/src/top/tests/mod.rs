//! Tests of the datapath top level: elaboration checks (each naming its config field) and the
//! Verilog export (`datapath_is_synthesizable`).

mod page_buffer;

use super::*;

#[test]
fn elaboration_rejects_configs_that_do_not_fit() {
    // A sequencer clock above the PCIe clock: 300 MHz (1200 MT/s, 4 bytes per cycle).
    let mut cfg = small_drive_config();
    cfg.onfi.core_clock_mhz = 300;
    cfg.onfi.transfer_mts = 1200;
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("a 300 MHz sequencer clock rejected");
    assert!(e.starts_with("onfi.core_clock_mhz: 300 MHz"), "{e}");
    // 750 MT/s at 250 MHz = 3 bytes per cycle: a beat would straddle two words.
    let mut cfg = small_drive_config();
    cfg.onfi.transfer_mts = 750;
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("3 bytes per cycle rejected");
    assert!(
        e.contains("onfi.transfer_mts") && e.contains("3 bytes"),
        "{e}"
    );
    // 250 MT/s = 1 byte per cycle with a 2-byte spare: the spare phase would end inside a word.
    let mut cfg = small_drive_config();
    (cfg.onfi.transfer_mts, cfg.geometry.spare_bytes) = (250, 254);
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("a spare size that is not whole words rejected at 1 byte per beat");
    assert!(e.contains("geometry.page_bytes / spare_bytes"), "{e}");
    // 250 and 500 MT/s (1 and 2 bytes per cycle) elaborate.
    for mts in [250, 500] {
        let mut cfg = small_drive_config();
        cfg.onfi.transfer_mts = mts;
        Datapath::new_boxed(&cfg).unwrap_or_else(|e| panic!("{mts} MT/s: {e}"));
    }
    // Geometries of the range elaborate: 2, 4, 16 channels; 1, 2, 8 ways; 1 and 4 planes.
    for (ch, ways, planes) in [(2, 8, 1), (4, 2, 4), (16, 1, 2)] {
        let mut cfg = small_drive_config();
        let g = &mut cfg.geometry;
        (g.channels, g.ways_per_channel, g.planes_per_die) = (ch, ways, planes);
        let d = Datapath::new_boxed(&cfg).unwrap_or_else(|e| panic!("{ch} x {ways}: {e}"));
        assert_eq!(
            (d.phy.len(), d.array.channels()),
            (ch as usize, ch as usize)
        );
    }
    // Beyond the port widths and the one-die ways: each field named with its limit.
    for (field, ch, ways, dies) in [
        ("geometry.channels: 17", 17, 4, 1),
        ("geometry.ways_per_channel: 9", 8, 9, 1),
        ("geometry.dies_per_way: 2", 8, 4, 2),
    ] {
        let mut cfg = small_drive_config();
        let g = &mut cfg.geometry;
        (g.channels, g.ways_per_channel, g.dies_per_way) = (ch, ways, dies);
        let e = Datapath::new_boxed(&cfg).err().expect(field);
        assert!(e.starts_with(field), "{e}");
    }
    // 8 planes: the op word has 2 bits of planes.
    let mut cfg = small_drive_config();
    cfg.geometry.planes_per_die = 8;
    let e = Datapath::new_boxed(&cfg).err().expect("8 planes refused");
    assert!(e.contains("geometry.planes_per_die: 8"), "{e}");
    // TLC, 4 planes x 3 pages x (32 768 + 4 096) B = 442 368 B = 27 banks of 16 KiB > 16
    // (262 144 B).
    let mut cfg = small_drive_config();
    (cfg.geometry.planes_per_die, cfg.geometry.page_bytes) = (4, 32768);
    (cfg.geometry.spare_bytes, cfg.geometry.bits_per_cell) = (4096, 3);
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("a 432 KiB region refused");
    assert!(
        e.contains("442368 B (a one-shot program) needs 27 banks") && e.contains("(262144 B)"),
        "{e}"
    );
    // Program/erase suspend elaborates with the policies the way FSM has; a resume latency +
    // minimum progress under 2 cycles (0 + 4 ns = 1 cycle at 250 MHz) is refused.
    for policy in [
        ssdlab_model::config::SuspendPolicyKind::Always,
        ssdlab_model::config::SuspendPolicyKind::WaitOver,
    ] {
        let mut cfg = small_drive_config();
        cfg.nand.suspend.policy = policy;
        Datapath::new_boxed(&cfg).expect("suspend elaborates");
    }
    let mut cfg = small_drive_config();
    cfg.nand.suspend.policy = ssdlab_model::config::SuspendPolicyKind::Always;
    (
        cfg.nand.suspend.t_resume_us,
        cfg.nand.suspend.min_progress_us,
    ) = (0.0, 0.004);
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("too short a suspend guard rejected");
    assert!(e.contains("nand.suspend.min_progress_us"), "{e}");
}

/// The sm2262 presets elaborate: 8 channels of 2 ways (512 GB) or 4 (1 TB), one die per way,
/// 2 planes x 3 TLC pages x (16 384 + 2 208) B = 111 552 B regions (7 banks of 16 KiB), and
/// 800 MT/s = 4 bytes per 200 MHz sequencer cycle, a clock other than the 250 MHz PCIe clock,
/// so the array crosses. The e12-960g is refused for its beats alone: 600 MT/s at 200 MHz is 3
/// bytes per cycle.
#[test]
fn the_presets_elaborate_with_a_clock_crossing_but_3_byte_beats() {
    for name in ["sm2262-512g", "sm2262-1t", "e12-960g"] {
        let (file, text) = ssdlab_model::config::builtin_preset(name).expect("built in");
        let cfg = DriveConfig::from_toml_str(text, file).expect("a valid preset");
        assert!(
            crosses_clocks(&cfg),
            "{name}: 200 MHz is not the PCIe clock"
        );
        let r = Datapath::new_boxed(&cfg);
        if name == "e12-960g" {
            let e = r.err().expect("3 bytes per beat refused");
            let lines: Vec<&str> = e.lines().collect();
            assert_eq!(lines.len(), 1, "{e}");
            assert!(lines[0].starts_with("onfi.transfer_mts"), "{e}");
            continue;
        }
        let d = r.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(d.array.channels() as u32, cfg.geometry.channels, "{name}");
        assert_eq!(
            region_banks(&cfg.geometry),
            7,
            "{name}: 111 552 B in 16 KiB banks"
        );
    }
    assert!(!crosses_clocks(&small_drive_config()), "250 MHz: one clock");
}

#[test]
fn small_drive_config_is_valid() {
    small_drive_config()
        .validate()
        .expect("the co-simulation geometry is a valid drive");
}

#[test]
fn datapath_is_synthesizable() {
    let v = export_verilog(&small_drive_config()).expect("small drive fits the datapath");
    for port in [
        "dma_channel",
        "dma_offset",
        "map_req_lpn",
        "nand_cmd_op",
        "nand_done_way$7",
        "phy$7$dq_in",
        "phy$7$ce",
        "dram_rdata",
        "pb_err",
    ] {
        assert!(v.contains(port), "port {port} in the Verilog");
    }
    yosys_validate("ssdlab_top_datapath", &v).unwrap();
}
