//! Write path: host data is staged in the controller's write buffer at the next free slot of the
//! open block of the die the write cursor points at; the mapping is updated at once (reads of a
//! staged unit are served from the buffer). When a program unit fills (one word line on all
//! planes: 3 pages x planes for one-shot TLC, 1 page x planes for SLC) one multi-plane Program op
//! is emitted and the cursor moves on (`advance_host_die`): to the next die, channel first, while
//! all dies write in one cell mode, so consecutive program units land on different channels.
//! `flush` pads partly filled program units. Trim unmaps.
//! Source: MQSim's TSU/plane-allocation scheme (channel-way-die-plane striping); Micron B16A
//! one-shot TLC programming.

use super::blocks::{BlockState, Pool};
use super::layout::NONE;
use super::unit_tables::{MapEntry, Oob, UNMAPPED};
use super::{Ftl, NandOp, NandOpKind, OpPurpose, WriteOutcome};
use crate::nand::CellMode;

impl Ftl {
    /// Host write of units [lpn, lpn + count). The contract is in ARCHITECTURE.md ("FTL").
    pub fn host_write(&mut self, lpn: u64, count: u32, ops: &mut Vec<NandOp>) -> WriteOutcome {
        assert!(
            self.in_range(lpn, count),
            "host write [{lpn}, +{count}) beyond capacity"
        );
        ops.append(&mut self.deferred);
        for u in lpn..lpn + count as u64 {
            self.write_unit(u, ops);
        }
        self.st.host_units_written += count as u64;
        self.refresh_block_stats();
        WriteOutcome { units: count }
    }

    /// One host unit: staged at the next slot of the cursor die's open block, mapped there, the
    /// old copy invalidated. The same transitions as `stage` for relocated data, written out for
    /// the warm-up's hot path: the mapping entry and the spare area (each with the checker's
    /// sequence, 0 with the checker off) are stored whole, the block entry is updated once.
    #[inline(always)]
    pub(super) fn write_unit(&mut self, lpn: u64, ops: &mut Vec<NandOp>) {
        let dbid = self.host_block(self.cursor, ops);
        let ppa = self.l.base(dbid) + self.blocks.info[dbid as usize].staged;
        self.map_access(lpn, Some(ppa), ops);
        self.ra.invalidate(lpn);
        let old = self.l2p[lpn as usize].ppa();
        if old != NONE {
            self.drop_valid(old);
            self.held.staged(dbid, self.l.dbid_of_ppa(old));
        }
        self.clock += 1;
        if self.dur.is_some() {
            self.note_superseded(lpn);
        }
        let seq = self.checker.as_mut().map_or(0, |c| {
            c.written(lpn);
            c.number()
        });
        #[cfg(feature = "fault-injection")]
        let mapped = self.faulty_mapping(ppa, old);
        #[cfg(not(feature = "fault-injection"))]
        let mapped = ppa;
        self.l2p[lpn as usize] = MapEntry::new(mapped, seq);
        debug_assert_eq!(
            self.oob[ppa as usize].lpn(),
            NONE,
            "staging into a used slot {ppa}"
        );
        self.oob[ppa as usize] = Oob::new(lpn as u32, seq);
        self.valid.set(ppa);
        let b = &mut self.blocks.info[dbid as usize];
        debug_assert_eq!(b.state, BlockState::Open);
        b.staged += 1;
        b.valid += 1;
        b.last_write = self.clock;
        self.slc_valid_units += (b.mode == CellMode::Slc) as u64;
        // `programmed` is a whole number of program units and `staged` runs at most one ahead.
        if b.staged - b.programmed == self.l.program_units(b.mode) {
            let mode = b.mode;
            self.program_unit(dbid, OpPurpose::HostWrite, ops);
            self.advance_host_die(mode);
        }
    }

