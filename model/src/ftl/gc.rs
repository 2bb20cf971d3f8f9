//! Relocation: garbage collection (foreground below `gc_threshold_free_blocks`, background in
//! idle time below `bg_gc_threshold_free_blocks`), SLC->TLC folding and static wear levelling all
//! move the valid units of one closed die-block into the die's relocation block (TLC) and erase
//! it. Valid units are found from the spare-area lpn checked against the mapping, as real
//! firmware does; units sharing a physical page are moved with one (multi-plane) page read.
//! Victims: a [`super::victim::VictimPolicy`]; folding takes the oldest SLC block; wear levelling
//! the least-erased block once max - min erase count exceeds `wear_level_delta`.
//! Source: MQSim GC/WL unit (Tavakkol et al., FAST'18); Chang, "On efficient wear leveling for
//! large-scale flash-memory storage systems" (static WL by cold-block migration).

use super::blocks::{BlockState, Pool};
use super::integrity::Checker;
use super::layout::NONE;
use super::unit_tables::ERASED;
use super::victim::Candidate;
use super::{Ftl, NandOp, NandOpKind, OpPurpose};
use crate::nand::CellMode;

/// Why a block is being relocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reloc {
    Gc,
    Fold,
    WearLevel,
}

/// Page rows ahead of the one being moved whose mapping entries are prefetched.
const PREFETCH_ROWS: u32 = 4;

impl Reloc {
    fn purposes(self) -> (OpPurpose, OpPurpose) {
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
        while self.blocks.free_count(die) < self.cfg.gc_threshold_free_blocks && rounds > 0 {
            rounds -= 1;
            if !self.gc_one(die, 1, ops) {
                break;
            }
            self.st.gc_foreground_blocks += 1;
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
                self.cands.push(Candidate { dbid, valid: b.valid, capacity, age });
            }
        }
        let Some(i) = self.victim.pick(&self.cands) else { return false };
        let dbid = self.cands[i].dbid;
        let kind = if self.blocks.info[dbid as usize].mode == CellMode::Slc { Reloc::Fold } else { Reloc::Gc };
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

    /// Static wear levelling on `die`: when the most-erased general block is more than
    /// `wear_level_delta` erases ahead of the least-erased closed TLC block, move the latter's
    /// (cold) data so that block rejoins the free pool.
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
        if hi - cold_ec <= self.cfg.wear_level_delta {
            return false;
        }
        // Cold data goes to a clearly more worn block, so every move narrows the spread (and
        // repeated moves cannot cycle); a die short of free blocks leaves it to GC first.
        let worn_enough = self.blocks.most_worn_free(die).is_some_and(|ec| ec > cold_ec + self.cfg.wear_level_delta / 2);
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

    /// Moves the valid units of closed block `dbid` into its die's relocation block, then erases
    /// it. Returns the units moved. Page rows are visited in order; a row's valid units (from the
    /// valid bitmap) are read with one (multi-plane) page read and moved in offset order.
    pub(super) fn relocate(&mut self, dbid: u32, why: Reloc, ops: &mut Vec<NandOp>) -> u64 {
        let b = self.blocks.info[dbid as usize];
        assert_eq!(b.state, BlockState::Closed, "relocating block {dbid} that is not closed");
        let (read_purpose, write_purpose) = why.purposes();
        let die = self.l.die_of(dbid);
        let (base, upp, row) = (self.l.base(dbid), self.l.units_per_page, self.l.row_units());
        assert!(row <= 64, "more than 64 units in one page row");
        let map_traffic = self.map_traffic();
        let mut moved = 0u64;
        let rows = b.staged / row;
        for page in 0..rows {
            if page + PREFETCH_ROWS < rows {
                self.prefetch_row(base + (page + PREFETCH_ROWS) * row, row);
            }
            let first = base + page * row;
            if map_traffic {
                // Firmware checks each spare-area lpn against the mapping: those accesses are
                // translation-cache traffic (and trace entries), valid or not.
                self.map_row(first, row, ops);
            }
            self.debug_check_valid_bits(first, row);
            let mask = self.valid.row(first, row);
            if mask == 0 {
                continue;
            }
            // Offsets in a row run plane-major, so the lowest and highest valid units give the
            // plane span of the read.
            let planes = (mask.trailing_zeros() / upp, (63 - mask.leading_zeros()) / upp);
            ops.push(self.l.read_op(dbid, page, planes, mask.count_ones(), b.mode, read_purpose));
            let mut m = mask;
            while m != 0 {
                self.move_unit(first + m.trailing_zeros(), die, write_purpose, ops);
                m &= m - 1;
            }
            moved += mask.count_ones() as u64;
        }
        assert_eq!(self.blocks.info[dbid as usize].valid, 0, "block {dbid} still holds valid data after relocation");
        self.erase(dbid, ops);
        moved
    }

