//! Rejections waiting on a full completion queue (HDL against the model): a command the front
//! end rejects keeps its fetch tag until the completion engine takes it, so fetching of other
//! queues goes on behind a full CQ, and a second rejection arriving meanwhile waits in its own
//! tag instead of being lost; only when the engine and all four tags hold rejections does
//! fetching wait for the host.

use super::{compare, cq_base, cqe_at, init_sized, run_both, sq_base, Act};
use ssdlab_model::encoding::nvme::{opc, Status};
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::TlpKind;

fn put(q: u16, slot: u64, s: Sqe) -> Act {
    Act::Put(sq_base(q) + 64 * slot, s.encode().to_vec())
}

#[test]
fn rejections_behind_a_full_cq_neither_stall_fetching_nor_get_lost() {
    // SQs of 8 entries, CQs of 4 (a CQ holds 3: full when tail + 1 == head).
    let mut acts = init_sized(2, 8, 4);
    // Three flushes fill CQ1 (slots 0, 1, 2); the host does not release it yet.
    for (slot, cid) in [(0u64, 1u16), (1, 2), (2, 3)] {
        acts.push((800, put(1, slot, Sqe::new(opc::NVM_FLUSH, cid, 1, 0, 0))));
    }
    acts.push((800, Act::Mmio(sq_doorbell(1), 3)));
    // Two bad commands on SQ1: opcode 7Fh (→ 01h) and an SGL read (PSDT 01b → 02h). The first
    // is taken by the completion engine and waits for CQ1; the second waits in its tag.
    let mut sgl = Sqe::new(opc::NVM_READ, 5, 1, 0x40_0000, 0);
    sgl.psdt = 0b01;
    acts.push((1100, put(1, 3, Sqe::new(0x7F, 4, 1, 0, 0))));
    acts.push((1100, put(1, 4, sgl)));
    acts.push((1100, Act::Mmio(sq_doorbell(1), 5)));
    // Meanwhile three flushes on SQ2: they are fetched and handed on with CQ1 still full.
    for (slot, cid) in [(0u64, 20u16), (1, 21), (2, 22)] {
        acts.push((1400, put(2, slot, Sqe::new(opc::NVM_FLUSH, cid, 2, 0, 0))));
    }
    acts.push((1400, Act::Mmio(sq_doorbell(2), 3)));
    // The host consumes CQ1's three entries: head 3.
    acts.push((1800, Act::Mmio(cq_doorbell(1), 3)));
    let (h, m) = run_both(&acts, 2200);
    compare(&h, &m);
    let db = h
        .mmio_log
        .iter()
        .find(|(o, _)| *o == cq_doorbell(1))
        .expect("CQ1 head doorbell")
        .1;
    // Fetching went on: SQ2's commands were handed on before the host released CQ1.
    let q2: Vec<(u64, u16)> = h
        .handed
        .iter()
        .filter(|x| x.1 == 2)
        .map(|x| (x.0, x.2.cid))
        .collect();
    assert_eq!(q2.iter().map(|x| x.1).collect::<Vec<_>>(), vec![20, 21, 22]);
    assert!(
        q2.iter().all(|x| x.0 < db),
        "SQ2 commands handed on at {q2:?}, CQ1 released at {db}"
    );
    // Rejected commands are never handed on.
    let q1: Vec<u16> = h
        .handed
        .iter()
        .filter(|x| x.1 == 1)
        .map(|x| x.2.cid)
        .collect();
    assert_eq!(q1, vec![1, 2, 3]);
    // Nothing is posted between filling CQ1 and the doorbell (the engine holds the first
    // rejection, head of line); then CQ1 slot 3 (phase 1), CQ1 slot 0 (wrapped: phase 0),
    // then CQ2 slots 0, 1, 2.
    let cqes: Vec<(u64, u64)> =
        h.rc.seen
            .iter()
            .filter(|s| s.kind == TlpKind::MemWrite && s.len == 16 && s.addr >= cq_base(1))
            .map(|s| (s.addr, s.cycle))
            .collect();
    let addrs: Vec<u64> = cqes.iter().map(|c| c.0).collect();
    let (c1, c2) = (cq_base(1), cq_base(2));
    assert_eq!(
        addrs,
        vec![c1, c1 + 16, c1 + 32, c1 + 48, c1, c2, c2 + 16, c2 + 32]
    );
    assert!(
        cqes[2].1 < db && cqes[3].1 > db,
        "CQ1 full until the doorbell"
    );
    // Doorbell data beat at db: strobe db + 1, head updated for db + 2, the registered full
    // flag clears for db + 3 (offered), CQE header db + 4.
    assert_eq!(
        cqes[3].1,
        db + 4,
        "held rejection leaves 4 cycles after the head doorbell"
    );
    let s3 = cqe_at(&h, c1 + 48);
    assert_eq!(
        (s3.cid, s3.status, s3.phase, s3.sqid),
        (4, Status::INVALID_OPCODE, true, 1)
    );
    let s0 = cqe_at(&h, c1);
    assert_eq!(
        (s0.cid, s0.status, s0.phase, s0.sqid),
        (5, Status::INVALID_FIELD, false, 1)
    );
    let q2c: Vec<(u16, Status)> = (0..3)
        .map(|i| cqe_at(&h, c2 + 16 * i))
        .map(|c| (c.cid, c.status))
        .collect();
    assert_eq!(
        q2c,
        vec![
            (20, Status::SUCCESS),
            (21, Status::SUCCESS),
            (22, Status::SUCCESS)
        ]
    );
}

