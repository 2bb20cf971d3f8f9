//! Flash translation layer: the contract between the functional FTL and the timed drive.
//!
//! The FTL is functional: it decides *what* happens to flash (mapping updates, block allocation,
//! garbage collection, SLC folding) and expresses it as a batch of [`NandOp`]s. The drive
//! (`crate::drive`) decides *when*: it times each op on its die and channel. The same FTL code
//! therefore serves the timed mode and the fast functional warm-up (which applies the state
//! transitions and drops the ops). Source: MQSim's layering (Tavakkol et al., FAST'18).

//!
//! Mechanisms, one module each: [`layout`] (addresses, striping), [`blocks`] (block table, free
//! lists), [`write_path`] (staging, program units), [`batch`] (batched writes with software
//! prefetch, and the functional warm-up calls that build no ops), [`cache_hints`] (the timed
//! drive's prefetches of a command's table entries), [`read_path`] (page-read
//! sharing, multi-plane reads), [`readahead`], [`map_table`] + [`dram_table`] + [`map_log`] (the
//! DRAM table of translation pages and the translation pages in flash, below the SRAM entry cache
//! [`map_cache`]), [`slc`] (hybrid SLC cache), [`gc`]
//! (GC, folding, wear levelling, victims chosen by a [`victim::VictimPolicy`]: [`greedy`],
//! [`cost_benefit`]), [`reloc`] + [`reloc_rows`] (moving a block's valid data), [`idle`]
//! (background work), [`integrity`] (out-of-band checker), [`persist`] (mapping journal and
//! checkpoints), [`erase_order`] (relocation erases after the programs sent before them),
//! [`superseded`] (erases after the programs superseding their copies),
//! [`power_loss`] + [`mount`] (sudden power loss, the mount after it), [`unit_tables`]
//! (per-unit mapping, spare-area and valid-bit tables), [`stats`].

use crate::config::{DriveConfig, FtlConfig};
use crate::error::ConfigError;
pub use crate::nand::NandOpKind;
use crate::nand::{CellMode, PhysPage};
use crate::rng::SeedTree;
use crate::time::SimTime;

pub mod batch;
pub mod bigvec;
pub mod blocks;
pub mod cache_hints;
pub mod cost_benefit;
pub mod dram_table;
pub mod erase_order;
#[cfg(feature = "fault-injection")]
mod fault;
pub mod gc;
pub mod greedy;
pub mod idle;
pub mod integrity;
pub mod layout;
pub mod map_cache;
pub mod map_log;
pub mod map_table;
pub mod mount;
pub mod persist;
pub mod power_loss;
pub mod read_path;
pub mod readahead;
pub mod reloc;
pub mod reloc_rows;
pub mod slc;
pub mod stats;
pub mod superseded;
#[cfg(test)]
mod tests;
pub mod unit_tables;
pub mod victim;
pub mod windowed;
pub mod write_path;

pub use stats::FtlStats;

use blocks::BlockTable;
use integrity::Checker;
use layout::{Layout, NONE};
use map_cache::MapAccess;
use map_table::MapTable;
use readahead::ReadAhead;
use slc::SlcPolicy;
use unit_tables::{MapEntry, Oob, ValidBits};
use victim::{Candidate, VictimPolicy};

/// Why an op exists; used for statistics (write amplification, NAND op counts by cause).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpPurpose {
    HostRead,
    HostWrite,
    ReadAhead,
    GcRead,
    GcWrite,
    FoldRead,
    FoldWrite,
    WearLevelRead,
    WearLevelWrite,
    MapRead,
    MapWrite,
    Erase,
    /// A page of mapping-update records (`ftl.persistence`).
    Journal,
    /// A page of a mapping-table checkpoint (`ftl.persistence`).
    Checkpoint,
    /// A read of the mount after a power loss: checkpoint and journal pages, spare-area scans.
    MountRead,
}

/// One operation on one die, possibly multi-plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NandOp {
    pub kind: NandOpKind,
    pub mode: CellMode,
    /// First plane's address; multi-plane ops use the same block/page offsets on `planes` planes
    /// starting at `addr.plane`.
    pub addr: PhysPage,
    /// Planes addressed together (1 = single plane).
    pub planes: u8,
    /// Bytes moved over the channel bus (data + spare as transferred).
    pub bus_bytes: u32,
    pub purpose: OpPurpose,
    /// Index (into the same batch) of an op that must complete before this one starts,
    /// e.g. a GC program after the read of the data it moves.
    pub after: Option<u32>,
}

