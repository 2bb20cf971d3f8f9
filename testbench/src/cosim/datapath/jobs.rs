//! Firmware planning: turns one NVMe I/O command into FTL calls (`ssdlab_model::ftl::Ftl`,
//! ARCHITECTURE.md, "FTL") and the result into per-way jobs for the datapath — NAND op
//! words (`ssdlab_hdl::nand::op`) with the host 4 KiB units whose data moves through the way's
//! page-buffer region — plus the mapping accesses the FTL made (`Ftl::take_map_trace`).
//!
//! Co-simulation geometry rule (checked in [`super::check_geometry`] and per op here): an op
//! moves the host units of one column range, the same slots of each of its planes, or reads
//! whole pages and moves the host's units among them (the stream page cache). A page
//! holds its units' data first (slot k from byte 4096 k) and then the spare area; a read of
//! units `s0..=s1` moves, from column 4096 `s0`, their data and as many bytes again as their
//! share of the spare (`Layout::unit_bus_bytes`: the bytes and bus time the model charges;
//! the co-simulation has no ECC, so which bytes those are does not matter). The region holds
//! the op's planes one after another; every unit must start on a 16-byte row of the DMA port.
//! A host-data program is one program unit: on the small drive one 4 KiB page (SLC-native) or
//! a one-shot program of 3 (TLC-native); on a preset one page per plane of an SLC program unit
//! whose units wait in the region's open unit or in host memory until it is full (the datapath
//! has no DRAM path), or a one-shot TLC program of 3 pages per plane in load order, whose units
//! wait in host memory. Host buffers follow the host driver's
//! convention (`host.rs`): a command's data is physically contiguous
//! from PRP1 (page aligned), so unit k of a command lives at PRP1 + 4096 k. Units that follow
//! each other in the region move together, two at a time, as one 8 KiB DMA whose PRP1 and
//! PRP2 are the two units' host pages, of one command or of two ([`Moves::runs`]); a lone unit
//! moves as 4 KiB with PRP2 = 0.

use ssdlab_hdl::nand::op::{pack_op, HdlOp};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::ftl::map_cache::MapAccess;
use ssdlab_model::ftl::{Ftl, NandOp, OpPurpose};
use ssdlab_model::nand::die::NandTiming;
use ssdlab_model::nand::sequencer::SeqTiming;
use ssdlab_model::nand::{NandOpKind, PhysPage};
use ssdlab_model::nvme::frontend::tlp::Cycle;
use std::collections::HashMap;

mod moves;
pub use moves::{Moves, Run};

/// Bytes per mapping unit and per page-buffer move.
pub const UNIT: u32 = 4096;

/// Most host units one op moves: a one-shot program of 3 pages on 4 planes, 16 KiB pages of 4
/// units each.
pub const MAX_MOVES: usize = 48;

/// Most units one DMA move takes ([`Moves::runs`]). Two need no PRP list: PRP1 is the first
/// unit's host page and PRP2 the second's, wherever it is (NVMe's PRP2 is any page-aligned
/// address), so two units of different commands move together too. A longer move needs a list,
/// and reading it costs a host round trip (`pcie.host_read_latency_ns`) before the data's
/// reads, about what the merge saves.
pub const RUN_UNITS: u32 = 2;

/// A host unit at its place in a page: its slot, host address and command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostUnit {
    pub slot: u32,
    pub host: u64,
    pub cmd: u64,
    /// Pages per plane of its block's program unit: 1, or a native TLC block's one-shot pages.
    pub unit_pages: u32,
}

/// One NAND op of a way's job list, with the data it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Command (firmware sequence number) whose FTL call produced the op.
    pub cmd: u64,
    pub channel: u8,
    pub way: u8,
    pub op: u128,
    pub kind: NandOpKind,
    /// Array time of the op (tR/tPROG/tBERS), core cycles: bench information for the executions.
    pub array_cycles: u64,
    /// The host units whose data this op moves: host -> region before a program, region ->
    /// host after a read. Empty: data stays in the region (relocation) or none.
    pub moves: Moves,
    /// Bytes of the region the op's data occupies (its bus bytes; 0 for an erase).
    pub bytes: u32,
    /// A ReadAhead op's FTL tag (`Ftl::prefetch_tags_issued`): its data stays in its region
    /// half for the host reads served from it (`firmware::prefetch`).
    pub prefetch: Option<u64>,
    /// The first cycle the op may go: the end of its mapping work on a firmware core
    /// (`firmware::cores`), 0 when it has none.
    pub ready: Cycle,
}

