//! Driver-like tests of the rust_hdl front end against the root-complex model, each run side by
//! side with the behavioural front end: same commands handed on in the same order, same TLP
//! sequence (type, address, length), same completion entries; header cycles within ±2 %.
//! rust_hdl simulates ~10^4 cycles/s here, so scenarios stay around a thousand cycles.

#[path = "hdl_frontend/coalesce.rs"]
mod coalesce;
#[path = "hdl_frontend/prp_loops.rs"]
mod prp_loops;
#[path = "hdl_frontend/regs.rs"]
mod regs;
#[path = "hdl_frontend/reject.rs"]
mod reject;
#[path = "hdl_frontend/sideband.rs"]
mod sideband;

use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme::{opc, Status};
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_model::nvme::frontend::entry::{Cqe, Sqe};
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind};
use ssdlab_testbench::devices::frontend_bench::{HdlBench, ModelBench};
use ssdlab_testbench::devices::root_complex::SeenTlp;

pub use ssdlab_testbench::devices::root_complex::host_init::{
    cq_base, sq_base, Act, ACQ_BASE, ASQ_BASE, MSI_ADDR,
};

/// Controller init like a driver (section 7.6.1): AQA, ASQ, ACQ, MSI-X vectors 0..=2, CC.EN;
/// then Create I/O CQ/SQ pairs 1..=`pairs` with `entries` entries through the admin queue.
pub fn init(pairs: u16, entries: u32) -> Vec<(Cycle, Act)> {
    init_sized(pairs, entries, entries)
}

/// [`init`] with I/O SQs of `sq_entries` and CQs of `cq_entries` entries.
pub fn init_sized(pairs: u16, sq_entries: u32, cq_entries: u32) -> Vec<(Cycle, Act)> {
    init_prio(pairs, sq_entries, cq_entries, &[])
}

/// [`init_sized`] with SQ q created with QPRIO `qprio[q - 1]` (CDW11 bits 2:1; 0 if absent).
pub fn init_prio(pairs: u16, sq_entries: u32, cq_entries: u32, qprio: &[u32]) -> Vec<(Cycle, Act)> {
    ssdlab_testbench::devices::root_complex::host_init::driver_init(
        3, pairs, sq_entries, cq_entries, qprio,
    )
}

/// Runs the same host actions on both front ends up to `until`.
pub fn run_both(acts: &[(Cycle, Act)], until: Cycle) -> (HdlBench, ModelBench) {
    run_both_cfg(&DriveConfig::default_drive(), acts, until)
}

/// [`run_both`] with a given drive config.
pub fn run_both_cfg(
    cfg: &DriveConfig,
    acts: &[(Cycle, Act)],
    until: Cycle,
) -> (HdlBench, ModelBench) {
    run_both_benches(HdlBench::new(cfg), ModelBench::new(cfg), acts, until)
}

/// [`run_both`] on benches built by the caller (e.g. with weighted round robin).
pub fn run_both_benches(
    mut h: HdlBench,
    mut m: ModelBench,
    acts: &[(Cycle, Act)],
    until: Cycle,
) -> (HdlBench, ModelBench) {
    for (t, a) in acts {
        h.run_until(*t);
        m.run_until(*t);
        match a {
            Act::Mmio(off, val) => {
                let at_h = h.rc.mmio_write(*t, *off, *val);
                let at_m = m.mmio_write(*t, *off, *val);
                assert_eq!(at_h, at_m, "both hosts schedule the MMIO write alike");
                h.mmio_log.push((*off, at_h));
            }
            Act::Put(addr, bytes) => {
                h.rc.put(*addr, bytes);
                m.rc.put(*addr, bytes);
            }
        }
    }
    h.run_until(until);
    m.run_until(until);
    (h, m)
}

