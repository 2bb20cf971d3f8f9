//! The read-ahead engine's in-flight budget (`prefetch.rs`): a QD1 stream runs at the budget's
//! rate, and reads beyond the window's reach are read by the host path. Expected times are hand
//! arithmetic on `flat_cfg` (sm2262 timing, every tR 50 us, 8 channels x 2 ways x 2 planes).

use super::super::*;
use super::{flat_cfg, run_all};

const KIB: u64 = 1024;

/// One prefetch read of sequentially written data: a 2-plane page read, tR 50 us, then
/// 2 x 18 592 B (16 KiB + 2208 B spare per plane) over the 800 MB/s channel = 46.48 us.
const PAGE_READ_NS: u64 = 50_000 + 46_480;

fn drive_with(read_ahead_kib: u32, inflight_kib: u32, issue_ns: f64, scattered: bool) -> Drive {
    let mut cfg = flat_cfg();
    cfg.ftl.read_ahead_kib = read_ahead_kib;
    cfg.ftl.read_ahead_inflight_kib = inflight_kib;
    cfg.ftl.read_ahead_issue_ns_per_unit = issue_ns;
    // Reads move only the units asked for (as in `e12-960g`), not whole pages.
    cfg.ftl.stream_read_page_cache = false;
    let mut d = Drive::new(&cfg, 1).unwrap();
    if scattered {
        // 2048 units written with stride 256 (0, 256, ..., 1, 257, ...): no two units a read
        // or the window wants share a page, so each costs its own single-unit page read.
        for u in (0..256u64).flat_map(|p| (p..2048).step_by(256)) {
            d.functional_write(u * 4096, 4096).unwrap();
        }
    } else {
        d.functional_write(0, 16 << 20).unwrap();
    }
    d.functional_write(32 << 20, 1 << 20).unwrap(); // pushes the range out of the write buffer
    d
}

fn drive(read_ahead_kib: u32, inflight_kib: u32) -> Drive {
    drive_with(read_ahead_kib, inflight_kib, 0.0, false)
}

/// Time for a queue-depth-1 sequential pass of 64 reads of 128 KiB (8 MiB).
fn qd1_stream(read_ahead_kib: u32, inflight_kib: u32) -> SimTime {
    qd1_pass(&mut drive(read_ahead_kib, inflight_kib))
}

/// Time for a queue-depth-1 sequential pass of 64 reads of 128 KiB (8 MiB) on `d`.
pub(super) fn qd1_pass(d: &mut Drive) -> SimTime {
    let (start, mut end) = (d.now(), d.now());
    for i in 0..64u64 {
        d.submit(HostIo {
            op: IoOp::Read,
            offset: i * 128 * KIB,
            len: 128 * KIB,
            queue: 0,
        })
        .unwrap();
        // The next read goes in when this one completes (not once the engine is idle).
        let mut done = Vec::new();
        while d.run_until_completion(&mut done) && done.is_empty() {}
        assert_eq!(done.len(), 1);
        end = done[0].completed;
    }
    end - start
}

#[test]
fn a_qd1_stream_runs_at_the_budget_rate() {
    // Reads 1 and 2 read their own pages; read 2 starts the stream, so reads 3..64 (62 x 4 page
    // reads of 32 KiB = 248) come from the engine, at most 64 KiB = 2 page reads in flight, each
    // >= 96.48 us: >= 124 x 96.48 us = 11.96 ms. The host chain of a 128 KiB read (firmware
    // 4 + 32 x 0.2 us, 33 us on the link) is far below the 193 us the engine takes per read, so
    // the engine is the bound. Ceiling: the two reads in flight share a channel at worst, so a
    // pair takes at most tR + 2 transfers = 142.96 us: 124 x 142.96 us = 17.73 ms (+ 0.5 ms for
    // reads 1-2 and the last transfer).
    let bounded = qd1_stream(512, 64);
    let floor = SimTime::from_ns(124 * PAGE_READ_NS);
    let ceiling = SimTime::from_ns(124 * (50_000 + 2 * 46_480) + 500_000);
    assert!(bounded >= floor, "budget 64 KiB: {bounded} < {floor}");
    assert!(bounded <= ceiling, "budget 64 KiB: {bounded} > {ceiling}");
    // Unbounded, the 512 KiB window (16 page reads on 16 dies) is read at once: the host chain
    // bounds the stream, below the budgeted floor.
    let unbounded = qd1_stream(512, 0);
    assert!(
        unbounded < floor,
        "unbounded read-ahead took {unbounded}, not < {floor}"
    );
}

