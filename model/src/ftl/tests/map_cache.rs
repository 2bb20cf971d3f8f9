//! The DRAM table of translation pages (direct-mapped, boot state slot i = page i): fetches cost
//! MapReads, replacing a dirty page a MapWrite; a data read waits for its MapRead. Expected
//! counts are worked by hand from the rule in `ftl/dram_table.rs`.

use super::*;

#[test]
fn table_larger_than_dram_costs_map_reads_and_writes() {
    let mut cfg = small_cfg();
    // 88 473 units / 4096 entries = 22 table pages; 0 MiB of DRAM leaves 1 cached page (SRAM).
    cfg.controller.dram_mb = 0;
    cfg.ftl.map_cache.dram_table_mb = 0;
    let mut f = ftl(&cfg);
    assert_eq!((f.l.plan.table_pages, f.l.plan.cached_table_pages), (22, 1));
    let mut ops = Vec::new();
    // Write pages 0 and 1 of the table (lpn 0 and 4096): page 0 is resident at boot; no flash
    // copies yet, so no reads; switching to page 1 evicts dirty page 0: one MapWrite.
    f.host_write(0, 1, &mut ops);
    f.host_write(4096, 1, &mut ops);
    let count = |ops: &[NandOp], p| ops.iter().filter(|o| o.purpose == p).count();
    assert_eq!(count(&ops, OpPurpose::MapRead), 0);
    assert_eq!(count(&ops, OpPurpose::MapWrite), 1);
    ops.clear();
    // Back to page 0: write back dirty page 1, then read page 0 (it has a flash copy now).
    let r = f.host_read(0, 1, &mut ops);
    assert_eq!(r.buffered_units, 1);
    assert_eq!(
        (
            count(&ops, OpPurpose::MapRead),
            count(&ops, OpPurpose::MapWrite)
        ),
        (1, 1)
    );
    let order: Vec<_> = ops.iter().map(|o| o.purpose).collect();
    assert_eq!(order, [OpPurpose::MapWrite, OpPurpose::MapRead]);
    // Heavy traffic recycles the translation log; data stays intact.
    fill_sequential(&mut f, 256, 1);
    random_writes(&mut f, 20_000, 3);
    let mut ops = Vec::new();
    for lpn in (0..f.logical_units()).step_by(97) {
        f.host_read(lpn, 1, &mut ops);
        ops.clear();
    }
    assert!(
        f.stats().map_writes > 64,
        "log wrapped at least once: {}",
        f.stats().map_writes
    );
    assert_integrity(&f, "small DRAM");
}

#[test]
fn table_in_dram_never_touches_flash() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    fill_sequential(&mut f, 256, 1);
    random_writes(&mut f, 10_000, 5);
    assert_eq!((f.stats().map_reads, f.stats().map_writes), (0, 0));
}

fn one_slot_table() -> Ftl {
    let mut cfg = small_cfg();
    // 22 translation pages of 4096 entries; 0 MiB of table leaves one DRAM slot.
    cfg.controller.dram_mb = 0;
    cfg.ftl.map_cache.dram_table_mb = 0;
    cfg.ftl.read_ahead_kib = 0;
    ftl(&cfg)
}

fn counts(f: &Ftl) -> (u64, u64) {
    (f.stats().map_reads, f.stats().map_writes)
}

#[test]
fn one_slot_table_counts_by_hand() {
    let mut f = one_slot_table();
    let mut ops = Vec::new();
    // Boot: the slot holds page 0, clean. Writes of lpn 0 (page 0: resident, now dirty), 4096
    // (page 1: replaces dirty page 0, W; no copy of page 1 yet), 8192 (page 2: replaces dirty
    // page 1, W), 1 (page 0: replaces dirty page 2, W; page 0 has a copy, R).
    for lpn in [0, 4096, 8192, 1] {
        f.host_write(lpn, 1, &mut ops);
    }
    assert_eq!(counts(&f), (1, 3));
    // Read lpn 2: page 0 resident, nothing. Read lpn 8192: replaces page 0 (dirty from lpn 1's
    // write, W), reads page 2's copy (R).
    f.host_read(2, 1, &mut ops);
    assert_eq!(counts(&f), (1, 3));
    f.host_read(8192, 1, &mut ops);
    assert_eq!(counts(&f), (2, 4));
    // Six accesses, four of them fetched their page (4096, 8192, 1, 8192).
    let t = f.map_table_stats();
    assert_eq!((t.accesses, t.fetches, t.dirty_evictions), (6, 4, 4));
}

#[test]
fn a_table_that_fits_is_never_accessed_or_fetched() {
    let cfg = small_cfg();
    let mut f = ftl(&cfg);
    assert!(f.map_table_fits());
    let mut ops = Vec::new();
    for lpn in [0, 4096, 8192, 1, 80_000] {
        f.host_write(lpn, 1, &mut ops);
        f.host_read(lpn, 1, &mut ops);
    }
    assert_eq!(*f.map_table_stats(), Default::default());
    assert!(ops
        .iter()
        .all(|o| !matches!(o.purpose, OpPurpose::MapRead | OpPurpose::MapWrite)));
}

#[test]
fn a_data_read_waits_for_its_translation_page_read() {
    let mut f = one_slot_table();
    // Page 0 (lpn 0..4095) gets data on NAND and a flash copy: written, then evicted dirty by a
    // write to page 1; the sequential fill pushes lpn 0 out of the write buffer.
    fill_sequential(&mut f, 256, 1);
    let mut ops = Vec::new();
    f.host_write(4096, 1, &mut ops);
    ops.clear();
    let r = f.host_read(0, 1, &mut ops);
    assert_eq!(r.nand_units, 1);
    // The slot holds page 1 (dirty): W of page 1, R of page 0, then the data read after R.
    let order: Vec<_> = ops.iter().map(|o| (o.purpose, o.after)).collect();
    assert_eq!(
        order,
        [
            (OpPurpose::MapWrite, None),
            (OpPurpose::MapRead, None),
            (OpPurpose::HostRead, Some(1)),
        ]
    );
    // Resident now: the next read of the page is not held.
    ops.clear();
    f.host_read(1, 1, &mut ops);
    assert_eq!(ops.len(), 1);
    assert_eq!((ops[0].purpose, ops[0].after), (OpPurpose::HostRead, None));
}
