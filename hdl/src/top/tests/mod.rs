//! Tests of the datapath top level: elaboration checks (each naming its config field) and the
//! Verilog export (`datapath_is_synthesizable`).

mod page_buffer;
mod page_buffer_return;

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

/// The presets elaborate: 8 channels of 2 ways (sm2262-512g) or 4 (sm2262-1t, e12-960g), one
/// die per way, regions of 2 planes x 3 TLC pages: 2 x 3 x (16 384 + 2 208) = 111 552 B for the
/// sm2262 and 2 x 3 x (16 384 + 1 952) = 110 016 B for the e12, 7 banks of 16 KiB (114 688 B)
/// either way. Their sequencer clocks (200 MHz for 800 MT/s, 150 MHz for the e12's 600 MT/s)
/// move 4 bytes per cycle and are not the 250 MHz PCIe clock, so the array crosses.
#[test]
fn the_presets_elaborate_with_a_clock_crossing() {
    for (name, ways, clock_mhz) in [
        ("sm2262-512g", 2, 200),
        ("sm2262-1t", 4, 200),
        ("e12-960g", 4, 150),
    ] {
        let (file, text) = ssdlab_model::config::builtin_preset(name).expect("built in");
        let cfg = DriveConfig::from_toml_str(text, file).expect("a valid preset");
        assert_eq!(cfg.onfi.core_clock_mhz, clock_mhz, "{name}");
        assert_eq!(cfg.onfi.bytes_per_cycle(), 4, "{name}");
        assert!(
            crosses_clocks(&cfg),
            "{name}: {clock_mhz} MHz is not the PCIe clock"
        );
        let d = Datapath::new_boxed(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(d.array.channels(), 8, "{name}");
        // Its ONFI PHYs (one per channel, inside the datapath) elaborate too, and `make verilog
        // PRESET=NAME` writes one as its own block.
        assert_eq!(d.onfi.len(), 8, "{name}: a PHY per channel");
        crate::nand::phy_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: nand_phy: {e}"));
        assert_eq!(cfg.geometry.ways_per_channel, ways, "{name}");
        assert_eq!(
            region_banks(&cfg.geometry),
            7,
            "{name}: at most 114 688 B in 16 KiB banks"
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
        "phy$7$ce_n",
        "phy$7$re",
        "phy$7$dqs_oe",
        "dram_rdata",
        "pb_err",
    ] {
        assert!(v.contains(port), "port {port} in the Verilog");
    }
    crate::test_support::yosys_validate("ssdlab_top_datapath", &v).unwrap();
}
