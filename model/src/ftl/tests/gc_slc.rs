//! GC, write amplification, SLC cache (static, dynamic, folding), wear levelling.

use super::*;
use crate::config::GcPolicyKind;
use crate::nand::CellMode;
use crate::time::SimTime;

#[test]
fn dynamic_slc_shrinks_as_the_drive_fills_and_writes_go_to_tlc() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    let mut ops = Vec::new();
    // Fresh: 125 general blocks per die free; quota = (125 - (6 + 3)) * 0.25 = 29 dynamic blocks.
    assert_eq!(f.slc.dynamic_quota(&f.blocks, 0), 29);
    f.host_write(0, 64, &mut ops);
    assert!(ops.iter().all(|o| o.mode == CellMode::Slc));
    fill_sequential(&mut f, 256, 1);
    assert_integrity(&f, "fill");
    // Full drive: few free blocks left, so no dynamic SLC quota; new host data goes to TLC.
    for die in 0..4 {
        assert!(
            f.slc.dynamic_quota(&f.blocks, die) <= 1,
            "die {die}: {}",
            f.slc.dynamic_quota(&f.blocks, die)
        );
    }
    ops.clear();
    f.host_write(0, 24 * 4 * 4, &mut ops);
    let tlc = ops.iter().filter(|o| {
        o.kind == NandOpKind::Program
            && o.mode == CellMode::Tlc
            && o.purpose == OpPurpose::HostWrite
    });
    assert!(
        tlc.count() >= 12,
        "most of 16 host program units must be TLC once the cache is gone"
    );
}

#[test]
fn idle_folds_slc_into_tlc_and_reads_still_return_latest_data() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    let mut ops = Vec::new();
    // 4 dies x 2 static blocks x 64 units = 512 units of static SLC, plus dynamic SLC.
    f.host_write(0, 2048, &mut ops);
    assert!(f.stats().slc_blocks > 0);
    assert_eq!(f.stats().slc_valid_bytes, 2048 * 4096);
    // Idle shorter than the fold threshold: nothing but the buffer flush.
    let early = SimTime::from_ms(2);
    let mut calls = 0;
    while f.idle_work(early, &mut ops) {
        calls += 1;
        assert!(calls < 10);
    }
    assert_eq!(f.stats().fold_blocks, 0);
    assert_eq!(f.next_idle_work_at(early), Some(SimTime::from_ms(100)));
    ops.clear();
    let idle = SimTime::from_ms(100);
    let mut calls = 0;
    while f.idle_work(idle, &mut ops) {
        calls += 1;
        assert!(calls < 1000, "idle work does not terminate");
    }
    assert_eq!(f.stats().slc_valid_bytes, 0, "all SLC data folded");
    assert_eq!(f.stats().fold_units_moved, 2048);
    assert!(ops
        .iter()
        .any(|o| o.purpose == OpPurpose::FoldRead && o.mode == CellMode::Slc));
    assert!(ops
        .iter()
        .any(|o| o.purpose == OpPurpose::FoldWrite && o.mode == CellMode::Tlc));
    let mut rops = Vec::new();
    let r = f.host_read(0, 2048, &mut rops);
    assert_eq!(r.nand_units + r.buffered_units, 2048);
    assert!(rops.iter().all(|o| o.mode == CellMode::Tlc));
    assert_integrity(&f, "after folding");
}

/// Steady-state WA and stats; the stats' `free_blocks` also counts the general blocks whose
/// erase is deferred (`superseded.rs`), which the GC threshold counts as spare.
fn steady_state_wa(policy: GcPolicyKind) -> (f64, FtlStats) {
    let mut cfg = small_cfg();
    cfg.ftl.gc_policy = policy;
    let mut f = ftl(&cfg);
    fill_sequential(&mut f, 256, 1);
    let n = f.logical_units();
    random_writes(&mut f, 2 * n, 7);
    let before = f.stats().clone();
    let n = f.logical_units();
    random_writes(&mut f, n, 8);
    let s = f.stats();
    assert_integrity(&f, "steady state");
    let wa = (s.nand_units_written - before.nand_units_written) as f64
        / (s.host_units_written - before.host_units_written) as f64;
    let mut s = s.clone();
    s.free_blocks = (0..f.l.dies).map(|d| f.spare_blocks(d) as u64).sum();
    (wa, s)
}

#[test]
fn random_overwrite_of_a_full_drive_has_write_amplification_above_two() {
    // 10 % spare: greedy GC on uniform random writes moves most of each victim.
    let (wa, s) = steady_state_wa(GcPolicyKind::Greedy);
    assert!(wa > 2.0, "greedy WA {wa}");
    assert!(s.gc_blocks > 0 && s.gc_units_moved > 0);
    assert!(
        s.free_blocks >= 4 * 3,
        "foreground GC keeps the threshold: {}",
        s.free_blocks
    );
    let (wa_cb, _) = steady_state_wa(GcPolicyKind::CostBenefit);
    assert!(wa_cb > 2.0, "cost-benefit WA {wa_cb}");
}

