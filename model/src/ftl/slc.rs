//! Hybrid SLC cache policy: where the next host block comes from. A static part (reserved
//! die-blocks, always SLC) is used first; then up to `dynamic_fraction` of the die's free general
//! blocks (beyond a GC reserve) may be opened in SLC mode, so the dynamic part shrinks as the drive
//! fills; when both are used up host data goes directly to TLC. Folding (SLC -> TLC) happens in
//! idle time and, for dynamic SLC blocks, through foreground GC when free blocks run short.
//! Source: AnandTech SLC-cache analyses (Intel 660p, Samsung TurboWrite, SM2262 drives).

use super::blocks::{BlockTable, Pool};
use crate::config::FtlConfig;
use crate::nand::CellMode;

#[derive(Clone, Debug)]
pub struct SlcPolicy {
    enabled: bool,
    /// dynamic_fraction in 1/1024ths (integer arithmetic inside the model).
    fraction_1024: u64,
    /// Free blocks per die never lent to the dynamic SLC cache.
    reserve: u32,
}

impl SlcPolicy {
    pub fn new(cfg: &FtlConfig) -> SlcPolicy {
        SlcPolicy {
            enabled: cfg.slc_cache.enabled,
            fraction_1024: (cfg.slc_cache.dynamic_fraction * 1024.0).round() as u64,
            reserve: cfg.bg_gc_threshold_free_blocks + 3,
        }
    }
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Dynamic SLC blocks `die` may hold now.
    pub fn dynamic_quota(&self, blocks: &BlockTable, die: u32) -> u32 {
        let free_or_slc = blocks.free_count(die) + blocks.dyn_slc[die as usize];
        (free_or_slc.saturating_sub(self.reserve) as u64 * self.fraction_1024 / 1024) as u32
    }

    /// Whether `die` may open no more dynamic SLC blocks (the cache beyond its static part is
    /// used up: the drive is full enough that host data would go to native blocks).
    pub fn dynamic_used_up(&self, blocks: &BlockTable, die: u32) -> bool {
        blocks.dyn_slc[die as usize] >= self.dynamic_quota(blocks, die)
    }

    /// Pool and mode of the next host block on `die`.
    pub fn host_block_kind(&self, blocks: &BlockTable, die: u32) -> (Pool, CellMode) {
        if !self.enabled {
            return (Pool::General, CellMode::Tlc);
        }
        if blocks.free_static_count(die) > 0 {
            return (Pool::StaticSlc, CellMode::Slc);
        }
        if !self.dynamic_used_up(blocks, die) {
            (Pool::General, CellMode::Slc)
        } else {
            (Pool::General, CellMode::Tlc)
        }
    }
}
