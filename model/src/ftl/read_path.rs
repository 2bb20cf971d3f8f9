//! Read path: each logical unit is looked up (a DRAM-table miss costs a MapRead first, and the
//! call's page reads wait for its MapReads: [`NandOp::after`]);
//! units held in the read-ahead or write buffer, and unmapped units, need no NAND access; the
//! rest are grouped by physical page so that units sharing a page share ONE page read, and pages
//! at the same block/page address on several planes of a die become one multi-plane read. A
//! sequentially written range therefore needs `units / units_per_page / planes` reads; the same
//! range after a random 4 KiB overwrite needs up to one read per unit: the scattering is a fact
//! of the mapping, not a factor. Source: ONFI 4.1 multi-plane page read (00h-32h / 00h-30h),
//! random data out (05h-E0h) for partial-page transfers.

use super::integrity::Served;
use super::layout::NONE;
use super::{Ftl, NandOp, OpPurpose, ReadOutcome};

impl Ftl {
    /// Host read of units [lpn, lpn + count). The contract is in ARCHITECTURE.md ("FTL").
    pub fn host_read(&mut self, lpn: u64, count: u32, ops: &mut Vec<NandOp>) -> ReadOutcome {
        assert!(
            self.in_range(lpn, count),
            "host read [{lpn}, +{count}) beyond capacity"
        );
        ops.append(&mut self.deferred);
        let first = ops.len();
        self.ra_hits.clear();
        self.ra_held = 0;
        self.ra_op_units.clear();
        let mut out = ReadOutcome::default();
        // The grouping scratch holds at most one entry per unit of this read.
        self.groups.clear();
        for u in lpn..lpn + count as u64 {
            match self.locate(u, ops) {
                Located::Unmapped => out.unmapped_units += 1,
                Located::Buffered => out.buffered_units += 1,
                Located::Nand(ppa) => {
                    out.nand_units += 1;
                    let _ = self.group(ppa);
                }
            }
        }
        let whole = self.cfg.stream_read_page_cache && self.ra.continues(lpn);
        let reads = ops.len();
        self.st.host_read_ops += self.emit_reads(OpPurpose::HostRead, whole, ops);
        wait_for_map_reads(ops, first, reads);
        self.st.host_units_read += count as u64;
        self.st.host_units_buffered += out.buffered_units as u64;
        self.st.host_units_unmapped += out.unmapped_units as u64;
        self.read_ahead(lpn, count, ops);
        self.refresh_block_stats();
        out
    }

    /// Where `lpn`'s latest data is, verified by the integrity checker.
    fn locate(&mut self, lpn: u64, ops: &mut Vec<NandOp>) -> Located {
        if let Some((ppa, tag)) = self.ra.lookup(lpn) {
            self.check(lpn, Served::At(ppa));
            self.ra_held += 1;
            // Distinct tags, bounded by the read's units; sequential units share a tag.
            if !self.ra_hits.contains(&tag) {
                self.ra_hits.push(tag);
            }
            return Located::Buffered;
        }
        self.map_access(lpn, None, ops);
        let ppa = self.l2p[lpn as usize].ppa();
        if ppa == NONE {
            self.check(lpn, Served::Unmapped);
            return Located::Unmapped;
        }
        self.check(lpn, Served::At(ppa));
        let dbid = self.l.dbid_of_ppa(ppa);
        if ppa - self.l.base(dbid) >= self.blocks.info[dbid as usize].programmed {
            Located::Buffered
        } else {
            Located::Nand(ppa)
        }
    }

    #[inline]
    fn check(&mut self, lpn: u64, served: Served) {
        if let Some(c) = &mut self.checker {
            c.read(&self.l2p, &self.oob, lpn, served);
        }
    }

    /// Adds unit `ppa` to the page-read groups: (dbid, page, plane mask, units); returns the
    /// index of its group (= its read op's position among the ops `emit_reads` pushes next).
    fn group(&mut self, ppa: u32) -> usize {
        let dbid = self.l.dbid_of_ppa(ppa);
        let (page, plane, _) = self.l.split_offset(ppa - self.l.base(dbid));
        let bit = 1u32 << plane;
        // Recent groups first: sequential data hits the last group.
        for (i, g) in self.groups.iter_mut().enumerate().rev() {
            if g.0 == dbid && g.1 == page {
                g.2 |= bit;
                g.3 += 1;
                return i;
            }
        }
        self.groups.push((dbid, page, bit, 1));
        self.groups.len() - 1
    }

    /// One (multi-plane) read op per group, in first-touch order; returns the ops pushed.
    /// `whole`: each op reads and transfers the whole page on every plane
    /// (`stream_read_page_cache`).
    fn emit_reads(&mut self, purpose: OpPurpose, whole: bool, ops: &mut Vec<NandOp>) -> u64 {
        for &(dbid, page, mask, units) in &self.groups {
            if purpose == OpPurpose::ReadAhead {
                self.ra_op_units.push(units);
            }
            let mode = self.blocks.info[dbid as usize].mode;
            let op = if whole {
                let all = self.l.units_per_page * self.l.planes;
                self.l
                    .read_op(dbid, page, (0, self.l.planes - 1), all, mode, purpose)
            } else {
                let planes = (mask.trailing_zeros(), 31 - mask.leading_zeros());
                self.l.read_op(dbid, page, planes, units, mode, purpose)
            };
            ops.push(op);
        }
        let n = self.groups.len() as u64;
        self.groups.clear();
        n
    }

