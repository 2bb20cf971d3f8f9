//! The PRP data path's DMA latencies as the datapath top documents them (hdl/src/top.rs, "DMA
//! latency"), on `PrpDma` alone against the root-complex model.

use ssdlab_hdl::top::{small_drive_config, DMA_END_CYCLES, DMA_START_CYCLES};
use ssdlab_testbench::devices::prp_bench::{run_model, Cmd, HdlDma};
use ssdlab_testbench::devices::root_complex::RootComplex;

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
