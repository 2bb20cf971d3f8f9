//! Sudden power loss and the mount after it. What survives is what is on NAND: the spare area
//! of every completely programmed page holds (logical unit, write sequence), written with the
//! data. The drive tells the FTL which programs and erases completed ([`Ftl::nand_done`]);
//! at [`Ftl::power_loss`] it hands over the ones that did not (queued, or running and
//! interrupted). DRAM is lost: the write buffer's staged units, the DRAM journal page, the
//! mapping table, the translation-page cache, the read-ahead window.
//!
//! - An interrupted or never-started program leaves its units unreadable. A TLC program unit is
//!   one word line on all planes, programmed one-shot (Micron B16A), so an interrupted one loses
//!   all three pages of the word line (the paired pages) on every plane.
//! - A queued erase leaves the block as it was (its data is restored); an interrupted erase
//!   leaves it neither erased nor readable: the mount erases it again.
//! - With power-loss protection (`ftl.plp`) the drive first lets every operation finish and
//!   programs the write buffer and the journal page from the capacitors' energy.
//!
//! The mount rebuilds the mapping as firmware does: from the last checkpoint, the journal
//! after it and a spare-area scan of the blocks programmed after the last journal page (with
//! `ftl.persistence`), or a spare-area scan of every block holding data (without). Journal
//! records are appended when a program completes and every block programmed since the last
//! journal page is scanned, so both give, for every logical unit, its newest version on NAND:
//! the highest write sequence among readable spare areas, unless a journaled trim is newer.
//! That is what the rebuild computes (one pass over the spare areas); the mount's NAND reads are
//! the ones the firmware's procedure takes ([`MountReport`]). Sources: see
//! `config::PersistenceConfig`.

use super::blocks::BlockInfo;
use super::layout::NONE;
use super::unit_tables::Oob;
use super::{Ftl, NandOp, NandOpKind, OpPurpose};
use crate::nand::PhysPage;
use rustc_hash::FxHashMap as HashMap;

/// A program or erase that had not completed when power failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LostOp {
    pub op: NandOp,
    /// Running on its die when power failed (else still queued).
    pub interrupted: bool,
}

/// What a power loss cost and what the mount read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MountReport {
    pub plp: bool,
    /// Host units staged in the write buffer, never programmed.
    pub buffered_units_lost: u64,
    /// Units of programs queued or interrupted (host and relocation data).
    pub program_units_lost: u64,
    pub interrupted_programs: u64,
    /// Erases interrupted (the mount erases the block again) and queued (the block kept its data).
    pub interrupted_erases: u64,
    pub queued_erases: u64,
    /// Closed blocks left without valid data by the rebuilt mapping, erased by the mount.
    pub empty_blocks_erased: u64,
    /// Mount reads: checkpoint and journal pages, and spare-area reads (one multi-plane read per
    /// programmed page row) of the scanned blocks.
    pub checkpoint_pages_read: u64,
    pub journal_pages_read: u64,
    pub scanned_blocks: u64,
    pub spare_reads: u64,
    /// Logical units whose mounted version is older than their latest write (lost updates).
    pub units_rolled_back: u64,
}

impl MountReport {
    /// NAND reads the mount took.
    pub fn nand_reads(&self) -> u64 {
        self.checkpoint_pages_read + self.journal_pages_read + self.spare_reads
    }
}

/// Durability bookkeeping of a tracked FTL (`Ftl::track_durability`).
#[derive(Clone, Debug, Default)]
pub struct Durability {
    /// Die-blocks whose erase was sent and has not completed: the block as it was.
    pub erasing: HashMap<u32, (BlockInfo, Vec<Oob>)>,
    /// Trims whose journal record is on NAND: logical unit -> trim sequence.
    pub trimmed: HashMap<u64, u32>,
    /// Trims not yet in a programmed journal page: in the DRAM page, and by journal page sent.
    pub trims_open: Vec<(u64, u32)>,
    pub trims_sent: Vec<(PhysPage, Vec<(u64, u32)>)>,
}

