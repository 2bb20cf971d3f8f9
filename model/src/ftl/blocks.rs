//! Block table: per die-block state, cell mode, pool, valid-unit count, program pointer and erase
//! count, plus per-die free lists. Allocation takes the free block with the lowest erase count
//! (dynamic wear levelling). Source: MQSim's block manager (Tavakkol et al., FAST'18); erase
//! counts as in the ONFI/JEDEC endurance model (one count per erase of the block).

use super::layout::Layout;
use crate::config::FreeBlockOrder;
use crate::nand::CellMode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockState {
    Free,
    /// Receiving data from a stream.
    Open,
    /// Full; a GC / fold / wear-levelling candidate.
    Closed,
    /// Its data moved out by a relocation; its erase waits until the program units holding what
    /// supersedes its copies are sent (`superseded.rs`). No longer a candidate.
    Relocated,
}

/// Which reserve a block belongs to for life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pool {
    /// TLC data and the dynamic SLC cache.
    General,
    /// The static SLC cache.
    StaticSlc,
    /// The translation-page log, and the checkpoint/journal area (`ftl.persistence`).
    Map,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockInfo {
    pub state: BlockState,
    pub mode: CellMode,
    pub pool: Pool,
    pub erase_count: u32,
    /// Units whose mapping points here.
    pub valid: u32,
    /// Units assigned (staged in the buffer or programmed), from offset 0.
    pub staged: u32,
    /// Units already sent to NAND in program ops (a multiple of the program unit).
    pub programmed: u32,
    /// Write sequence number when the block was last written (cost-benefit age).
    pub last_write: u64,
}

#[derive(Clone, Debug)]
pub struct BlockTable {
    pub info: Vec<BlockInfo>,
    /// Free general blocks per die.
    free: Vec<Vec<u32>>,
    /// Free static-SLC blocks per die.
    free_static: Vec<Vec<u32>>,
    /// General blocks per die currently in SLC mode (open or closed): the dynamic SLC cache.
    pub dyn_slc: Vec<u32>,
    /// Blocks in SLC mode holding data (open or closed, static and dynamic).
    pub slc_in_use: u32,
    /// Erase-count range of each die's general blocks (refreshed on erase).
    pub ec_lo: Vec<u32>,
    pub ec_hi: Vec<u32>,
    /// Free blocks over all dies and pools, and the erase-count range over all dies: kept up to
    /// date on allocate / release so that the FTL's per-call statistics refresh is O(1).
    free_total: u64,
    ec_min: u32,
    ec_max: u32,
    /// `ftl.free_block_order = "oldest_freed"`: host and relocation blocks are taken from the
    /// front of the free list (the block erased longest ago) instead of by least wear.
    oldest_freed_first: bool,
}

impl BlockTable {
    pub fn new(l: &Layout, order: FreeBlockOrder) -> BlockTable {
        let p = l.plan;
        let mut info = Vec::with_capacity(l.die_blocks() as usize);
        let mut free = vec![Vec::new(); l.dies as usize];
        let mut free_static = vec![Vec::new(); l.dies as usize];
        for die in 0..l.dies {
            for b in 0..l.blocks_per_die {
                let (pool, mode) = if b < p.general_blocks {
                    (Pool::General, CellMode::Tlc)
                } else if b < p.general_blocks + p.static_slc_blocks {
                    (Pool::StaticSlc, CellMode::Slc)
                } else {
                    (Pool::Map, CellMode::Slc)
                };
                let dbid = l.dbid(die, b);
                let state = if pool == Pool::Map {
                    BlockState::Open
                } else {
                    BlockState::Free
                };
                info.push(BlockInfo {
                    state,
                    mode,
                    pool,
                    erase_count: 0,
                    valid: 0,
                    staged: 0,
                    programmed: 0,
                    last_write: 0,
                });
                match pool {
                    Pool::General => free[die as usize].push(dbid),
                    Pool::StaticSlc => free_static[die as usize].push(dbid),
                    Pool::Map => {}
                }
            }
            // Pop from the end takes the lowest block number first on a fresh drive.
            free[die as usize].reverse();
            free_static[die as usize].reverse();
        }
        let n = l.dies as usize;
        let free_total = free
            .iter()
            .chain(&free_static)
            .map(|f| f.len() as u64)
            .sum();
        BlockTable {
            info,
            free,
            free_static,
            dyn_slc: vec![0; n],
            slc_in_use: 0,
            ec_lo: vec![0; n],
            ec_hi: vec![0; n],
            free_total,
            ec_min: 0,
            ec_max: 0,
            oldest_freed_first: order == FreeBlockOrder::OldestFreed,
        }
    }

