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

/// The DMA latencies of the module doc ("DMA latency"), on the PRP data path alone (`PrpDma`
/// against the root-complex model, the page buffer's `bd_valid` standing in as always valid:
/// it rises 2 cycles after the handshake, before the first payload beat is wanted in cycle 5).
/// Handshake in cycle 0; a 4 KiB page-aligned move (PRP1 only, no list), MPS 256, MRRS 512.
/// Hand-derived: the first header is on the data path's RQ stream in cycle 4 (walker accept ->
/// Check 1, Check -> Segs 2, splitter `active` 3, stream register `tdata/tvalid` 4; the top's
/// requester mux adds its lock cycle: 5 = `DMA_START_CYCLES`); after that every TLP is where
/// the behavioural `FrontEnd::transfer` started at cycle 4 puts it (link-bound), and `done` is
/// registered once, the cycle after the last beat — which is the behavioural transfer's own
/// end (MWr: port free = last beat + 1; MRd: last completion beat + 1), so 0 glue cycles.
#[test]
fn dma_latency_matches_the_documented_derivation() {
    use crate::nvme::prp::bench::{run_model, Cmd, HdlDma};
    use crate::nvme::root_complex::RootComplex;
    let mut cfg = small_drive_config();
    (cfg.pcie.mps_bytes, cfg.pcie.mrrs_bytes) = (256, 512);
    for to_host in [true, false] {
        let ctx = if to_host { "4 KiB MWr" } else { "4 KiB MRd" };
        let cmd = Cmd {
            to_host,
            prp1: 0x10_0000,
            prp2: 0,
            len: 4096,
        };
        let data: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 3) as u8).collect();
        let (mut rh, mut rm) = (RootComplex::new(&cfg.pcie), RootComplex::new(&cfg.pcie));
        let h = HdlDma::new().run(&cfg, &mut rh, cmd, &data, 5_000, ctx);
        let m = run_model(&cfg, &mut rm, cmd, &data);
        assert_eq!(h.status, 0, "{ctx}");
        assert_eq!(
            h.tlps.len(),
            if to_host { 4096 / 256 } else { 4096 / 512 },
            "{ctx}: TLPs"
        );
        assert_eq!(
            h.first_tlp,
            DMA_START_CYCLES - 1,
            "{ctx}: first header on PrpDma's stream (the mux adds 1)"
        );
        assert_eq!(
            m.first_tlp, 0,
            "{ctx}: the behavioural transfer starts at once"
        );
        assert_eq!(
            h.end,
            m.end + h.first_tlp + DMA_END_CYCLES,
            "{ctx}: done vs the behavioural end"
        );
        if to_host {
            // Last MWr: header, then 256 / 16 = 16 payload beats; done the cycle after the last.
            let last_hdr = rh.seen.last().expect("TLPs seen").cycle;
            assert_eq!(
                h.end,
                last_hdr + 16 + 1,
                "{ctx}: done one cycle after the last payload beat"
            );
        }
    }
}
