//! Functional warm-up (ops dropped) and timed warm-up (ops executed in order by the test
//! executor, which also checks the NAND rules) reach identical FTL state.

use super::executor::Executor;
use super::*;
use crate::time::SimTime;
use rand::Rng;

fn warm(f: &mut Ftl, mut exec: Option<&mut Executor>) {
    let mut rng = SeedTree::new(99).stream("warmup-equivalence", 0);
    let n = f.logical_units();
    let mut ops = Vec::new();
    let mut step = |f: &mut Ftl, lpn: u64, c: u32, ops: &mut Vec<NandOp>| {
        if exec.is_none() {
            // Functional: the warm-up call, which builds no NAND ops at all.
            f.warm_up(lpn, c);
            return;
        }
        f.host_write(lpn, c, ops);
        if let Some(e) = exec.as_deref_mut() {
            let t = e.run(ops);
            e.advance(t);
            // A timed drive offers idle time between commands; none is long enough to act on.
            ops.clear();
            assert!(!f.idle_work(SimTime::ZERO, ops));
            e.run(ops);
        }
        ops.clear();
    };
    for _ in 0..2 {
        for lpn in (0..n).step_by(256) {
            step(f, lpn, 256.min((n - lpn) as u32), &mut ops);
        }
    }
    for _ in 0..n {
        step(f, rng.gen_range(0..n), 1, &mut ops);
    }
}

#[test]
fn functional_and_timed_warm_up_reach_identical_state() {
    let cfg = small_cfg();
    let mut functional = ftl(&cfg);
    warm(&mut functional, None);
    let mut timed = ftl(&cfg);
    let mut ex = Executor::new(&cfg);
    warm(&mut timed, Some(&mut ex));
    assert!(ex.ops_done > 10_000);
    assert_eq!(functional.state_digest(), timed.state_digest());
    assert_eq!(functional.stats(), timed.stats());
    for lpn in (0..cfg_units(&functional)).step_by(101) {
        assert_eq!(functional.lookup(lpn), timed.lookup(lpn), "lpn {lpn}");
    }
}

fn cfg_units(f: &Ftl) -> u64 {
    f.logical_units()
}

/// The batched warm-up path (`host_write_units`, with software prefetch) must be a pure speed-up:
/// the same random sequence written one unit per call and in batches gives the same FTL state
/// digest, the same statistics and the same NAND ops in the same order — through foreground GC
/// (the sequence is 1.5 x the logical space after a full fill) and with a DRAM table cache too
/// small for the table (translation-page reads and write-backs in the op stream).
#[test]
fn batched_functional_writes_equal_one_at_a_time() {
    for small_dram in [false, true] {
        let mut cfg = small_cfg();
        if small_dram {
            // 88 473 entries / 4096 per 16 KiB page = 22 translation pages; 0 MiB of DRAM table
            // leaves the minimum of one cached page, so most accesses miss.
            cfg.ftl.map_cache.dram_table_mb = 0;
        }
        let (mut one, mut batched, mut warm) = (ftl(&cfg), ftl(&cfg), ftl(&cfg));
        fill_sequential(&mut one, 256, 1);
        fill_sequential(&mut batched, 256, 1);
        fill_sequential(&mut warm, 256, 1);
        let n = one.logical_units();
        let mut rng = SeedTree::new(7).stream("batch-equivalence", small_dram as u64);
        let seq: Vec<u64> = (0..n * 3 / 2).map(|_| rng.gen_range(0..n)).collect();
        let (mut ops_one, mut ops_batched) = (Vec::new(), Vec::new());
        for &lpn in &seq {
            one.host_write(lpn, 1, &mut ops_one);
        }
        // Uneven batch sizes: batch boundaries must not matter either.
        for chunk in seq.chunks(1000) {
            batched.host_write_units(&chunk[..chunk.len() / 3], &mut ops_batched);
            batched.host_write_units(&chunk[chunk.len() / 3..], &mut ops_batched);
            // The warm-up call builds no ops; its state and statistics must not differ.
            warm.warm_up_units(&chunk[..chunk.len() / 2]);
            warm.warm_up_units(&chunk[chunk.len() / 2..]);
        }
        let what = format!("seed 7, small_dram {small_dram}");
        assert!(
            one.stats().gc_blocks > 0,
            "{what}: the sequence must exercise GC"
        );
        assert_eq!(
            small_dram,
            one.stats().map_reads > 0,
            "{what}: table-cache misses iff the cache is small"
        );
        assert_eq!(one.state_digest(), batched.state_digest(), "{what}");
        assert_eq!(one.stats(), batched.stats(), "{what}");
        assert!(
            ops_one == ops_batched,
            "{what}: op streams differ ({} vs {} ops)",
            ops_one.len(),
            ops_batched.len()
        );
        assert_eq!(one.integrity_failure(), None, "{what}");
        assert_eq!(
            one.state_digest(),
            warm.state_digest(),
            "{what}: warm_up_units"
        );
        assert_eq!(one.stats(), warm.stats(), "{what}: warm_up_units");
    }
}