impl NandOp {
    /// Pages per plane the sequencer loads for this op: a program of a native (TLC) block is
    /// one-shot, `bits_per_cell` pages (lower, middle, upper) one after the other, each at the
    /// op's page + k; every other op moves one.
    pub fn one_shot_pages(&self, bits_per_cell: u32) -> u8 {
        match self.kind {
            NandOpKind::Program => program_pages(self.mode, bits_per_cell),
            _ => 1,
        }
    }
}

/// Pages per plane one program of a block in `mode` loads: a native (TLC) block's program is
/// one-shot, `bits_per_cell` pages; an SLC-mode block's is one page.
pub fn program_pages(mode: CellMode, bits_per_cell: u32) -> u8 {
    match mode {
        CellMode::Tlc => bits_per_cell as u8,
        CellMode::Slc => 1,
    }
}

/// How a host read was served, in 4 KiB units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOutcome {
    /// Units read from NAND by this call's ops.
    pub nand_units: u32,
    /// Units served from the write buffer or the read-ahead buffer (no NAND op).
    pub buffered_units: u32,
    /// Units never written or trimmed (zeroes, no NAND op).
    pub unmapped_units: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOutcome {
    pub units: u32,
}

/// The page-mapping FTL. See the module doc and ARCHITECTURE.md ("FTL").
#[derive(Debug)]
pub struct Ftl {
    l: Layout,
    cfg: FtlConfig,
    /// Logical unit -> physical unit (NONE: unmapped), with the checker's sequence.
    l2p: Vec<MapEntry>,
    /// Physical unit -> spare area: logical unit stored (NONE: erased or padding), sequence.
    oob: Vec<Oob>,
    /// Physical units the mapping points at.
    valid: ValidBits,
    blocks: BlockTable,
    table: MapTable,
    slc: SlcPolicy,
    victim: Box<dyn VictimPolicy>,
    /// Open host block per die (NONE: none) and the die the next host program unit goes to.
    host_open: Vec<u32>,
    cursor: u32,
    /// NAND program time of the host program units sent to each die so far (ps), and the
    /// program time of one SLC and one TLC program unit: the next host program unit goes to the
    /// die with the least (`write_path::advance_host_die`).
    host_prog_ps: Vec<u64>,
    prog_ps: [u64; 2],
    /// Open relocation (GC / fold) block per die.
    reloc_open: Vec<u32>,
    /// Relocating cold data (wear levelling): it goes to `cold_open`, a most-worn block.
    reloc_cold: bool,
    cold_open: Vec<u32>,
    /// Host units written so far (the age clock of cost-benefit GC).
    clock: u64,
    ra: ReadAhead,
    /// Tag of the next ReadAhead op; tags of the prefetches the last host read hit.
    ra_tag_next: u64,
    ra_hits: Vec<u64>,
    /// Units the last host read took from the read-ahead window; 4 KiB units of each ReadAhead
    /// op it emitted, in tag order (the firmware's mapping work per prefetch).
    ra_held: u32,
    ra_op_units: Vec<u32>,
    checker: Option<Checker>,
    #[cfg(feature = "fault-injection")]
    fault: fault::DroppedMappingUpdate,
    /// Mapping journal and checkpoints (`ftl.persistence`).
    persist: persist::Persist,
    /// Relocation erases held behind the programs sent before them (`ftl.persistence`).
    order: erase_order::EraseOrder,
    /// Erases held until the programs superseding their copies complete (`superseded.rs`).
    held: superseded::Superseded,
    /// NAND completions followed for power-loss modelling (`track_durability`).
    dur: Option<power_loss::Durability>,
    st: FtlStats,
    slc_valid_units: u64,
    trace_on: bool,
    trace: Vec<MapAccess>,
    /// Whether NAND ops are built (false only inside the functional warm-up calls, `warm_up*`,
    /// which drop them: the state transitions do not depend on it).
    emit: bool,
    /// Where the warm-up calls collect the ops they drop (kept for its capacity).
    dropped: Vec<NandOp>,
    /// Ops produced by calls that take no op list (trim's translation-page traffic); pushed first
    /// by the next call that does.
    deferred: Vec<NandOp>,
    cands: Vec<Candidate>,
    /// Scratch for grouping units into page reads: (dbid, page, plane mask, units).
    groups: Vec<(u32, u32, u32, u32)>,
    flush_idle: SimTime,
    fold_idle: SimTime,
    bg_gc_idle: SimTime,
}