    /// The mapping accesses of one row's validity checks (one per unit holding data).
    fn map_row(&mut self, first: u32, n: u32, ops: &mut Vec<NandOp>) {
        for ppa in first..first + n {
            let lpn = self.oob[ppa as usize].lpn;
            if lpn != NONE {
                self.map_access(lpn as u64, None, ops);
            }
        }
    }

    /// The valid bitmap agrees with the mapping (the unit tables' invariant), in debug builds.
    #[inline]
    fn debug_check_valid_bits(&self, first: u32, n: u32) {
        if cfg!(debug_assertions) {
            for ppa in first..first + n {
                let lpn = self.oob[ppa as usize].lpn;
                let mapped_here = lpn != NONE && self.l2p[lpn as usize].ppa == ppa;
                assert_eq!(self.valid.get(ppa), mapped_here, "valid bit of unit {ppa} (lpn {lpn})");
            }
        }
    }

    /// Warm-up speed: start fetching the mapping entries a later row will update (the table is
    /// hundreds of MiB; each update is otherwise a cache miss in sequence).
    #[inline]
    fn prefetch_row(&self, first: u32, n: u32) {
        let mut m = self.valid.row(first, n);
        while m != 0 {
            let lpn = self.oob[(first + m.trailing_zeros()) as usize].lpn;
            super::batch::prefetch(self.l2p.as_ptr().wrapping_add(lpn as usize));
            m &= m - 1;
        }
    }

    #[inline]
    fn move_unit(&mut self, src: u32, die: u32, purpose: OpPurpose, ops: &mut Vec<NandOp>) {
        let lpn = self.oob[src as usize].lpn as u64;
        let dst_block = self.reloc_block(die);
        let dst = self.l.base(dst_block) + self.blocks.info[dst_block as usize].staged;
        self.map_access(lpn, Some(dst), ops);
        self.drop_valid(src);
        self.ra.relocated(lpn, src, dst);
        Checker::copy(&mut self.oob, src, dst);
        self.stage(dst_block, lpn, purpose, ops);
    }

    fn erase(&mut self, dbid: u32, ops: &mut Vec<NandOp>) {
        let b = self.blocks.info[dbid as usize];
        let mut addr = self.l.phys_page(self.l.base(dbid));
        addr.plane = 0;
        ops.push(NandOp {
            kind: NandOpKind::Erase,
            mode: b.mode,
            addr,
            planes: self.l.planes as u8,
            bus_bytes: 0,
            purpose: OpPurpose::Erase,
            after: None,
        });
        let base = self.l.base(dbid);
        let used = b.staged;
        debug_assert!(self.valid.none_in(base, self.l.block_units), "erasing block {dbid} with valid bits set");
        self.oob[base as usize..(base + used) as usize].fill(ERASED);
        self.st.erases += 1;
        debug_assert!(b.pool != Pool::Map);
        // A stream whose block filled still points at it: that block is gone now.
        let die = self.l.die_of(dbid) as usize;
        for stream in [&mut self.host_open, &mut self.reloc_open, &mut self.cold_open] {
            if stream[die] == dbid {
                stream[die] = NONE;
            }
        }
        self.blocks.release(&self.l, dbid);
    }
}