    pub fn free_count(&self, die: u32) -> u32 {
        self.free[die as usize].len() as u32
    }
    pub fn free_static_count(&self, die: u32) -> u32 {
        self.free_static[die as usize].len() as u32
    }
    pub fn total_free(&self) -> u64 {
        debug_assert_eq!(
            self.free_total,
            self.free
                .iter()
                .chain(&self.free_static)
                .map(|f| f.len() as u64)
                .sum::<u64>()
        );
        self.free_total
    }
    /// (min, max) erase count over the general blocks of all dies.
    pub fn erase_count_range(&self) -> (u32, u32) {
        debug_assert_eq!(self.ec_min, self.ec_lo.iter().copied().min().unwrap_or(0));
        debug_assert_eq!(self.ec_max, self.ec_hi.iter().copied().max().unwrap_or(0));
        (self.ec_min, self.ec_max)
    }

    /// Opens the least-worn free block of `die`'s general pool (or static SLC pool) in `mode`.
    pub fn allocate(&mut self, die: u32, pool: Pool, mode: CellMode, seq: u64) -> Option<u32> {
        self.allocate_by_wear(die, pool, mode, seq, false)
    }

    /// Erase count of the most-worn free general block of `die`.
    pub fn most_worn_free(&self, die: u32) -> Option<u32> {
        self.free[die as usize]
            .iter()
            .map(|&d| self.info[d as usize].erase_count)
            .max()
    }

    /// Opens the least-worn (or, for cold data, the most-worn) free block.
    pub fn allocate_by_wear(
        &mut self,
        die: u32,
        pool: Pool,
        mode: CellMode,
        seq: u64,
        most_worn: bool,
    ) -> Option<u32> {
        let list = match pool {
            Pool::General => &mut self.free[die as usize],
            Pool::StaticSlc => &mut self.free_static[die as usize],
            Pool::Map => unreachable!("map blocks are never on a free list"),
        };
        let dbid = if self.oldest_freed_first && !most_worn {
            // A queue: released blocks join at the back, so a victim the FTL has just freed is
            // taken only after every block freed before it (the drive has had that long to
            // erase it). Wear is left to static wear levelling.
            if list.is_empty() {
                return None;
            }
            list.remove(0)
        } else {
            let (mut best, mut best_ec) = (None, u32::MAX);
            for (i, &d) in list.iter().enumerate().rev() {
                let ec = self.info[d as usize].erase_count;
                let ec = if most_worn { u32::MAX - ec } else { ec };
                if ec < best_ec {
                    best = Some(i);
                    best_ec = ec;
                }
            }
            list.swap_remove(best?)
        };
        self.free_total -= 1;
        let b = &mut self.info[dbid as usize];
        assert_eq!(
            b.state,
            BlockState::Free,
            "allocating a non-free block {dbid}"
        );
        assert!(
            b.valid == 0 && b.staged == 0 && b.programmed == 0,
            "free block {dbid} holds data"
        );
        b.state = BlockState::Open;
        b.mode = mode;
        b.last_write = seq;
        if pool == Pool::General && mode == CellMode::Slc {
            self.dyn_slc[die as usize] += 1;
        }
        self.slc_in_use += (mode == CellMode::Slc) as u32;
        Some(dbid)
    }

    /// After an erase: back to its pool's free list.
    pub fn release(&mut self, l: &Layout, dbid: u32) {
        let die = l.die_of(dbid) as usize;
        let b = &mut self.info[dbid as usize];
        assert_eq!(b.valid, 0, "erasing block {dbid} with valid data");
        assert!(
            matches!(b.state, BlockState::Closed | BlockState::Relocated),
            "erasing block {dbid} that is not closed"
        );
        if b.pool == Pool::General && b.mode == CellMode::Slc {
            self.dyn_slc[die] -= 1;
        }
        self.slc_in_use -= (b.mode == CellMode::Slc) as u32;
        b.state = BlockState::Free;
        b.staged = 0;
        b.programmed = 0;
        b.erase_count += 1;
        match b.pool {
            Pool::General => {
                b.mode = CellMode::Tlc;
                self.free[die].push(dbid)
            }
            Pool::StaticSlc => self.free_static[die].push(dbid),
            Pool::Map => unreachable!("map blocks are recycled in place"),
        }
        self.free_total += 1;
        let (lo, hi) = self.erase_range(l, die as u32);
        self.ec_lo[die] = lo;
        self.ec_hi[die] = hi;
        self.ec_min = self.ec_lo.iter().copied().min().unwrap_or(0);
        self.ec_max = self.ec_hi.iter().copied().max().unwrap_or(0);
    }

