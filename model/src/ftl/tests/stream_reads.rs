//! `ftl.stream_read_page_cache`: reads of a sequential stream (and its read-ahead) read and
//! transfer whole multi-plane pages; other reads move only the units asked for.

use super::*;
use crate::nand::DieId;

/// Writes lpns 0..64 so that lpns 0..8 each land on a different program unit: the write order
/// 0, 8, 16, .., 56, 1, 9, .. puts lpn k (k < 8) in slot 0 (plane 0) of the k-th SLC program unit
/// (1 page x 2 planes x 4 units = 8 units; program units go round-robin over the 4 dies).
fn scattered(cfg: &DriveConfig) -> Ftl {
    let mut f = ftl(cfg);
    let mut ops = Vec::new();
    for i in 0..64u64 {
        f.host_write((i % 8) * 8 + i / 8, 1, &mut ops);
    }
    f
}

/// (planes, first plane, bus bytes) of one NAND op.
type OpShape = (u8, u8, u32);

/// (planes, first plane, bus bytes) of the HostRead and ReadAhead ops of a read of [lpn, +n).
fn read(f: &mut Ftl, lpn: u64, n: u32) -> (Vec<OpShape>, Vec<OpShape>) {
    let mut ops = Vec::new();
    f.host_read(lpn, n, &mut ops);
    let pick = |p: OpPurpose| {
        ops.iter()
            .filter(|o| o.purpose == p)
            .map(|o| (o.planes, o.addr.plane, o.bus_bytes))
            .collect()
    };
    (pick(OpPurpose::HostRead), pick(OpPurpose::ReadAhead))
}

#[test]
fn stream_reads_of_scattered_units_transfer_whole_multi_plane_pages() {
    let mut cfg = small_cfg();
    cfg.ftl.stream_read_page_cache = true;
    let mut f = scattered(&cfg);
    // First read: no stream yet. Units 0..4 sit in plane 0 of 4 different pages: 4 single-plane
    // reads of one unit, 4096 + 2208 / 4 = 4648 bytes each.
    let (host, ra) = read(&mut f, 0, 4);
    assert_eq!(host, vec![(1, 0, 4648); 4]);
    assert!(ra.is_empty());
    // Second read continues the stream: each unit costs a whole 2-plane page,
    // 2 x (16384 + 2208) = 37 184 bytes on the bus.
    let (host, ra) = read(&mut f, 4, 4);
    assert_eq!(host, vec![(2, 0, 37_184); 4]);
    // Its read-ahead (the rest of the written range, 56 units on 7 pages shared 8 ways) too.
    assert!(
        !ra.is_empty() && ra.iter().all(|&r| r == (2, 0, 37_184)),
        "{ra:?}"
    );
    // A read elsewhere breaks the stream: back to unit transfers.
    let (host, _) = read(&mut f, 0, 1);
    assert_eq!(host, vec![(1, 0, 4648)]);
    assert_integrity(&f, "stream reads");
}

#[test]
fn without_the_option_stream_reads_move_only_the_units_asked_for() {
    let mut cfg = small_cfg();
    cfg.ftl.stream_read_page_cache = false;
    let mut f = scattered(&cfg);
    read(&mut f, 0, 4);
    let (host, ra) = read(&mut f, 4, 4);
    assert_eq!(host, vec![(1, 0, 4648); 4]);
    assert!(
        !ra.is_empty() && ra.iter().all(|&(_, _, b)| b % 4648 == 0 && b < 37_184),
        "{ra:?}"
    );
}

/// A sequential stream of 8-unit reads over lpns 0..64 written in order (8 SLC program units of
/// one 2-plane page, 8 units each) with a read-ahead window of 40 KiB = 10 units, which ends
/// inside a page: returns the ReadAhead ops' pages, in issue order.
fn prefetched_pages(whole_pages: bool) -> Vec<(DieId, u32, u32)> {
    let mut cfg = small_cfg();
    cfg.ftl.read_ahead_kib = 40;
    cfg.ftl.stream_read_page_cache = whole_pages;
    let mut f = ftl(&cfg);
    let mut ops = Vec::new();
    for i in 0..8u64 {
        f.host_write(i * 8, 8, &mut ops);
    }
    let mut pages = Vec::new();
    for i in 0..8u64 {
        ops.clear();
        f.host_read(i * 8, 8, &mut ops);
        let ra = ops.iter().filter(|o| o.purpose == OpPurpose::ReadAhead);
        pages.extend(ra.map(|o| (o.addr.die, o.addr.block, o.addr.page)));
    }
    assert_integrity(&f, "read-ahead page ends");
    pages
}

#[test]
fn a_read_ahead_window_ending_inside_a_page_reads_each_page_once() {
    // By hand: the second read (lpns 8..16) starts the stream; its window is [16, 26): the
    // pages of lpns 16..24 and 24..32, the second taken whole (units 26..32 too). Each later
    // read tops the window up by one page (32..40, 40..48, ...), never re-reading 24..32's page
    // for units 26..32 as a window cut at unit 26 would. Pages of lpns 16..64: 6, each once.
    for whole in [false, true] {
        let pages = prefetched_pages(whole);
        let mut distinct = pages.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            pages.len(),
            "a page prefetched twice (whole pages {whole}): {pages:?}"
        );
        assert_eq!(pages.len(), 6, "whole pages {whole}: {pages:?}");
    }
}
