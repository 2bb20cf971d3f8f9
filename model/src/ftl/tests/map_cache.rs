//! The DRAM translation-page cache: misses cost MapReads, dirty evictions MapWrites.

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
    // Write pages 0 and 1 of the table (lpn 0 and 4096): no flash copies yet, so no reads;
    // switching to page 1 evicts dirty page 0: one MapWrite.
    f.host_write(0, 1, &mut ops);
    f.host_write(4096, 1, &mut ops);
    let count = |ops: &[NandOp], p| ops.iter().filter(|o| o.purpose == p).count();
    assert_eq!(count(&ops, OpPurpose::MapRead), 0);
    assert_eq!(count(&ops, OpPurpose::MapWrite), 1);
    ops.clear();
    // Back to page 0: read it (it has a flash copy now) and write back dirty page 1.
    let r = f.host_read(0, 1, &mut ops);
    assert_eq!(r.buffered_units, 1);
    assert_eq!(
        (
            count(&ops, OpPurpose::MapRead),
            count(&ops, OpPurpose::MapWrite)
        ),
        (1, 1)
    );
    assert_eq!(
        ops[0].purpose,
        OpPurpose::MapRead,
        "map ops come before data ops"
    );
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
