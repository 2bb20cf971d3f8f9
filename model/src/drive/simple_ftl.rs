//! Stand-in page-mapped FTL with the `ftl::Ftl` method signatures (CONTRACTS.md), used by the
//! drive until the full FTL (`crate::ftl`, owned by the FTL work) is wired in. 4 KiB units,
//! over-provisioning, host data striped round-robin over dies (channel first), one-shot program
//! units of `planes × bits_per_cell` pages, greedy GC per die. No SLC cache, no map-table traffic.

use crate::config::DriveConfig;
use crate::error::ConfigError;
use crate::ftl::{NandOp, NandOpKind, OpPurpose};
use crate::nand::{CellMode, DieId, PhysPage};
use crate::rng::SeedTree;
use crate::time::SimTime;

/// Unmapped marker. Tables store `x + 1` so that they start zeroed (calloc: untouched pages of a
/// 512 GB drive's tables cost no memory or time).
const NONE: u32 = 0;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOutcome {
    pub nand_units: u32,
    pub buffered_units: u32,
    pub unmapped_units: u32,
}
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOutcome {
    pub units: u32,
}
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FtlStats {
    pub host_units_written: u64,
    pub nand_units_written: u64,
    pub gc_blocks: u64,
    pub erases: u64,
    pub slc_blocks: u64,
    pub slc_valid_bytes: u64,
    pub free_blocks: u64,
}
impl FtlStats {
    pub fn write_amplification(&self) -> f64 {
        if self.host_units_written == 0 { 0.0 } else { self.nand_units_written as f64 / self.host_units_written as f64 }
    }
}

struct DieState {
    free: Vec<u32>,
    open: u32,
    /// Next unit offset to assign in the open block; units below `programmed` are on flash.
    wp: u32,
    programmed: u32,
}

pub struct Ftl {
    dies: u32,
    channels: u32,
    ways: u32,
    planes: u32,
    blocks: u32,
    upp: u32,
    /// Units per die-block (all planes) and per program unit.
    block_units: u32,
    prog_units: u32,
    pages_per_prog: u32,
    page_bus_bytes: u32,
    mode: CellMode,
    gc_threshold: u32,
    l2p: Vec<u32>,
    p2l: Vec<u32>,
    valid: Vec<u32>,
    die: Vec<DieState>,
    cursor: u32,
    st: FtlStats,
}

impl Ftl {
    pub fn new(cfg: &DriveConfig, _seeds: &SeedTree) -> Result<Ftl, ConfigError> {
        cfg.validate()?;
        let g = &cfg.geometry;
        let upp = g.units_per_page();
        let block_units = g.pages_per_block() * g.planes_per_die * upp;
        let phys = g.dies() as u64 * g.blocks_per_plane as u64 * block_units as u64;
        if phys >= u32::MAX as u64 {
            return Err(ConfigError::invalid("geometry", "more than 2^32 4 KiB units: too large for the stand-in FTL"));
        }
        let logical = (phys as f64 * (1.0 - cfg.ftl.over_provisioning_pct / 100.0)) as u64;
        let die = (0..g.dies())
            .map(|_| DieState { free: (1..g.blocks_per_plane).rev().collect(), open: 0, wp: 0, programmed: 0 })
            .collect();
        Ok(Ftl {
            dies: g.dies(),
            channels: g.channels,
            ways: g.ways_per_channel,
            planes: g.planes_per_die,
            blocks: g.blocks_per_plane,
            upp,
            block_units,
            prog_units: g.planes_per_die * g.bits_per_cell * upp,
            pages_per_prog: g.bits_per_cell,
            page_bus_bytes: g.page_bytes + g.spare_bytes,
            mode: if g.bits_per_cell == 1 { CellMode::Slc } else { CellMode::Tlc },
            gc_threshold: cfg.ftl.gc_threshold_free_blocks,
            l2p: vec![0; logical as usize],
            p2l: vec![0; phys as usize],
            valid: vec![0; (g.dies() * g.blocks_per_plane) as usize],
            die,
            cursor: 0,
            st: FtlStats::default(),
        })
    }
    pub fn logical_units(&self) -> u64 {
        self.l2p.len() as u64
    }
    pub fn stats(&self) -> &FtlStats {
        &self.st
    }
    fn die_id(&self, d: u32) -> DieId {
        DieId { channel: (d % self.channels) as u16, way: ((d / self.channels) % self.ways) as u8, die: (d / (self.channels * self.ways)) as u8 }
    }
    /// Physical unit → (die, block, offset in block); offsets run (page, plane, unit).
    fn split(&self, ppa: u32) -> (u32, u32, u32) {
        let blk = ppa / self.block_units;
        (blk / self.blocks, blk % self.blocks, ppa % self.block_units)
    }
    fn page_addr(&self, d: u32, b: u32, off: u32) -> PhysPage {
        let per_page = self.planes * self.upp;
        PhysPage { die: self.die_id(d), plane: ((off % per_page) / self.upp) as u8, block: b, page: off / per_page }
    }

    pub fn host_read(&mut self, lpn: u64, count: u32, ops: &mut Vec<NandOp>) -> ReadOutcome {
        let mut out = ReadOutcome::default();
        let mut last_page: Option<(u32, u32, u32)> = None;
        for l in lpn..lpn + count as u64 {
            let ppa = self.l2p[l as usize];
            if ppa == NONE {
                out.unmapped_units += 1;
                continue;
            }
            let ppa = ppa - 1;
            let (d, b, off) = self.split(ppa);
            let ds = &self.die[d as usize];
            if b == ds.open && off >= ds.programmed {
                out.buffered_units += 1;
                continue;
            }
            out.nand_units += 1;
            let page_key = (d, b, off / self.upp);
            if last_page == Some(page_key) {
                ops.last_mut().expect("grouped").bus_bytes += self.page_bus_bytes / self.upp;
                continue;
            }
            last_page = Some(page_key);
            let addr = self.page_addr(d, b, off);
            ops.push(self.op(NandOpKind::Read, addr, 1, self.page_bus_bytes / self.upp, OpPurpose::HostRead, None));
        }
        out
    }