#[test]
fn static_wear_levelling_moves_cold_data() {
    let mut cfg = small_cfg();
    cfg.ftl.wear_level_delta_pe_cycles = 4;
    let mut f = ftl(&cfg);
    fill_sequential(&mut f, 256, 1);
    // Hot spot: rewrite the first 5 % of the space over and over; the rest stays cold.
    let hot = f.logical_units() / 20;
    let mut ops = Vec::new();
    for i in 0..40 * hot {
        f.host_write(i % hot, 1, &mut ops);
        ops.clear();
    }
    let s = f.stats();
    assert!(
        s.wl_blocks > 0,
        "no wear levelling: erase counts {}..{}",
        s.erase_count_min,
        s.erase_count_max
    );
    assert!(
        s.erase_count_max - s.erase_count_min <= 4 + 4,
        "{}..{}",
        s.erase_count_min,
        s.erase_count_max
    );
    assert_integrity(&f, "wear levelling");
}

/// `slc_cache.fold_when_full` on a fresh small drive with no dynamic SLC: each die has 2 static
/// SLC blocks of 64 units (8 word lines x 2 planes x 4 units). 1280 distinct units spread over
/// the 4 dies are 320 per die = 5 SLC blocks: the first 2 are the free static blocks, and each
/// of the other 3 opens only after the die's oldest static block (64 units, all still valid)
/// is folded. So 4 x 3 = 12 folds of 64 units = 768 units moved, and every host program is SLC.
/// Without it the last 192 units of each die go to one TLC block and nothing is folded.
#[test]
fn fold_when_full_keeps_host_data_in_slc_by_folding_the_oldest_static_block() {
    for on in [true, false] {
        let mut cfg = small_cfg();
        cfg.ftl.slc_cache.dynamic_fraction = 0.0;
        cfg.ftl.slc_cache.fold_when_full = on;
        let mut f = ftl(&cfg);
        let mut ops = Vec::new();
        for lpn in (0..1280).step_by(64) {
            f.host_write(lpn, 64, &mut ops);
        }
        let host_tlc = ops.iter().filter(|o| {
            o.kind == NandOpKind::Program
                && o.purpose == OpPurpose::HostWrite
                && o.mode == CellMode::Tlc
        });
        let s = f.stats();
        if on {
            assert_eq!((s.fold_blocks, s.fold_units_moved), (12, 768));
            assert_eq!(host_tlc.count(), 0, "every host program is SLC");
        } else {
            assert_eq!((s.fold_blocks, s.fold_units_moved), (0, 0));
            // 192 units per die = 8 TLC program units of 24 (one-shot, 2 planes x 3 pages).
            assert_eq!(host_tlc.count(), 4 * 8);
        }
        let mut rops = Vec::new();
        let r = f.host_read(0, 1280, &mut rops);
        assert_eq!(r.nand_units + r.buffered_units, 1280);
        assert_integrity(&f, "fold when full");
    }
}

/// `slc_cache.fold_ahead_blocks = 1` in the drive above: a die folds when it opens its last free
/// static block, not when it needs one. By hand, per die: the 2nd host block (the last free
/// static one) folds the 1st; the 3rd, 4th and 5th each reopen the static block folded before
/// them and, again the last free one, fold the block written before. 4 folds of 64 units per
/// die, 4 x 4 = 16 folds and 1024 units moved (the last host block's fold is ahead of need),
/// and every host program is still SLC. With the small drive's dynamic SLC (a quarter of ~120
/// free blocks per die, far above the 3 more SLC blocks each die needs) nothing is folded: the
/// cache is not used up.
#[test]
fn fold_ahead_folds_when_the_last_free_static_block_opens() {
    for (dynamic, folds, moved) in [(0.0, 16, 1024), (0.25, 0, 0)] {
        let mut cfg = small_cfg();
        cfg.ftl.slc_cache.dynamic_fraction = dynamic;
        cfg.ftl.slc_cache.fold_when_full = true;
        cfg.ftl.slc_cache.fold_ahead_blocks = 1;
        let mut f = ftl(&cfg);
        let mut ops = Vec::new();
        for lpn in (0..1280).step_by(64) {
            f.host_write(lpn, 64, &mut ops);
        }
        let s = f.stats();
        assert_eq!((s.fold_blocks, s.fold_units_moved), (folds, moved));
        let host_tlc = ops.iter().filter(|o| {
            o.kind == NandOpKind::Program
                && o.purpose == OpPurpose::HostWrite
                && o.mode == CellMode::Tlc
        });
        assert_eq!(host_tlc.count(), 0, "every host program is SLC");
        assert_integrity(&f, "fold ahead");
    }
}
