//! Background work (idle-time SLC folding) yields to host IO between NAND operations.

use super::super::*;
use crate::ftl::OpPurpose;

#[test]
fn a_read_after_idle_waits_behind_at_most_two_background_ops_per_die() {
    // 256 MiB written sequentially land in the SLC cache. 120 ms of idle: the FTL starts folding
    // one SLC block into TLC at 100 ms (`idle_fold_threshold_ms`); a block holds 384 pages x 2
    // planes x 4 units = 3072 units = 128 one-shot TLC programs of 1.6 ms, ~0.2 s of die time,
    // so most of it is still queued when the window ends. A 1 MiB read submitted then touches
    // every die. Before the die runs host ops it only finishes the background ops already
    // started: at most BG_INFLIGHT_PER_DIE = 2, each at most an erase (TLC 6 ms), so the read
    // completes within 2 x 6 ms + 1 ms of read path; queued behind the whole fold it would take
    // > 100 ms.
    let cfg = DriveConfig::default_drive_without_fold();
    let mut d = Drive::new(&cfg, 3).unwrap();
    d.functional_write(0, 256 << 20).unwrap();
    let mut done = Vec::new();
    d.idle(SimTime::from_ms(120), &mut done).unwrap();
    let folded_before = d.stats().nand_op_count(OpPurpose::FoldWrite);
    assert!(
        folded_before > 0,
        "no fold started in the idle window: {:?}",
        d.stats().nand_ops
    );
    let t0 = d.now();
    d.submit(HostIo {
        op: IoOp::Read,
        offset: 0,
        len: 1 << 20,
        queue: 0,
    })
    .unwrap();
    let mut done = Vec::new();
    while d.run_until_completion(&mut done) && done.is_empty() {}
    assert_eq!(done.len(), 1);
    let latency = done[0].completed - t0;
    assert!(
        latency < SimTime::from_ms(13),
        "1 MiB read after idle took {latency}"
    );
    // The rest of the fold resumes in the next idle period.
    let folded_mid = d.stats().nand_op_count(OpPurpose::FoldWrite);
    d.idle(SimTime::from_secs(1), &mut done).unwrap();
    let s = d.stats();
    assert!(
        s.nand_op_count(OpPurpose::FoldWrite) > folded_mid,
        "fold did not resume: {:?}",
        s.nand_ops
    );
    assert!(
        s.nand_op_count(OpPurpose::Erase) > 0,
        "no folded block erased: {:?}",
        s.nand_ops
    );
}
