//! The timed drive keeps the FTL's erase barrier (`erase_hold.rs`, `ftl/erase_order.rs`): with
//! `ftl.persistence`, a relocation erase is never running while a data or journal program
//! dispatched before it is still pending; without the journal the same workload does run
//! erases ahead of earlier programs (so the check sees the case the barrier removes).

use super::super::*;
use crate::ftl::erase_order::counted_program;
use crate::ftl::NandOpKind;
use crate::rng::SeedTree;
use rand::Rng;

/// Small blocks (48 word lines), 48 blocks per plane, 22 % OP (as `tests/reloc.rs`), a 4 MiB
/// checkpoint interval (a one-block journal area per die), filled
/// and overwritten at random functionally, so timed writes relocate from the start.
fn gc_drive(journal: bool) -> Drive {
    let mut c = DriveConfig::default_drive_without_fold();
    c.geometry.blocks_per_plane = 48;
    c.geometry.wordlines_per_block = 48;
    c.ftl.over_provisioning_pct = 22.0;
    c.ftl.slc_cache.static_blocks_per_plane = 1;
    c.ftl.gc_threshold_free_blocks = 4;
    c.ftl.persistence.enabled = journal;
    c.ftl.persistence.checkpoint_journal_mib = 4;
    let mut d = Drive::new(&c, 1).unwrap();
    let cap = d.capacity_bytes();
    d.functional_write(0, cap).unwrap();
    let mut rng = SeedTree::new(1).stream("erase-hold", 0);
    let units = cap / 4096;
    let offsets: Vec<u64> = (0..2 * units)
        .map(|_| rng.gen_range(0..units) * 4096)
        .collect();
    d.functional_write_many(&offsets, 4096).unwrap();
    d
}

/// Running relocation erases (on data blocks) with a data or journal program dispatched
/// before them and not done, counted over the live op records.
fn erases_ahead_of_programs(d: &Drive) -> u64 {
    let p = d.ftl.layout().plan;
    let data_blocks = p.general_blocks + p.static_slc_blocks;
    let mut free = vec![false; d.ops.len()];
    for &i in &d.free_ops {
        free[i as usize] = true;
    }
    let live = || (0..d.ops.len()).filter(|&i| !free[i] && !d.ops[i].done);
    let mut n = 0;
    for e in live().map(|i| &d.ops[i]) {
        let running = e.issued != u64::MAX;
        if e.op.kind == NandOpKind::Erase && running && e.op.addr.block < data_blocks {
            let before = |i: usize| counted_program(&d.ops[i].op) && d.ops[i].sent < e.sent;
            n += live().any(before) as u64;
        }
    }
    n
}

/// 1024 random 128 KiB writes (128 MiB: about two 4.5 MiB blocks per die) at queue depth 32
/// on [`gc_drive`], every engine event followed by the check. Returns (event-steps with an erase ahead of an earlier program, the most erases
/// held at once).
fn run_checked(journal: bool) -> (u64, usize) {
    let mut d = gc_drive(journal);
    let mut rng = SeedTree::new(2).stream("erase-hold-timed", 0);
    let chunks = d.capacity_bytes() / (128 << 10);
    let (mut submitted, mut completed) = (0u64, 0u64);
    let (mut bad, mut held) = (0u64, 0usize);
    while completed < 1024 {
        while submitted < 1024 && submitted - completed < 32 {
            let io = HostIo {
                op: IoOp::Write,
                offset: rng.gen_range(0..chunks) * (128 << 10),
                len: 128 << 10,
                queue: (submitted % 8) as u16,
            };
            d.submit(io).unwrap();
            submitted += 1;
        }
        let Some((at, ev)) = d.q.pop() else { break };
        d.handle(at, ev);
        completed += d.done_buf.len() as u64;
        d.done_buf.clear();
        bad += erases_ahead_of_programs(&d);
        held = held.max(d.held_erases.len());
    }
    assert_eq!(completed, 1024, "writes did not complete");
    (bad, held)
}

#[test]
fn with_the_journal_no_relocation_erase_runs_ahead_of_an_earlier_program() {
    let (bad, held) = run_checked(true);
    assert_eq!(bad, 0);
    assert!(held > 0, "no erase was held: the case is not exercised");
    let (bad, held) = run_checked(false);
    assert!(
        bad > 0,
        "without the journal erases do overtake earlier programs"
    );
    assert_eq!(held, 0);
}