    /// Sequential-stream read-ahead after a host read of [lpn, lpn + count).
    fn read_ahead(&mut self, lpn: u64, count: u32, ops: &mut Vec<NandOp>) {
        let Some((start, stop)) = self.ra.observe(lpn, count, self.logical_units()) else {
            return;
        };
        let first = ops.len();
        for u in start..stop {
            self.map_access(u, None, ops);
            match self.programmed_ppa(u) {
                Some(ppa) => self.prefetch(ppa),
                // Unmapped or in the write buffer: the host read will find it there.
                None => self.ra.push(NONE, 0),
            }
        }
        self.finish_last_page(stop, ops);
        let reads = ops.len();
        let n = self.emit_reads(OpPurpose::ReadAhead, self.cfg.stream_read_page_cache, ops);
        wait_for_map_reads(ops, first, reads);
        self.st.read_ahead_ops += n;
        self.ra_tag_next += n;
    }
}

impl Ftl {
    /// Where `lpn` sits on NAND, if it is mapped and its program has been issued.
    fn programmed_ppa(&self, lpn: u64) -> Option<u32> {
        let ppa = self.l2p[lpn as usize].ppa();
        if ppa == NONE {
            return None;
        }
        let dbid = self.l.dbid_of_ppa(ppa);
        (ppa - self.l.base(dbid) < self.blocks.info[dbid as usize].programmed).then_some(ppa)
    }

    /// A read-ahead window that ends inside a (multi-plane) page takes the rest of that page's
    /// units from `stop` on: its page read is issued anyway, and leaving them out would make the
    /// next top-up read the same page a second time (a window of 410 KiB, not a whole number of
    /// 32 KiB pages, cost the fresh 128 KiB sequential read 11 % this way). At most one page.
    fn finish_last_page(&mut self, stop: u64, ops: &mut Vec<NandOp>) {
        let Some(&(dbid, page, _, _)) = self.groups.last() else {
            return;
        };
        let end = (stop + (self.l.units_per_page * self.l.planes) as u64).min(self.logical_units());
        for u in stop..end {
            let Some(ppa) = self.programmed_ppa(u) else {
                return;
            };
            let d = self.l.dbid_of_ppa(ppa);
            if d != dbid || self.l.split_offset(ppa - self.l.base(d)).0 != page {
                return;
            }
            self.map_access(u, None, ops);
            self.prefetch(ppa);
        }
    }

    /// Adds NAND unit `ppa` to the read-ahead window and its page's read group.
    fn prefetch(&mut self, ppa: u32) {
        let g = self.group(ppa);
        self.ra.push(ppa, self.ra_tag_next + g as u64);
        self.st.read_ahead_units += 1;
    }

    /// Tags of the ReadAhead ops whose prefetched units the last `host_read` was served from
    /// (distinct, in first-hit order). The timed drive makes the read wait for those still running.
    pub fn prefetch_hits(&self) -> &[u64] {
        &self.ra_hits
    }

    /// ReadAhead ops emitted so far: the next one gets this tag. A batch returned by `host_read`
    /// holds the ReadAhead ops tagged `prefetch_tags_issued() - k .. prefetch_tags_issued()`, in
    /// order, where k is the number of ReadAhead ops in it.
    pub fn prefetch_tags_issued(&self) -> u64 {
        self.ra_tag_next
    }

    /// Units of the last `host_read` served from the read-ahead window (no mapping lookup of
    /// their own: the prefetch that fetched them did it).
    pub fn read_ahead_held(&self) -> u32 {
        self.ra_held
    }

    /// The prefetched copy of `lpn` the read-ahead window holds, if any: the physical unit it was
    /// read from and the tag of the ReadAhead op reading it. A host read of it is served from
    /// that copy.
    pub fn prefetched(&self, lpn: u64) -> Option<(u32, u64)> {
        self.ra.lookup(lpn)
    }

    /// Every unit the read-ahead window holds: (lpn, physical unit, ReadAhead tag), in logical
    /// order.
    pub fn prefetch_window(&self) -> impl Iterator<Item = (u64, u32, u64)> + '_ {
        self.ra.held()
    }

    /// The firmware gave up the buffer of ReadAhead op `tag` (a controller whose prefetches
    /// wait in its page buffer needs it back): its units leave the window, and a later host
    /// read of one reads NAND.
    pub fn forget_prefetch(&mut self, tag: u64) {
        self.ra.forget(tag);
    }

    /// The 4 KiB units each ReadAhead op of the last `host_read` prefetches (the units wanted,
    /// not the page's bus size), in tag order: the mapping lookups behind each prefetch.
    pub fn prefetch_op_units(&self) -> &[u32] {
        &self.ra_op_units
    }
}

/// Makes the page reads at `ops[reads..]` wait for the translation-page reads among
/// `ops[first..reads]`, which their units' lookups caused: a unit's physical address is known
/// only once its translation page is in DRAM. An op waits for one op (`after`), so the MapReads
/// are chained, each after the one before, and every page read waits for the last: exact for the
/// usual case of one MapRead, and it serialises the MapReads of a call that needs several (a
/// read spanning translation pages, `page_bytes / 4` units each, that are all missing).
/// MapWrites need no wait: the evicted page is written from a copy.
fn wait_for_map_reads(ops: &mut [NandOp], first: usize, reads: usize) {
    let mut last = None;
    for (i, op) in ops.iter_mut().enumerate().take(reads).skip(first) {
        if op.purpose == OpPurpose::MapRead {
            op.after = op.after.or(last);
            last = Some(i as u32);
        }
    }
    if last.is_some() {
        for op in &mut ops[reads..] {
            op.after = last;
        }
    }
}

enum Located {
    Unmapped,
    Buffered,
    Nand(u32),
}
