//! `controller.read_lookup_on_demand`: a read's per-unit firmware work done where its units are
//! looked up (by the prefetch that fetched them, or by the read itself after the FTL) instead of
//! up front for every unit of every command. Expected values are hand arithmetic on `flat_cfg`
//! (2 cores) with the firmware costs pinned below.

use super::super::*;
use super::{flat_cfg, run_all};

const CMD_NS: u64 = 4_000;
const UNIT_NS: u64 = 5_000;
/// The 64 sequential 128 KiB reads of `qd1_pass`: 2048 units.
const READS: u64 = 64;
const UNITS: u64 = READS * 32;

fn drive(at_lookup: bool) -> Drive {
    let mut cfg = flat_cfg();
    cfg.controller.cpu_ns_per_cmd = CMD_NS as f64;
    cfg.controller.cpu_ns_per_unit = UNIT_NS as f64;
    cfg.controller.read_lookup_on_demand = at_lookup;
    cfg.ftl.read_ahead_kib = 512;
    let mut d = Drive::new(&cfg, 1).unwrap();
    d.functional_write(0, 16 << 20).unwrap();
    d.functional_write(32 << 20, 1 << 20).unwrap(); // pushes the range out of the write buffer
    d
}

/// A queue-depth-1 pass of `READS` sequential 128 KiB reads (`prefetch::qd1_pass`):
/// (elapsed, firmware core busy time, including work left when the last read completed).
fn qd1_pass(mut d: Drive) -> (SimTime, SimTime) {
    d.reset_stats();
    let elapsed = super::prefetch::qd1_pass(&mut d);
    run_all(&mut d);
    (elapsed, d.stats().cpu_busy)
}

#[test]
fn a_qd1_stream_overlaps_its_lookups_with_the_link_and_keeps_the_work() {
    // Up front, every command holds a core for 4 + 32 x 5 = 164 us before any data moves, one
    // command at a time: >= 64 x 164 us = 10.50 ms, and the cores do exactly that work.
    let (up_front, busy_up_front) = qd1_pass(drive(false));
    let per_cmd = SimTime::from_ns(CMD_NS + 32 * UNIT_NS);
    assert!(
        up_front >= per_cmd * READS,
        "up front: {up_front} < 64 x 164 us"
    );
    assert_eq!(busy_up_front, per_cmd * READS);
    // At the lookup, reads 3..64 were looked up by the read-ahead (one 8-unit job of 40 us per
    // 32 KiB page read, spread over both cores) while earlier data crossed the link. The same
    // work (plus at most the 512 KiB window prefetched past the last read, 128 units) on two
    // cores bounds it from below: (64 x 4 + 2048 x 5 us) / 2 = 5.25 ms.
    let (at_lookup, busy_at_lookup) = qd1_pass(drive(true));
    let work = SimTime::from_ns(READS * CMD_NS + UNITS * UNIT_NS);
    assert!(
        busy_at_lookup >= work,
        "{busy_at_lookup} < {work}: a unit's lookup went unpaid"
    );
    assert!(
        busy_at_lookup <= work + SimTime::from_ns(128 * UNIT_NS),
        "{busy_at_lookup}: a unit was looked up twice"
    );
    assert!(
        at_lookup >= SimTime::from_ns((READS * CMD_NS + UNITS * UNIT_NS) / 2),
        "{at_lookup} beats two cores"
    );
    assert!(
        at_lookup < per_cmd * READS,
        "at the lookup {at_lookup} is no faster than the up-front bound"
    );
}

/// Latency of one 4 KiB read of lpn 0 after a 4 KiB write of it that stays in the write buffer.
fn buffered_read_latency(at_lookup: bool) -> SimTime {
    let mut d = drive(at_lookup);
    d.submit(HostIo {
        op: IoOp::Write,
        offset: 0,
        len: 4096,
        queue: 0,
    })
    .unwrap();
    run_all(&mut d);
    let t0 = d.now();
    d.submit(HostIo {
        op: IoOp::Read,
        offset: 0,
        len: 4096,
        queue: 0,
    })
    .unwrap();
    let done = run_all(&mut d);
    assert_eq!(done.len(), 1);
    done[0].completed - t0
}