/// Compares the two runs: handed commands, TLP (type, address, length) sequence and cycles.
/// Returns the worst relative header-cycle difference.
pub fn compare(h: &HdlBench, m: &ModelBench) -> f64 {
    // The model computes a fetch's outcome when it issues the MRd; compare only what the HDL
    // run reached (cycles before its end).
    let mut ms: Vec<SeenTlp> =
        m.rc.seen
            .iter()
            .copied()
            .filter(|s| s.cycle < h.cycle)
            .collect();
    ms.sort_by_key(|s| s.cycle);
    if std::env::var("SSDLAB_TRACE").is_ok() {
        for (a, b) in h.rc.seen.iter().zip(ms.iter()) {
            eprintln!(
                "hdl {:?} {:#x} {} @{}  model {:?} {:#x} {} @{}",
                a.kind, a.addr, a.len, a.cycle, b.kind, b.addr, b.len, b.cycle
            );
        }
        for (a, b) in h.handed.iter().zip(m.handed.iter()) {
            eprintln!("cmd q{} cid {} hdl {} model {}", a.1, a.2.cid, a.0, b.0);
        }
        for s in
            h.rc.seen
                .iter()
                .filter(|s| s.kind == TlpKind::MemWrite && s.len == 16)
        {
            eprintln!(
                "cqe {:#x} hdl {:?} model {:?}",
                s.addr,
                Cqe::decode(&h.rc.get(s.addr, 16)),
                Cqe::decode(&m.rc.get(s.addr, 16))
            );
        }
        for s in h.rc.seen.iter().filter(|s| s.kind == TlpKind::MemRead) {
            let q = Sqe::decode(&h.rc.get(s.addr, 64).try_into().unwrap());
            eprintln!(
                "sqe {:#x} cid {} opc {:#x} psdt {}",
                s.addr, q.cid, q.opc, q.psdt
            );
        }
    }
    let hk: Vec<_> = h.handed.iter().map(|(_, q, s)| (*q, s.cid)).collect();
    let mk: Vec<_> = m
        .handed
        .iter()
        .filter(|(c, _, _)| *c < h.cycle)
        .map(|(_, q, s)| (*q, s.cid))
        .collect();
    assert_eq!(hk, mk, "fetch order / commands handed on");
    let key = |s: &SeenTlp| (s.kind, s.addr, s.len);
    let ht: Vec<_> = h.rc.seen.iter().map(key).collect();
    let mt: Vec<_> = ms.iter().map(key).collect();
    let first_diff = ht.iter().zip(mt.iter()).position(|(a, b)| a != b);
    assert_eq!(
        ht,
        mt,
        "TLP sequence (type, address, length); {} vs {} TLPs, first difference at {first_diff:?}",
        ht.len(),
        mt.len()
    );
    let mut worst = 0.0f64;
    for (a, b) in h.rc.seen.iter().zip(ms.iter()) {
        let d = (a.cycle as f64 - b.cycle as f64).abs() / (b.cycle.max(1) as f64);
        worst = worst.max(d);
    }
    assert!(
        worst <= 0.02,
        "TLP header cycles differ by {:.3} % (> 2 %)",
        worst * 100.0
    );
    for s in h.rc.seen.iter().filter(|s| s.kind == TlpKind::MemWrite) {
        let (a, b) = (
            h.rc.get(s.addr, s.len as usize),
            m.rc.get(s.addr, s.len as usize),
        );
        assert_eq!(
            a, b,
            "host memory written at {:#x} (CQE / MSI-X data)",
            s.addr
        );
    }
    worst
}

pub fn cqe_at(h: &HdlBench, addr: u64) -> Cqe {
    Cqe::decode(&h.rc.get(addr, 16))
}