    /// The cursor die has just programmed a host program unit in `mode`: charges its program time
    /// and moves the cursor to the die the next host program unit goes to, the one whose host
    /// program units so far take the least NAND program time, the first after the cursor on ties. With every die in one
    /// cell mode this is plain round-robin (channel first); when some dies write SLC blocks and
    /// others TLC (a partly used SLC cache), an SLC die gets tPROG(TLC) / tPROG(SLC) program
    /// units for each TLC one, so that each die stays busy, instead of the whole stripe waiting
    /// on its TLC dies. Firmware allocates writes to the dies that are free (dynamic allocation:
    /// Hu et al., "Performance impact and interplay of SSD parallelism through advanced
    /// commands, allocation strategy and data granularity", ICS 2011); program time is the
    /// untimed FTL's measure of when a die frees.
    fn advance_host_die(&mut self, mode: CellMode) {
        self.host_prog_ps[self.cursor as usize] += self.prog_ps[(mode == CellMode::Tlc) as usize];
        self.cursor = least_loaded_after(self.cursor, &self.host_prog_ps);
    }

    /// Trim of [lpn, lpn + count): unmapped units read as zeroes without NAND access.
    pub fn trim(&mut self, lpn: u64, count: u32) {
        assert!(
            self.in_range(lpn, count),
            "trim [{lpn}, +{count}) beyond capacity"
        );
        let mut ops = std::mem::take(&mut self.deferred);
        for u in lpn..lpn + count as u64 {
            self.map_access(u, Some(NONE), &mut ops);
            self.ra.invalidate(u);
            let old = self.l2p[u as usize].ppa();
            if old != NONE {
                self.drop_valid(old);
            }
            // Unmapped; with durability tracking the trim is numbered like a write (its journal
            // record makes it durable), else the checker's latest version is "none".
            if self.dur.is_some() {
                self.note_superseded(u);
                let units = self.l2p.len() as u64;
                let seq = self.checker.as_mut().map_or(0, |c| {
                    c.numbered_trim(u, units);
                    c.number()
                });
                self.l2p[u as usize] = MapEntry::new(NONE, seq);
                if self.persist.enabled {
                    if let Some(d) = &mut self.dur {
                        d.trims_open.push((u, seq));
                    }
                } else if let Some(c) = &mut self.checker {
                    // No journal: the trim never reaches NAND, so after a power loss the unit
                    // may come back at any older version still readable (no floor).
                    c.volatile.insert(u, 0);
                }
            } else {
                self.l2p[u as usize] = UNMAPPED;
            }
        }
        if self.emit {
            // One journal record per unit trimmed.
            let start = ops.len();
            self.persist.records(&self.l, count, &mut ops);
            self.journal_sent(start, &ops);
        }
        self.deferred = ops;
        self.refresh_block_stats();
    }

    /// Programs the partly filled host program unit, padding it (NVMe Flush: host data reaches
    /// NAND). Relocation streams (GC, folding, wear levelling) are internal and fill up in the
    /// course of GC; padding them on every idle period would itself create garbage to collect.
    pub fn flush(&mut self, ops: &mut Vec<NandOp>) {
        ops.append(&mut self.deferred);
        // Only the cursor's die can hold a partial host program unit: the cursor moves on when
        // one fills.
        let die = self.cursor as usize;
        debug_assert!(
            (0..self.l.dies as usize).all(|d| d == die || !self.partial(self.host_open[d]))
        );
        let dbid = self.host_open[die];
        if self.partial(dbid) {
            self.pad_open(dbid, ops);
            self.advance_host_die(self.blocks.info[dbid as usize].mode);
        }
        let start = ops.len();
        self.persist.commit(&self.l, ops);
        self.journal_sent(start, ops);
        self.refresh_block_stats();
    }

    /// Power fails on a drive with power-loss protection: the capacitors' energy programs every
    /// partly filled program unit (host and relocation streams, padded) and the journal page.
    pub fn flush_on_power_fail(&mut self, ops: &mut Vec<NandOp>) {
        self.flush(ops);
        for die in 0..self.l.dies {
            self.program_relocated_data(die, ops);
        }
        let start = ops.len();
        self.persist.commit(&self.l, ops);
        self.journal_sent(start, ops);
        self.refresh_block_stats();
    }

    /// Whether host data is staged and not yet programmed.
    pub fn has_staged(&self) -> bool {
        self.partial(self.host_open[self.cursor as usize])
    }

    pub(super) fn partial(&self, dbid: u32) -> bool {
        dbid != NONE && {
            let b = &self.blocks.info[dbid as usize];
            b.state == BlockState::Open && b.staged > b.programmed
        }
    }

