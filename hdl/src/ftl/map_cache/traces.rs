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
    assert!(logical_units >= 64 && logical_units <= 1 << 32, "logical_units {logical_units} out of range");
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
                out.push(MapAccess { lpn: u, update: None });
                out.push(MapAccess { lpn: u, update: Some(next_ppa) });
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
