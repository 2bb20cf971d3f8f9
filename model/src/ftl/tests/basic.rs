//! Striping, program units, page-read sharing, multi-plane reads, buffer reads, trim, trace.

use super::*;
use crate::nand::CellMode;

fn programs(ops: &[NandOp]) -> Vec<&NandOp> {
    ops.iter()
        .filter(|o| o.kind == NandOpKind::Program)
        .collect()
}

/// A program unit is a program's pages on every plane: on TLC (3 bits per cell) 2 planes x 4
/// units of 16 KiB pages, 3 pages per plane one-shot = 24 units; in SLC mode one page = 8.
#[test]
fn program_pages_make_the_program_unit() {
    let cfg = small_cfg();
    assert_eq!(cfg.geometry.bits_per_cell, 3);
    let l = ftl(&cfg).layout().clone();
    assert_eq!(
        (
            l.program_pages(CellMode::Tlc),
            l.program_pages(CellMode::Slc)
        ),
        (3, 1)
    );
    assert_eq!(
        (
            l.program_units(CellMode::Tlc),
            l.program_units(CellMode::Slc)
        ),
        (24, 8)
    );
}

#[test]
fn fresh_writes_stripe_slc_program_units_across_channels() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    assert_eq!(f.logical_units(), 88_473);
    let mut ops = Vec::new();
    // 64 units: SLC program unit = 1 page x 2 planes x 4 units = 8 units -> 8 programs.
    f.host_write(0, 64, &mut ops);
    let p = programs(&ops);
    assert_eq!(p.len(), 8);
    for (i, op) in p.iter().enumerate() {
        assert_eq!(op.mode, CellMode::Slc);
        assert_eq!(op.planes, 2);
        // 1 page x 2 planes x (16384 + 2208) bytes.
        assert_eq!(op.bus_bytes, 2 * 18_592);
        // channel-first round robin over 4 dies: channel i % 2, way (i / 2) % 2.
        assert_eq!(
            (op.addr.die.channel as usize, op.addr.die.way as usize),
            (i % 2, (i / 2) % 2),
            "op {i}"
        );
        assert_eq!(
            op.addr.page,
            (i / 4) as u32,
            "op {i}: second round goes to the next page"
        );
    }
    assert_eq!(f.stats().nand_units_written, 64);
    assert_eq!(f.stats().write_amplification(), 1.0);
}

#[test]
fn one_read_per_shared_page_and_multi_plane_when_aligned() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    let mut ops = Vec::new();
    f.host_write(0, 64, &mut ops);
    ops.clear();
    // Units 0..8 fill page 0 of die 0 on planes 0 and 1: one 2-plane read of 8 units.
    let r = f.host_read(0, 8, &mut ops);
    assert_eq!(
        r,
        ReadOutcome {
            nand_units: 8,
            buffered_units: 0,
            unmapped_units: 0
        }
    );
    assert_eq!(ops.len(), 1);
    assert_eq!(
        (ops[0].planes, ops[0].addr.plane, ops[0].bus_bytes),
        (2, 0, 8 * 4648)
    );
    ops.clear();
    // Units 4..8 only: plane 1 alone, single-plane read.
    f.host_read(4, 4, &mut ops);
    assert_eq!((ops.len(), ops[0].planes, ops[0].addr.plane), (1, 1, 1));
    ops.clear();
    // 32 units = 4 program units on 4 dies: 4 reads.
    f.host_read(0, 32, &mut ops);
    assert_eq!(ops.len(), 4);
    ops.clear();
    // Units 2..6 straddle the planes of one page: still one read (2 planes), 4 units on the bus.
    f.host_read(2, 4, &mut ops);
    assert_eq!(
        (ops.len(), ops[0].planes, ops[0].bus_bytes),
        (1, 2, 4 * 4648)
    );
    assert_integrity(&f, "reads");
}

#[test]
fn staged_units_are_read_from_the_buffer_and_flush_pads() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    let mut ops = Vec::new();
    f.host_write(100, 5, &mut ops);
    assert!(
        ops.is_empty(),
        "5 units do not fill an 8-unit SLC program unit"
    );
    let r = f.host_read(100, 6, &mut ops);
    assert_eq!(
        r,
        ReadOutcome {
            nand_units: 0,
            buffered_units: 5,
            unmapped_units: 1
        }
    );
    assert!(ops.is_empty());
    f.flush(&mut ops);
    assert_eq!(programs(&ops).len(), 1);
    assert_eq!(f.stats().pad_units, 3);
    assert_eq!(f.stats().nand_units_written, 8);
    ops.clear();
    let r = f.host_read(100, 5, &mut ops);
    // Offsets 0..5 of die 0's first block: page 0, plane 0 (4 units) and plane 1 (1 unit).
    assert_eq!((r.nand_units, ops.len(), ops[0].planes), (5, 1, 2));
    assert_integrity(&f, "buffer");
}

#[test]
fn trim_unmaps_and_reads_need_no_nand() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    let mut ops = Vec::new();
    f.host_write(0, 16, &mut ops);
    f.trim(4, 8);
    ops.clear();
    let r = f.host_read(0, 16, &mut ops);
    assert_eq!(
        r,
        ReadOutcome {
            nand_units: 8,
            buffered_units: 0,
            unmapped_units: 8
        }
    );
    assert_eq!(f.lookup(5), None);
    assert_integrity(&f, "trim");
}

#[test]
fn map_trace_records_updates_then_lookups_in_order() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    f.set_map_trace(true);
    let mut ops = Vec::new();
    f.host_write(7, 2, &mut ops);
    f.host_read(7, 1, &mut ops);
    let t = f.take_map_trace();
    let p7 = f.lookup(7).unwrap();
    assert_eq!(t.len(), 3);
    assert_eq!(
        t[0],
        MapAccess {
            lpn: 7,
            update: Some(p7)
        }
    );
    assert_eq!(
        t[1],
        MapAccess {
            lpn: 8,
            update: Some(p7 + 1)
        }
    );
    assert_eq!(
        t[2],
        MapAccess {
            lpn: 7,
            update: None
        }
    );
    assert!(f.take_map_trace().is_empty());
}

#[test]
fn sequential_stream_is_prefetched_and_served_from_dram() {
    let mut cfg = small_cfg();
    cfg.ftl.read_ahead_kib = 64; // 16 units
    let mut f = ftl(&cfg);
    let mut ops = Vec::new();
    f.host_write(0, 256, &mut ops);
    f.flush(&mut ops);
    ops.clear();
    f.host_read(0, 8, &mut ops);
    assert!(ops.iter().all(|o| o.purpose == OpPurpose::HostRead));
    ops.clear();
    // Second sequential read: prefetch units 16..32 (2 SLC rows of 8 units: 2 reads).
    f.host_read(8, 8, &mut ops);
    let ra: Vec<_> = ops
        .iter()
        .filter(|o| o.purpose == OpPurpose::ReadAhead)
        .collect();
    assert_eq!(ra.len(), 2);
    assert_eq!(f.stats().read_ahead_units, 16);
    ops.clear();
    // Overwrite unit 20: its prefetched copy is stale and must not be served.
    f.host_write(20, 1, &mut ops);
    ops.clear();
    let r = f.host_read(16, 8, &mut ops);
    assert_eq!(
        r,
        ReadOutcome {
            nand_units: 0,
            buffered_units: 8,
            unmapped_units: 0
        },
        "unit 20 from the write buffer"
    );
    assert!(
        ops.iter().all(|o| o.purpose == OpPurpose::ReadAhead),
        "only the next prefetch: {ops:?}"
    );
    assert_integrity(&f, "read-ahead");
}
