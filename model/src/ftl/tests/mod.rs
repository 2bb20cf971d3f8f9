//! FTL tests on scaled-down drives (built here from the default preset with a small geometry).

mod basic;
mod config_errors;
mod done_when;
mod drive_timed;
mod erase_order;
mod executor;
mod gc_slc;
mod map_cache;
mod power_cut;
mod property;
mod readahead_timed;
mod stream_reads;
mod warmup;

use super::*;
use crate::config::DriveConfig;

/// 4 dies (2 channels x 2 ways), 2 planes, 128 blocks of 8 word lines (24 TLC pages), 16 KiB
/// pages: 192 units (768 KiB) per die-block, 98 304 units (384 MiB) raw; 10 % OP exports
/// floor(98 304 * 0.9) = 88 473 units. Static SLC: 2 die-blocks per die (SLC capacity 64 units).
pub fn small_cfg() -> DriveConfig {
    let mut c = DriveConfig::default_drive_without_fold();
    let g = &mut c.geometry;
    g.channels = 2;
    g.ways_per_channel = 2;
    g.dies_per_way = 1;
    g.planes_per_die = 2;
    g.blocks_per_plane = 128;
    g.wordlines_per_block = 8;
    let f = &mut c.ftl;
    f.over_provisioning_pct = 10.0;
    f.gc_threshold_free_blocks = 3;
    f.bg_gc_threshold_free_blocks = 6;
    f.wear_level_delta_pe_cycles = 1000;
    f.slc_cache.static_blocks_per_plane = 2;
    f.slc_cache.dynamic_fraction = 0.25;
    c.validate().expect("small test drive is valid");
    c
}

pub fn ftl(cfg: &DriveConfig) -> Ftl {
    Ftl::new(cfg, &SeedTree::new(1)).expect("valid config")
}

/// Sequential writes of `chunk` units over the whole logical space, `passes` times; ops dropped.
pub fn fill_sequential(f: &mut Ftl, chunk: u32, passes: u32) {
    let mut ops = Vec::new();
    let n = f.logical_units();
    for _ in 0..passes {
        let mut lpn = 0;
        while lpn < n {
            let c = chunk.min((n - lpn) as u32);
            f.host_write(lpn, c, &mut ops);
            ops.clear();
            lpn += c as u64;
        }
    }
}

/// `writes` random single-unit writes from a seeded stream; ops dropped.
pub fn random_writes(f: &mut Ftl, writes: u64, seed: u64) {
    use rand::Rng;
    let mut rng = SeedTree::new(seed).stream("test-random-writes", 0);
    let mut ops = Vec::new();
    let n = f.logical_units();
    for _ in 0..writes {
        f.host_write(rng.gen_range(0..n), 1, &mut ops);
        ops.clear();
    }
}

pub fn assert_integrity(f: &Ftl, what: &str) {
    assert_eq!(
        f.stats().integrity_violations,
        0,
        "{what}: {:?}",
        f.integrity_failure()
    );
}
