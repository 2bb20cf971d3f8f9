//! Drive tests of the FTL through the timed path: the statistics window (energy, write
//! amplification), trims of whole units only, idle-time write-buffer flush, garbage collection on
//! a drive filled three times over, and batched functional writes matching one call per IO.

use super::super::*;
use super::{flat_cfg, run_all};
use crate::ftl::OpPurpose;
use crate::rng::SeedTree;
use rand::Rng;

#[test]
fn stats_window_energy_and_write_amplification() {
    let mut d = Drive::new(&flat_cfg(), 3).unwrap();
    for i in 0..64u64 {
        d.submit(HostIo {
            op: IoOp::Write,
            offset: i * 131_072,
            len: 131_072,
            queue: (i % 8) as u16,
        })
        .unwrap();
    }
    let done = run_all(&mut d);
    assert_eq!(done.len(), 64);
    // Flush programs the partly filled program units, then 20 ms of idle.
    d.submit(HostIo {
        op: IoOp::Flush,
        offset: 0,
        len: 0,
        queue: 0,
    })
    .unwrap();
    let mut none = run_all(&mut d);
    d.idle(SimTime::from_ms(20), &mut none).unwrap();
    let s = d.stats();
    assert_eq!(s.write.ops, 64);
    assert_eq!(s.flush.ops, 1);
    assert_eq!(s.write.bytes, 64 * 131_072);
    assert_eq!(s.host_units_written, 64 * 32);
    assert!(s.write_amplification >= 1.0, "{}", s.write_amplification);
    assert!(s.energy.nand_array_j > 0.0 && s.energy.controller_j > 0.0);
    // Idle power alone over the window is a lower bound of controller energy.
    assert!(s.energy.controller_j >= 0.35 * s.elapsed.as_secs_f64());
    assert_eq!(s.busy_time + s.idle_time, s.elapsed);
    drop(s);
    d.reset_stats();
    assert_eq!(d.stats().write.ops, 0);
    assert_eq!(d.stats().elapsed, SimTime::ZERO);
}

#[test]
fn trim_discards_only_whole_units() {
    // Units 0..4 written; a trim of bytes [2048, 2048 + 3 × 4096) covers units 1 and 2 fully and
    // halves of units 0 and 3: only 1 and 2 become unmapped (reads of them need no NAND op).
    let mut cfg = flat_cfg();
    cfg.ftl.read_ahead_kib = 0; // every mapped unit read is a NAND read
    let mut d = Drive::new(&cfg, 1).unwrap();
    d.functional_write(0, 16 << 20).unwrap();
    d.submit(HostIo {
        op: IoOp::Trim,
        offset: 2048,
        len: 3 * 4096,
        queue: 0,
    })
    .unwrap();
    run_all(&mut d);
    d.reset_stats();
    for unit in 0..4u64 {
        d.submit(HostIo {
            op: IoOp::Read,
            offset: unit * 4096,
            len: 4096,
            queue: 0,
        })
        .unwrap();
        run_all(&mut d);
    }
    assert_eq!(d.stats().read.ops, 4);
    assert_eq!(
        d.stats().nand_op_count(OpPurpose::HostRead),
        2,
        "units 0 and 3 still mapped"
    );
    // The window counts the trimmed units (1, 2) among the 4 read.
    assert_eq!(
        (d.stats().host_units_read, d.stats().host_units_unmapped),
        (4, 2)
    );
    // A 16 KiB read from 16 MiB - 8 KiB: 2 written units, then 2 never written.
    d.reset_stats();
    d.submit(HostIo {
        op: IoOp::Read,
        offset: (16 << 20) - 8192,
        len: 16_384,
        queue: 0,
    })
    .unwrap();
    run_all(&mut d);
    assert_eq!(
        (d.stats().host_units_read, d.stats().host_units_unmapped),
        (4, 2)
    );
}

#[test]
fn idle_time_lets_the_ftl_flush_the_write_buffer() {
    // 12 KiB written (3 units: less than one SLC program unit of 2 planes × 4 units, so they
    // stay staged in the buffer). 0.5 ms of idle is below `ftl.write_buffer_flush_idle_ms`
    // (1 ms): nothing is programmed; after 2 ms the staged data has been programmed as a timed
    // NAND op inside the idle window.
    let mut d = Drive::new(&flat_cfg(), 5).unwrap();
    d.submit(HostIo {
        op: IoOp::Write,
        offset: 0,
        len: 12_288,
        queue: 0,
    })
    .unwrap();
    let mut done = run_all(&mut d);
    d.reset_stats();
    d.idle(SimTime::from_us(500), &mut done).unwrap();
    assert_eq!(d.stats().nand_op_count(OpPurpose::HostWrite), 0);
    d.idle(SimTime::from_us(1_500), &mut done).unwrap();
    let s = d.stats();
    assert_eq!(s.nand_op_count(OpPurpose::HostWrite), 1, "{:?}", s.nand_ops);
    assert!(s.busy_time > SimTime::ZERO && s.busy_time < s.elapsed);
}