    /// Pads and programs `dbid`'s partial program unit.
    fn pad_open(&mut self, dbid: u32, ops: &mut Vec<NandOp>) {
        self.pad_unit(dbid, OpPurpose::HostWrite, ops);
    }

    /// Programs (padded) the die's partly filled relocation program units, so that no unit moved
    /// out of a block about to be erased exists only in DRAM (`ftl.persistence`: a power loss
    /// after the erase would lose it).
    pub(super) fn program_relocated_data(&mut self, die: u32, ops: &mut Vec<NandOp>) {
        for dbid in [self.reloc_open[die as usize], self.cold_open[die as usize]] {
            if self.partial(dbid) {
                self.pad_unit(dbid, OpPurpose::GcWrite, ops);
            }
        }
    }

    /// Pads and programs open block `dbid`'s partial program unit.
    pub(super) fn pad_unit(&mut self, dbid: u32, purpose: OpPurpose, ops: &mut Vec<NandOp>) {
        let b = self.blocks.info[dbid as usize];
        let pu = self.l.program_units(b.mode);
        let pad = pu - b.staged % pu;
        self.st.pad_units += pad as u64;
        self.blocks.info[dbid as usize].staged += pad;
        self.program_unit(dbid, purpose, ops);
    }

    /// Places `lpn`'s data in the next slot of open block `dbid` and maps it there; emits the
    /// program when that fills a program unit (returned true).
    #[inline]
    pub(super) fn stage(
        &mut self,
        dbid: u32,
        lpn: u64,
        purpose: OpPurpose,
        ops: &mut Vec<NandOp>,
    ) -> bool {
        let b = &mut self.blocks.info[dbid as usize];
        debug_assert_eq!(b.state, BlockState::Open);
        let ppa = self.l.base(dbid) + b.staged;
        b.staged += 1;
        b.last_write = self.clock;
        // `programmed` is a whole number of program units and `staged` runs at most one ahead.
        let filled = b.staged - b.programmed == self.l.program_units(b.mode);
        debug_assert_eq!(
            self.oob[ppa as usize].lpn(),
            NONE,
            "staging into a used slot {ppa}"
        );
        self.oob[ppa as usize].set_lpn(lpn as u32);
        self.l2p[lpn as usize].set_ppa(ppa);
        self.add_valid(ppa, dbid);
        if filled {
            self.program_unit(dbid, purpose, ops);
        }
        filled
    }

    /// Emits the Program op of the program unit ending at `staged` and closes a full block.
    pub(super) fn program_unit(&mut self, dbid: u32, purpose: OpPurpose, ops: &mut Vec<NandOp>) {
        let l = &self.l;
        let b = &mut self.blocks.info[dbid as usize];
        let pu = l.program_units(b.mode);
        assert!(
            b.staged == b.programmed + pu,
            "block {dbid}: program unit misaligned"
        );
        debug_assert!(
            b.programmed.is_multiple_of(pu),
            "block {dbid}: program unit misaligned"
        );
        let addr = l.phys_page(l.base(dbid) + b.programmed);
        // Untimed (warm-up), the program is on NAND at once: it holds no erase. So with no
        // completions reported (`Ftl::track_durability` off: an FTL driven without dies).
        self.held
            .program_sent(dbid, addr, self.emit && self.dur.is_some());
        if self.emit {
            ops.push(NandOp {
                kind: NandOpKind::Program,
                mode: b.mode,
                addr,
                planes: l.planes as u8,
                bus_bytes: pu / l.units_per_page * l.page_bus_bytes(),
                purpose,
                after: None,
            });
            self.order.sent(&ops[ops.len() - 1..]);
        }
        b.programmed = b.staged;
        self.st.nand_units_written += pu as u64;
        if b.staged == l.capacity(b.mode) {
            b.state = BlockState::Closed;
        }
        if self.emit && self.persist.enabled {
            // One journal record per unit programmed (its mapping update).
            self.persist.note_program(dbid);
            let start = ops.len();
            self.persist.records(&self.l, pu, ops);
            self.journal_sent(start, ops);
        }
        if self.held.any_waiting() {
            for victim in self.held.unit_sent(dbid) {
                self.erase_now(victim, ops);
            }
        }
    }

