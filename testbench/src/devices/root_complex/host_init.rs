//! The host side of controller initialisation, as a driver does it (NVM Express 1.4, 7.6.1):
//! AQA, ASQ, ACQ, the MSI-X table entries, CC.EN, then Create I/O CQ/SQ pairs through the admin
//! queue. Shared by the front end's driver-like tests and the datapath co-simulation's host, so
//! both lay out host memory the same way and issue the same register writes at the same cycles.

use ssdlab_model::encoding::nvme::opc;
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::Cycle;

/// Admin SQ and CQ in host memory.
pub const ASQ_BASE: u64 = 0x10_0000;
pub const ACQ_BASE: u64 = 0x11_0000;
/// MSI-X message address of vector 0 (vector v at + 4 v).
pub const MSI_ADDR: u64 = 0xFEE0_0000;

/// I/O SQ q in host memory.
pub fn sq_base(q: u16) -> u64 {
    0x30_0000 + 0x1_0000 * q as u64
}
/// I/O CQ q in host memory.
pub fn cq_base(q: u16) -> u64 {
    0x20_0000 + 0x1_0000 * q as u64
}

/// A host action at a cycle: a register write (offset, value) or bytes put into host memory.
#[derive(Clone, Debug)]
pub enum Act {
    Mmio(u32, u32),
    Put(u64, Vec<u8>),
}

/// Controller init with MSI-X vectors `0..msix_vectors` (message data 0x40 + v), admin queues
/// of 8 entries (16 or 32 when the creates need more than 7 or 15 slots), CC.EN (4 KiB pages, 64 B SQEs,
/// 16 B CQEs) once the MSI-X writes are done (cycle 30 for up to 4 vectors), then Create I/O
/// CQ/SQ pairs 1..=`pairs` (CQ q on vector q, interrupts on; SQ q with QPRIO `qprio[q - 1]`, 0
/// if absent) with `sq_entries`/`cq_entries` entries, all through one admin SQ doorbell.
pub fn driver_init(
    msix_vectors: u32,
    pairs: u16,
    sq_entries: u32,
    cq_entries: u32,
    qprio: &[u32],
) -> Vec<(Cycle, Act)> {
    assert!(
        (pairs as usize) < ssdlab_hdl::nvme::QUEUE_PAIRS,
        "at most 8 I/O queue pairs"
    );
    // A queue of n entries holds n - 1 commands: the creates need 2 per pair.
    let admin_entries: u32 = (2 * pairs as u32 + 1).next_power_of_two().max(8);
    let mut v = vec![
        (
            0,
            Act::Mmio(AQA, ((admin_entries - 1) << 16) | (admin_entries - 1)),
        ),
        (2, Act::Mmio(ASQ, ASQ_BASE as u32)),
        (4, Act::Mmio(ACQ, ACQ_BASE as u32)),
    ];
    for vec in 0..msix_vectors {
        let t = 6 + 6 * vec as u64;
        v.push((
            t,
            Act::Mmio(MSIX_TABLE + 16 * vec, MSI_ADDR as u32 + 4 * vec),
        ));
        v.push((t + 2, Act::Mmio(MSIX_TABLE + 16 * vec + 8, 0x40 + vec)));
        v.push((t + 4, Act::Mmio(MSIX_TABLE + 16 * vec + 12, 0)));
    }
    let cc_en = 30.max(6 + 6 * msix_vectors as u64);
    v.push((cc_en, Act::Mmio(CC, CC_EN | (6 << 16) | (4 << 20))));
    let mut slot = 0u32;
    for q in 1..=pairs {
        let mut cq = Sqe::new(opc::ADMIN_CREATE_IO_CQ, 100 + slot as u16, 0, cq_base(q), 0);
        cq.cdw10 = q as u32 | ((cq_entries - 1) << 16);
        cq.cdw11 = 0x3 | ((q as u32) << 16);
        v.push((
            cc_en + 2,
            Act::Put(ASQ_BASE + 64 * slot as u64, cq.encode().to_vec()),
        ));
        slot += 1;
        let mut sq = Sqe::new(opc::ADMIN_CREATE_IO_SQ, 100 + slot as u16, 0, sq_base(q), 0);
        sq.cdw10 = q as u32 | ((sq_entries - 1) << 16);
        sq.cdw11 =
            0x1 | (qprio.get(q as usize - 1).copied().unwrap_or(0) << 1) | ((q as u32) << 16);
        v.push((
            cc_en + 2,
            Act::Put(ASQ_BASE + 64 * slot as u64, sq.encode().to_vec()),
        ));
        slot += 1;
    }
    v.push((cc_en + 4, Act::Mmio(sq_doorbell(0), slot)));
    v
}