/// The ReadAhead ops of one FTL read call: the tag of the first, the units the read-ahead
/// window holds for each tag, and, once planned, where each unit lands in its op's data.
#[derive(Debug, Default)]
pub struct Prefetched {
    first_tag: u64,
    /// The window's units of each new tag, by the physical page that holds them (as
    /// [`HostUnit`]s whose `host` is the unit's lpn).
    units: HashMap<u64, HashMap<PhysPage, Vec<HostUnit>>>,
    /// Per ReadAhead job planned: its tag and each unit's (byte offset in the op's data, lpn).
    pub planned: Vec<(u64, Moves)>,
}

impl Prefetched {
    /// The window's units of the ReadAhead ops emitted since `first_tag` (the value of
    /// `Ftl::prefetch_tags_issued` before the call).
    pub fn from_window(ftl: &Ftl, first_tag: u64) -> Prefetched {
        let l = ftl.layout();
        let mut units: HashMap<u64, HashMap<PhysPage, Vec<HostUnit>>> = HashMap::new();
        for (lpn, ppa, tag) in ftl.prefetch_window().filter(|u| u.2 >= first_tag) {
            let (page, slot) = l.page_and_slot(ppa);
            units
                .entry(tag)
                .or_default()
                .entry(page)
                .or_default()
                .push(HostUnit {
                    slot,
                    host: lpn,
                    cmd: tag,
                    unit_pages: 1,
                });
        }
        Prefetched {
            first_tag,
            units,
            planned: Vec::new(),
        }
    }
}

/// What one command asks of the datapath.
#[derive(Debug, Default)]
pub struct Plan {
    pub jobs: Vec<Job>,
    pub map: Vec<MapAccess>,
}

/// Static facts the planner needs.
pub struct Planner {
    pub t: SeqTiming,
    pub nt: NandTiming,
    /// Row distance between blocks (`ssdlab_hdl::nand::plane_stride`: pages per block rounded
    /// up to a power of two).
    pub plane_stride: u32,
    /// Planes per die.
    pub planes: u32,
    /// Bytes one 4 KiB unit occupies in a page and on the bus (`Layout::unit_bus_bytes`).
    pub unit_bus: u32,
    /// 4 KiB units per page.
    pub units_per_page: u32,
    /// Byte offset of a region's upper half (`ctrl::page_buffer::half_region_bytes`).
    pub half_region: u32,
    /// Bits per cell of a native block: the pages per plane of its one-shot programs
    /// (`NandOp::one_shot_pages`).
    pub bits_per_cell: u32,
}

impl Planner {
    /// The planner of drive `cfg` whose 4 KiB unit takes `unit_bus` bytes of a page and on the
    /// bus (`Layout::unit_bus_bytes`).
    pub fn new(cfg: &DriveConfig, unit_bus: u32) -> Planner {
        let g = &cfg.geometry;
        Planner {
            t: SeqTiming::new(&cfg.onfi),
            nt: NandTiming::new(&cfg.nand, &cfg.onfi),
            plane_stride: ssdlab_hdl::nand::plane_stride(cfg),
            planes: g.planes_per_die,
            unit_bus,
            units_per_page: g.page_bytes / UNIT,
            half_region: ssdlab_model::ctrl::page_buffer::half_region_bytes(g) as u32,
            bits_per_cell: g.bits_per_cell,
        }
    }

    /// Row address of a page: the plane is the block address's low part (ONFI), so block `b`
    /// of plane `p` is row block `b * planes + p`, and plane `i` of a multi-plane op sits at
    /// `row + i * plane_stride` (`ssdlab_hdl::nand::op`); rows of a block are its pages.
    pub fn row(&self, p: &PhysPage) -> u32 {
        (p.block * self.planes + p.plane as u32) * self.plane_stride + p.page
    }

    /// The op word and array time of an FTL op whose data starts at byte `column` of each
    /// plane's page. A one-shot program's data cycles are per page and plane.
    pub fn word(&self, op: &NandOp, column: u16) -> (u128, u64) {
        let pages = op.one_shot_pages(self.bits_per_cell);
        let per_load = op.bus_bytes / (op.planes as u32 * pages as u32);
        let data_cycles = match op.kind {
            NandOpKind::Erase => 0,
            _ => per_load.div_ceil(self.t.bytes_per_cycle) as u16,
        };
        let w = pack_op(&HdlOp {
            kind: op.kind,
            planes: op.planes,
            row: self.row(&op.addr),
            data_cycles,
            pages,
            column,
        });
        (w, self.t.to_cycles_ceil(self.nt.array_time(op)))
    }

