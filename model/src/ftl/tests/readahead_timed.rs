//! Read-ahead through the timed drive: a host read served from the read-ahead window completes
//! no earlier than the prefetching NAND read (array tR, then its channel transfer) has finished,
//! and a physically scattered sequential read is still bound by the dies. Bounds are derived by
//! hand from `small_cfg` (the sm2262 preset's timing on 2 channels x 2 ways x 2 planes).

use super::*;
use crate::drive::{Drive, HostIo, IoCompletion, IoOp};
use crate::time::SimTime;

const KIB32: u64 = 32 * 1024;

/// Writes `lpns` (4 KiB each, in this order) functionally, then 1 MiB elsewhere so that none of
/// them is still staged in the write buffer (served from DRAM, which would need no NAND read).
fn write_then_push_out(d: &mut Drive, lpns: impl Iterator<Item = u64>) {
    for u in lpns {
        d.functional_write(u * 4096, 4096).unwrap();
    }
    d.functional_write(16 << 20, 1 << 20).unwrap();
}

/// Submits `ios` (offset, len) reads at once on queue 0 and returns their completions.
fn reads_together(d: &mut Drive, ios: &[(u64, u64)]) -> Vec<IoCompletion> {
    for &(offset, len) in ios {
        d.submit(HostIo {
            op: IoOp::Read,
            offset,
            len,
            queue: 0,
        })
        .unwrap();
    }
    let mut all = Vec::new();
    while all.len() < ios.len() {
        assert!(d.run_until_completion(&mut all), "drive stalled");
    }
    all.sort_by_key(|c| c.id.0);
    all
}

/// Latency of read C = [64 KiB, 96 KiB), submitted together with B = [32 KiB, 64 KiB) after
/// A = [0, 32 KiB): B continues A's stream, so B's firmware prefetches [64 KiB, 128 KiB).
fn latency_of_c(read_ahead_kib: u32) -> SimTime {
    let mut cfg = small_cfg();
    cfg.ftl.read_ahead_kib = read_ahead_kib;
    let mut d = Drive::new(&cfg, 1).unwrap();
    write_then_push_out(&mut d, 0..64);
    reads_together(&mut d, &[(0, KIB32)]);
    let bc = reads_together(&mut d, &[(KIB32, KIB32), (2 * KIB32, KIB32)]);
    bc[1].completed - bc[1].submitted
}

#[test]
fn hit_on_a_prefetch_in_flight_waits_for_its_nand_read() {
    let with_ra = latency_of_c(64);
    let without = latency_of_c(0);
    // C's units were prefetched by a read dispatched no earlier than C's submission (B and C go
    // in together). That read takes at least the SLC tR (28 us; TLC is slower), then moves its
    // 8 units x 4648 B (4096 B data + 552 B spare share) = 37 184 B over an 800 MB/s channel =
    // 46.48 us; then C's 32 KiB goes up PCIe Gen3 x4 (8 GT/s x 4 x 128/130 = 3.938 GB/s) in
    // >= 8.32 us. So C takes >= 28 + 46.48 + 8.32 = 82.80 us. Before the fix a hit was served
    // straight from DRAM (~10 us after submission).
    let bound = SimTime::from_ns(82_800);
    assert!(
        with_ra >= bound,
        "read-ahead hit completed in {with_ra:?}, before the prefetch could be done ({bound:?})"
    );
    // Served from the prefetch, C needs nothing beyond that read (dispatched before C's own read
    // would be): no slower than the same read without read-ahead.
    assert!(
        with_ra <= without,
        "read-ahead hit {with_ra:?} slower than a NAND read {without:?}"
    );
}

#[test]
fn scattered_sequential_read_with_read_ahead_is_die_bound() {
    let mut cfg = small_cfg();
    cfg.ftl.read_ahead_kib = 512;
    let mut d = Drive::new(&cfg, 1).unwrap();
    // 2048 units (8 MiB) written with stride 256 (0, 256, ..., 1792, 1, 257, ...): each run of 8
    // consecutive writes (one SLC program unit = one 2-plane page row; a TLC program unit puts
    // the next 8 on other pages) holds lpns 256 apart. A host read (32 units) or a prefetch (at
    // most the 128-unit window) spans < 256 lpns, so no page read serves two of its units:
    // every unit costs its own page read, 2048 in all, whether the host read or the prefetch
    // does it.
    let n = 2048u64;
    write_then_push_out(&mut d, (0..256).flat_map(|p| (p..n).step_by(256)));
    let ios: Vec<(u64, u64)> = (0..n * 4096 / 131_072)
        .map(|i| (i * 131_072, 131_072))
        .collect();
    let start = d.now();
    for &io in &ios {
        reads_together(&mut d, &[io]); // queue depth 1, sequential
    }
    let mbps = (n * 4096) as f64 / (d.now() - start).as_secs_f64() / 1e6;
    // Die limit: 2048 page reads of >= 28 us (SLC tR; TLC is slower) on 4 dies take >= 14.336 ms
    // for 8 MiB: <= 4 x 4096 B / 28 us = 585.1 MB/s. (Before the fix, prefetched units were
    // served at once and the stream ran at PCIe speed.)
    eprintln!(
        "scattered 128 KiB sequential read with 512 KiB read-ahead: {mbps:.0} MB/s (die bound 585)"
    );
    assert!(
        mbps <= 585.2,
        "scattered sequential read at {mbps:.0} MB/s beats the die limit of 585 MB/s"
    );
}
