//! Relocation, the mechanism under GC, SLC folding and static wear levelling (`gc.rs` picks the
//! block): the valid units of one closed die-block are read page row by page row (units sharing
//! a physical page with one (multi-plane) page read), restaged into the die's relocation block
//! (TLC) with their spare-area metadata, remapped, and the block is erased. Valid units come from
//! the valid bitmap (`unit_tables.rs`). When mapping accesses have effects (translation-cache
//! misses, or the map trace), firmware's check of every spare-area lpn against the mapping is
//! performed too and units move one by one (here); otherwise rows move with block-level
//! bookkeeping (`reloc_rows.rs`) — the same state transitions and ops in the same order (a test
//! compares both paths). Source: MQSim GC/WL unit (Tavakkol et al., FAST'18).

use super::blocks::{BlockInfo, BlockState, Pool};
use super::gc::Reloc;
use super::integrity::Checker;
use super::layout::NONE;
use super::unit_tables::ERASED;
use super::{Ftl, NandOp, NandOpKind, OpPurpose};
use crate::nand::CellMode;

/// Page rows ahead of the one being moved whose mapping entries are prefetched (unit-by-unit
/// moves; row moves write the mapping with non-temporal stores, which need no prefetch).
const PREFETCH_ROWS: u32 = 8;

impl Ftl {
    /// Moves the valid units of closed block `dbid` into its die's relocation block, then erases
    /// it. Returns the units moved. Page rows are visited in order; a row's valid units (from the
    /// valid bitmap) are read with one (multi-plane) page read and moved in offset order.
    pub(super) fn relocate(&mut self, dbid: u32, why: Reloc, ops: &mut Vec<NandOp>) -> u64 {
        let b = self.blocks.info[dbid as usize];
        assert_eq!(
            b.state,
            BlockState::Closed,
            "relocating block {dbid} that is not closed"
        );
        assert!(
            self.l.row_units() <= 64,
            "more than 64 units in one page row"
        );
        let moved = if self.map_traffic() {
            self.relocate_units(dbid, b, why, ops)
        } else {
            self.relocate_rows(dbid, b, why.purposes(), ops)
        };
        // Row moves' streaming mapping stores are ordered before any later access to them.
        super::batch::stream_fence();
        assert_eq!(
            self.blocks.info[dbid as usize].valid, 0,
            "block {dbid} still holds valid data after relocation"
        );
        self.erase(dbid, moved, ops);
        moved
    }

    /// The unit path: firmware checks every spare-area lpn against the mapping (translation-cache
    /// traffic and trace entries, valid or not), then moves a row's valid units one by one.
    fn relocate_units(
        &mut self,
        dbid: u32,
        b: BlockInfo,
        why: Reloc,
        ops: &mut Vec<NandOp>,
    ) -> u64 {
        let (read_purpose, write_purpose) = why.purposes();
        let die = self.l.die_of(dbid);
        let (base, row) = (self.l.base(dbid), self.l.row_units());
        let mut moved = 0u64;
        let rows = b.staged / row;
        for page in 0..rows {
            if page + PREFETCH_ROWS < rows {
                self.prefetch_row(base + (page + PREFETCH_ROWS) * row, row);
            }
            let first = base + page * row;
            self.map_row(first, row, ops);
            self.debug_check_valid_bits(first, row);
            let mask = self.valid.row(first, row);
            if mask == 0 {
                continue;
            }
            let planes = (
                self.l.plane_in_row(mask.trailing_zeros()),
                self.l.plane_in_row(63 - mask.leading_zeros()),
            );
            let units = mask.count_ones();
            if self.emit {
                ops.push(
                    self.l
                        .read_op(dbid, page, planes, units, b.mode, read_purpose),
                );
            }
            let mut m = mask;
            while m != 0 {
                self.move_unit(first + m.trailing_zeros(), die, write_purpose, ops);
                m &= m - 1;
            }
            moved += units as u64;
        }
        moved
    }

    /// The mapping accesses of one row's validity checks (one per unit holding data).
    fn map_row(&mut self, first: u32, n: u32, ops: &mut Vec<NandOp>) {
        for ppa in first..first + n {
            let lpn = self.oob[ppa as usize].lpn();
            if lpn != NONE {
                self.map_access(lpn as u64, None, ops);
            }
        }
    }

