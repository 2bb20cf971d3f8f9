//! Erase holds: a block is erased only once the copies that superseded its data are on NAND.
//!
//! A closed block holds, besides its valid units, stale copies whose newer versions may not be
//! programmed yet: a host overwrite staged in the write buffer or queued on another die, or a
//! relocated unit in the die's relocation program unit. The stale copy is then the newest
//! version NAND holds (the mount after a power loss finds it by its spare area, or through the
//! journal), so erasing the block first would lose a write the drive had made durable.
//! Firmware therefore keeps, per program it has sent, the blocks whose copies that program
//! supersedes, and holds a relocation erase until each such program has completed
//! (Micron TN-29-61 on data retention across power loss; Chang et al., "Efficient management
//! for large-scale flash-memory storage systems", 2004, on erase ordering after relocation).
//! Without `ftl.persistence`, a relocated block's erase is deferred (`BlockState::Relocated`)
//! until the partly filled program units holding what supersedes its copies have been sent
//! (`reloc.rs`; padded early when the die runs short of free blocks), so the erase only ever
//! waits for programs sent before it: the executor's oldest op can always start. Relocated
//! units need no hold of their own: they go to streams of the victim's own die, which runs its
//! relocation ops in the order the FTL sent them (`drive/reloc_queue.rs`), one at a time, so
//! they complete before the erase starts. With `ftl.persistence` the journal barrier
//! (`erase_order.rs`, stricter) orders the erase, and the holds here apply beside it.

use crate::nand::PhysPage;
use rustc_hash::FxHashMap as HashMap;

/// A program sent and not completed: the blocks whose copies it supersedes, and the erases
/// waiting for it.
#[derive(Clone, Debug, Default)]
struct InFlight {
    superseded: Vec<u32>,
    waiters: Vec<u32>,
}

/// Superseded copies of staged units, programs in flight and held erases.
#[derive(Clone, Debug, Default)]
pub struct Superseded {
    /// Open block -> blocks whose copies its staged (not yet sent) units supersede (indexed by
    /// die-block; empty for blocks with nothing staged).
    staged: Vec<Vec<u32>>,
    /// The blocks whose `staged` list is not empty.
    staging: Vec<u32>,
    /// Program first page -> what it supersedes (a page is programmed once per erase).
    inflight: HashMap<PhysPage, InFlight>,
    /// Block -> programs its erase still waits for.
    holds: HashMap<u32, u32>,
    /// Relocated blocks not yet erased, each with the open blocks whose partly filled program
    /// units (holding what supersedes its copies) must be sent first; oldest first.
    waiting: Vec<(u32, Vec<u32>)>,
}

impl Superseded {
    /// A unit staged into open block `into` supersedes a copy in block `old`.
    #[inline]
    pub fn staged(&mut self, into: u32, old: u32) {
        if into == old {
            return;
        }
        let i = into as usize;
        if i >= self.staged.len() {
            self.staged.resize_with(i + 1, Vec::new);
        }
        let list = &mut self.staged[i];
        match list.last() {
            Some(&last) if last == old => {}
            Some(_) => list.push(old),
            None => {
                list.push(old);
                self.staging.push(into);
            }
        }
    }

    /// Open blocks whose staged units supersede copies in `block` (to be padded and sent).
    pub fn staged_over(&self, block: u32) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .staging
            .iter()
            .copied()
            .filter(|&b| self.staged[b as usize].contains(&block))
            .collect();
        v.sort_unstable();
        v
    }

    /// Relocated block `victim`'s erase waits until the program units of open blocks `awaited`
    /// are sent.
    pub fn defer(&mut self, victim: u32, awaited: Vec<u32>) {
        debug_assert!(!awaited.is_empty());
        self.waiting.push((victim, awaited));
    }

    /// Whether some relocated block waits for its erase.
    #[inline]
    pub fn any_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// How many relocated blocks wait for their erase, among those `of` accepts.
    pub fn waiting_count(&self, of: impl Fn(u32) -> bool) -> u32 {
        self.waiting.iter().filter(|(b, _)| of(*b)).count() as u32
    }

    /// Open block `dbid` sent a program unit: the relocated blocks that waited for nothing
    /// else, oldest first, to be erased now.
    pub fn unit_sent(&mut self, dbid: u32) -> Vec<u32> {
        let mut ready = Vec::new();
        self.waiting.retain_mut(|(victim, awaited)| {
            awaited.retain(|&b| b != dbid);
            if awaited.is_empty() {
                ready.push(*victim);
            }
            !awaited.is_empty()
        });
        ready
    }

    /// The open blocks the relocated blocks among `victims` wait for, each once, in order.
    pub fn awaited_by(&self, victims: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut v = Vec::new();
        for (_, a) in self.waiting.iter().filter(|(b, _)| victims(*b)) {
            for &b in a {
                if !v.contains(&b) {
                    v.push(b);
                }
            }
        }
        v
    }

    /// Block `dbid`'s program unit starting at `addr` was sent to a die that reports its
    /// completion (`timed`), or applied at once (it then holds no erase).
    pub fn program_sent(&mut self, dbid: u32, addr: PhysPage, timed: bool) {
        let superseded = match self.staged.get_mut(dbid as usize) {
            Some(l) if !l.is_empty() => {
                self.staging.retain(|&b| b != dbid);
                std::mem::take(l)
            }
            _ => Vec::new(),
        };
        if superseded.is_empty() || !timed {
            return;
        }
        let prev = self.inflight.insert(
            addr,
            InFlight {
                superseded,
                waiters: Vec::new(),
            },
        );
        debug_assert!(prev.is_none(), "page {addr:?} programmed twice in flight");
    }

    /// The erase of `block` is about to be sent: it waits for every program in flight that
    /// supersedes a copy in it.
    pub fn erase_sent(&mut self, block: u32) {
        let mut n = 0;
        for f in self.inflight.values_mut() {
            if f.superseded.contains(&block) {
                f.waiters.push(block);
                n += 1;
            }
        }
        if n > 0 {
            *self.holds.entry(block).or_default() += n;
        }
    }

    /// The program at `addr` completed: the erases waiting for it wait for one program fewer.
    pub fn program_done(&mut self, addr: &PhysPage) {
        let Some(f) = self.inflight.remove(addr) else {
            return;
        };
        for b in f.waiters {
            let h = self.holds.get_mut(&b).expect("a waiter without a hold");
            *h -= 1;
            if *h == 0 {
                self.holds.remove(&b);
            }
        }
    }

    /// Whether the erase of `block` may start.
    #[inline]
    pub fn may_erase(&self, block: u32) -> bool {
        !self.holds.contains_key(&block)
    }

    /// Whether any erase is held.
    pub fn any_held(&self) -> bool {
        !self.holds.is_empty()
    }

    /// Power failed: the write buffer and every op sent are gone.
    pub fn clear(&mut self) {
        self.staged.iter_mut().for_each(Vec::clear);
        self.staging.clear();
        self.inflight.clear();
        self.holds.clear();
        self.waiting.clear();
    }
}