/// `functional_write_many` (the FTL's batched, prefetching path) leaves the drive exactly as one
/// `functional_write` per offset does: same FTL counters, and the same timed behaviour afterwards
/// (identical completion times of a random-read workload, which depend on where every unit sits).
#[test]
fn functional_write_many_matches_one_call_per_io() {
    let cfg = flat_cfg();
    let (mut one, mut many) = (Drive::new(&cfg, 1).unwrap(), Drive::new(&cfg, 1).unwrap());
    let span_units = (64u64 << 20) / 4096;
    let mut rng = SeedTree::new(5).stream("batch-drive", 0);
    // 8 KiB writes at random 4 KiB-aligned offsets, some unaligned by 512 B (rounded out).
    let offsets: Vec<u64> = (0..40_000)
        .map(|i| rng.gen_range(0..span_units - 2) * 4096 + (i % 3 == 0) as u64 * 512)
        .collect();
    for &o in &offsets {
        one.functional_write(o, 8192).unwrap();
    }
    for chunk in offsets.chunks(777) {
        many.functional_write_many(chunk, 8192).unwrap();
    }
    assert_eq!(one.ftl.state_digest(), many.ftl.state_digest(), "seed 5");
    assert_eq!(one.ftl.stats(), many.ftl.stats(), "seed 5");
    assert!(
        one.ftl.stats().host_units_written >= 80_000,
        "seed 5: every IO covers >= 2 units"
    );
    let reads: Vec<u64> = (0..200)
        .map(|_| rng.gen_range(0..span_units) * 4096)
        .collect();
    let mut times = Vec::new();
    for d in [&mut one, &mut many] {
        for (i, &o) in reads.iter().enumerate() {
            d.submit(HostIo {
                op: IoOp::Read,
                offset: o,
                len: 4096,
                queue: (i % 4) as u16,
            })
            .unwrap();
        }
        times.push(
            run_all(d)
                .iter()
                .map(|c| (c.id, c.completed))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(times[0].len(), 200);
    assert_eq!(
        times[0], times[1],
        "seed 5: timed reads differ after batched preconditioning"
    );
}

/// A drive small enough to fill: 2 channels × 2 ways, 2 planes, 32 blocks of 24 TLC pages.
fn tiny_cfg() -> DriveConfig {
    let mut c = DriveConfig::default_drive_without_fold();
    c.geometry.channels = 2;
    c.geometry.ways_per_channel = 2;
    c.geometry.blocks_per_plane = 32;
    c.geometry.wordlines_per_block = 8;
    c.ftl.over_provisioning_pct = 25.0;
    c.ftl.gc_threshold_free_blocks = 2;
    c.ftl.bg_gc_threshold_free_blocks = 3;
    c.ftl.slc_cache.static_blocks_per_plane = 1;
    c.validate().expect("tiny config is valid");
    c
}

#[test]
fn random_overwrites_drive_garbage_collection_through_the_timed_path() {
    // 3 × the exported capacity in random 4 KiB writes at QD8: GC reads, programs and erases run
    // on the dies behind host writes; every write completes and WA exceeds 1 (seed in messages).
    let seed = 11;
    let mut d = Drive::new(&tiny_cfg(), seed).unwrap();
    let units = d.capacity_bytes() / 4096;
    let mut rng = SeedTree::new(seed).stream("test-gc", 0);
    let total = 3 * units;
    let mut done = Vec::new();
    let (mut submitted, mut completed) = (0u64, 0u64);
    while completed < total {
        while submitted < total && submitted - completed < 8 {
            let offset = rng.gen_range(0..units) * 4096;
            d.submit(HostIo {
                op: IoOp::Write,
                offset,
                len: 4096,
                queue: (submitted % 8) as u16,
            })
            .unwrap();
            submitted += 1;
        }
        done.clear();
        assert!(
            d.run_until_completion(&mut done),
            "seed {seed}: stalled after {completed} writes"
        );
        completed += done.len() as u64;
    }
    let s = d.stats();
    assert_eq!(s.write.ops, total, "seed {seed}");
    assert!(
        s.nand_op_count(OpPurpose::Erase) > 0,
        "seed {seed}: no GC erase"
    );
    assert!(
        s.nand_op_count(OpPurpose::GcRead) > 0 && s.nand_op_count(OpPurpose::GcWrite) > 0,
        "seed {seed}"
    );
    assert!(
        s.write_amplification > 1.0,
        "seed {seed}: WA {}",
        s.write_amplification
    );
}