    fn op(&self, kind: NandOpKind, addr: PhysPage, planes: u8, bus_bytes: u32, purpose: OpPurpose, after: Option<u32>) -> NandOp {
        NandOp { kind, mode: self.mode, addr, planes, bus_bytes, purpose, after }
    }

    /// Assigns the next unit of die `d`'s open block to `lpn`; emits the program when a program
    /// unit fills (after op `after`, for relocated data).
    fn place(&mut self, d: u32, lpn: u32, purpose: OpPurpose, after: Option<u32>, ops: &mut Vec<NandOp>) {
        let ds = &mut self.die[d as usize];
        let ppa = (d * self.blocks + ds.open) * self.block_units + ds.wp;
        ds.wp += 1;
        self.l2p[lpn as usize] = ppa + 1;
        self.p2l[ppa as usize] = lpn + 1;
        self.valid[(d * self.blocks + self.die[d as usize].open) as usize] += 1;
        if self.die[d as usize].wp % self.prog_units == 0 {
            self.program(d, purpose, after, ops);
        }
    }

    fn program(&mut self, d: u32, purpose: OpPurpose, after: Option<u32>, ops: &mut Vec<NandOp>) {
        let (open, start) = (self.die[d as usize].open, self.die[d as usize].programmed);
        let addr = self.page_addr(d, open, start);
        let bytes = self.planes * self.pages_per_prog * self.page_bus_bytes;
        ops.push(self.op(NandOpKind::Program, addr, self.planes as u8, bytes, purpose, after));
        self.st.nand_units_written += self.prog_units as u64;
        let ds = &mut self.die[d as usize];
        ds.programmed = ds.wp;
        if ds.wp == self.block_units {
            ds.open = ds.free.pop().expect("GC keeps at least one free block per die");
            ds.wp = 0;
            ds.programmed = 0;
        }
    }

    fn invalidate(&mut self, lpn: u64) {
        let old = self.l2p[lpn as usize];
        if old != NONE {
            let old = old - 1;
            self.valid[(old / self.block_units) as usize] -= 1;
            self.p2l[old as usize] = NONE;
            self.l2p[lpn as usize] = NONE;
        }
    }

    pub fn host_write(&mut self, lpn: u64, count: u32, ops: &mut Vec<NandOp>) -> WriteOutcome {
        assert!(lpn + count as u64 <= self.logical_units(), "write beyond capacity");
        for l in lpn..lpn + count as u64 {
            self.invalidate(l);
            let d = self.cursor;
            self.cursor = (self.cursor + 1) % self.dies;
            self.place(d, l as u32, OpPurpose::HostWrite, None, ops);
            self.st.host_units_written += 1;
            if (self.die[d as usize].free.len() as u32) < self.gc_threshold {
                self.collect(d, ops);
            }
        }
        WriteOutcome { units: count }
    }

    /// Greedy GC on die `d`: the closed block with the fewest valid units is read, its valid
    /// units re-placed on the same die, and erased.
    fn collect(&mut self, d: u32, ops: &mut Vec<NandOp>) {
        let base = d * self.blocks;
        let ds = &self.die[d as usize];
        let victim = (0..self.blocks)
            .filter(|&b| b != ds.open && !ds.free.contains(&b))
            .min_by_key(|&b| (self.valid[(base + b) as usize], b));
        let Some(v) = victim else { return };
        let first = (base + v) * self.block_units;
        let mut last_read = None;
        for off in 0..self.block_units {
            let lpn = self.p2l[(first + off) as usize];
            if lpn == NONE {
                continue;
            }
            let lpn = lpn - 1;
            if last_read.is_none() || off % self.upp == 0 {
                let addr = self.page_addr(d, v, off);
                ops.push(self.op(NandOpKind::Read, addr, 1, self.page_bus_bytes, OpPurpose::GcRead, None));
                last_read = Some(ops.len() as u32 - 1);
            }
            self.invalidate(lpn as u64);
            self.place(d, lpn, OpPurpose::GcWrite, last_read, ops);
        }
        let addr = self.page_addr(d, v, 0);
        ops.push(self.op(NandOpKind::Erase, addr, self.planes as u8, 0, OpPurpose::Erase, last_read));
        self.die[d as usize].free.insert(0, v);
        self.st.gc_blocks += 1;
        self.st.erases += 1;
    }

    pub fn trim(&mut self, lpn: u64, count: u32) {
        for l in lpn..lpn + count as u64 {
            self.invalidate(l);
        }
    }
    pub fn idle_work(&mut self, _idle_for: SimTime, _ops: &mut Vec<NandOp>) -> bool {
        false
    }
    /// Programs every partly filled program unit (padding the rest).
    pub fn flush(&mut self, ops: &mut Vec<NandOp>) {
        for d in 0..self.dies {
            let ds = &mut self.die[d as usize];
            if ds.wp > ds.programmed {
                ds.wp = ds.wp.next_multiple_of(self.prog_units);
                self.program(d, OpPurpose::HostWrite, None, ops);
            }
        }
    }
}
