//! Foreground relocation interleaved with host programs (`reloc_queue.rs`): the steady-state
//! write rate no longer depends on the write buffer absorbing whole-victim GC bursts.

use super::super::*;
use crate::rng::{ModelRng, SeedTree};
use rand::Rng;

/// Default drive with small blocks (48 word lines: 48 one-shot TLC program units of 96 KiB per
/// die-block, 4.5 MiB) and 48 blocks per plane (16 dies: 3.4 GiB raw, 22 % OP, one static SLC
/// block per plane), so that a few hundred MiB of writes open several blocks per die; in
/// steady state: one sequential pass, then twice the capacity of uniform random 4 KiB writes
/// (functional), so GC victims are mostly valid. Then 128 KiB random writes at QD32 for 384 MiB,
/// timed, then a flush. Returns (host MB/s until the flush completes, write amplification).
fn steady_random_writes(interleave: bool, buffer_kib: u32) -> (f64, f64) {
    let (mbps, wa, _) = steady_random_writes_spread(interleave, buffer_kib, 1);
    (mbps, wa)
}

/// As [`steady_random_writes`] with `controller.relocation_spread_blocks` = `spread`; also
/// returns the relocation ops still queued when the last write completed (before the flush).
fn steady_random_writes_spread(interleave: bool, buffer_kib: u32, spread: u32) -> (f64, f64, u64) {
    steady_random_writes_with(|c| {
        c.controller.write_buffer_kib = buffer_kib;
        c.controller.interleave_relocation = interleave;
        c.controller.relocation_spread_blocks = spread;
    })
}

/// As [`steady_random_writes_spread`], the drive's config edited by `edit`.
fn steady_random_writes_with(edit: impl FnOnce(&mut DriveConfig)) -> (f64, f64, u64) {
    let (mut d, mut rng) = steady_drive("test-reloc", edit);
    d.reset_stats();
    let chunks = d.capacity_bytes() / (128 << 10);
    let total = 384 * 8; // 384 MiB of 128 KiB writes: ~5 blocks per die
    timed_writes(&mut d, total, || rng.gen_range(0..chunks) * (128 << 10));
    let queued = d.reloc_queued;
    // Writes complete when their data is in the buffer: a flush makes the window end when the
    // data is on flash, so a larger buffer does not count as speed.
    d.submit(HostIo {
        op: IoOp::Flush,
        offset: 0,
        len: 0,
        queue: 0,
    })
    .unwrap();
    let mut done = Vec::new();
    while d.run_until_completion(&mut done) && done.is_empty() {}
    assert_eq!(done.len(), 1, "flush did not complete (seed 1)");
    let s = d.stats();
    let mbps = (total * (128 << 10)) as f64 / s.elapsed.as_secs_f64() / 1e6;
    (mbps, s.write_amplification, queued)
}

/// The small-block drive of [`steady_random_writes`] (config edited by `edit`) in steady state:
/// one sequential pass, then twice the capacity of uniform random 4 KiB writes, both functional.
/// Returns it with the random stream `stream` that drew the offsets, for the timed writes.
fn steady_drive(stream: &str, edit: impl FnOnce(&mut DriveConfig)) -> (Drive, ModelRng) {
    let mut c = DriveConfig::default_drive_without_fold();
    c.geometry.blocks_per_plane = 48;
    c.geometry.wordlines_per_block = 48;
    c.ftl.over_provisioning_pct = 22.0;
    c.ftl.slc_cache.static_blocks_per_plane = 1;
    // The reserve and free-block order these tests were written against (the preset's 16-block
    // queue is sized for 940 blocks per plane; docs/calibration.md).
    c.ftl.gc_threshold_free_blocks = 4;
    c.ftl.free_block_order = crate::config::FreeBlockOrder::LeastWorn;
    edit(&mut c);
    let mut d = Drive::new(&c, 1).unwrap();
    let cap = d.capacity_bytes();
    d.functional_write(0, cap).unwrap();
    let mut rng = SeedTree::new(1).stream(stream, 0);
    let units = cap / 4096;
    let offsets: Vec<u64> = (0..2 * units)
        .map(|_| rng.gen_range(0..units) * 4096)
        .collect();
    d.functional_write_many(&offsets, 4096).unwrap();
    (d, rng)
}

