//! NVMe front end on the PCIe transaction layer, mirroring `ssdlab_model::nvme::frontend`:
//! BAR0 register file ([`regfile`]), submission path ([`sq_fetch`]), completion path
//! ([`cq_post`]) and the composed block ([`frontend`]). The root-complex model and the test
//! benches that drive these blocks are in the test bench (`ssdlab_testbench::devices`).

pub mod arbiter;
pub mod cq_post;
pub mod frontend;
pub mod prp;
pub mod regfile;
pub mod sq_fetch;

/// Queue pairs the HDL front end supports: the admin pair and 8 I/O pairs (qid 0..=8).
pub const QUEUE_PAIRS: usize = 9;

/// Generated Verilog of every front-end block, named as `make verilog` writes them, for the
/// queue size and interrupt aggregation threshold and time of `cfg`.
pub fn verilog_blocks(cfg: &ssdlab_model::DriveConfig) -> Vec<(&'static str, String)> {
    let (entries, threshold) = (cfg.nvme.queue_entries, cfg.nvme.irq_coalesce_count);
    let time = ssdlab_model::nvme::frontend::msix::coalesce_time_cycles(&cfg.nvme);
    vec![
        ("nvme_rq_mux", crate::pcie::rq_mux::export_verilog()),
        ("nvme_regs", regfile::export_verilog(entries)),
        (
            "nvme_sq_arbiter",
            arbiter::export_verilog(arbiter::Arbitration::Weighted([3, 2, 1])),
        ),
        ("nvme_sq_fetch", sq_fetch::export_verilog()),
        ("nvme_cq_post", cq_post::export_verilog(threshold, time)),
        (
            "nvme_frontend",
            frontend::export_verilog(entries, threshold, time, arbiter::Arbitration::RoundRobin),
        ),
    ]
}