#[test]
fn driver_init_creates_queues_and_round_robins_two_sqs() {
    let mut acts = init(2, 8);
    // Three flushes in SQ1 and two in SQ2, both doorbells rung at cycle 1200.
    for (q, n) in [(1u16, 3u32), (2, 2)] {
        for i in 0..n {
            let s = Sqe::new(opc::NVM_FLUSH, (q * 10) + i as u16, 1, 0, 0);
            acts.push((
                1200,
                Act::Put(sq_base(q) + 64 * i as u64, s.encode().to_vec()),
            ));
        }
    }
    acts.push((1200, Act::Mmio(sq_doorbell(1), 3)));
    acts.push((1202, Act::Mmio(sq_doorbell(2), 2)));
    let (h, m) = run_both(&acts, 2000);
    let worst = compare(&h, &m);
    println!(
        "init + RR scenario: worst header-cycle difference {:.3} %",
        worst * 100.0
    );
    // Controller ready, CAP.MQES = 1023 read back over the CC stream is checked elsewhere.
    assert!(h.uut.rdy.val(), "CSTS.RDY after CC.EN");
    // 4 admin commands, then round robin after SQ1 was served first (its doorbell landed 2
    // cycles earlier): 10, 20, 11, 21, 12.
    let cids: Vec<u16> = h.handed.iter().map(|(_, _, s)| s.cid).collect();
    assert_eq!(cids, vec![100, 101, 102, 103, 10, 20, 11, 21, 12]);
    // First admin fetch: doorbell data beat in cycle 35 (descriptor 34, data 35) → arbiter
    // sees it in 37 → MRd header in 39, 64 bytes at ASQ.
    let first = h.rc.seen[0];
    assert_eq!(
        (first.kind, first.addr, first.len, first.cycle),
        (TlpKind::MemRead, ASQ_BASE, 64, 39)
    );
    // Admin CQEs: phase 1, success; all four were fetched before the first CQE was posted, so
    // every SQHD reports head 4 (section 4.6: the SQ head at the time the entry is created).
    for i in 0..4u64 {
        let c = cqe_at(&h, ACQ_BASE + 16 * i);
        assert_eq!(
            (c.cid, c.phase, c.status, c.sqhd, c.sqid),
            (100 + i as u16, true, Status::SUCCESS, 4, 0)
        );
    }
    let c = cqe_at(&h, cq_base(2) + 16);
    assert_eq!((c.cid, c.sqid, c.phase), (21, 2, true));
    // One MSI-X per completion (threshold 1): 4 on vector 0, 3 on vector 1, 2 on vector 2.
    let msi = |a: u64| {
        h.rc.seen
            .iter()
            .filter(|s| s.addr == a && s.len == 4)
            .count()
    };
    assert_eq!(
        (msi(MSI_ADDR), msi(MSI_ADDR + 4), msi(MSI_ADDR + 8)),
        (4, 3, 2)
    );
    assert_eq!(h.rc.get(MSI_ADDR + 4, 4), 0x41u32.to_le_bytes());
}

fn flushes(q: u16, first_slot: u32, cids: &[u16], at: Cycle) -> Vec<(Cycle, Act)> {
    cids.iter()
        .enumerate()
        .map(|(i, c)| {
            let s = Sqe::new(opc::NVM_FLUSH, *c, 1, 0, 0);
            (
                at,
                Act::Put(
                    sq_base(q) + 64 * (first_slot as u64 + i as u64),
                    s.encode().to_vec(),
                ),
            )
        })
        .collect()
}

#[test]
fn phase_flips_on_wrap_and_full_cq_holds_until_head_doorbell() {
    // I/O CQ of 4 entries holds 3 (full when tail + 1 == head); five flushes.
    let mut acts = init(1, 4);
    acts.retain(|(_, a)| !matches!(a, Act::Mmio(o, _) if *o == sq_doorbell(0)));
    acts.push((34, Act::Mmio(sq_doorbell(0), 2)));
    // SQ of 4 entries too (the create command sizes both): 3 flushes, then 2 more later.
    acts.extend(flushes(1, 0, &[1, 2, 3], 800));
    acts.push((800, Act::Mmio(sq_doorbell(1), 3)));
    acts.extend(flushes(1, 3, &[4], 900));
    acts.push((900, Act::Mmio(sq_doorbell(1), 0)));
    acts.push((1500, Act::Mmio(cq_doorbell(1), 3)));
    acts.extend(flushes(1, 0, &[5], 1502));
    acts.push((1502, Act::Mmio(sq_doorbell(1), 1)));
    let (h, m) = run_both(&acts, 2100);
    compare(&h, &m);
    let slots: Vec<u64> =
        h.rc.seen
            .iter()
            .filter(|s| s.addr >= cq_base(1) && s.addr < cq_base(1) + 64)
            .map(|s| (s.addr - cq_base(1)) / 16)
            .collect();
    // Slots 0, 1, 2, then slot 3 only after the head doorbell, then slot 0 again (wrap).
    assert_eq!(slots, vec![0, 1, 2, 3, 0]);
    let phases: Vec<bool> = (0..4)
        .map(|i| cqe_at(&h, cq_base(1) + 16 * i).phase)
        .collect();
    // Slot 0 now holds the 5th entry of the second pass (phase 0); slots 1-3 the first (1).
    assert_eq!(phases, vec![false, true, true, true]);
    let db = h
        .mmio_log
        .iter()
        .find(|(o, _)| *o == cq_doorbell(1))
        .expect("head doorbell")
        .1;
    let slot3 =
        h.rc.seen
            .iter()
            .find(|s| s.addr == cq_base(1) + 48)
            .expect("slot 3 posted");
    // Doorbell data beat in `db`, strobe db+1, head updated for db+2, the engine's registered
    // full flag clears for db+3 (the CQE is offered), CQE header db+4.
    assert_eq!(
        slot3.cycle,
        db + 4,
        "held CQE leaves 4 cycles after the head doorbell"
    );
    let last = cqe_at(&h, cq_base(1));
    assert_eq!((last.cid, last.phase), (5, false));
}