#[test]
fn interleaved_relocation_needs_no_write_buffer_to_absorb_gc() {
    // The FTL's decisions do not depend on timing: same host writes, same victims, same WA.
    let (il_small, wa_small) = steady_random_writes(true, 2048);
    let (il_big, wa_big) = steady_random_writes(true, 32768);
    let (burst_small, _) = steady_random_writes(false, 2048);
    assert!(
        (wa_small - wa_big).abs() < 0.01 * wa_big,
        "WA {wa_small} vs {wa_big} (seed 1)"
    );
    assert!(
        wa_big > 2.0,
        "not in a GC-bound steady state: WA {wa_big} (seed 1)"
    );
    let bound = program_bound_mbps(wa_big);
    assert!(
        il_big <= bound,
        "interleaved {il_big:.0} MB/s above the program bound {bound:.0} (seed 1)"
    );
    // A 2 MiB buffer holds a program unit for every die (16 x 96 KiB = 1.5 MiB): with GC in
    // small steps between host programs no die's host data waits behind a whole victim, so it
    // writes as fast as 32 MiB does (within 10 %).
    assert!(
        il_small > 0.9 * il_big,
        "interleaved: {il_small:.0} MB/s with 2 MiB vs {il_big:.0} with 32 MiB (seed 1)"
    );
    // As one burst per victim (~40 programs of 1.6 ms at WA > 2 on these small blocks), the die's
    // next host program waits that long while 2 MiB fill within ~15 ms: the dies stall with it.
    // (Full-size blocks: ~6 victims of ~320 programs per host block; docs/calibration.md.)
    eprintln!("steady random writes (seed 1): interleaved {il_small:.0} MB/s at 2 MiB, {il_big:.0} at 32 MiB; burst {burst_small:.0} at 2 MiB; WA {wa_big:.2}");
    assert!(
        burst_small < 0.95 * il_small,
        "burst GC with 2 MiB: {burst_small:.0} vs interleaved {il_small:.0} MB/s (seed 1)"
    );
}

#[test]
fn a_wider_relocation_spread_carries_more_cleaning_debt_past_the_writes() {
    // Same host writes, same FTL decisions (victims and WA do not depend on timing); with the
    // queued relocation spread over 3 host blocks instead of 1, more of it is still queued when
    // the last write completes (the debt the next writes or idle time pay), and the writes
    // themselves, which paid less of it, end sooner.
    let (mbps1, wa1, left1) = steady_random_writes_spread(true, 8192, 1);
    let (mbps3, wa3, left3) = steady_random_writes_spread(true, 8192, 3);
    assert!((wa1 - wa3).abs() < 0.01 * wa1, "WA {wa1} vs {wa3} (seed 1)");
    eprintln!("relocation spread 1 / 3 (seed 1): {mbps1:.0} / {mbps3:.0} MB/s, {left1} / {left3} ops left queued, WA {wa1:.2}");
    assert!(
        left3 > left1,
        "spread 3 left {left3} relocation ops queued, spread 1 {left1} (seed 1)"
    );
    assert!(
        mbps3 > mbps1,
        "spread 3: {mbps3:.0} MB/s, spread 1: {mbps1:.0} (seed 1)"
    );
}

#[test]
fn dies_idle_behind_a_stalled_stream_may_run_their_relocation() {
    // Spread 3 on these small blocks: a die's host data regularly waits for the relocation its
    // next block needs, the buffer fills with that die's data, and the stream stops. With the
    // option, the other dies run their queued relocation meanwhile instead of idling. Same FTL
    // decisions (victims, WA); only when the NAND work runs changes.
    let run = |on: bool| {
        steady_random_writes_with(|c| {
            c.controller.write_buffer_kib = 8192;
            c.controller.interleave_relocation = true;
            c.controller.relocation_spread_blocks = 3;
            c.controller.relocation_while_writes_wait = on;
        })
    };
    let (off, wa_off, _) = run(false);
    let (on, wa_on, _) = run(true);
    assert!(
        (wa_off - wa_on).abs() < 0.01 * wa_off,
        "WA {wa_off} vs {wa_on} (seed 1)"
    );
    let bound = program_bound_mbps(wa_on);
    eprintln!("relocation while writes wait, off / on (seed 1): {off:.0} / {on:.0} MB/s, WA {wa_on:.2}, bound {bound:.0}");
    assert!(
        on <= bound,
        "{on:.0} MB/s above the program bound {bound:.0} (seed 1)"
    );
    assert!(
        on > off,
        "idle dies running their relocation: {on:.0} vs {off:.0} MB/s (seed 1)"
    );
}

/// Upper bound on host MB/s at write amplification `wa`, by hand: 16 dies each programming a
/// 96 KiB one-shot TLC unit per tPROG (the default drive's, 1.35 ms: 1165 MB/s of NAND writes), of
/// which 1 / WA is host data.
fn program_bound_mbps(wa: f64) -> f64 {
    let t_prog_s = DriveConfig::default_drive_without_fold().nand.tlc.t_prog_us * 1e-6;
    16.0 * 98_304.0 / t_prog_s / 1e6 / wa
}

/// Runs `total` writes of 128 KiB at QD32 on `d`, offsets from `next`; returns host MB/s from the
/// first submission to the last completion.
fn timed_writes(d: &mut Drive, total: u64, mut next: impl FnMut() -> u64) -> f64 {
    let start = d.now();
    let (mut submitted, mut completed) = (0u64, 0u64);
    let mut done = Vec::new();
    while completed < total {
        while submitted < total && submitted - completed < 32 {
            d.submit(HostIo {
                op: IoOp::Write,
                offset: next(),
                len: 128 << 10,
                queue: 0,
            })
            .unwrap();
            submitted += 1;
        }
        done.clear();
        assert!(
            d.run_until_completion(&mut done),
            "writes outstanding but nothing completes"
        );
        completed += done.len() as u64;
    }
    (total * (128 << 10)) as f64 / (d.now() - start).as_secs_f64() / 1e6
}

