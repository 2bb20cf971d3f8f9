//! MSI-X interrupt coalescing by aggregation time (NVMe 1.4 section 5.21.1.8, Feature 08h),
//! HDL against the model: an interrupt fires at the threshold's completion or when the
//! aggregation time has passed since the first completion not yet signalled.

use super::{compare, cq_base, init, run_both_cfg, sq_base, Act, MSI_ADDR};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme::opc;
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::TlpKind;

#[test]
fn aggregation_time_fires_the_interrupt_the_threshold_did_not() {
    let mut cfg = DriveConfig::default_drive();
    cfg.nvme.irq_coalesce_count = 4;
    // 2 µs at 250 MHz = 500 cycles (Feature 08h counts in 100 µs; short here for simulation).
    cfg.nvme.irq_coalesce_time_us = 2.0;
    let mut acts = init(1, 16);
    // Batch 1: three flushes, below the threshold of 4. Batch 2 (after the timer fired): five,
    // the fourth reaches the threshold, the fifth starts a new aggregation time.
    for (i, cid) in (1..=3u16).enumerate() {
        acts.push((
            800,
            Act::Put(
                sq_base(1) + 64 * i as u64,
                Sqe::new(opc::NVM_FLUSH, cid, 1, 0, 0).encode().to_vec(),
            ),
        ));
    }
    acts.push((800, Act::Mmio(sq_doorbell(1), 3)));
    for (i, cid) in (4..=8u16).enumerate() {
        acts.push((
            1700,
            Act::Put(
                sq_base(1) + 64 * (3 + i as u64),
                Sqe::new(opc::NVM_FLUSH, cid, 1, 0, 0).encode().to_vec(),
            ),
        ));
    }
    acts.push((1700, Act::Mmio(sq_doorbell(1), 8)));
    let (h, m) = run_both_cfg(&cfg, &acts, 2700);
    compare(&h, &m);
    let cqes: Vec<u64> =
        h.rc.seen
            .iter()
            .filter(|s| {
                s.kind == TlpKind::MemWrite && s.addr >= cq_base(1) && s.addr < cq_base(1) + 256
            })
            .map(|s| s.cycle)
            .collect();
    let msi1: Vec<u64> =
        h.rc.seen
            .iter()
            .filter(|s| s.addr == MSI_ADDR + 4)
            .map(|s| s.cycle)
            .collect();
    let msi0 = h.rc.seen.iter().filter(|s| s.addr == MSI_ADDR).count();
    assert_eq!(cqes.len(), 8, "eight I/O completions");
    // Vector 1: timer after batch 1, threshold at the 7th completion (4th of batch 2), timer
    // after the 8th. The admin CQ (2 creates) is never coalesced: 2 on vector 0.
    assert_eq!(
        (msi1.len(), msi0),
        (3, 2),
        "vector-1 interrupts at {msi1:?}, CQEs at {cqes:?}"
    );
    // Deadline = cycle after the mux took the first CQE (its header cycle) + 500; the expiry
    // sets the pending bit (+1), the idle engine takes it (+1), looks up the vector (+1), the
    // mux takes the MSI and its header follows (+1): header = first CQE header + 504.
    assert_eq!(msi1[0], cqes[0] + 504);
    assert_eq!(msi1[2], cqes[7] + 504);
    // Threshold interrupt: right behind the 7th CQE (its 2 beats, then the MSI-X MWr).
    assert!(
        msi1[1] > cqes[6] && msi1[1] <= cqes[6] + 4,
        "threshold MSI at {} after CQE at {}",
        msi1[1],
        cqes[6]
    );
}

/// Weighted round robin (NVMe 1.4 section 4.13.2) with weights high 3, medium 2, low 1: SQ1
/// high, SQ2 medium, SQ3 low, six flushes each, doorbells 2 cycles apart (SQ1's first: the
/// first three picks are high either way). By hand (credits refill
/// when no class with credit has a ready SQ): H H H M M L | H H H M M L | M M L | L | L | L.
#[test]
fn weighted_round_robin_fetch_order_matches_model() {
    use super::{init_prio, run_both_benches};
    use ssdlab_hdl::nvme::arbiter::Arbitration;
    use ssdlab_model::nvme::frontend::wrr::{Priority, WeightedRoundRobin};
    use ssdlab_testbench::devices::frontend_bench::{HdlBench, ModelBench};
    let cfg = DriveConfig::default_drive();
    let mut acts = init_prio(3, 8, 8, &[0b01, 0b10, 0b11]);
    for q in 1..=3u16 {
        for i in 0..6u16 {
            let s = Sqe::new(opc::NVM_FLUSH, 10 * q + i, 1, 0, 0);
            acts.push((
                1200,
                Act::Put(sq_base(q) + 64 * i as u64, s.encode().to_vec()),
            ));
        }
    }
    for q in 1..=3u16 {
        acts.push((1198 + 2 * q as u64, Act::Mmio(sq_doorbell(q), 6)));
    }
    let h = HdlBench::with_arbitration(&cfg, Arbitration::Weighted([3, 2, 1]));
    let mut m = ModelBench::new(&cfg);
    use Priority::*;
    m.fe.set_arbiter(Box::new(WeightedRoundRobin::new(
        vec![
            Urgent, High, Medium, Low, Urgent, Urgent, Urgent, Urgent, Urgent,
        ],
        [3, 2, 1],
    )));
    let (h, m) = run_both_benches(h, m, &acts, 3200);
    compare(&h, &m);
    let cids: Vec<u16> = h
        .handed
        .iter()
        .filter(|x| x.1 != 0)
        .map(|x| x.2.cid)
        .collect();
    assert_eq!(
        cids,
        vec![10, 11, 12, 20, 21, 30, 13, 14, 15, 22, 23, 31, 24, 25, 32, 33, 34, 35]
    );
}
