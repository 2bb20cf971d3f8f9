//! Issue 3's "done when", measured in ops on the scaled-down drive: precondition functionally
//! (2x full sequential 1 MiB, 2x full random 4 KiB), then steady-state write amplification > 2,
//! 128 KiB sequential reads need far more page reads after the random overwrite than fresh and
//! recover after a sequential overwrite, and (timed by the test executor) random-write IOPS far
//! below fresh.

use super::executor::Executor;
use super::*;

/// Average read ops per 128 KiB (32-unit) sequential read over [0, units).
fn page_reads_per_128k(f: &mut Ftl, units: u64) -> f64 {
    let mut ops = Vec::new();
    let (mut reads, mut n) = (0u64, 0u64);
    let mut lpn = 0;
    while lpn + 32 <= units {
        f.host_read(lpn, 32, &mut ops);
        reads += ops.iter().filter(|o| o.kind == NandOpKind::Read).count() as u64;
        ops.clear();
        n += 1;
        lpn += 32;
    }
    reads as f64 / n as f64
}

/// Random 4 KiB writes per second of simulated time, the drive saturated (early completion: the
/// host never waits; NAND work is the bound).
fn random_write_iops(f: &mut Ftl, cfg: &DriveConfig, writes: u64, seed: u64) -> f64 {
    use rand::Rng;
    let mut ex = Executor::from_ftl(cfg, f);
    let mut rng = SeedTree::new(seed).stream("done-when-iops", 0);
    let mut ops = Vec::new();
    let mut end = 0;
    for _ in 0..writes {
        f.host_write(rng.gen_range(0..f.logical_units()), 1, &mut ops);
        end = end.max(ex.run(&ops));
        ops.clear();
    }
    writes as f64 / (end as f64 / 1e12)
}

#[test]
fn steady_state_after_random_overwrite_and_recovery() {
    let mut cfg = small_cfg();
    cfg.ftl.read_ahead_kib = 0; // count every page read in the host read's own ops
    let n = ftl(&cfg).logical_units();
    let range = n / 4;

    let mut fresh = ftl(&cfg);
    let fresh_iops = random_write_iops(&mut fresh, &cfg, 4_000, 1);

    let mut f = ftl(&cfg);
    fill_sequential(&mut f, 256, 1);
    // A sequentially written range: rows of 8 units (1 page x 2 planes) hold consecutive lpns,
    // so 32 units need 4 (multi-plane) reads, 5 when a read straddles program-unit boundaries.
    let fresh_reads = page_reads_per_128k(&mut f, range);
    assert!(fresh_reads <= 5.0, "fresh: {fresh_reads} reads per 128 KiB");
    fill_sequential(&mut f, 256, 1);
    random_writes(&mut f, 2 * n, 11);
    assert_integrity(&f, "preconditioning");

    let before = f.stats().clone();
    let steady_iops = random_write_iops(&mut f, &cfg, 4_000, 2);
    random_writes(&mut f, n / 2, 12);
    let s = f.stats();
    let wa = (s.nand_units_written - before.nand_units_written) as f64
        / (s.host_units_written - before.host_units_written) as f64;
    assert!(wa > 2.0, "steady-state WA {wa}");
    // Fresh writes land in SLC on idle dies; steady-state writes go to TLC behind GC.
    assert!(
        steady_iops < fresh_iops / 3.0,
        "random write IOPS fresh {fresh_iops:.0}, steady {steady_iops:.0}"
    );

    // After two random passes ~86 % of units (1 - e^-2) were last written by a random 4 KiB write
    // and sit alone in their page: a 128 KiB read needs nearly one read per unit.
    let scattered = page_reads_per_128k(&mut f, range);
    assert!(
        scattered >= 20.0 && scattered >= 4.0 * fresh_reads,
        "after random overwrite: {scattered} vs fresh {fresh_reads}"
    );

    // Sequential overwrite of the test range with 128 KiB writes: contiguous again.
    let mut ops = Vec::new();
    for lpn in (0..range).step_by(32) {
        f.host_write(lpn, 32.min((range - lpn) as u32), &mut ops);
        ops.clear();
    }
    let recovered = page_reads_per_128k(&mut f, range);
    assert!(recovered <= 6.0, "after sequential overwrite: {recovered}");
    assert_integrity(&f, "done-when");
    eprintln!(
        "done-when (small drive): reads/128KiB fresh {fresh_reads:.2}, scattered {scattered:.2}, recovered {recovered:.2}; \
         WA {wa:.2}; random write IOPS fresh {fresh_iops:.0} steady {steady_iops:.0}"
    );
}