/// Steady state as in [`steady_random_writes`]; then 384 MiB of random 128 KiB writes (WA ~4),
/// a trim of the first quarter of the drive, and 128 MiB of sequential writes into it (nearly no
/// GC of their own: the trimmed blocks free themselves). Returns the sequential writes' MB/s.
fn low_wa_writes_after_high_wa_writes(spread: u32) -> f64 {
    let (mut d, mut rng) = steady_drive("test-reloc-debt", |c| {
        c.controller.interleave_relocation = true;
        c.controller.relocation_spread_blocks = spread;
    });
    let cap = d.capacity_bytes();
    let chunks = cap / (128 << 10);
    timed_writes(&mut d, 384 * 8, || rng.gen_range(0..chunks) * (128 << 10));
    let quarter = cap / 4 / (128 << 10) * (128 << 10);
    d.submit(HostIo {
        op: IoOp::Trim,
        offset: 0,
        len: quarter,
        queue: 0,
    })
    .unwrap();
    let mut done = Vec::new();
    while d.run_until_completion(&mut done) && done.is_empty() {}
    let mut k = 0u64;
    timed_writes(&mut d, 128 * 8, || {
        k += 1;
        (k - 1) * (128 << 10)
    })
}

#[test]
fn writes_after_a_high_wa_phase_pay_its_carried_gc_debt() {
    // The sequential writes into trimmed space need almost no GC of their own; what they pay is
    // the relocation the random phase left queued. Spread over 3 host blocks, more is left, so
    // they run slower than with the debt cleared within each block (docs/calibration.md:
    // the SSDFans sequential write after the 20 GB overwrite).
    let one = low_wa_writes_after_high_wa_writes(1);
    let three = low_wa_writes_after_high_wa_writes(3);
    eprintln!("low-WA writes after a high-WA phase (seed 1): {one:.0} MB/s with spread 1, {three:.0} with spread 3");
    assert!(
        three < 0.95 * one,
        "spread 3: {three:.0} MB/s, spread 1: {one:.0} (seed 1)"
    );
}

/// The steady small-block drive with relocation spread over 3 host blocks and a 2 MiB write
/// buffer (its die's host data regularly waits for the relocation its next block needs): 128
/// KiB random writes at QD32 on one queue, 4 KiB random reads at QD8 on another, until 384 MiB
/// are written. Returns the slowest read's latency.
fn slowest_read_beside_stalled_writes() -> SimTime {
    let (mut d, mut rng) = steady_drive("test-reloc-reads", |c| {
        c.controller.write_buffer_kib = 2048;
        c.controller.interleave_relocation = true;
        c.controller.relocation_spread_blocks = 3;
    });
    let cap = d.capacity_bytes();
    let (chunks, units) = (cap / (128 << 10), cap / 4096);
    let total = 384 * 8;
    let (mut writes, mut written, mut reads) = (0u64, 0u64, 0u64);
    let mut slowest = SimTime::ZERO;
    let mut done = Vec::new();
    while written < total {
        while writes < total && writes - written < 32 {
            let offset = rng.gen_range(0..chunks) * (128 << 10);
            let len = 128 << 10;
            d.submit(HostIo {
                op: IoOp::Write,
                offset,
                len,
                queue: 0,
            })
            .unwrap();
            writes += 1;
        }
        while reads < 8 {
            let offset = rng.gen_range(0..units) * 4096;
            d.submit(HostIo {
                op: IoOp::Read,
                offset,
                len: 4096,
                queue: 1,
            })
            .unwrap();
            reads += 1;
        }
        done.clear();
        assert!(
            d.run_until_completion(&mut done),
            "IO outstanding but nothing completes"
        );
        for c in &done {
            match c.op {
                IoOp::Write => written += 1,
                _ => {
                    reads -= 1;
                    slowest = slowest.max(c.completed - c.submitted);
                }
            }
        }
    }
    slowest
}

#[test]
fn host_reads_do_not_wait_for_a_whole_victim_relocation() {
    // A die's next host program waits for the relocation of up to 3 victims (~41 one-shot TLC
    // programs each at 85 % valid on 48 word lines: ~55 ms per victim at the default tPROG of
    // 1.35 ms). Reads on that die go ahead of the waiting program, behind at most 2 relocation
    // ops and the host programs already issued: the 2 MiB buffer holds 21 program units of
    // 96 KiB, so even all on one die that is 23 programs (31 ms), plus 12 ms for reads and bus
    // time. Bound: 43 ms.
    let t_prog_us = DriveConfig::default_drive_without_fold().nand.tlc.t_prog_us;
    let bound = SimTime::from_us_f64((21.0 + 2.0) * t_prog_us + 12_000.0);
    let slowest = slowest_read_beside_stalled_writes();
    eprintln!("slowest 4 KiB read beside stalled writes (seed 1): {slowest}, bound {bound}");
    assert!(
        slowest < bound,
        "slowest read {slowest}, bound {bound} (seed 1)"
    );
}