/// Relocation has two paths with one meaning: unit by unit with firmware's mapping check of
/// every spare-area lpn (taken when mapping accesses have effects — here forced by the map
/// trace), and row segments driven by the valid bitmap. Both must leave the same state, the same
/// statistics and the same op stream, through GC, folding and wear levelling.
#[test]
fn batched_relocation_equals_unit_by_unit() {
    let mut cfg = small_cfg();
    // A tight wear-levelling spread so that static wear levelling moves data too.
    cfg.ftl.wear_level_delta_pe_cycles = 2;
    // `warm` takes the row path without ops (64 units per bitmap step) for its host writes.
    let (mut traced, mut plain, mut warm) = (ftl(&cfg), ftl(&cfg), ftl(&cfg));
    traced.set_map_trace(true);
    let n = traced.logical_units();
    let mut rng = SeedTree::new(11).stream("reloc-equivalence", 0);
    let (mut ops_traced, mut ops_plain) = (Vec::new(), Vec::new());
    for f in [&mut traced, &mut plain, &mut warm] {
        fill_sequential(f, 256, 1);
    }
    let wl_before = plain.stats().wl_units_moved;
    for _ in 0..n * 2 {
        let lpn = rng.gen_range(0..n);
        traced.host_write(lpn, 1, &mut ops_traced);
        plain.host_write(lpn, 1, &mut ops_plain);
        warm.warm_up(lpn, 1);
    }
    let s = plain.stats();
    assert!(
        s.fold_units_moved > 0 && s.wl_units_moved > wl_before,
        "seed 11: host writes must fold and wear-level: {s:?}"
    );
    assert_eq!(
        warm.state_digest(),
        plain.state_digest(),
        "seed 11: warm_up"
    );
    assert_eq!(warm.stats(), plain.stats(), "seed 11: warm_up");
    let mut ops_warm = Vec::new();
    for _ in 0..64 {
        traced.idle_work(SimTime::from_ms_f64(1e4), &mut ops_traced);
        plain.idle_work(SimTime::from_ms_f64(1e4), &mut ops_plain);
        warm.idle_work(SimTime::from_ms_f64(1e4), &mut ops_warm);
    }
    assert_eq!(
        warm.state_digest(),
        plain.state_digest(),
        "seed 11: warm_up, then idle work"
    );
    let s = plain.stats();
    assert!(
        s.gc_units_moved > 0 && s.fold_units_moved > 0 && s.wl_units_moved > 0,
        "seed 11: GC, folding and wear levelling must all move data: {s:?}"
    );
    assert!(
        !traced.take_map_trace().is_empty(),
        "seed 11: the traced run must take the unit path"
    );
    assert_eq!(traced.state_digest(), plain.state_digest(), "seed 11");
    assert_eq!(traced.stats(), plain.stats(), "seed 11");
    assert!(
        ops_traced == ops_plain,
        "seed 11: op streams differ ({} vs {} ops)",
        ops_traced.len(),
        ops_plain.len()
    );
}