    /// Free lists and occupancy counters from `info` (after a power loss changed states).
    /// Free blocks are listed so that the lowest block number is taken first on equal wear.
    pub fn rebuild_lists(&mut self, l: &Layout) {
        for f in self.free.iter_mut().chain(self.free_static.iter_mut()) {
            f.clear();
        }
        self.dyn_slc.fill(0);
        self.slc_in_use = 0;
        for dbid in (0..l.die_blocks()).rev() {
            let die = l.die_of(dbid) as usize;
            let b = &mut self.info[dbid as usize];
            if b.state == BlockState::Free {
                b.valid = 0;
                b.staged = 0;
                b.programmed = 0;
                match b.pool {
                    Pool::General => {
                        b.mode = CellMode::Tlc;
                        self.free[die].push(dbid);
                    }
                    Pool::StaticSlc => self.free_static[die].push(dbid),
                    Pool::Map => {}
                }
            } else if b.pool != Pool::Map {
                self.dyn_slc[die] += (b.pool == Pool::General && b.mode == CellMode::Slc) as u32;
                self.slc_in_use += (b.mode == CellMode::Slc) as u32;
            }
        }
        self.free_total = self
            .free
            .iter()
            .chain(&self.free_static)
            .map(|f| f.len() as u64)
            .sum();
        for die in 0..l.dies {
            let (lo, hi) = self.erase_range(l, die);
            self.ec_lo[die as usize] = lo;
            self.ec_hi[die as usize] = hi;
        }
        self.ec_min = self.ec_lo.iter().copied().min().unwrap_or(0);
        self.ec_max = self.ec_hi.iter().copied().max().unwrap_or(0);
    }

    /// (min, max) erase count over general blocks of `die` (static wear levelling input).
    pub fn erase_range(&self, l: &Layout, die: u32) -> (u32, u32) {
        let range = l.dbid(die, 0) as usize..(l.dbid(die, 0) + l.plan.general_blocks) as usize;
        self.info[range].iter().fold((u32::MAX, 0), |(lo, hi), b| {
            (lo.min(b.erase_count), hi.max(b.erase_count))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    /// Opens every general block of die 0, then closes and erases the first three in the order
    /// 2, 0, 1 (each now erased once: equal wear); returns them and the order they reopen in.
    fn reopen_order(order: FreeBlockOrder) -> (Vec<u32>, Vec<u32>) {
        let cfg = DriveConfig::default_drive();
        let l = Layout::new(&cfg.geometry, cfg.ftl.capacity_plan(&cfg.geometry).unwrap());
        let mut t = BlockTable::new(&l, order);
        let mut all = Vec::new();
        while let Some(d) = t.allocate(0, Pool::General, CellMode::Tlc, 0) {
            all.push(d);
        }
        for &i in &[2usize, 0, 1] {
            t.info[all[i] as usize].state = BlockState::Closed;
            t.release(&l, all[i]);
        }
        let got: Vec<u32> = (0..3)
            .map(|_| t.allocate(0, Pool::General, CellMode::Tlc, 0).unwrap())
            .collect();
        assert_eq!(
            t.allocate(0, Pool::General, CellMode::Tlc, 0),
            None,
            "only three were free"
        );
        (all[..3].to_vec(), got)
    }

    #[test]
    fn oldest_freed_order_is_a_queue_and_least_worn_takes_the_last_freed() {
        // Queue: they come back in the order they were freed, 2, 0, 1.
        let (b, got) = reopen_order(FreeBlockOrder::OldestFreed);
        assert_eq!(got, vec![b[2], b[0], b[1]]);
        // Least worn on equal wear: the one freed last first (1), then 0, then 2: the victim
        // the FTL has just freed is the next block a die opens (docs/calibration.md).
        let (b, got) = reopen_order(FreeBlockOrder::LeastWorn);
        assert_eq!(got, vec![b[1], b[0], b[2]]);
    }
}
