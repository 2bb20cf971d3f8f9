//! Property: through any mix of writes, trims, reads, flushes and idle time (so through GC,
//! folding, wear levelling and translation-log recycling) every read returns the latest version
//! written, on a tiny drive whose logical space is filled completely first. Every failure message
//! carries the seed; rerun one seed with `run_random_ops(seed, ops)`.

use super::*;
use crate::config::GcPolicyKind;
use crate::time::SimTime;
use proptest::prelude::*;
use rand::Rng;

/// 4 dies x 2 planes x 52 blocks of 4 word lines: 96 units per die-block, 19 968 raw units;
/// 20 % OP exports 15 974 units.
fn tiny_cfg(seed: u64) -> DriveConfig {
    let mut c = small_cfg();
    c.geometry.blocks_per_plane = 52;
    c.geometry.wordlines_per_block = 4;
    c.ftl.over_provisioning_pct = 20.0;
    c.ftl.wear_level_delta_pe_cycles = 3 + (seed % 5) as u32;
    c.ftl.read_ahead_kib = [0, 64, 512][(seed % 3) as usize];
    c.ftl.gc_policy = if seed.is_multiple_of(2) {
        GcPolicyKind::Greedy
    } else {
        GcPolicyKind::CostBenefit
    };
    if seed % 4 == 3 {
        // DRAM-less: one cached translation page, the rest in the flash log.
        c.controller.dram_mb = 0;
        c.ftl.map_cache.dram_table_mb = 0;
    }
    c.ftl.slc_cache.enabled = seed % 5 != 4;
    c.validate().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    c
}

/// Runs `n_ops` random operations; Err names the seed, the op index and the first violation.
pub fn run_random_ops(seed: u64, n_ops: u64) -> Result<(), String> {
    let cfg = tiny_cfg(seed);
    let mut f = ftl(&cfg);
    let n = f.logical_units();
    fill_sequential(&mut f, 64, 1);
    let mut rng = SeedTree::new(seed).stream("ftl-property", 0);
    let mut ops = Vec::new();
    for i in 0..n_ops {
        let lpn = rng.gen_range(0..n);
        let room = (n - lpn).min(64) as u32;
        match rng.gen_range(0..100) {
            0..=54 => {
                f.host_write(lpn, rng.gen_range(1..=room.min(16)), &mut ops);
            }
            55..=59 => f.trim(lpn, rng.gen_range(1..=room)),
            60..=89 => {
                let c = rng.gen_range(1..=room);
                let r = f.host_read(lpn, c, &mut ops);
                if r.nand_units + r.buffered_units + r.unmapped_units != c {
                    return Err(format!(
                        "seed {seed} op {i}: read outcome {r:?} does not add up to {c}"
                    ));
                }
            }
            90..=92 => f.flush(&mut ops),
            _ => {
                let idle = SimTime::from_us([500, 2_000, 60_000, 150_000][rng.gen_range(0..4)]);
                for _ in 0..rng.gen_range(1..8) {
                    if !f.idle_work(idle, &mut ops) {
                        break;
                    }
                }
            }
        }
        ops.clear();
        if f.stats().integrity_violations != 0 {
            return Err(format!(
                "seed {seed} op {i}: {}",
                f.integrity_failure().unwrap_or("?")
            ));
        }
    }
    // Finally read everything back.
    let mut lpn = 0;
    while lpn < n {
        let c = (n - lpn).min(256) as u32;
        f.host_read(lpn, c, &mut ops);
        ops.clear();
        lpn += c as u64;
    }
    match f.integrity_failure() {
        None => Ok(()),
        Some(e) => Err(format!("seed {seed} final sweep: {e}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn no_lost_or_stale_reads(seed in any::<u64>()) {
        let r = run_random_ops(seed, 6_000);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

#[test]
fn random_ops_exercise_gc_folding_wear_levelling() {
    // Not a property: checks that the random mix above really reaches the mechanisms.
    let seed = 10; // greedy, SLC on, read-ahead 64 KiB
    let cfg = tiny_cfg(seed);
    let mut f = ftl(&cfg);
    fill_sequential(&mut f, 64, 1);
    let n = f.logical_units();
    random_writes(&mut f, 3 * n, seed);
    let mut ops = Vec::new();
    let mut calls = 0;
    while f.idle_work(SimTime::from_ms(200), &mut ops) {
        ops.clear();
        calls += 1;
        assert!(calls < 10_000, "idle work does not settle");
    }
    let s = f.stats();
    assert!(
        s.gc_blocks > 0 && s.fold_blocks > 0 && s.wl_blocks > 0,
        "{s:?}"
    );
    assert_integrity(&f, "mechanisms");
}

/// `make test-slow`: millions of random operations over many seeds.
#[test]
#[ignore]
fn no_lost_or_stale_reads_millions_of_ops() {
    for seed in 0..100 {
        run_random_ops(seed, 100_000).unwrap();
    }
}