    /// Jobs for `ops` (one FTL call of command `cmd`); `host_of` holds the host units by the
    /// physical page they are at, for host-data ops, which take theirs out of it. Errors name
    /// an op the datapath rule excludes (a ReadAhead op among them: [`Planner::read_jobs`]).
    pub fn jobs(
        &self,
        cmd: u64,
        ops: &[NandOp],
        host_of: &mut HashMap<PhysPage, Vec<HostUnit>>,
        out: &mut Vec<Job>,
    ) -> Result<(), String> {
        self.read_jobs(cmd, ops, host_of, None, out)
    }

    /// [`Planner::jobs`] of a host read's FTL call, whose ReadAhead ops (`ra`, in tag order)
    /// read the window's units into their region half: a prefetch reads its units as a host
    /// read would (the same columns, or whole pages) and moves none; where each unit lands is
    /// noted in `ra.planned`.
    pub fn read_jobs(
        &self,
        cmd: u64,
        ops: &[NandOp],
        host_of: &mut HashMap<PhysPage, Vec<HostUnit>>,
        mut ra: Option<&mut Prefetched>,
        out: &mut Vec<Job>,
    ) -> Result<(), String> {
        let first = out.len();
        let mut tag = ra.as_ref().map_or(0, |r| r.first_tag);
        for (i, op) in ops.iter().enumerate() {
            if op.addr.die.die != 0 {
                return Err(format!("op {i} {op:?}: the datapath runs one die per way"));
            }
            let prefetch = match (op.purpose, ra.as_deref_mut()) {
                (OpPurpose::ReadAhead, Some(r)) => {
                    tag += 1;
                    Some(
                        self.prefetch(op, tag - 1, r)
                            .map_err(|e| format!("op {i} {op:?}: {e}"))?,
                    )
                }
                _ => None,
            };
            if prefetch.is_none()
                && matches!(
                    op.purpose,
                    OpPurpose::MapRead | OpPurpose::MapWrite | OpPurpose::ReadAhead
                )
            {
                return Err(format!(
                    "op {i} {op:?}: {:?} ops need a buffer the datapath does not have",
                    op.purpose
                ));
            }
            if let Some(a) = op.after {
                let before = &ops[a as usize];
                if before.addr.die != op.addr.die {
                    return Err(format!(
                        "op {i} waits for op {a} on another die: not in per-way order"
                    ));
                }
            }
            let (moves, column) = match (op.kind, op.purpose) {
                (NandOpKind::Program, OpPurpose::HostWrite)
                | (NandOpKind::Read, OpPurpose::HostRead) => self
                    .moves(op, host_of)
                    .map_err(|e| format!("op {i} {op:?}: {e}"))?,
                _ => (Moves::default(), prefetch.map_or(0, |p| p.1)),
            };
            let (w, array_cycles) = self.word(op, column);
            let d = op.addr.die;
            out.push(Job {
                cmd,
                channel: d.channel as u8,
                way: d.way,
                op: w,
                kind: op.kind,
                array_cycles,
                moves,
                bytes: if op.kind == NandOpKind::Erase {
                    0
                } else {
                    op.bus_bytes
                },
                prefetch: prefetch.map(|p| p.0),
                ready: 0,
            });
        }
        debug_assert!(out[first..].iter().all(|j| j.cmd == cmd));
        Ok(())
    }

    /// ReadAhead op `op`, tag `tag`: where its units land in its data (noted in `ra.planned`),
    /// and its column. Its data takes at most half a region (it waits there for its reads).
    fn prefetch(&self, op: &NandOp, tag: u64, ra: &mut Prefetched) -> Result<(u64, u16), String> {
        if op.bus_bytes > self.half_region {
            return Err(format!(
                "a prefetch of {} B is more than half a region ({} B)",
                op.bus_bytes, self.half_region
            ));
        }
        let mut units = ra.units.remove(&tag).unwrap_or_default();
        let (m, column) = self.moves(op, &mut units)?;
        if !units.is_empty() {
            return Err(format!(
                "prefetch {tag} holds units of pages it does not read: {units:?}"
            ));
        }
        ra.planned.push((tag, m));
        Ok((tag, column))
    }

