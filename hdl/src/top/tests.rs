//! Tests of the datapath top level: elaboration checks (each naming its config field) and the
//! Verilog export (`datapath_is_synthesizable`).

use super::*;

#[test]
fn elaboration_rejects_configs_that_do_not_fit() {
    let mut cfg = small_drive_config();
    cfg.onfi.core_clock_mhz = 200;
    cfg.onfi.transfer_mts = 800;
    let e = Datapath::new_boxed(&cfg).err().expect("200 MHz core clock rejected");
    assert!(e.contains("onfi.core_clock_mhz"), "{e}");
    let mut cfg = small_drive_config();
    cfg.onfi.transfer_mts = 500;
    let e = Datapath::new_boxed(&cfg).err().expect("2 bytes per cycle rejected");
    assert!(e.contains("onfi.transfer_mts"), "{e}");
    let mut cfg = small_drive_config();
    cfg.geometry.channels = 4;
    let e = Datapath::new_boxed(&cfg).err().expect("4 channels rejected");
    assert!(e.contains("geometry.channels"), "{e}");
    // 4 planes x (4096 + 256) = 17 408 B > 16 384 B.
    let mut cfg = small_drive_config();
    cfg.geometry.planes_per_die = 4;
    let e = Datapath::new_boxed(&cfg).err().expect("4 planes of 4 KiB + spare do not fit a region");
    assert!(e.contains("17408") && e.contains("16384"), "{e}");
}

#[test]
fn small_drive_config_is_valid() {
    small_drive_config().validate().expect("the co-simulation geometry is a valid drive");
}

#[test]
fn datapath_is_synthesizable() {
    let v = export_verilog(&small_drive_config()).expect("small drive fits the datapath");
    for port in ["dma_channel", "dma_offset", "map_req_lpn", "nand_cmd_op", "nand_done_way$7", "phy$7$dq_in", "dram_rdata", "pb_err"] {
        assert!(v.contains(port), "port {port} in the Verilog");
    }
    yosys_validate("ssdlab_top_datapath", &v).unwrap();
}

