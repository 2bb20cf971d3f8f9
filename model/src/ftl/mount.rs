//! The power cut itself and the mount after it (see [`super::power_loss`] for what is modelled
//! and why the rebuild gives the firmware's result).

use super::blocks::{BlockState, Pool};
use super::layout::NONE;
use super::map_table::MapTable;
use super::power_loss::{LostOp, MountReport};
use super::readahead::ReadAhead;
use super::unit_tables::{ValidBits, ERASED};
use super::{bigvec, Ftl, NandOp, NandOpKind, OpPurpose};

impl Ftl {
    /// Power fails now. `lost` are the programs and erases sent to the dies that had not
    /// completed, in the order each die would have run them. DRAM is lost; the mapping is
    /// rebuilt from NAND and checked against the durability contract (`integrity.rs`). Pushes
    /// the mount's NAND ops (reads, and erases of blocks whose erase was interrupted) to
    /// `mount_ops`, for the drive to time. Requires [`Ftl::track_durability`].
    pub fn power_loss(
        &mut self,
        lost: &[LostOp],
        plp: bool,
        mount_ops: &mut Vec<NandOp>,
    ) -> MountReport {
        assert!(self.dur.is_some(), "power loss without durability tracking");
        let mut r = MountReport {
            plp,
            ..Default::default()
        };
        self.undo_lost(lost, &mut r, mount_ops);
        self.drop_staged(&mut r);
        self.mount_reads(&mut r, mount_ops);
        self.close_open_blocks();
        let n = self.l2p.len();
        let old = std::mem::replace(&mut self.l2p, bigvec::big_zeroed(n));
        self.rebuild_map();
        r.units_rolled_back = old
            .iter()
            .zip(self.l2p.iter())
            .filter(|(o, m)| o.seq != m.seq)
            .count() as u64;
        if let Some(c) = &mut self.checker {
            c.verify_mount(&old, &self.l2p, &self.oob, plp);
        }
        drop(old);
        self.rebuild_valid();
        self.erase_empty_blocks(&mut r, mount_ops);
        self.reset_volatile();
        self.refresh_block_stats();
        r
    }

    /// Undoes, latest first, what the lost ops would have done to NAND.
    fn undo_lost(&mut self, lost: &[LostOp], r: &mut MountReport, mount_ops: &mut Vec<NandOp>) {
        for lo in lost.iter().rev() {
            let op = &lo.op;
            match (op.kind, op.purpose) {
                (NandOpKind::Erase, OpPurpose::Erase) => {
                    let dbid = self.l.dbid_of_ppa(self.ppa_at(&op.addr));
                    let saved = self.dur.as_mut().and_then(|d| d.erasing.remove(&dbid));
                    let Some((info, oob)) = saved else { continue };
                    let base = self.l.base(dbid) as usize;
                    if lo.interrupted {
                        // Neither erased nor readable: the mount erases it again.
                        r.interrupted_erases += 1;
                        let used = self.blocks.info[dbid as usize].staged as usize;
                        self.oob[base..base + used].fill(ERASED);
                        self.blocks.info[dbid as usize].staged = 0;
                        self.blocks.info[dbid as usize].programmed = 0;
                        self.blocks.info[dbid as usize].state = BlockState::Free;
                        mount_ops.push(NandOp {
                            after: None,
                            purpose: OpPurpose::Erase,
                            ..*op
                        });
                    } else {
                        r.queued_erases += 1;
                        self.oob[base..base + oob.len()].copy_from_slice(&oob);
                        // As before the erase was sent (its erase count too).
                        self.blocks.info[dbid as usize] = info;
                    }
                }
                (
                    NandOpKind::Program,
                    OpPurpose::HostWrite
                    | OpPurpose::GcWrite
                    | OpPurpose::FoldWrite
                    | OpPurpose::WearLevelWrite,
                ) => {
                    r.interrupted_programs += lo.interrupted as u64;
                    let first = self.ppa_at(&op.addr);
                    let pu = self.l.program_units(op.mode);
                    for p in first..first + pu {
                        r.program_units_lost += (self.oob[p as usize].lpn() != NONE) as u64;
                        self.oob[p as usize] = ERASED;
                    }
                    let dbid = self.l.dbid_of_ppa(first);
                    let b = &mut self.blocks.info[dbid as usize];
                    let off = first - self.l.base(dbid);
                    if b.state != BlockState::Free && b.programmed > off {
                        // Nothing after an unprogrammed word line was programmed either; what
                        // is staged beyond it goes with the write buffer (`drop_staged`).
                        b.programmed = off;
                    }
                }
                _ => {}
            }
        }
    }

    /// Units staged in the write buffer (and relocation data not yet programmed) are gone.
    fn drop_staged(&mut self, r: &mut MountReport) {
        for dbid in 0..self.l.die_blocks() {
            let b = self.blocks.info[dbid as usize];
            if b.pool == Pool::Map || b.state == BlockState::Free || b.staged == b.programmed {
                continue;
            }
            let base = self.l.base(dbid);
            for p in base + b.programmed..base + b.staged {
                r.buffered_units_lost += (self.oob[p as usize].lpn() != NONE) as u64;
                self.oob[p as usize] = ERASED;
            }
            self.blocks.info[dbid as usize].staged = b.programmed;
        }
    }

