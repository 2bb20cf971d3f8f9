//! Relocation, the mechanism under GC, SLC folding and static wear levelling (`gc.rs` picks the
//! block): the valid units of one closed die-block are read page row by page row (units sharing
//! a physical page with one (multi-plane) page read), restaged into the die's relocation block
//! (TLC) with their spare-area metadata, remapped, and the block is erased. Valid units come from
//! the valid bitmap (`unit_tables.rs`); when mapping accesses have effects (translation-cache
//! misses, or the map trace), firmware's check of every spare-area lpn against the mapping is
//! performed too, unit by unit. Otherwise a row's units are moved in program-unit segments with
//! the block bookkeeping done once per segment — the same state transitions and ops, in the same
//! order (a test compares both paths) — and the mapping updates, random stores into a table far
//! larger than the caches, are non-temporal (`batch::stream_store`): they skip reading the line
//! first, which measured 6-18 % more warm-up writes per CPU-second on the full preset. Source:
//! MQSim GC/WL unit (Tavakkol et al., FAST'18).

use super::blocks::{BlockState, Pool};
use super::gc::Reloc;
use super::integrity::Checker;
use super::layout::NONE;
use super::readahead::ReadAhead;
use super::unit_tables::{MapEntry, Oob, ERASED};
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
        assert_eq!(b.state, BlockState::Closed, "relocating block {dbid} that is not closed");
        let (read_purpose, write_purpose) = why.purposes();
        let die = self.l.die_of(dbid);
        let (base, row) = (self.l.base(dbid), self.l.row_units());
        assert!(row <= 64, "more than 64 units in one page row");
        let map_traffic = self.map_traffic();
        let mut moved = 0u64;
        let rows = b.staged / row;
        for page in 0..rows {
            // Only unit-by-unit moves load the mapping lines; row moves stream their stores.
            if map_traffic && page + PREFETCH_ROWS < rows {
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
            let planes = (self.l.plane_in_row(mask.trailing_zeros()), self.l.plane_in_row(63 - mask.leading_zeros()));
            let units = mask.count_ones();
            ops.push(self.l.read_op(dbid, page, planes, units, b.mode, read_purpose));
            if map_traffic {
                let mut m = mask;
                while m != 0 {
                    self.move_unit(first + m.trailing_zeros(), die, write_purpose, ops);
                    m &= m - 1;
                }
            } else {
                self.move_row(first, mask, dbid, write_purpose, ops);
            }
            moved += units as u64;
        }
        // Row moves' streaming mapping stores are ordered before any later access to them.
        super::batch::stream_fence();
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

    /// Moves the units of `mask` (bit i: unit `first + i` of block `victim`) in offset order, in
    /// segments that end where the relocation block's program unit fills: per unit exactly what
    /// `move_unit` does (minus the effect-free mapping access), per segment the block counters.
    fn move_row(&mut self, first: u32, mask: u64, victim: u32, purpose: OpPurpose, ops: &mut Vec<NandOp>) {
        let die = self.l.die_of(victim);
        let victim_slc = (self.blocks.info[victim as usize].mode == CellMode::Slc) as u64;
        let mut m = mask;
        while m != 0 {
            let dst_block = self.reloc_block(die);
            let b = self.blocks.info[dst_block as usize];
            let pu = self.l.program_units(b.mode);
            let dst0 = self.l.base(dst_block) + b.staged;
            let k = copy_units(&mut self.oob, &mut self.l2p, &mut self.ra, first, &mut m, dst0, b.programmed + pu - b.staged);
            self.valid.set_run(dst0, k);
            let v = &mut self.blocks.info[victim as usize];
            assert!(v.valid >= k, "block {victim}: moving more units than it holds");
            v.valid -= k;
            let d = &mut self.blocks.info[dst_block as usize];
            d.valid += k;
            d.staged += k;
            d.last_write = self.clock;
            let dst_slc = (d.mode == CellMode::Slc) as u64;
            self.slc_valid_units = self.slc_valid_units - victim_slc * k as u64 + dst_slc * k as u64;
            if d.staged - d.programmed == pu {
                self.program_unit(dst_block, purpose, ops);
            }
        }
        self.valid.clear_mask(first, mask);
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

/// Moves the units of `*m` (bit i: unit `first + i`), lowest first and at most `room` of them, to
/// units `dst0..`: copies their spare areas, stores their mapping entries (non-temporal, see the
/// module doc), tells the read-ahead buffer. Clears the moved units' bits from `*m`; returns how
/// many moved. (A free function over the tables so that their addresses stay in registers across
/// the loop instead of being reloaded through `self` for every unit.)
#[inline(always)]
fn copy_units(oob: &mut [Oob], l2p: &mut [MapEntry], ra: &mut ReadAhead, first: u32, m: &mut u64, dst0: u32, room: u32) -> u32 {
    let mut k = 0;
    while *m != 0 && k < room {
        let src = first + m.trailing_zeros();
        *m &= *m - 1;
        let dst = dst0 + k;
        let o = oob[src as usize];
        debug_assert_eq!(oob[dst as usize].lpn, NONE, "staging into a used slot {dst}");
        oob[dst as usize] = o;
        super::batch::stream_store(&mut l2p[o.lpn as usize].ppa, dst);
        ra.relocated(o.lpn as u64, src, dst);
        k += 1;
    }
    k
}
