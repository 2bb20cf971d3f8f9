//! Firmware planning: turns one NVMe I/O command into FTL calls (`ssdlab_model::ftl::Ftl`,
//! ARCHITECTURE.md, "FTL") and the result into per-way jobs for the datapath — NAND op
//! words (`ssdlab_hdl::nand::op`) with the host 4 KiB units whose data moves through the way's
//! page-buffer region — plus the mapping accesses the FTL made (`Ftl::take_map_trace`).
//!
//! Co-simulation geometry rule (checked in [`super::check_geometry`]): every op moves at most
//! one host unit, so a region holds one op's data at offset 0. A host read op reads one 4 KiB
//! unit with its share of the spare area (`Layout::unit_bus_bytes`), from the column of its
//! slot in the page: the page holds its units as data + spare-share codewords, slot k from
//! byte k x unit bus bytes. A host-data program is one unit: with writes in the job, one plane,
//! 4 KiB pages and SLC-native (one unit per program unit; a larger program unit needs host
//! data staged until it is full, which the datapath has no DRAM path for). Host buffers
//! follow the host driver's convention (`host.rs`): a command's data is physically contiguous
//! from PRP1 (page aligned), so unit k of a command lives at PRP1 + 4096 k and moves as one
//! 4 KiB DMA with PRP2 = 0.

use ssdlab_hdl::nand::op::{pack_op, HdlOp};
use ssdlab_model::ftl::map_cache::MapAccess;
use ssdlab_model::ftl::{Ftl, NandOp, OpPurpose};
use ssdlab_model::nand::die::NandTiming;
use ssdlab_model::nand::sequencer::SeqTiming;
use ssdlab_model::nand::{NandOpKind, PhysPage};
use std::collections::HashMap;

/// Bytes per mapping unit and per page-buffer move.
pub const UNIT: u32 = 4096;

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
    /// Host address of the unit whose data this op moves: host -> region before a program,
    /// region -> host after a read. `None`: data stays in the region (relocation) or none.
    pub host: Option<u64>,
    /// Place of this job's data move in the firmware's DMA order (plan order), when it has one.
    pub seq: u64,
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
}

impl Planner {
    /// Row address of a page: the plane is the block address's low part (ONFI), so block `b`
    /// of plane `p` is row block `b * planes + p`, and plane `i` of a multi-plane op sits at
    /// `row + i * plane_stride` (`ssdlab_hdl::nand::op`); rows of a block are its pages.
    pub fn row(&self, p: &PhysPage) -> u32 {
        (p.block * self.planes + p.plane as u32) * self.plane_stride + p.page
    }

    /// The op word and array time of an FTL op whose data starts at byte `column` of each
    /// plane's page.
    pub fn word(&self, op: &NandOp, column: u16) -> (u128, u64) {
        let data_cycles = match op.kind {
            NandOpKind::Erase => 0,
            _ => (op.bus_bytes / op.planes as u32).div_ceil(self.t.bytes_per_cycle) as u16,
        };
        let w = pack_op(&HdlOp {
            kind: op.kind,
            planes: op.planes,
            row: self.row(&op.addr),
            data_cycles,
            pages: 1,
            column,
        });
        (w, self.t.to_cycles_ceil(self.nt.array_time(op)))
    }

    /// Jobs for `ops` (one FTL call of command `cmd`); `host_of` gives the host address of the
    /// unit at a physical page, for host-data ops. Errors name an op the datapath rule excludes.
    pub fn jobs(
        &self,
        cmd: u64,
        ops: &[NandOp],
        host_of: &HashMap<PhysPage, Vec<(u32, u64)>>,
        out: &mut Vec<Job>,
    ) -> Result<(), String> {
        let first = out.len();
        for (i, op) in ops.iter().enumerate() {
            if op.addr.die.die != 0 {
                return Err(format!("op {i} {op:?}: the datapath runs one die per way"));
            }
            if matches!(
                op.purpose,
                OpPurpose::MapRead | OpPurpose::MapWrite | OpPurpose::ReadAhead
            ) {
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
            let (host, column) = match (op.kind, op.purpose) {
                (NandOpKind::Program, OpPurpose::HostWrite)
                | (NandOpKind::Read, OpPurpose::HostRead) => {
                    let units = host_of
                        .get(&op.addr)
                        .ok_or_else(|| format!("op {i} {op:?}: no host unit at {:?}", op.addr))?;
                    let &[(slot, host)] = units.as_slice() else {
                        return Err(format!(
                            "op {i} {op:?}: moves {} host units; the co-simulation moves one per op",
                            units.len()
                        ));
                    };
                    if op.planes != 1 || op.bus_bytes != self.unit_bus {
                        return Err(format!(
                            "op {i} {op:?}: moves more than one unit ({} B of {} B units)",
                            op.bus_bytes, self.unit_bus
                        ));
                    }
                    let column = u16::try_from(slot * self.unit_bus)
                        .map_err(|_| format!("op {i} {op:?}: column past 16 bits"))?;
                    (Some(host), column)
                }
                _ => (None, 0),
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
                host,
                seq: 0,
            });
        }
        debug_assert!(out[first..].iter().all(|j| j.cmd == cmd));
        Ok(())
    }
}

/// The host units of a command by the physical page that holds them after the FTL call: each
/// unit's slot in its page and its host address.
pub fn host_units(
    ftl: &Ftl,
    lpn: u64,
    count: u32,
    prp1: u64,
) -> HashMap<PhysPage, Vec<(u32, u64)>> {
    let mut m: HashMap<PhysPage, Vec<(u32, u64)>> = HashMap::with_capacity(count as usize);
    let l = ftl.layout();
    for k in 0..count as u64 {
        if let Some(ppa) = ftl.lookup(lpn + k) {
            let (_, _, slot) = l.split_offset(ppa - l.base(l.dbid_of_ppa(ppa)));
            m.entry(l.phys_page(ppa))
                .or_default()
                .push((slot, prp1 + UNIT as u64 * k));
        }
    }
    m
}