    /// The valid bitmap agrees with the mapping (the unit tables' invariant), in debug builds.
    #[inline]
    pub(super) fn debug_check_valid_bits(&self, first: u32, n: u32) {
        if cfg!(debug_assertions) {
            for ppa in first..first + n {
                let lpn = self.oob[ppa as usize].lpn();
                let mapped_here = lpn != NONE && self.l2p[lpn as usize].ppa() == ppa;
                assert_eq!(
                    self.valid.get(ppa),
                    mapped_here,
                    "valid bit of unit {ppa} (lpn {lpn})"
                );
            }
        }
    }

    /// Warm-up speed: start fetching the mapping entries a later row will update (the table is
    /// hundreds of MiB; each update is otherwise a cache miss in sequence).
    #[inline]
    fn prefetch_row(&self, first: u32, n: u32) {
        let mut m = self.valid.row(first, n);
        while m != 0 {
            let lpn = self.oob[(first + m.trailing_zeros()) as usize].lpn();
            super::batch::prefetch(self.l2p.as_ptr().wrapping_add(lpn as usize));
            m &= m - 1;
        }
    }

    #[inline]
    fn move_unit(&mut self, src: u32, die: u32, purpose: OpPurpose, ops: &mut Vec<NandOp>) {
        let lpn = self.oob[src as usize].lpn() as u64;
        let dst_block = self.reloc_block(die, ops);
        let dst = self.l.base(dst_block) + self.blocks.info[dst_block as usize].staged;
        self.map_access(lpn, Some(dst), ops);
        self.drop_valid(src);
        self.ra.relocated(lpn, src, dst);
        Checker::copy(&mut self.oob, src, dst);
        self.stage(dst_block, lpn, purpose, ops);
    }

    /// Erases relocated block `dbid` once what supersedes its copies is sent (`superseded.rs`):
    /// while a partly filled program unit holds some of it (the relocation stream its units
    /// went to, host program units superseding its stale copies), the erase is deferred until
    /// the last of them is sent; with at most one free block left on the die, or no victim left
    /// to fill them, they are padded and sent (`ensure_free_block`, `force_erases`). The same
    /// transitions untimed (the warm-up).
    ///
    /// With `ftl.persistence` the journal barrier orders the erase instead (`erase_order.rs`):
    /// the die's relocation program units are padded and sent, and the erase follows at once.
    fn erase(&mut self, dbid: u32, moved: u64, ops: &mut Vec<NandOp>) {
        let d = self.l.die_of(dbid) as usize;
        if self.persist.enabled {
            if self.emit {
                self.program_relocated_data(d as u32, ops);
            }
            return self.erase_now(dbid, ops);
        }
        let mut awaited = self.held.staged_over(dbid);
        awaited.retain(|&b| self.partial(b));
        // The stream this relocation wrote (wear levelling's cold stream, else GC's).
        let stream = if self.reloc_cold {
            self.cold_open[d]
        } else {
            self.reloc_open[d]
        };
        if moved > 0 && self.partial(stream) {
            awaited.push(stream);
        }
        if awaited.is_empty() {
            return self.erase_now(dbid, ops);
        }
        self.blocks.info[dbid as usize].state = BlockState::Relocated;
        self.held.defer(dbid, awaited);
    }

    /// Free blocks of `die` plus its relocated blocks whose erase is deferred (they are free
    /// as soon as the next relocation on the die sends a program unit): what GC thresholds
    /// compare with, so that deferring an erase does not shrink the reserve.
    pub(super) fn spare_blocks(&self, die: u32) -> u32 {
        let free = self.blocks.free_count(die);
        if !self.held.any_waiting() {
            return free;
        }
        let (l, info) = (&self.l, &self.blocks.info);
        // Static SLC blocks go back to their own pool when erased.
        free + self
            .held
            .waiting_count(|b| l.die_of(b) == die && info[b as usize].pool == Pool::General)
    }