impl Ftl {
    /// Starts (or stops) following NAND completions, which power-loss modelling needs: the drive
    /// turns it on and reports every completed program and erase through [`Ftl::nand_done`].
    pub fn track_durability(&mut self, on: bool) {
        self.dur = on.then(Durability::default);
        if on && self.checker.is_none() {
            self.checker = Some(super::integrity::Checker::new());
        }
        if let Some(c) = &mut self.checker {
            c.tracking = on;
        }
    }

    /// The physical unit holding the first byte of page `a`.
    pub(super) fn ppa_at(&self, a: &PhysPage) -> u32 {
        let l = &self.l;
        let die =
            a.die.channel as u32 + l.channels * (a.die.way as u32 + l.ways * a.die.die as u32);
        l.base(l.dbid(die, a.block)) + (a.page * l.planes + a.plane as u32) * l.units_per_page
    }

    /// Op `op` (sent by this FTL) completed on its die.
    pub fn nand_done(&mut self, op: &NandOp) {
        self.order.done(op);
        if op.kind == NandOpKind::Program {
            self.held.program_done(&op.addr);
        }
        if self.dur.is_none() {
            return;
        }
        let first = self.ppa_at(&op.addr);
        let Some(dur) = &mut self.dur else { return };
        match (op.kind, op.purpose) {
            (NandOpKind::Erase, OpPurpose::Erase) => {
                dur.erasing.remove(&self.l.dbid_of_ppa(first));
            }
            (NandOpKind::Program, OpPurpose::Journal) => {
                if let Some(i) = dur.trims_sent.iter().position(|(a, _)| *a == op.addr) {
                    let (_, trims) = dur.trims_sent.swap_remove(i);
                    for (lpn, seq) in trims {
                        dur.trimmed.insert(lpn, seq);
                        if let Some(c) = &mut self.checker {
                            c.durable(&self.l2p, lpn, seq);
                        }
                    }
                }
            }
            (
                NandOpKind::Program,
                OpPurpose::HostWrite
                | OpPurpose::GcWrite
                | OpPurpose::FoldWrite
                | OpPurpose::WearLevelWrite,
            ) => {
                let Some(c) = &mut self.checker else { return };
                for p in first..first + self.l.program_units(op.mode) {
                    let o = self.oob[p as usize];
                    if o.lpn() != NONE {
                        c.durable(&self.l2p, o.lpn() as u64, o.seq);
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether erase `op` may start as far as the persistence barrier goes (`erase_order.rs`:
    /// a relocation erase waits, with `ftl.persistence`, until every program sent before it has
    /// completed). Always true for other ops.
    pub fn erase_ordered(&self, op: &NandOp) -> bool {
        self.order.may_start(op)
    }

    /// Whether the executor may start erase `op` now: [`Ftl::erase_ordered`], and every
    /// program superseding a copy in its block has completed (`superseded.rs`). Always true
    /// for other ops.
    pub fn erase_may_start(&self, op: &NandOp) -> bool {
        self.erase_ordered(op)
            && (op.kind != NandOpKind::Erase
                || !self.held.any_held()
                || self
                    .held
                    .may_erase(self.l.dbid_of_ppa(self.ppa_at(&op.addr))))
    }

    /// Whether some relocation erase is sent and not completed (so one may be held).
    pub fn erases_pending(&self) -> bool {
        self.order.any_erase() || self.held.any_held()
    }

    /// An erase of `dbid` is about to be sent: keeps the block as it is for a power loss.
    pub(super) fn save_before_erase(&mut self, dbid: u32) {
        if let Some(dur) = &mut self.dur {
            if self.emit {
                let b = self.blocks.info[dbid as usize];
                let base = self.l.base(dbid) as usize;
                let oob = self.oob[base..base + b.staged as usize].to_vec();
                dur.erasing.entry(dbid).or_insert((b, oob));
            }
        }
    }
}
