//! Translation pages in flash: a circular log of single-plane SLC pages in reserved die-blocks,
//! with the global translation directory (GTD: table page -> log slot). When the log head enters
//! a used block, the table pages still current in it are read, the block is erased and they are
//! rewritten first. The log is sized at twice the table, so that always terminates. Source: DFTL
//! (Gupta et al., ASPLOS'09) translation blocks and GTD.

use super::layout::{Layout, NONE};
use super::stats::FtlStats;
use super::{NandOp, NandOpKind, OpPurpose};
use crate::nand::CellMode;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct MapLog {
    /// Log blocks in log order (die-interleaved).
    blocks: Vec<u32>,
    /// Slots (single-plane SLC pages) per block.
    slots_per_block: u32,
    /// Table page -> slot (NONE: never written back, all entries unmapped).
    pub gtd: Vec<u32>,
    /// Slot -> table page written there.
    owner: Vec<u32>,
    /// Next slot to write, modulo the log size.
    head: u64,
    pending: VecDeque<u32>,
    /// Erases per log block (wear of the translation area).
    pub erase_counts: Vec<u32>,
}

impl MapLog {
    pub fn new(l: &Layout) -> MapLog {
        let p = l.plan;
        let mut blocks = Vec::new();
        for i in 0..p.map_blocks {
            for die in 0..l.dies {
                blocks.push(l.dbid(die, p.general_blocks + p.static_slc_blocks + i));
            }
        }
        let slots_per_block = l.wordlines * l.planes;
        let slots = blocks.len() * slots_per_block as usize;
        let gtd = if p.map_blocks == 0 {
            Vec::new()
        } else {
            vec![NONE; p.table_pages as usize]
        };
        assert!(
            p.map_blocks == 0 || slots as u64 >= 2 * p.table_pages,
            "map log smaller than twice the table"
        );
        let nb = blocks.len();
        MapLog {
            blocks,
            slots_per_block,
            gtd,
            owner: vec![NONE; slots],
            head: 0,
            pending: VecDeque::new(),
            erase_counts: vec![0; nb],
        }
    }

    fn slot_op(&self, l: &Layout, slot: u32, kind: NandOpKind, purpose: OpPurpose) -> NandOp {
        let dbid = self.blocks[(slot / self.slots_per_block) as usize];
        let k = slot % self.slots_per_block;
        let mut addr = l.phys_page(l.base(dbid));
        addr.page = k / l.planes;
        addr.plane = (k % l.planes) as u8;
        NandOp {
            kind,
            mode: CellMode::Slc,
            addr,
            planes: 1,
            bus_bytes: l.page_bus_bytes(),
            purpose,
            after: None,
        }
    }

    /// The NAND read that brings table page `t` into DRAM, if it has a flash copy.
    pub fn read(&self, l: &Layout, t: u32, ops: &mut Vec<NandOp>, st: &mut FtlStats) {
        let slot = self.gtd[t as usize];
        if slot != NONE {
            ops.push(self.slot_op(l, slot, NandOpKind::Read, OpPurpose::MapRead));
            st.map_reads += 1;
        }
    }

    /// Writes dirty table page `t` back at the log head (recycling blocks as the head wraps).
    pub fn write_back(&mut self, l: &Layout, t: u32, ops: &mut Vec<NandOp>, st: &mut FtlStats) {
        assert!(self.pending.is_empty());
        self.pending.push_back(t);
        let slots = self.owner.len() as u64;
        let mut budget = 2 * slots;
        while let Some(p) = self.pending.pop_front() {
            budget -= 1;
            assert!(budget > 0, "translation-page log cannot make room");
            let slot = (self.head % slots) as u32;
            if slot.is_multiple_of(self.slots_per_block) {
                self.recycle(l, slot, ops, st);
            }
            let old = self.gtd[p as usize];
            if old != NONE {
                self.owner[old as usize] = NONE;
            }
            self.gtd[p as usize] = slot;
            self.owner[slot as usize] = p;
            ops.push(self.slot_op(l, slot, NandOpKind::Program, OpPurpose::MapWrite));
            st.map_writes += 1;
            st.nand_units_written += l.units_per_page as u64;
            self.head += 1;
        }
    }

    /// The head enters the block starting at `first`: save its current pages, erase it.
    fn recycle(&mut self, l: &Layout, first: u32, ops: &mut Vec<NandOp>, st: &mut FtlStats) {
        let mut used = false;
        for slot in first..first + self.slots_per_block {
            let t = self.owner[slot as usize];
            if t == NONE {
                continue;
            }
            used = true;
            if self.gtd[t as usize] == slot && !self.pending.contains(&t) {
                ops.push(self.slot_op(l, slot, NandOpKind::Read, OpPurpose::MapRead));
                st.map_reads += 1;
                self.pending.push_back(t);
            }
            self.gtd[t as usize] = if self.gtd[t as usize] == slot {
                NONE
            } else {
                self.gtd[t as usize]
            };
            self.owner[slot as usize] = NONE;
        }
        if used {
            let mut op = self.slot_op(l, first, NandOpKind::Erase, OpPurpose::Erase);
            op.planes = l.planes as u8;
            op.bus_bytes = 0;
            ops.push(op);
            st.erases += 1;
            self.erase_counts[(first / self.slots_per_block) as usize] += 1;
        }
    }
}