#[test]
fn reads_beyond_the_window_reach_do_not_wait_for_the_engine() {
    // Window 128 KiB (queue reach 32 units), budget 32 KiB (one page read in flight). Read 0
    // alone, then reads 1..=16 (32 KiB each) together: read 1 starts the stream and the window
    // [64, 192) KiB = 4 page reads, one in flight; each later read tops it up by one. Reads 2..6
    // hit page reads in flight or queued 8, 16, 24, 32 units deep (<= 32): served by the engine
    // one after another, >= 5 x 96.48 us. Reads 7..16 hit page reads queued deeper: the host
    // path reads them at once, each on its own die, so everything ends within a few page reads
    // more (without the reach rule: 15 engine reads in a row, >= 1.45 ms).
    let mut d = drive(128, 32);
    d.submit(HostIo {
        op: IoOp::Read,
        offset: 0,
        len: 32 * KIB,
        queue: 0,
    })
    .unwrap();
    run_all(&mut d);
    let start = d.now();
    for i in 1..=16u64 {
        d.submit(HostIo {
            op: IoOp::Read,
            offset: i * 32 * KIB,
            len: 32 * KIB,
            queue: 0,
        })
        .unwrap();
    }
    let done = run_all(&mut d);
    assert_eq!(done.len(), 16);
    let last = done.iter().map(|c| c.completed).max().unwrap() - start;
    let serial5 = SimTime::from_ns(5 * PAGE_READ_NS);
    let bound = SimTime::from_ns(8 * PAGE_READ_NS);
    assert!(
        last >= serial5,
        "16 reads done in {last}, before 5 engine reads in a row ({serial5})"
    );
    assert!(
        last <= bound,
        "16 reads took {last}: far reads waited for the engine (bound {bound})"
    );
}

#[test]
fn an_issue_cost_per_unit_sets_the_stream_rate_whatever_the_layout() {
    // 5 us per unit: 819 MB/s. Reads 3..64 come from the engine: 62 x 32 units x 5 us = 9.92 ms
    // of issuing, one read after another, whether they are 248 page reads of 8 units
    // (sequential data) or 1984 single-unit reads (scattered). Neither layout's dies are the
    // bound: sequential 16 dies x 32 KiB / 96.48 us = 5.4 GB/s, scattered 16 x 4 KiB / (50 us +
    // 5.81 us of data out) = 1.17 GB/s. The pass ends after the last issue plus one page read
    // and its host transfer (< 0.15 ms), after read 1 (< 0.2 ms: 4 page reads in parallel, or
    // 2 single-unit reads per die, then 33 us on the link); read 2 overlaps the issuing.
    let issue = SimTime::from_ns(62 * 32 * 5_000);
    for scattered in [false, true] {
        let t = qd1_pass(&mut drive_with(512, 0, 5_000.0, scattered));
        assert!(
            t >= issue,
            "scattered {scattered}: {t} < {issue} of issuing"
        );
        assert!(
            t <= issue + SimTime::from_us(350),
            "scattered {scattered}: {t} > {issue} + 0.35 ms"
        );
    }
}

#[test]
fn bad_engine_settings_name_their_field() {
    let mut cfg = flat_cfg();
    cfg.ftl.read_ahead_inflight_kib = cfg.ftl.read_ahead_kib + 4; // more than the window
    let e = Drive::new(&cfg, 1).err().expect("invalid").to_string();
    assert!(e.contains("ftl.read_ahead_inflight_kib"), "{e}");
    let mut cfg = flat_cfg();
    cfg.ftl.read_ahead_inflight_kib = 6; // not whole 4 KiB units
    let e = Drive::new(&cfg, 1).err().expect("invalid").to_string();
    assert!(e.contains("ftl.read_ahead_inflight_kib"), "{e}");
    let mut cfg = flat_cfg();
    cfg.ftl.read_ahead_issue_ns_per_unit = f64::NAN;
    let e = Drive::new(&cfg, 1).err().expect("invalid").to_string();
    assert!(e.contains("ftl.read_ahead_issue_ns_per_unit"), "{e}");
    let mut cfg = flat_cfg();
    cfg.ftl.read_ahead_queue_kib = cfg.ftl.read_ahead_kib + 4;
    let e = Drive::new(&cfg, 1).err().expect("invalid").to_string();
    assert!(e.contains("ftl.read_ahead_queue_kib"), "{e}");
}