impl Ftl {
    pub fn new(cfg: &DriveConfig, seeds: &SeedTree) -> Result<Ftl, ConfigError> {
        // The FTL makes no random choices (victims and striping are deterministic); the seed tree
        // is accepted so that a future randomized policy draws from `seeds.stream("ftl", _)`.
        let _ = seeds;
        cfg.validate()?;
        let plan = cfg.ftl.capacity_plan(&cfg.geometry)?;
        let l = Layout::new(&cfg.geometry, plan);
        let dies = l.dies as usize;
        let checker = cfg.ftl.integrity_check.then(Checker::new);
        let mut f = Ftl {
            l2p: bigvec::big_zeroed(plan.logical_units as usize),
            oob: bigvec::big_zeroed(l.physical_units() as usize),
            valid: ValidBits::new(l.physical_units()),
            blocks: BlockTable::new(&l, cfg.ftl.free_block_order),
            table: MapTable::new(&l),
            slc: SlcPolicy::new(&cfg.ftl),
            victim: victim::policy(cfg.ftl.gc_policy, cfg.ftl.gc_window_blocks),
            host_open: vec![NONE; dies],
            cursor: 0,
            host_prog_ps: vec![0; dies],
            prog_ps: [cfg.nand.slc.t_prog().as_ps(), cfg.nand.tlc.t_prog().as_ps()],
            reloc_open: vec![NONE; dies],
            reloc_cold: false,
            cold_open: vec![NONE; dies],
            clock: 0,
            ra: ReadAhead::new(cfg.ftl.read_ahead_kib),
            ra_tag_next: 0,
            ra_hits: Vec::new(),
            ra_held: 0,
            ra_op_units: Vec::new(),
            checker,
            #[cfg(feature = "fault-injection")]
            fault: Default::default(),
            persist: persist::Persist::new(&cfg.ftl.persistence, &l),
            order: erase_order::EraseOrder::new(cfg.ftl.persistence.enabled),
            held: Default::default(),
            dur: None,
            st: FtlStats::default(),
            slc_valid_units: 0,
            trace_on: false,
            trace: Vec::new(),
            emit: true,
            dropped: Vec::new(),
            deferred: Vec::new(),
            cands: Vec::new(),
            groups: Vec::new(),
            flush_idle: SimTime::from_ms_f64(cfg.ftl.write_buffer_flush_idle_ms),
            fold_idle: SimTime::from_ms_f64(cfg.ftl.slc_cache.idle_fold_threshold_ms),
            bg_gc_idle: SimTime::from_ms_f64(cfg.ftl.bg_gc_idle_ms),
            cfg: cfg.ftl.clone(),
            l,
        };
        f.refresh_block_stats();
        Ok(f)
    }