#[test]
fn malformed_host_input_gets_spec_status_and_nothing_hangs() {
    let mut acts = init(1, 8);
    let bad_opc = Sqe::new(0x7F, 1, 1, 0, 0);
    let mut sgl = Sqe::new(opc::NVM_READ, 2, 1, 0x40_0000, 0);
    sgl.psdt = 0b01;
    acts.push((800, Act::Put(sq_base(1), bad_opc.encode().to_vec())));
    acts.push((800, Act::Put(sq_base(1) + 64, sgl.encode().to_vec())));
    acts.extend(flushes(1, 2, &[3], 800));
    acts.push((800, Act::Mmio(sq_doorbell(1), 3)));
    // Invalid doorbell writes (section 4.1 / 5.2): value 8 ≥ 8 entries; queue 5 not created;
    // queue 9 beyond the controller's 9 pairs; CQ head 9 ≥ 8 entries.
    acts.push((1300, Act::Mmio(sq_doorbell(1), 8)));
    acts.push((1310, Act::Mmio(sq_doorbell(5), 1)));
    acts.push((1320, Act::Mmio(sq_doorbell(9), 1)));
    acts.push((1330, Act::Mmio(cq_doorbell(1), 9)));
    acts.extend(flushes(1, 3, &[4], 1340));
    acts.push((1340, Act::Mmio(sq_doorbell(1), 4)));
    let (h, m) = run_both(&acts, 1900);
    compare(&h, &m);
    let st: Vec<(u16, Status)> = (0..4)
        .map(|i| cqe_at(&h, cq_base(1) + 16 * i))
        .map(|c| (c.cid, c.status))
        .collect();
    assert_eq!(
        st,
        vec![
            (1, Status::INVALID_OPCODE),
            (2, Status::INVALID_FIELD),
            (3, Status::SUCCESS),
            (4, Status::SUCCESS)
        ],
        "01h Invalid Command Opcode, 02h Invalid Field (SGL), then normal service"
    );
    let handed: Vec<u16> = h
        .handed
        .iter()
        .filter(|x| x.1 == 1)
        .map(|x| x.2.cid)
        .collect();
    assert_eq!(handed, vec![3, 4], "rejected commands are not handed on");
    let infos: Vec<u8> = h.events.iter().map(|e| e.1).collect();
    assert_eq!(
        infos,
        vec![0x01, 0x00, 0x00, 0x01],
        "AER error info: 01h invalid value, 00h invalid register"
    );
    assert_eq!(
        infos, m.events,
        "model reports the same asynchronous events"
    );
}

#[test]
fn count_coalescing_threshold_4_matches_model() {
    let mut cfg = DriveConfig::default_drive();
    cfg.nvme.irq_coalesce_count = 4;
    let mut acts = init(1, 16);
    acts.extend(flushes(1, 0, &[1, 2, 3, 4, 5, 6, 7, 8], 800));
    acts.push((800, Act::Mmio(sq_doorbell(1), 8)));
    let (h, m) = run_both_cfg(&cfg, &acts, 2000);
    compare(&h, &m);
    let on_v1 = h.rc.seen.iter().filter(|s| s.addr == MSI_ADDR + 4).count();
    let on_v0 = h.rc.seen.iter().filter(|s| s.addr == MSI_ADDR).count();
    // 8 I/O completions at threshold 4 → 2 interrupts; the 2 admin completions are never
    // coalesced → 2 interrupts.
    assert_eq!((on_v0, on_v1), (2, 2));
}