    /// The mount's reads: checkpoint and journal (with `ftl.persistence`), then one multi-plane
    /// spare-area read per programmed page row of every block it must scan.
    fn mount_reads(&mut self, r: &mut MountReport, ops: &mut Vec<NandOp>) {
        let first = ops.len();
        self.persist.mount_reads(&self.l, ops);
        let n = (ops.len() - first) as u64;
        r.checkpoint_pages_read = if self.persist.has_checkpoint {
            self.persist.checkpoint_pages.min(n)
        } else {
            0
        };
        r.journal_pages_read = n - r.checkpoint_pages_read;
        let mut scan: Vec<u32> = if self.persist.enabled {
            let mut v: Vec<u32> = self.persist.mount_scan_blocks().collect();
            v.extend(
                self.host_open
                    .iter()
                    .chain(&self.reloc_open)
                    .chain(&self.cold_open)
                    .copied()
                    .filter(|&d| d != NONE),
            );
            v
        } else {
            (0..self.l.die_blocks()).collect()
        };
        scan.sort_unstable();
        scan.dedup();
        let row = self.l.row_units();
        for dbid in scan {
            let b = self.blocks.info[dbid as usize];
            if b.pool == Pool::Map || b.state == BlockState::Free || b.programmed == 0 {
                continue;
            }
            r.scanned_blocks += 1;
            for page in 0..b.programmed.div_ceil(row) {
                ops.push(NandOp {
                    kind: NandOpKind::Read,
                    mode: b.mode,
                    addr: self.l.page_at(dbid, page, 0),
                    planes: self.l.planes as u8,
                    bus_bytes: self.l.spare_bytes * self.l.planes,
                    purpose: OpPurpose::MountRead,
                    after: None,
                });
                r.spare_reads += 1;
            }
        }
    }

    /// Firmware does not append to a block that was open when power failed: it is closed (or,
    /// if nothing in it was programmed, returned to the free pool).
    fn close_open_blocks(&mut self) {
        for b in self.blocks.info.iter_mut() {
            if b.pool != Pool::Map && b.state == BlockState::Open {
                b.state = if b.programmed == 0 {
                    BlockState::Free
                } else {
                    BlockState::Closed
                };
            }
            // Its erase never left DRAM: it holds data (perhaps the only copy) again.
            if b.state == BlockState::Relocated {
                b.state = BlockState::Closed;
            }
        }
        self.blocks.rebuild_lists(&self.l);
    }

    /// Every logical unit at its newest readable version, unless a journaled trim is newer.
    fn rebuild_map(&mut self) {
        for dbid in 0..self.l.die_blocks() {
            let b = self.blocks.info[dbid as usize];
            if b.pool == Pool::Map || b.state == BlockState::Free {
                continue;
            }
            let base = self.l.base(dbid);
            for p in base..base + b.programmed {
                let o = self.oob[p as usize];
                if o.lpn() == NONE || o.lpn() as usize >= self.l2p.len() {
                    continue;
                }
                let e = &mut self.l2p[o.lpn() as usize];
                if e.ppa() == NONE || o.seq >= e.seq {
                    e.set_ppa(p);
                    e.seq = o.seq;
                }
            }
        }
        if let Some(d) = &self.dur {
            for (&lpn, &t) in &d.trimmed {
                let e = &mut self.l2p[lpn as usize];
                if t > e.seq {
                    e.set_ppa(NONE);
                    e.seq = t;
                }
            }
        }
    }

    /// Valid bits and per-block valid counts from the rebuilt mapping.
    fn rebuild_valid(&mut self) {
        self.valid = ValidBits::new(self.l.physical_units());
        for b in self.blocks.info.iter_mut() {
            b.valid = 0;
        }
        self.slc_valid_units = 0;
        for lpn in 0..self.l2p.len() {
            let p = self.l2p[lpn].ppa();
            if p != NONE {
                self.add_valid(p, self.l.dbid_of_ppa(p));
            }
        }
    }

    /// Closed blocks the rebuilt mapping left without a valid unit (their copies all superseded;
    /// blocks whose erase never ran hold data again) are erased, so that each die has free
    /// blocks for the GC after the mount.
    fn erase_empty_blocks(&mut self, r: &mut MountReport, mount_ops: &mut Vec<NandOp>) {
        for dbid in 0..self.l.die_blocks() {
            let b = self.blocks.info[dbid as usize];
            if b.pool == Pool::Map || b.state != BlockState::Closed || b.valid != 0 {
                continue;
            }
            let base = self.l.base(dbid) as usize;
            self.oob[base..base + b.staged as usize].fill(ERASED);
            self.blocks.release(&self.l, dbid);
            mount_ops.push(self.erase_op(dbid, b.mode));
            r.empty_blocks_erased += 1;
        }
    }

    /// DRAM contents gone: open streams, read-ahead window, table cache, journal page.
    fn reset_volatile(&mut self) {
        self.host_open.fill(NONE);
        self.reloc_open.fill(NONE);
        self.cold_open.fill(NONE);
        self.reloc_cold = false;
        self.ra = ReadAhead::new(self.cfg.read_ahead_kib);
        self.ra_hits.clear();
        self.ra_held = 0;
        self.ra_op_units.clear();
        self.deferred.clear();
        self.table = MapTable::new(&self.l);
        self.persist.after_mount();
        self.order.clear();
        self.held.clear();
        if let Some(d) = &mut self.dur {
            d.erasing.clear();
            d.trims_open.clear();
            d.trims_sent.clear();
        }
    }
}