    /// The open relocation block of `die` (GC and folding write here, in TLC), or while wear
    /// levelling the open cold-data block (opened on the most-worn free block).
    pub(super) fn reloc_block(&mut self, die: u32, ops: &mut Vec<NandOp>) -> u32 {
        let cur = if self.reloc_cold {
            self.cold_open[die as usize]
        } else {
            self.reloc_open[die as usize]
        };
        if cur != NONE && self.blocks.info[cur as usize].state == BlockState::Open {
            return cur;
        }
        self.ensure_free_block(die, ops);
        let cold = self.reloc_cold;
        let dbid = self
            .blocks
            .allocate_by_wear(die, Pool::General, CellMode::Tlc, self.clock, cold)
            .unwrap_or_else(|| panic!("die {die}: no free block to relocate into"));
        let stream = if cold {
            &mut self.cold_open
        } else {
            &mut self.reloc_open
        };
        stream[die as usize] = dbid;
        dbid
    }

    /// Before a block of `die` is allocated with at most one free block left, its deferred
    /// erases are forced: a block must be there to allocate (for host data, or to relocate
    /// into), and one must remain after it, for the GC after a power loss (the mount closes
    /// the open blocks, and the deferred ones hold data again).
    pub(super) fn ensure_free_block(&mut self, die: u32, ops: &mut Vec<NandOp>) {
        if self.blocks.free_count(die) <= 1 && self.held.any_waiting() {
            self.force_erases(die, ops);
        }
    }

    /// Pads and sends the program units the relocated blocks of `die` wait for, so that they
    /// are erased now (GC short of free blocks, with no victim left to fill them).
    pub(super) fn force_erases(&mut self, die: u32, ops: &mut Vec<NandOp>) {
        let l = &self.l;
        for b in self.held.awaited_by(|v| l.die_of(v) == die) {
            if self.partial(b) {
                let d = self.l.die_of(b) as usize;
                let host = self.reloc_open[d] != b && self.cold_open[d] != b;
                let purpose = if host {
                    OpPurpose::HostWrite
                } else {
                    OpPurpose::GcWrite
                };
                self.pad_unit(b, purpose, ops);
            }
        }
    }

    /// The multi-plane erase of die-block `dbid`, programmed in `mode`.
    pub(super) fn erase_op(&self, dbid: u32, mode: CellMode) -> NandOp {
        let mut addr = self.l.phys_page(self.l.base(dbid));
        addr.plane = 0;
        NandOp {
            kind: NandOpKind::Erase,
            mode,
            addr,
            planes: self.l.planes as u8,
            bus_bytes: 0,
            purpose: OpPurpose::Erase,
            after: None,
        }
    }

    /// Erases relocated block `dbid` (what supersedes its copies is sent; the executor holds
    /// the erase until it has completed).
    pub(super) fn erase_now(&mut self, dbid: u32, ops: &mut Vec<NandOp>) {
        if self.emit {
            self.held.erase_sent(dbid);
        }
        if self.persist.enabled && self.emit {
            // The barrier (`erase_order.rs`): the journal page, with the records of what
            // supersedes the victim's copies, is sent before the erase, which waits for it.
            let start = ops.len();
            self.persist.commit(&self.l, ops);
            self.journal_sent(start, ops);
        }
        self.save_before_erase(dbid);
        let b = self.blocks.info[dbid as usize];
        if self.emit {
            let op = self.erase_op(dbid, b.mode);
            self.order.erase_sent(op.addr);
            ops.push(op);
        }
        let base = self.l.base(dbid);
        let used = b.staged;
        debug_assert!(
            self.valid.none_in(base, self.l.block_units),
            "erasing block {dbid} with valid bits set"
        );
        self.oob[base as usize..(base + used) as usize].fill(ERASED);
        self.st.erases += 1;
        debug_assert!(b.pool != Pool::Map);
        // A stream whose block filled still points at it: that block is gone now.
        let die = self.l.die_of(dbid) as usize;
        for stream in [
            &mut self.host_open,
            &mut self.reloc_open,
            &mut self.cold_open,
        ] {
            if stream[die] == dbid {
                stream[die] = NONE;
            }
        }
        self.blocks.release(&self.l, dbid);
    }
}
