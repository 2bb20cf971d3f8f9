//! Persistence of the mapping table as firmware does it (`ftl.persistence`): every mapping
//! update (a programmed unit of host or relocated data, a trim) appends an 8 B record to a
//! journal page in DRAM; a full page, or a flush, is programmed into the system area (reserved
//! SLC die-blocks used as a ring, single-plane pages, a block erased when the ring head enters
//! it); after `checkpoint_journal_mib` of journal the whole table (4 B per logical unit) is
//! written as a checkpoint and the journal restarts. The mount after a power loss reads the last
//! checkpoint and the journal after it, then scans the spare areas of the blocks programmed
//! since the last journal page ([`Persist::mount_scan_blocks`]). Sources: see
//! `config::PersistenceConfig`.

use super::layout::Layout;
use super::{NandOp, NandOpKind, OpPurpose};
use crate::config::{PersistenceConfig, JOURNAL_RECORD_BYTES};
use crate::nand::CellMode;
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
pub struct Persist {
    pub enabled: bool,
    records_per_page: u32,
    /// Records in the DRAM journal page.
    fill: u32,
    /// Journal pages written since the last checkpoint, and how many trigger the next one.
    pub journal_pages: u64,
    pages_per_checkpoint: u64,
    /// Pages of one checkpoint (the table, 4 B per logical unit); whether one was written.
    pub checkpoint_pages: u64,
    pub has_checkpoint: bool,
    /// System-area ring: die-blocks in ring order, single-plane SLC pages per block, next page.
    ring: Vec<u32>,
    slots_per_block: u32,
    head: u64,
    /// Die-blocks programmed since the last journal page was written.
    scan: BTreeSet<u32>,
    /// Journal and checkpoint pages written (statistics).
    pub pages_written: u64,
}

impl Persist {
    pub fn new(cfg: &PersistenceConfig, l: &Layout) -> Persist {
        let p = l.plan;
        let mut ring = Vec::new();
        for i in 0..p.system_blocks {
            for die in 0..l.dies {
                let first = p.general_blocks + p.static_slc_blocks + p.map_blocks;
                ring.push(l.dbid(die, first + i));
            }
        }
        Persist {
            enabled: cfg.enabled,
            records_per_page: l.page_bytes / JOURNAL_RECORD_BYTES,
            fill: 0,
            journal_pages: 0,
            pages_per_checkpoint: cfg.journal_pages_per_checkpoint(l.page_bytes),
            checkpoint_pages: (p.logical_units * 4).div_ceil(l.page_bytes as u64),
            has_checkpoint: false,
            ring,
            slots_per_block: l.wordlines * l.planes,
            head: 0,
            scan: BTreeSet::new(),
            pages_written: 0,
        }
    }

    /// `n` mapping updates happened; emits the journal pages (and checkpoint) they fill.
    pub fn records(&mut self, l: &Layout, n: u32, ops: &mut Vec<NandOp>) {
        if !self.enabled {
            return;
        }
        self.fill += n;
        while self.fill >= self.records_per_page {
            self.fill -= self.records_per_page;
            self.write_journal_page(l, ops);
        }
    }

    /// Flush / FUA: the partly filled journal page is programmed (padded).
    pub fn commit(&mut self, l: &Layout, ops: &mut Vec<NandOp>) {
        if self.enabled && self.fill > 0 {
            self.fill = 0;
            self.write_journal_page(l, ops);
        }
    }

    /// Whether the DRAM journal page holds records not yet on NAND.
    pub fn has_open_records(&self) -> bool {
        self.enabled && self.fill > 0
    }

    /// Die-block `dbid` received a program.
    pub fn note_program(&mut self, dbid: u32) {
        if self.enabled {
            self.scan.insert(dbid);
        }
    }

    /// Blocks whose spare areas the mount scans (programmed after the last journal page).
    pub fn mount_scan_blocks(&self) -> impl Iterator<Item = u32> + '_ {
        self.scan.iter().copied()
    }

    fn write_journal_page(&mut self, l: &Layout, ops: &mut Vec<NandOp>) {
        self.scan.clear();
        self.program_page(l, OpPurpose::Journal, ops);
        self.journal_pages += 1;
        if self.journal_pages >= self.pages_per_checkpoint {
            for _ in 0..self.checkpoint_pages {
                self.program_page(l, OpPurpose::Checkpoint, ops);
            }
            self.journal_pages = 0;
            self.has_checkpoint = true;
        }
    }

    /// The system-area page at ring position `slot` (single plane, SLC).
    pub fn page_op(&self, l: &Layout, slot: u64, kind: NandOpKind, purpose: OpPurpose) -> NandOp {
        let slots = self.ring.len() as u64 * self.slots_per_block as u64;
        let slot = (slot % slots) as u32;
        let dbid = self.ring[(slot / self.slots_per_block) as usize];
        let k = slot % self.slots_per_block;
        NandOp {
            kind,
            mode: CellMode::Slc,
            addr: l.page_at(dbid, k / l.planes, k % l.planes),
            planes: 1,
            bus_bytes: if kind == NandOpKind::Program || kind == NandOpKind::Read {
                l.page_bus_bytes()
            } else {
                0
            },
            purpose,
            after: None,
        }
    }

    fn program_page(&mut self, l: &Layout, purpose: OpPurpose, ops: &mut Vec<NandOp>) {
        if self.head.is_multiple_of(self.slots_per_block as u64) && self.head > 0 {
            let slots = self.ring.len() as u64 * self.slots_per_block as u64;
            if self.head >= slots {
                let mut e = self.page_op(l, self.head, NandOpKind::Erase, OpPurpose::Erase);
                e.addr.plane = 0;
                e.planes = l.planes as u8;
                ops.push(e);
            }
        }
        ops.push(self.page_op(l, self.head, NandOpKind::Program, purpose));
        self.head += 1;
        self.pages_written += 1;
    }

    /// The mount is done: the DRAM journal page was lost, the blocks to scan are known again
    /// only from programs after it.
    pub fn after_mount(&mut self) {
        self.fill = 0;
        self.scan.clear();
    }

    /// The mount's reads of the last checkpoint and the journal written after it, in ring
    /// order ending at the head.
    pub fn mount_reads(&self, l: &Layout, ops: &mut Vec<NandOp>) {
        if !self.enabled {
            return;
        }
        let ckpt = if self.has_checkpoint {
            self.checkpoint_pages
        } else {
            0
        };
        let n = ckpt + self.journal_pages;
        for s in self.head - n..self.head {
            ops.push(self.page_op(l, s, NandOpKind::Read, OpPurpose::MountRead));
        }
    }
}
