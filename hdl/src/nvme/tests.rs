//! Driver-like tests of the rust_hdl front end against the root-complex model, each run side by
//! side with the behavioural front end: same commands handed on in the same order, same TLP
//! sequence (type, address, length), same completion entries; header cycles within ±2 %.
//! rust_hdl simulates ~10^4 cycles/s here, so scenarios stay around a thousand cycles.

use super::bench::{HdlBench, ModelBench};
use super::root_complex::SeenTlp;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nvme::frontend::entry::{opc, Cqe, Sqe, Status};
use ssdlab_model::nvme::frontend::regs::*;
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind};

pub const ASQ_BASE: u64 = 0x10_0000;
pub const ACQ_BASE: u64 = 0x11_0000;
pub const MSI_ADDR: u64 = 0xFEE0_0000;

/// A host action at a cycle.
#[derive(Clone, Debug)]
pub enum Act {
    Mmio(u32, u32),
    Put(u64, Vec<u8>),
}

pub fn sq_base(q: u16) -> u64 {
    0x30_0000 + 0x1_0000 * q as u64
}
pub fn cq_base(q: u16) -> u64 {
    0x20_0000 + 0x1_0000 * q as u64
}

/// Controller init like a driver (section 7.6.1): AQA, ASQ, ACQ, MSI-X vectors 0..=2, CC.EN;
/// then Create I/O CQ/SQ pairs 1..=`pairs` with `entries` entries through the admin queue.
pub fn init(pairs: u16, entries: u32) -> Vec<(Cycle, Act)> {
    let mut v = vec![
        (0, Act::Mmio(AQA, (7 << 16) | 7)),
        (2, Act::Mmio(ASQ, ASQ_BASE as u32)),
        (4, Act::Mmio(ACQ, ACQ_BASE as u32)),
    ];
    for vec in 0..3u32 {
        let t = 6 + 6 * vec as u64;
        v.push((t, Act::Mmio(MSIX_TABLE + 16 * vec, MSI_ADDR as u32 + 4 * vec)));
        v.push((t + 2, Act::Mmio(MSIX_TABLE + 16 * vec + 8, 0x40 + vec)));
        v.push((t + 4, Act::Mmio(MSIX_TABLE + 16 * vec + 12, 0)));
    }
    v.push((30, Act::Mmio(CC, CC_EN | (6 << 16) | (4 << 20))));
    let mut slot = 0u32;
    for q in 1..=pairs {
        let mut cq = Sqe::new(opc::ADMIN_CREATE_IO_CQ, 100 + slot as u16, 0, cq_base(q), 0);
        cq.cdw10 = q as u32 | ((entries - 1) << 16);
        cq.cdw11 = 0x3 | ((q as u32) << 16);
        v.push((32, Act::Put(ASQ_BASE + 64 * slot as u64, cq.encode().to_vec())));
        slot += 1;
        let mut sq = Sqe::new(opc::ADMIN_CREATE_IO_SQ, 100 + slot as u16, 0, sq_base(q), 0);
        sq.cdw10 = q as u32 | ((entries - 1) << 16);
        sq.cdw11 = 0x1 | ((q as u32) << 16);
        v.push((32, Act::Put(ASQ_BASE + 64 * slot as u64, sq.encode().to_vec())));
        slot += 1;
    }
    v.push((34, Act::Mmio(sq_doorbell(0), slot)));
    v
}

