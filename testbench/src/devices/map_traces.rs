//! Synthetic mapping-access traces with the statistical shape of the model FTL's map trace
//! (`Ftl::set_map_trace`): host reads look entries up unit by unit, host writes update them with
//! increasing physical addresses, garbage collection looks up and re-maps scattered units.
//! Shape from the fio jobs the protocols run: half sequential 128 KiB streams, half 4 KiB random
//! with an 80/20 hot/cold skew (80 % of random accesses fall in 20 % of the space).

use rand::Rng;
use ssdlab_model::ftl::map_cache::MapAccess;
use ssdlab_model::rng::SeedTree;

/// `n` accesses over `logical_units` LPNs (< 2^32), reproducible from `seed`.
pub fn ftl_shaped_trace(seed: u64, n: usize, logical_units: u64) -> Vec<MapAccess> {
    assert!(
        (64..=1 << 32).contains(&logical_units),
        "logical_units {logical_units} out of range"
    );
    let mut rng = SeedTree::new(seed).stream("map_cache_ftl_trace", 0);
    let mut out = Vec::with_capacity(n);
    let mut seq_pos = 0u64;
    let mut next_ppa = 0u32;
    let mut writes_since_gc = 0u64;
    let hot = (logical_units / 5).max(1);
    while out.len() < n {
        let (lpn, count) = if rng.gen_bool(0.5) {
            let p = seq_pos;
            seq_pos = (seq_pos + 32) % (logical_units - 32);
            (p, 32)
        } else if rng.gen_bool(0.8) {
            (rng.gen_range(0..hot), 1)
        } else {
            (rng.gen_range(hot..logical_units), 1)
        };
        let write = rng.gen_bool(0.4);
        for u in lpn..lpn + count {
            let update = write.then(|| {
                next_ppa = next_ppa.wrapping_add(1);
                next_ppa
            });
            out.push(MapAccess { lpn: u, update });
        }
        if write {
            writes_since_gc += count;
        }
        // Garbage collection: relocate 16 scattered units every 64 host units written.
        if writes_since_gc >= 64 {
            writes_since_gc = 0;
            for _ in 0..16 {
                let u = rng.gen_range(0..logical_units);
                next_ppa = next_ppa.wrapping_add(1);
                out.push(MapAccess {
                    lpn: u,
                    update: None,
                });
                out.push(MapAccess {
                    lpn: u,
                    update: Some(next_ppa),
                });
            }
        }
    }
    out.truncate(n);
    out
}

/// Stress trace for small caches: 60 % of accesses in a hot range of `hot` LPNs, 30 % in
/// `0..warm`, 10 % in pages 256..259 (LPN 256 Ki + 0..4096), which share DRAM table slots 0..3
/// with pages 0..3 on a 256-slot table, so page fetches and dirty page write-backs happen.
/// 35 % updates.
pub fn stress_trace(seed: u64, n: usize, hot: u64, warm: u64) -> Vec<MapAccess> {
    assert!(hot >= 1 && warm >= hot);
    let mut rng = SeedTree::new(seed).stream("map_cache_hdl_trace", 0);
    (0..n)
        .map(|_| {
            let p: f64 = rng.gen();
            let lpn = if p < 0.6 {
                rng.gen_range(0..hot)
            } else if p < 0.9 {
                rng.gen_range(0..warm)
            } else {
                256 * 1024 + rng.gen_range(0..4096)
            };
            let update = rng.gen_bool(0.35).then(|| rng.gen::<u32>() >> 1);
            MapAccess { lpn, update }
        })
        .collect()
}

/// A map trace recorded from the model's FTL (`Ftl::set_map_trace`) on a scaled-down drive (the
/// default preset with 4 dies x 2 planes x 128 blocks of 8 word lines: 88 473 exported units):
/// sequential 128 KiB precondition of the whole span (not recorded), then `host_ops` fio-like
/// operations (half 128 KiB sequential, half 4 KiB random; 60 % reads) with the trace on, so it
/// holds host lookups, host updates and the garbage collector's relocations.
pub fn record_ftl_trace(
    seed: u64,
    host_ops: usize,
) -> Result<Vec<MapAccess>, ssdlab_model::ConfigError> {
    use ssdlab_model::ftl::Ftl;
    let mut cfg = ssdlab_model::DriveConfig::default_drive();
    let g = &mut cfg.geometry;
    (
        g.channels,
        g.ways_per_channel,
        g.dies_per_way,
        g.planes_per_die,
    ) = (2, 2, 1, 2);
    (g.blocks_per_plane, g.wordlines_per_block) = (128, 8);
    let f = &mut cfg.ftl;
    (
        f.over_provisioning_pct,
        f.gc_threshold_free_blocks,
        f.bg_gc_threshold_free_blocks,
    ) = (10.0, 3, 6);
    f.slc_cache.static_blocks_per_plane = 2;
    cfg.validate()?;
    let mut ftl = Ftl::new(&cfg, &SeedTree::new(seed))?;
    let n = ftl.logical_units();
    let mut ops = Vec::new();
    let mut lpn = 0;
    while lpn < n {
        let c = 32.min(n - lpn) as u32;
        ftl.host_write(lpn, c, &mut ops);
        ops.clear();
        lpn += c as u64;
    }
    ftl.set_map_trace(true);
    let mut rng = SeedTree::new(seed).stream("map_cache_ftl_workload", 0);
    let mut seq = 0u64;
    for _ in 0..host_ops {
        let (lpn, count) = if rng.gen_bool(0.5) {
            seq = (seq + 32) % (n - 32);
            (seq, 32)
        } else {
            (rng.gen_range(0..n), 1)
        };
        if rng.gen_bool(0.6) {
            ftl.host_read(lpn, count, &mut ops);
        } else {
            ftl.host_write(lpn, count, &mut ops);
        }
        ops.clear();
    }
    Ok(ftl.take_map_trace())
}
