//! Relocation: garbage collection (foreground below `gc_threshold_free_blocks`, background in
//! idle time below `bg_gc_threshold_free_blocks`), SLC->TLC folding and static wear levelling all
//! move the valid units of one closed die-block into the die's relocation block (TLC) and erase
//! it (`reloc.rs`).
//! Victims: a [`super::victim::VictimPolicy`]; folding takes the oldest SLC block; wear levelling
//! the least-erased block once max - min erase count exceeds `wear_level_delta_pe_cycles`.
//! Source: MQSim GC/WL unit (Tavakkol et al., FAST'18); Chang, "On efficient wear leveling for
//! large-scale flash-memory storage systems" (static WL by cold-block migration).

use super::blocks::BlockState;
use super::victim::Candidate;
use super::{Ftl, NandOp, OpPurpose};
use crate::nand::CellMode;

/// Why a block is being relocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reloc {
    Gc,
    Fold,
    WearLevel,
}

impl Reloc {
    pub(super) fn purposes(self) -> (OpPurpose, OpPurpose) {
        match self {
            Reloc::Gc => (OpPurpose::GcRead, OpPurpose::GcWrite),
            Reloc::Fold => (OpPurpose::FoldRead, OpPurpose::FoldWrite),
            Reloc::WearLevel => (OpPurpose::WearLevelRead, OpPurpose::WearLevelWrite),
        }
    }
}

impl Ftl {
    /// Foreground GC on `die` until its free general blocks reach the threshold (or no victim
    /// would free space), then one wear-levelling move if erase counts drifted apart.
    pub(super) fn foreground_gc(&mut self, die: u32, ops: &mut Vec<NandOp>) {
        let mut rounds = self.l.blocks_per_die;
        // Deferred erases (`superseded.rs`) count as free, but one free block must remain beside
        // them: after a power loss they hold data again, and the GC after the mount needs a
        // block to relocate into.
        while (self.spare_blocks(die) < self.cfg.gc_threshold_free_blocks
            || self.blocks.free_count(die) == 0)
            && rounds > 0
        {
            rounds -= 1;
            if !self.gc_one(die, 1, ops) {
                break;
            }
            self.st.gc_foreground_blocks += 1;
        }
        // No victim left to fill the program units deferred erases wait for (`superseded.rs`).
        if self.spare_blocks(die) < self.cfg.gc_threshold_free_blocks {
            self.force_erases(die, ops);
        }
        if rounds < self.l.blocks_per_die {
            self.wear_level(die, ops);
        }
    }

    /// Collects one victim on `die` among blocks whose collection gains at least `min_gain`
    /// units of native capacity; false when there is none.
    pub(super) fn gc_one(&mut self, die: u32, min_gain: u32, ops: &mut Vec<NandOp>) -> bool {
        self.cands.clear();
        let first = self.l.dbid(die, 0);
        for dbid in first..first + self.l.plan.general_blocks {
            let b = &self.blocks.info[dbid as usize];
            let capacity = self.l.capacity(b.mode);
            // Freeing a block gains a native block's capacity and costs its valid units: a full
            // TLC block gains nothing, a full SLC block (folded) two thirds of a block.
            let gain = self.l.block_units - b.valid;
            if b.state == BlockState::Closed && gain >= min_gain {
                let age = self.clock.saturating_sub(b.last_write);
                self.cands.push(Candidate {
                    dbid,
                    valid: b.valid,
                    capacity,
                    age,
                });
            }
        }
        let Some(i) = self.victim.pick(&self.cands) else {
            return false;
        };
        let dbid = self.cands[i].dbid;
        let kind = if self.blocks.info[dbid as usize].mode == CellMode::Slc {
            Reloc::Fold
        } else {
            Reloc::Gc
        };
        let moved = self.relocate(dbid, kind, ops);
        match kind {
            Reloc::Fold => {
                self.st.fold_blocks += 1;
                self.st.fold_units_moved += moved;
            }
            _ => {
                self.st.gc_blocks += 1;
                self.st.gc_units_moved += moved;
            }
        }
        true
    }