/// Runs the same host actions on both front ends up to `until`.
pub fn run_both(acts: &[(Cycle, Act)], until: Cycle) -> (HdlBench, ModelBench) {
    let cfg = DriveConfig::default_drive();
    let mut h = HdlBench::new(&cfg);
    let mut m = ModelBench::new(&cfg);
    for (t, a) in acts {
        h.run_until(*t);
        m.run_until(*t);
        match a {
            Act::Mmio(off, val) => {
                let at_h = h.rc.mmio_write(*t, *off, *val);
                let at_m = m.mmio_write(*t, *off, *val);
                assert_eq!(at_h, at_m, "both hosts schedule the MMIO write alike");
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
    let hk: Vec<_> = h.handed.iter().map(|(_, q, s)| (*q, s.cid)).collect();
    let mk: Vec<_> = m.handed.iter().map(|(_, q, s)| (*q, s.cid)).collect();
    assert_eq!(hk, mk, "fetch order / commands handed on");
    let key = |s: &SeenTlp| (s.kind, s.addr, s.len);
    let ht: Vec<_> = h.rc.seen.iter().map(key).collect();
    let mut ms = m.rc.seen.clone();
    ms.sort_by_key(|s| s.cycle);
    let mt: Vec<_> = ms.iter().map(key).collect();
    assert_eq!(ht, mt, "TLP sequence (type, address, length)");
    let mut worst = 0.0f64;
    if std::env::var("SSDLAB_TRACE").is_ok() {
        for (a, b) in h.rc.seen.iter().zip(ms.iter()) {
            eprintln!("{:?} {:#x} {} hdl {} model {}", a.kind, a.addr, a.len, a.cycle, b.cycle);
        }
        for (a, b) in h.handed.iter().zip(m.handed.iter()) {
            eprintln!("cmd q{} cid {} hdl {} model {}", a.1, a.2.cid, a.0, b.0);
        }
    }
    for (a, b) in h.rc.seen.iter().zip(ms.iter()) {
        let d = (a.cycle as f64 - b.cycle as f64).abs() / (b.cycle.max(1) as f64);
        worst = worst.max(d);
    }
    assert!(worst <= 0.02, "TLP header cycles differ by {:.3} % (> 2 %)", worst * 100.0);
    for s in h.rc.seen.iter().filter(|s| s.kind == TlpKind::MemWrite) {
        let (a, b) = (h.rc.get(s.addr, s.len as usize), m.rc.get(s.addr, s.len as usize));
        assert_eq!(a, b, "host memory written at {:#x} (CQE / MSI-X data)", s.addr);
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
            acts.push((1200, Act::Put(sq_base(q) + 64 * i as u64, s.encode().to_vec())));
        }
    }
    acts.push((1200, Act::Mmio(sq_doorbell(1), 3)));
    acts.push((1202, Act::Mmio(sq_doorbell(2), 2)));
    let (h, m) = run_both(&acts, 2000);
    let worst = compare(&h, &m);
    println!("init + RR scenario: worst header-cycle difference {:.3} %", worst * 100.0);
    // Controller ready, CAP.MQES = 1023 read back over the CC stream is checked elsewhere.
    assert!(h.uut.rdy.val(), "CSTS.RDY after CC.EN");
    // 4 admin commands, then SQ1 alone (SQ2's doorbell, queued 2 cycles later behind the ACK
    // DLLPs the link owes, is not visible at the second arbitration), then RR alternates:
    // 10, 11, 20, 12, 21.
    let cids: Vec<u16> = h.handed.iter().map(|(_, _, s)| s.cid).collect();
    assert_eq!(cids, vec![100, 101, 102, 103, 10, 11, 20, 12, 21]);
    // First admin fetch: doorbell data beat in cycle 35 (descriptor 34, data 35) → arbiter
    // sees it in 37 → MRd header in 39, 64 bytes at ASQ.
    let first = h.rc.seen[0];
    assert_eq!((first.kind, first.addr, first.len, first.cycle), (TlpKind::MemRead, ASQ_BASE, 64, 39));
    // Admin CQEs: phase 1, success; all four were fetched before the first CQE was posted, so
    // every SQHD reports head 4 (section 4.6: the SQ head at the time the entry is created).
    for i in 0..4u64 {
        let c = cqe_at(&h, ACQ_BASE + 16 * i);
        assert_eq!((c.cid, c.phase, c.status, c.sqhd, c.sqid), (100 + i as u16, true, Status::SUCCESS, 4, 0));
    }
    let c = cqe_at(&h, cq_base(2) + 16);
    assert_eq!((c.cid, c.sqid, c.phase), (21, 2, true));
    // One MSI-X per completion (threshold 1): 4 on vector 0, 3 on vector 1, 2 on vector 2.
    let msi = |a: u64| h.rc.seen.iter().filter(|s| s.addr == a && s.len == 4).count();
    assert_eq!((msi(MSI_ADDR), msi(MSI_ADDR + 4), msi(MSI_ADDR + 8)), (4, 3, 2));
    assert_eq!(h.rc.get(MSI_ADDR + 4, 4), 0x41u32.to_le_bytes());
}