    /// Exported capacity in 4 KiB logical units.
    pub fn logical_units(&self) -> u64 {
        self.l2p.len() as u64
    }
    /// Whether units [lpn, lpn + count) lie inside the logical capacity (no wrap past 2^64):
    /// the precondition of the host calls, which `Drive` checks before calling them.
    pub fn in_range(&self, lpn: u64, count: u32) -> bool {
        lpn.checked_add(count as u64)
            .is_some_and(|end| end <= self.logical_units())
    }
    pub fn stats(&self) -> &FtlStats {
        &self.st
    }
    pub fn layout(&self) -> &Layout {
        &self.l
    }
    /// The DRAM table's accesses and translation-page fetches (`map_table`).
    pub fn map_table_stats(&self) -> &dram_table::DramTableStats {
        self.table.stats()
    }
    /// Whether the DRAM table holds every translation page (then the FTL makes no access to it).
    pub fn map_table_fits(&self) -> bool {
        self.table.all_resident()
    }
    /// Records every mapping-table access (see `map_cache::MapAccess`) while on.
    pub fn set_map_trace(&mut self, on: bool) {
        self.trace_on = on;
    }
    pub fn take_map_trace(&mut self) -> Vec<MapAccess> {
        std::mem::take(&mut self.trace)
    }
    /// First integrity violation found, if any (a model bug; `stats().integrity_violations`).
    pub fn integrity_failure(&self) -> Option<&str> {
        self.checker.as_ref().and_then(|c| c.first.as_deref())
    }
    /// Physical unit currently mapped to `lpn`, or None (for tests and state comparison).
    pub fn lookup(&self, lpn: u64) -> Option<u32> {
        let p = self.l2p[lpn as usize].ppa();
        (p != NONE).then_some(p)
    }
    /// The cell mode of the block holding physical unit `ppa` (SLC-mode or native).
    pub fn mode_of(&self, ppa: u32) -> CellMode {
        self.blocks.info[self.l.dbid_of_ppa(ppa) as usize].mode
    }
    /// A digest of the mapping and block state (mapping, spare-area lpns, block table, open
    /// blocks): equal digests mean the same FTL state. For functional-vs-timed comparisons.
    pub fn state_digest(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        unit_tables::hash_field(&self.l2p, |e| e.ppa(), &mut h);
        unit_tables::hash_field(&self.oob, |o| o.lpn(), &mut h);
        self.blocks.info.hash(&mut h);
        self.host_open.hash(&mut h);
        self.reloc_open.hash(&mut h);
        self.cold_open.hash(&mut h);
        self.cursor.hash(&mut h);
        self.host_prog_ps.hash(&mut h);
        h.finish()
    }

    /// Records one mapping access in the trace and in the DRAM table. The check is inlined
    /// (every host write makes one); the work, when there is any, is not.
    #[inline(always)]
    fn map_access(&mut self, lpn: u64, update: Option<u32>, ops: &mut Vec<NandOp>) {
        if self.map_traffic() {
            self.map_access_traffic(lpn, update, ops);
        }
    }

    #[inline(never)]
    fn map_access_traffic(&mut self, lpn: u64, update: Option<u32>, ops: &mut Vec<NandOp>) {
        if self.trace_on {
            self.trace.push(MapAccess { lpn, update });
        }
        if !self.table.all_resident() {
            self.table
                .access(&self.l, lpn, update.is_some(), ops, &mut self.st);
        }
    }

    /// Whether map accesses have effects beyond the lookup itself (translation-cache traffic or
    /// the trace); when not, GC skips the accesses that only test validity.
    #[inline]
    fn map_traffic(&self) -> bool {
        self.trace_on || !self.table.all_resident()
    }

    #[inline]
    fn add_valid(&mut self, ppa: u32, dbid: u32) {
        self.valid.set(ppa);
        let b = &mut self.blocks.info[dbid as usize];
        b.valid += 1;
        self.slc_valid_units += (b.mode == CellMode::Slc) as u64;
    }
    #[inline]
    fn drop_valid(&mut self, ppa: u32) {
        debug_assert!(
            self.valid.get(ppa),
            "invalidating unit {ppa} that is not valid"
        );
        self.valid.clear(ppa);
        let dbid = self.l.dbid_of_ppa(ppa);
        let b = &mut self.blocks.info[dbid as usize];
        debug_assert!(b.valid > 0, "invalidating unit {ppa} of empty block {dbid}");
        b.valid -= 1;
        self.slc_valid_units -= (b.mode == CellMode::Slc) as u64;
    }

    /// Occupancy counters derived from the block table, refreshed at the end of every call.
    fn refresh_block_stats(&mut self) {
        self.st.slc_blocks = self.blocks.slc_in_use as u64;
        self.st.slc_valid_bytes = self.slc_valid_units * 4096;
        self.st.free_blocks = self.blocks.total_free();
        (self.st.erase_count_min, self.st.erase_count_max) = self.blocks.erase_count_range();
        if let Some(c) = &self.checker {
            self.st.integrity_checked_units = c.checked;
            self.st.integrity_violations = c.violations;
        }
    }
}