    /// Folds the oldest closed SLC block of `die` (static or dynamic) into TLC.
    pub(super) fn fold_one(&mut self, die: u32, ops: &mut Vec<NandOp>) -> bool {
        let first = self.l.dbid(die, 0);
        let last = first + self.l.plan.general_blocks + self.l.plan.static_slc_blocks;
        let oldest = (first..last)
            .filter(|&d| {
                let b = &self.blocks.info[d as usize];
                b.state == BlockState::Closed && b.mode == CellMode::Slc
            })
            .min_by_key(|&d| self.blocks.info[d as usize].last_write);
        let Some(dbid) = oldest else { return false };
        let moved = self.relocate(dbid, Reloc::Fold, ops);
        self.st.fold_blocks += 1;
        self.st.fold_units_moved += moved;
        true
    }

    /// `slc_cache.fold_when_full`: folds the oldest closed static SLC block of `die` so that
    /// host data can go on to SLC, starting on a word-line boundary, and erases it now (padding
    /// the relocation program unit it waits for, if any). False when the die has no closed
    /// static SLC block.
    pub(super) fn fold_static(&mut self, die: u32, ops: &mut Vec<NandOp>) -> bool {
        let first = self.l.dbid(die, 0) + self.l.plan.general_blocks;
        let oldest = (first..first + self.l.plan.static_slc_blocks)
            .filter(|&d| self.blocks.info[d as usize].state == BlockState::Closed)
            .min_by_key(|&d| self.blocks.info[d as usize].last_write);
        let Some(dbid) = oldest else { return false };
        // A fold programs whole SLC pages into whole TLC word lines: it starts on a program-unit
        // boundary of the relocation block (GC's partial unit padded), so folded page rows stay
        // whole pages and a sequential read of them reads each page once.
        let open = self.reloc_open[die as usize];
        if self.partial(open) {
            self.pad_unit(open, OpPurpose::GcWrite, ops);
        }
        let moved = self.relocate(dbid, Reloc::Fold, ops);
        self.st.fold_blocks += 1;
        self.st.fold_units_moved += moved;
        if self.blocks.free_static_count(die) == 0 {
            self.force_erases(die, ops);
        }
        true
    }

    /// `slc_cache.fold_ahead_blocks`: `die` has just opened a static SLC block for host data,
    /// its dynamic SLC cache is used up (host data would otherwise go to native blocks: the
    /// state `fold_when_full` acts in) and it has fewer free static SLC blocks left than the
    /// fold keeps ahead of the host.
    pub(super) fn fold_ahead_due(&self, die: u32) -> bool {
        let c = &self.cfg.slc_cache;
        c.fold_when_full
            && self.blocks.free_static_count(die) < c.fold_ahead_blocks
            && self.slc.dynamic_used_up(&self.blocks, die)
    }

    /// Static wear levelling on `die`: when the most-erased general block is more than
    /// `wear_level_delta_pe_cycles` erases ahead of the least-erased closed TLC block, move the
    /// latter's (cold) data so that block rejoins the free pool.
    pub(super) fn wear_level(&mut self, die: u32, ops: &mut Vec<NandOp>) -> bool {
        let hi = self.blocks.ec_hi[die as usize];
        let first = self.l.dbid(die, 0);
        let coldest = (first..first + self.l.plan.general_blocks)
            .filter(|&d| {
                let b = &self.blocks.info[d as usize];
                b.state == BlockState::Closed && b.mode == CellMode::Tlc
            })
            .min_by_key(|&d| self.blocks.info[d as usize].erase_count);
        let Some(dbid) = coldest else { return false };
        let cold_ec = self.blocks.info[dbid as usize].erase_count;
        if hi - cold_ec <= self.cfg.wear_level_delta_pe_cycles {
            return false;
        }
        // Cold data goes to a clearly more worn block, so every move narrows the spread (and
        // repeated moves cannot cycle); a die short of free blocks leaves it to GC first.
        let worn_enough = self
            .blocks
            .most_worn_free(die)
            .is_some_and(|ec| ec > cold_ec + self.cfg.wear_level_delta_pe_cycles / 2);
        if self.blocks.free_count(die) < 2 || !worn_enough {
            return false;
        }
        // Cold data has its own stream (`cold_open`), so it does not share blocks with GC data.
        self.reloc_cold = true;
        let moved = self.relocate(dbid, Reloc::WearLevel, ops);
        self.reloc_cold = false;
        self.st.wl_blocks += 1;
        self.st.wl_units_moved += moved;
        true
    }
}
