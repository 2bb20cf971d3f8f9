//! Tests of the datapath top level: elaboration checks (each naming its config field) and the
//! Verilog export (`datapath_is_synthesizable`).

mod page_buffer;

use super::*;

#[test]
fn elaboration_rejects_configs_that_do_not_fit() {
    let mut cfg = small_drive_config();
    cfg.onfi.core_clock_mhz = 200;
    cfg.onfi.transfer_mts = 800;
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("200 MHz core clock rejected");
    assert!(e.contains("onfi.core_clock_mhz"), "{e}");
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
    let mut cfg = small_drive_config();
    cfg.geometry.channels = 4;
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("4 channels rejected");
    assert!(e.contains("geometry.channels"), "{e}");
    // 4 planes x (4096 + 256) = 17 408 B > 16 384 B.
    let mut cfg = small_drive_config();
    cfg.geometry.planes_per_die = 4;
    let e = Datapath::new_boxed(&cfg)
        .err()
        .expect("4 planes of 4 KiB + spare do not fit a region");
    assert!(e.contains("17408") && e.contains("16384"), "{e}");
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

/// The default preset (sm2262-512g) is refused for everything the datapath lacks at once: its
/// 200 MHz NAND clock, its 8 x 2 x 1 geometry, and its 2 planes x (16 384 + 2 208) B = 37 184 B
/// per (channel, way), over the 16 384 B region. Its 800 MT/s is 4 bytes per 200 MHz cycle,
/// which the page buffer takes, so that field is not named.
#[test]
fn a_preset_is_refused_for_every_field_at_once() {
    let e = Datapath::new_boxed(&DriveConfig::default_drive())
        .err()
        .expect("sm2262-512g does not elaborate");
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 3, "{e}");
    assert!(lines[0].starts_with("onfi.core_clock_mhz: 200 MHz"), "{e}");
    assert!(lines[1].contains("8 x 2 x 1"), "{e}");
    assert!(
        lines[2].contains("37184 B") && lines[2].contains("16384 B"),
        "{e}"
    );
    assert!(!e.contains("onfi.transfer_mts"), "{e}");
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
        "dram_rdata",
        "pb_err",
    ] {
        assert!(v.contains(port), "port {port} in the Verilog");
    }
    yosys_validate("ssdlab_top_datapath", &v).unwrap();
}