#[test]
fn a_read_with_no_page_read_still_waits_for_its_lookup() {
    // From the write buffer: no NAND op to hold back, yet its data goes up only once its unit
    // was looked up (4 us per command + 5 us per unit, in either order on an idle core).
    let up_front = buffered_read_latency(false);
    let at_lookup = buffered_read_latency(true);
    assert_eq!(at_lookup, up_front);
    assert!(up_front > SimTime::from_ns(CMD_NS + UNIT_NS));
}

/// Latency of one 4 KiB read of `lpn` submitted on an idle drive.
fn read_latency(d: &mut Drive, lpn: u64) -> SimTime {
    d.submit(HostIo {
        op: IoOp::Read,
        offset: lpn * 4096,
        len: 4096,
        queue: 0,
    })
    .unwrap();
    let done = run_all(d);
    assert_eq!(done.len(), 1);
    done[0].completed - done[0].submitted
}

/// A drive with lpn 0 on flash and DRAM latency `dram_ns`; the latencies of two reads of lpn
/// 0, the first on a cold SRAM mapping cache.
fn cold_and_warm(dram_ns: f64) -> (Drive, SimTime, SimTime) {
    let mut cfg = flat_cfg();
    cfg.ftl.read_ahead_kib = 0;
    cfg.controller.dram_latency_ns = dram_ns;
    let mut d = Drive::new(&cfg, 1).unwrap();
    d.functional_write(0, 16 << 20).unwrap();
    d.reset_stats();
    let cold = read_latency(&mut d, 0);
    let warm = read_latency(&mut d, 0);
    (d, cold, warm)
}

#[test]
fn a_mapping_line_miss_costs_one_dram_access_and_a_hit_nothing() {
    // The first read of lpn 0 misses the cold SRAM cache and fills its 8-entry line from DRAM
    // (32 B burst, then the DRAM latency) before its page read starts; the same read again hits.
    // The two reads differ in other small ways (link ACKs, sequencer alignment), the same at any
    // DRAM latency: raising the latency from 0 to 60 ns must add exactly 60 ns to the cold
    // read's lead (up to one 5 ns sequencer cycle), 200 ns to 200 ns.
    let (_, c0, w0) = cold_and_warm(0.0);
    let (mut d, c60, w60) = cold_and_warm(60.0);
    let (_, c200, w200) = cold_and_warm(200.0);
    let lead = |c: SimTime, w: SimTime| c.as_ps() as i64 - w.as_ps() as i64;
    let near = |got: i64, ns: i64| (got - ns * 1000).abs() <= 5_000;
    let (l0, l60, l200) = (lead(c0, w0), lead(c60, w60), lead(c200, w200));
    assert!(near(l60 - l0, 60), "lead {l60} ps at 60 ns vs {l0} ps at 0");
    assert!(
        near(l200 - l0, 200),
        "lead {l200} ps at 200 ns vs {l0} ps at 0"
    );
    // Per level: SRAM 2 accesses, 1 hit; the DRAM table (all resident) served the one miss.
    let m = d.stats().map;
    assert_eq!((m.sram.accesses, m.sram.hits), (2, 1));
    assert_eq!((m.dram.accesses, m.dram.hits), (1, 1));
    assert_eq!(m.sram.hit_rate(), Some(0.5));
    // A 32 KiB write updates 8 entries of one line (lpn 64..72, line 8): 1 miss, 7 hits.
    d.submit(HostIo {
        op: IoOp::Write,
        offset: 64 * 4096,
        len: 32 << 10,
        queue: 0,
    })
    .unwrap();
    run_all(&mut d);
    let m = d.stats().map;
    assert_eq!((m.sram.accesses, m.sram.hits), (10, 8));
    assert_eq!((m.dram.accesses, m.dram.hits), (2, 2));
}
