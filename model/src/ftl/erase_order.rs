//! Erase ordering under `ftl.persistence`: a relocation erase destroys the durable copies its
//! victim holds, so it may start only once what supersedes them is on NAND. The firmware
//! programs the open journal page before each relocation erase (`reloc.rs`: trim records and
//! relocated data's records are then in a page sent before the erase) and holds the erase
//! until every data or journal program sent before it has completed: the overwrite of a copy
//! in the victim, queued on another die, and that journal page among them. The executor (the
//! drive, or a test's die queues) asks [`Ftl::erase_may_start`] before starting an erase and
//! reports completions through [`Ftl::nand_done`]; an erase still held at a power loss never
//! started (it is lost as queued). Only ops the FTL sends in order count: every program sent
//! before an erase is older than it, so the rule never waits on a later op, and the oldest op
//! not done can always start (no cycle).

use super::{NandOp, NandOpKind, OpPurpose};
use crate::nand::PhysPage;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeSet, VecDeque};

/// Programs and relocation erases sent and not completed, numbered in send order.
#[derive(Clone, Debug, Default)]
pub struct EraseOrder {
    pub on: bool,
    next: u64,
    /// Data and journal programs not completed: address -> numbers (a page is programmed
    /// once per erase of its block, so normally one), and all their numbers.
    programs: HashMap<PhysPage, VecDeque<u64>>,
    pending: BTreeSet<u64>,
    /// Relocation erases not completed: first page's address -> numbers, oldest first.
    erases: HashMap<PhysPage, VecDeque<u64>>,
}

/// Whether `op` is a program the barrier waits for (data or journal, not translation pages,
/// which the mount does not read).
pub(crate) fn counted_program(op: &NandOp) -> bool {
    op.kind == NandOpKind::Program
        && matches!(
            op.purpose,
            OpPurpose::HostWrite
                | OpPurpose::GcWrite
                | OpPurpose::FoldWrite
                | OpPurpose::WearLevelWrite
                | OpPurpose::Journal
                | OpPurpose::Checkpoint
        )
}

impl EraseOrder {
    pub fn new(on: bool) -> EraseOrder {
        EraseOrder {
            on,
            ..Default::default()
        }
    }

    /// Ops `ops` were sent, in this order (relocation erases are told apart by the caller).
    pub fn sent(&mut self, ops: &[NandOp]) {
        if !self.on {
            return;
        }
        for op in ops.iter().filter(|o| counted_program(o)) {
            self.programs
                .entry(op.addr)
                .or_default()
                .push_back(self.next);
            self.pending.insert(self.next);
            self.next += 1;
        }
    }

    /// A relocation erase (first page `addr`) was sent after every op told so far.
    pub fn erase_sent(&mut self, addr: PhysPage) {
        if self.on {
            self.erases.entry(addr).or_default().push_back(self.next);
            self.next += 1;
        }
    }

    /// `op` completed.
    pub fn done(&mut self, op: &NandOp) {
        if !self.on {
            return;
        }
        let map = match op.kind {
            NandOpKind::Program if counted_program(op) => &mut self.programs,
            NandOpKind::Erase => &mut self.erases,
            _ => return,
        };
        let Some(q) = map.get_mut(&op.addr) else {
            return;
        };
        let n = q.pop_front();
        if q.is_empty() {
            map.remove(&op.addr);
        }
        if let (Some(n), NandOpKind::Program) = (n, op.kind) {
            self.pending.remove(&n);
        }
    }

    /// Whether erase `op` may start: every program sent before it has completed. Ops other than
    /// relocation erases always may.
    pub fn may_start(&self, op: &NandOp) -> bool {
        if !self.on || op.kind != NandOpKind::Erase {
            return true;
        }
        let Some(&n) = self.erases.get(&op.addr).and_then(|q| q.front()) else {
            return true;
        };
        self.pending.first().is_none_or(|&p| p > n)
    }

    /// Whether any relocation erase is sent and not completed.
    pub fn any_erase(&self) -> bool {
        !self.erases.is_empty()
    }

    /// Power failed: nothing sent is pending any more.
    pub fn clear(&mut self) {
        self.programs.clear();
        self.pending.clear();
        self.erases.clear();
    }
}