/// The bound: with the completion engine holding one rejection for a full CQ and the other four
/// in the four fetch tags, fetching stops for every queue until the host frees the CQ (the
/// storage a rejection needs is its tag; nothing is dropped).
#[test]
fn five_rejections_behind_a_full_cq_hold_every_tag_until_the_head_doorbell() {
    // SQs of 16 entries, CQs of 8 (a CQ holds 7).
    let mut acts = init_sized(2, 16, 8);
    for slot in 0..7u64 {
        acts.push((
            800,
            put(1, slot, Sqe::new(opc::NVM_FLUSH, 1 + slot as u16, 1, 0, 0)),
        ));
    }
    acts.push((800, Act::Mmio(sq_doorbell(1), 7)));
    // Five unsupported opcodes (cids 11..=15) once CQ1 is full.
    for i in 0..5u64 {
        acts.push((1500, put(1, 7 + i, Sqe::new(0x7F, 11 + i as u16, 1, 0, 0))));
    }
    acts.push((1500, Act::Mmio(sq_doorbell(1), 12)));
    // SQ2 rings after the rejections hold every tag.
    acts.push((2200, put(2, 0, Sqe::new(opc::NVM_FLUSH, 20, 2, 0, 0))));
    acts.push((2200, Act::Mmio(sq_doorbell(2), 1)));
    // The host consumes CQ1's seven entries: head 7.
    acts.push((2600, Act::Mmio(cq_doorbell(1), 7)));
    let (h, m) = run_both(&acts, 3200);
    compare(&h, &m);
    let db = h
        .mmio_log
        .iter()
        .find(|(o, _)| *o == cq_doorbell(1))
        .expect("CQ1 head doorbell")
        .1;
    let sq2: Vec<u64> =
        h.rc.seen
            .iter()
            .filter(|s| s.kind == TlpKind::MemRead && s.addr == sq_base(2))
            .map(|s| s.cycle)
            .collect();
    assert_eq!(sq2.len(), 1, "SQ2's command fetched once");
    assert!(
        sq2[0] > db,
        "SQ2 fetched at {} although all tags were held until the doorbell at {db}",
        sq2[0]
    );
    // The five rejections land in CQ1 slots 7, 0, 1, 2, 3 in fetch order, status 01h; slot 7
    // closes the first pass (phase 1), slots 0-3 are the second pass (phase 0).
    let got: Vec<(u16, Status, bool)> = [7u64, 0, 1, 2, 3]
        .iter()
        .map(|s| cqe_at(&h, cq_base(1) + 16 * s))
        .map(|c| (c.cid, c.status, c.phase))
        .collect();
    let want: Vec<(u16, Status, bool)> = (11..=15)
        .map(|cid| (cid, Status::INVALID_OPCODE, cid == 11))
        .collect();
    assert_eq!(got, want);
    let handed: Vec<u16> = h
        .handed
        .iter()
        .filter(|x| x.1 != 0)
        .map(|x| x.2.cid)
        .collect();
    assert_eq!(
        handed,
        vec![1, 2, 3, 4, 5, 6, 7, 20],
        "rejected commands are not handed on"
    );
}