#[test]
fn registers_read_back_and_enable_shutdown_handshakes() {
    let cfg = DriveConfig::default_drive();
    let mut h = HdlBench::new(&cfg);
    // CAP (8-byte read): MQES 1023, CQR, TO 14h, CSS bit 37 → lo 1401_03FFh, hi 20h; VS 1.4.
    h.rc.mmio_read(0, CAP, 2);
    h.rc.mmio_read(1, VS, 1);
    h.rc.mmio_read(2, CSTS, 1);
    // CC.EN without AQA/ASQ/ACQ: the controller cannot come ready → CSTS.CFS (02h).
    h.rc.mmio_write(10, CC, CC_EN);
    h.rc.mmio_read(14, CSTS, 1);
    h.rc.mmio_write(30, CC, 0);
    h.rc.mmio_write(32, AQA, (3 << 16) | 3);
    h.rc.mmio_write(34, ASQ, ASQ_BASE as u32);
    h.rc.mmio_write(36, ACQ, ACQ_BASE as u32);
    h.rc.mmio_write(38, CC, CC_EN);
    h.rc.mmio_read(42, CSTS, 1);
    h.rc.mmio_read(46, ASQ, 2);
    // Normal shutdown (CC.SHN = 01b) → SHST = 10b; then CC.EN = 0 clears RDY.
    h.rc.mmio_write(60, CC, CC_EN | (1 << CC_SHN_SHIFT));
    h.rc.mmio_read(64, CSTS, 1);
    h.rc.mmio_write(80, CC, 0);
    h.rc.mmio_read(84, CSTS, 1);
    h.run_until(120);
    assert!(h.rc.idle(), "every MMIO beat was taken");
    let r = &h.rc.mmio_reads;
    assert_eq!(r[0], 0x20_1401_03FF, "CAP");
    assert_eq!(r[1] as u32, 0x0001_0400, "VS 1.4.0");
    assert_eq!(r[2] as u32, 0, "CSTS before enable");
    assert_eq!(r[3] as u32, CSTS_CFS, "EN without admin queues: CFS");
    assert_eq!(
        r[4] as u32, CSTS_RDY,
        "RDY after EN with admin queues (CFS cleared)"
    );
    assert_eq!(r[5], ASQ_BASE, "ASQ 64-bit read");
    assert_eq!(
        r[6] as u32,
        CSTS_RDY | CSTS_SHST_COMPLETE,
        "shutdown complete"
    );
    assert_eq!(r[7] as u32, CSTS_SHST_COMPLETE, "EN = 0 clears RDY");
}

#[test]
fn round_robin_wraps_to_the_admin_queue_first() {
    let mut acts = init(2, 8);
    // SQ2 gets 4 flushes: they take all 4 fetch tags for ~200 cycles. Meanwhile SQ1 (2 flushes)
    // and the admin SQ (2 Identify) ring. When a tag frees, `last` = 2: nothing above 2 is
    // ready, so the lowest ready queue wins: admin (0), then 1, then wrap to 0, then 1.
    acts.extend(flushes(2, 0, &[20, 21, 22, 23], 1200));
    acts.push((1200, Act::Mmio(sq_doorbell(2), 4)));
    acts.extend(flushes(1, 0, &[10, 11], 1230));
    acts.push((1230, Act::Mmio(sq_doorbell(1), 2)));
    for (i, cid) in [(4u64, 200u16), (5, 201)] {
        let mut id = Sqe::new(opc::ADMIN_IDENTIFY, cid, 0, 0x50_0000, 0);
        id.cdw10 = 1;
        acts.push((1232, Act::Put(ASQ_BASE + 64 * i, id.encode().to_vec())));
    }
    acts.push((1234, Act::Mmio(sq_doorbell(0), 6)));
    let (h, m) = run_both(&acts, 2000);
    compare(&h, &m);
    let cids: Vec<u16> = h.handed.iter().skip(4).map(|(_, _, s)| s.cid).collect();
    assert_eq!(cids, vec![20, 21, 22, 23, 200, 10, 201, 11]);
}

/// Seeded random command mixes over 3 I/O queue pairs: flushes, unsupported opcodes and SGL
/// commands, doorbells at random cycles; 8-entry CQs whose heads are never released, so they
/// run full and hold completions (and the rejections behind them) while fetching goes on.
/// SQs have 64 entries so the host never rewrites a slot it submitted (at most 36 commands).
/// Both front ends must agree TLP for TLP; the seed is in every failure message.
#[test]
fn seeded_random_mixes_agree_with_the_model() {
    let seeds: Vec<u64> = match std::env::var("SSDLAB_SEED") {
        Ok(v) => vec![v.parse().expect("SSDLAB_SEED is a number")],
        Err(_) => (1..=6).collect(),
    };
    random_mixes(&seeds);
}