    /// Journal pages among `ops[start..]` carry the trims recorded since the last one.
    /// (And they are numbered for the erase barrier, `erase_order.rs`.)
    pub(super) fn journal_sent(&mut self, start: usize, ops: &[NandOp]) {
        self.order.sent(&ops[start..]);
        let Some(d) = &mut self.dur else { return };
        let last = ops[start..]
            .iter()
            .rev()
            .find(|o| o.purpose == OpPurpose::Journal);
        if let Some(j) = last {
            let trims = std::mem::take(&mut d.trims_open);
            d.trims_sent.push((j.addr, trims));
        }
    }

    /// `lpn` is about to get a new version (write or trim): the checker's durability floor.
    #[cold]
    fn note_superseded(&mut self, lpn: u64) {
        let emit = self.emit;
        if let Some(c) = &mut self.checker {
            if emit {
                c.superseded(&self.l2p, lpn);
            } else if !c.volatile.is_empty() {
                // A functional (untimed) write is on NAND at once.
                c.volatile.remove(&lpn);
            }
        }
    }

    /// The open host block of `die`, opening one (and running foreground GC) when needed.
    #[inline(always)]
    fn host_block(&mut self, die: u32, ops: &mut Vec<NandOp>) -> u32 {
        let cur = self.host_open[die as usize];
        if cur != NONE && self.blocks.info[cur as usize].state == BlockState::Open {
            return cur;
        }
        self.open_host_block(die, ops)
    }

    /// `host_block`'s slow path (once per block of host data), kept out of the per-unit code.
    #[inline(never)]
    fn open_host_block(&mut self, die: u32, ops: &mut Vec<NandOp>) -> u32 {
        // Folding and wear levelling also take general blocks: check before every new block.
        if self.spare_blocks(die) < self.cfg.gc_threshold_free_blocks {
            self.foreground_gc(die, ops);
        }
        self.ensure_free_block(die, ops);
        let (mut pool, mut mode) = self.slc.host_block_kind(&self.blocks, die);
        if mode != CellMode::Slc && self.cfg.slc_cache.fold_when_full && self.fold_static(die, ops)
        {
            (pool, mode) = self.slc.host_block_kind(&self.blocks, die);
        }
        let dbid = self
            .blocks
            .allocate(die, pool, mode, self.clock)
            .unwrap_or_else(|| {
                panic!("die {die}: no free block for host data (GC could not keep up)")
            });
        self.host_open[die as usize] = dbid;
        if pool == Pool::General {
            self.foreground_gc(die, ops);
        } else if pool == Pool::StaticSlc && self.fold_ahead_due(die) {
            self.fold_static(die, ops);
        }
        dbid
    }
}

/// Index of the smallest of `loads`, searching from `cursor + 1` round-robin (the first on ties).
fn least_loaded_after(cursor: u32, loads: &[u64]) -> u32 {
    let n = loads.len() as u32;
    assert!(n > 0 && cursor < n, "cursor {cursor} outside {n} dies");
    let mut best = if cursor + 1 == n { 0 } else { cursor + 1 };
    for k in 1..n {
        let d = (cursor + 1 + k) % n;
        if loads[d as usize] < loads[best as usize] {
            best = d;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::least_loaded_after;

    #[test]
    fn equal_dies_take_turns_in_round_robin_order() {
        let loads = [2200u64; 4];
        assert_eq!(least_loaded_after(0, &loads), 1);
        assert_eq!(least_loaded_after(3, &loads), 0);
    }

    #[test]
    fn an_slc_die_takes_nine_program_units_per_tlc_unit_of_its_tlc_neighbour() {
        // Die 0 writes SLC (250 us per program unit), die 1 TLC (2200 us). By hand: die 1 first
        // (tie at 0, first after cursor 0), then die 0 until its load reaches 2250 >= 2200 (9
        // units: 250..2250), die 1 (4400), die 0 until 4500 >= 4400 (9 more), die 1.
        let prog = [250u64, 2200];
        let mut loads = [0u64; 2];
        let mut cursor = 0u32;
        let mut picks = Vec::new();
        for _ in 0..21 {
            cursor = least_loaded_after(cursor, &loads);
            loads[cursor as usize] += prog[cursor as usize];
            picks.push(cursor);
        }
        let mut want = vec![1u32];
        for _ in 0..2 {
            want.extend([0u32; 9]);
            want.push(1);
        }
        assert_eq!(picks, want);
    }
}