    /// The data moves of a host-data op and its column, its units taken out of `host_of`.
    /// A read moves the same slots `s0..=s1` of each of its planes (one column range, as the
    /// op word addresses it): from column `s0 x 4096`, the units' data and then as many bytes
    /// again as their spare share, the bus bytes the model charges; or it reads whole pages
    /// (a stream's read with `ftl.stream_read_page_cache`): every plane's page from column 0,
    /// of which only the host's units move on. A program writes whole
    /// pages from column 0, one per plane, or, one-shot (TLC), pages `page + k` of every plane
    /// (`NandOp::one_shot_pages`): the units the host staged for it (the rest of the program
    /// unit is the FTL's padding). The region holds the program's pages in the order the
    /// sequencer loads them (page by page, each page's planes in order; docs/hdl.md, "Op
    /// word"), each load after the one before, each unit 4096 B after the slot before.
    fn moves(
        &self,
        op: &NandOp,
        host_of: &mut HashMap<PhysPage, Vec<HostUnit>>,
    ) -> Result<(Moves, u16), String> {
        let pages = op.one_shot_pages(self.bits_per_cell) as u32;
        let mut units = Vec::new();
        for k in 0..pages {
            for i in 0..op.planes {
                let page = PhysPage {
                    plane: op.addr.plane + i,
                    page: op.addr.page + k,
                    ..op.addr
                };
                let on = host_of.remove(&page).unwrap_or_default();
                let load = k * op.planes as u32 + i as u32;
                units.extend(on.into_iter().map(|u| (load, u)));
            }
        }
        let (Some(s0), Some(s1)) = (
            units.iter().map(|u| u.1.slot).min(),
            units.iter().map(|u| u.1.slot).max(),
        ) else {
            return Err(format!("no host unit at {:?}", op.addr));
        };
        let (s0, span, whole) = if op.kind == NandOpKind::Program {
            let page = self.units_per_page;
            let loads = op.planes as u32 * pages;
            if op.bus_bytes != loads * page * self.unit_bus {
                return Err(format!(
                    "a host program of {} B on {} planes is not {pages} whole page(s) per plane",
                    op.bus_bytes, op.planes
                ));
            }
            (0, page, true)
        } else if op.bus_bytes == op.planes as u32 * self.units_per_page * self.unit_bus {
            // Whole pages (`ftl.stream_read_page_cache` on a stream): every plane from column
            // 0, whichever of its units the host asked for.
            (0, self.units_per_page, true)
        } else {
            let span = s1 - s0 + 1;
            let whole = units.len() as u32 == op.planes as u32 * span
                && op.bus_bytes == units.len() as u32 * self.unit_bus;
            (s0, span, whole)
        };
        if !whole || units.len() > MAX_MOVES {
            return Err(format!(
                "{} host units, {} B on the bus: not the same slots {s0}..={s1} of each plane",
                units.len(),
                op.bus_bytes
            ));
        }
        let mut m = Moves {
            n: units.len() as u8,
            ..Moves::default()
        };
        for (k, (load, u)) in units.into_iter().enumerate() {
            let off = load * span * self.unit_bus + (u.slot - s0) * UNIT;
            if !off.is_multiple_of(16) {
                return Err(format!(
                    "load {load}'s data (a plane's page) lands at region byte {off}, not on a 16-byte row of the DMA port ({span} units per plane)"
                ));
            }
            m.at[k] = (off, u.host, u.cmd);
        }
        m.at[..m.n as usize].sort_unstable();
        let column = u16::try_from(s0 * UNIT).map_err(|_| "column past 16 bits")?;
        Ok((m, column))
    }
}

/// The host units of command `cmd` by the physical page that holds them after the FTL call,
/// added to `into`.
pub fn host_units(
    ftl: &Ftl,
    range: (u64, u32),
    prp1: u64,
    cmd: u64,
    into: &mut HashMap<PhysPage, Vec<HostUnit>>,
) {
    host_units_but(ftl, range, prp1, cmd, &[], into)
}

/// [`host_units`] but the units at indices `served` of the command (served from prefetched
/// data, whose pages the call does not read).
pub fn host_units_but(
    ftl: &Ftl,
    (lpn, count): (u64, u32),
    prp1: u64,
    cmd: u64,
    served: &[u32],
    into: &mut HashMap<PhysPage, Vec<HostUnit>>,
) {
    let l = ftl.layout();
    for k in (0..count as u64).filter(|k| !served.contains(&(*k as u32))) {
        if let Some(ppa) = ftl.lookup(lpn + k) {
            let (page, slot) = l.page_and_slot(ppa);
            into.entry(page).or_default().push(HostUnit {
                slot,
                unit_pages: l.program_pages(ftl.mode_of(ppa)),
                host: prp1 + UNIT as u64 * k,
                cmd,
            });
        }
    }
}

#[cfg(test)]
mod tests;