/// The slow tier (`make test-slow`): 200 seeds.
#[test]
#[ignore]
fn seeded_random_mixes_many_seeds() {
    random_mixes(&(1..=200).collect::<Vec<u64>>());
}

fn random_mixes(seeds: &[u64]) {
    const SQ_ENTRIES: u32 = 64;
    use rand::Rng;
    for &seed in seeds {
        let mut rng = ssdlab_model::SeedTree::new(seed).stream("nvme-cosim", 0);
        // Arbitration drawn per seed: round robin, or WRR with weights 1..=4 and a random
        // QPRIO per SQ (the model gets the same classes through `set_arbiter`).
        let mut arb_rng = ssdlab_model::SeedTree::new(seed).stream("nvme-cosim-arb", 0);
        let wrr = arb_rng.gen_bool(0.5);
        let weights: [u8; 3] = std::array::from_fn(|_| arb_rng.gen_range(1..=4u8));
        let qprio: Vec<u32> = (0..3).map(|_| arb_rng.gen_range(0..4u32)).collect();
        let mut acts = init_prio(3, SQ_ENTRIES, 8, if wrr { &qprio } else { &[] });
        let mut tails = [0u32; 4];
        let mut t = 1200;
        let mut cid = 1u16;
        for _ in 0..12 {
            let q = rng.gen_range(1..=3u16);
            let n = rng.gen_range(1..=3u32);
            for _ in 0..n {
                let mut s = Sqe::new(opc::NVM_FLUSH, cid, 1, 0, 0);
                match rng.gen_range(0..10) {
                    0 => s.opc = 0x7E,
                    1 => s.psdt = 0b10,
                    _ => {}
                }
                acts.push((
                    t,
                    Act::Put(
                        sq_base(q) + 64 * tails[q as usize] as u64,
                        s.encode().to_vec(),
                    ),
                ));
                tails[q as usize] = (tails[q as usize] + 1) % SQ_ENTRIES;
                cid += 1;
            }
            acts.push((t, Act::Mmio(sq_doorbell(q), tails[q as usize])));
            t += rng.gen_range(2..60);
        }
        // Interrupt coalescing drawn per seed: threshold 1, 2 or 4; aggregation time none,
        // 1 µs or 2 µs (250 / 500 cycles).
        let mut cfg = DriveConfig::default_drive();
        let mut irq = ssdlab_model::SeedTree::new(seed).stream("nvme-cosim-irq", 0);
        cfg.nvme.irq_coalesce_count = [1, 2, 4][irq.gen_range(0..3usize)];
        cfg.nvme.irq_coalesce_time_us = [0.0, 1.0, 2.0][irq.gen_range(0..3usize)];
        let (h, m) = if wrr {
            use ssdlab_model::nvme::frontend::wrr::{Priority, WeightedRoundRobin};
            let class = |p: u32| {
                [
                    Priority::Urgent,
                    Priority::High,
                    Priority::Medium,
                    Priority::Low,
                ][p as usize]
            };
            let mut prio = vec![Priority::Urgent; 9];
            for (q, p) in qprio.iter().enumerate() {
                prio[q + 1] = class(*p);
            }
            let w = weights.map(|x| x as u32);
            let mut m = ModelBench::new(&cfg);
            m.fe.set_arbiter(Box::new(WeightedRoundRobin::new(prio, w)));
            run_both_benches(
                HdlBench::with_arbitration(
                    &cfg,
                    ssdlab_hdl::nvme::arbiter::Arbitration::Weighted(weights),
                ),
                m,
                &acts,
                t + 1500,
            )
        } else {
            run_both_cfg(&cfg, &acts, t + 1500)
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compare(&h, &m)));
        assert!(
            r.is_ok(),
            "seed {seed}: HDL and model disagree (see the message above)"
        );
        let (thr, us) = (cfg.nvme.irq_coalesce_count, cfg.nvme.irq_coalesce_time_us);
        let arb = if wrr {
            format!("WRR {weights:?} QPRIO {qprio:?}")
        } else {
            "RR".to_string()
        };
        println!("seed {seed} ({arb}, coalescing {thr} / {us} µs): {} TLPs agree, worst header-cycle difference {:.3} %", h.rc.seen.len(), r.unwrap() * 100.0);
        assert!(h.handed.len() > 4, "seed {seed}: commands were handed on");
    }
}
