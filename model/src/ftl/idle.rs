//! Background work while the host is idle, one block's worth per call so that host IO arriving
//! meanwhile waits behind at most one relocation: flush the write buffer (after
//! `write_buffer_flush_idle_ms`), fold SLC into TLC (after `slc_cache.idle_fold_threshold_ms`),
//! background GC where free blocks are below `bg_gc_threshold_free_blocks` (after
//! `bg_gc_idle_ms`), static wear levelling (with background GC).
//! Source: AnandTech's idle-time SLC flush observations; MQSim's preemptible background GC.

use super::{Ftl, NandOp};
use crate::time::SimTime;

impl Ftl {
    /// Host idle for `idle_for`: does one piece of background work and returns true, or returns
    /// false when nothing is due at this idle duration (see `next_idle_work_at` for later work).
    pub fn idle_work(&mut self, idle_for: SimTime, ops: &mut Vec<NandOp>) -> bool {
        let before = ops.len();
        ops.append(&mut self.deferred);
        let did = self.idle_step(idle_for, ops) || ops.len() > before;
        self.refresh_block_stats();
        did
    }

    fn idle_step(&mut self, idle_for: SimTime, ops: &mut Vec<NandOp>) -> bool {
        // Urgent first: a die below the foreground threshold (folding static SLC takes general
        // blocks without host writes to trigger GC).
        for die in 0..self.l.dies {
            if self.spare_blocks(die) < self.cfg.gc_threshold_free_blocks
                && self.gc_one(die, 1, ops)
            {
                return true;
            }
        }
        if idle_for >= self.flush_idle && self.has_staged() {
            self.flush(ops);
            return true;
        }
        if self.slc.enabled() && idle_for >= self.fold_idle {
            for die in self.dies_from_cursor() {
                if self.spare_blocks(die) > self.cfg.gc_threshold_free_blocks
                    && self.fold_one(die, ops)
                {
                    return true;
                }
            }
        }
        if idle_for >= self.bg_gc_idle {
            for die in self.dies_from_cursor() {
                // Background GC only collects blocks worth it (an eighth of a block at least), so
                // idle time never churns nearly full blocks.
                let min_gain = self.l.block_units / 8;
                if self.spare_blocks(die) < self.cfg.bg_gc_threshold_free_blocks
                    && self.gc_one(die, min_gain, ops)
                {
                    return true;
                }
            }
            for die in self.dies_from_cursor() {
                if self.wear_level(die, ops) {
                    return true;
                }
            }
        }
        false
    }

    fn dies_from_cursor(&self) -> impl Iterator<Item = u32> {
        let (c, n) = (self.cursor, self.l.dies);
        (0..n).map(move |i| (c + i) % n)
    }

    /// The smallest idle duration above `idle_for` at which background work becomes due, if any
    /// work is pending. A drive whose `idle_work` returned false calls again at that point.
    pub fn next_idle_work_at(&self, idle_for: SimTime) -> Option<SimTime> {
        let mut due = Vec::with_capacity(3);
        if self.has_staged() {
            due.push(self.flush_idle);
        }
        if self.slc.enabled() && self.blocks.slc_in_use > 0 {
            due.push(self.fold_idle);
        }
        if (0..self.l.dies)
            .any(|d| self.blocks.free_count(d) < self.cfg.bg_gc_threshold_free_blocks)
            || (0..self.l.dies as usize).any(|d| {
                self.blocks.ec_hi[d] - self.blocks.ec_lo[d] > self.cfg.wear_level_delta_pe_cycles
            })
        {
            due.push(self.bg_gc_idle);
        }
        due.into_iter().filter(|&t| t > idle_for).min()
    }
}
