//! Firmware planning: turns one NVMe I/O command into FTL calls (`ssdlab_model::ftl::Ftl`,
//! ARCHITECTURE.md, "FTL") and the result into per-way jobs for the datapath — NAND op
//! words (`ssdlab_hdl::nand::op`) with the host 4 KiB units whose data moves through the way's
//! page-buffer region — plus the mapping accesses the FTL made (`Ftl::take_map_trace`).
//!
//! Co-simulation geometry rule (checked in [`super::check_geometry`]): one 4 KiB unit per page,
//! one plane, SLC-native, so every program unit is one unit and every read op one unit; a
//! region then holds exactly one op's data at offset 0. Host buffers follow the host driver's
//! convention (`host.rs`): a command's data is physically contiguous from PRP1 (page aligned), so
//! unit k of a command lives at PRP1 + 4096 k and moves as one 4 KiB DMA with PRP2 = 0.

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
}

impl Planner {
    /// Row address of a page (convention of `nand_target`: block * plane stride + page, 1 plane).
    pub fn row(&self, p: &PhysPage) -> u32 {
        p.block * self.plane_stride + p.page
    }

    /// The op word and array time of an FTL op.
    pub fn word(&self, op: &NandOp) -> (u128, u64) {
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
            column: 0,
        });
        (w, self.t.to_cycles_ceil(self.nt.array_time(op)))
    }

    /// Jobs for `ops` (one FTL call of command `cmd`); `host_of` gives the host address of the
    /// unit at a physical page, for host-data ops. Errors name an op the datapath rule excludes.
    pub fn jobs(
        &self,
        cmd: u64,
        ops: &[NandOp],
        host_of: &HashMap<PhysPage, u64>,
        out: &mut Vec<Job>,
    ) -> Result<(), String> {
        let first = out.len();
        for (i, op) in ops.iter().enumerate() {
            if op.planes != 1 || op.addr.die.die != 0 {
                return Err(format!(
                    "op {i} {op:?}: the co-simulation geometry has one plane and one die per way"
                ));
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
            let host = match (op.kind, op.purpose) {
                (NandOpKind::Program, OpPurpose::HostWrite)
                | (NandOpKind::Read, OpPurpose::HostRead) => Some(
                    *host_of
                        .get(&op.addr)
                        .ok_or_else(|| format!("op {i} {op:?}: no host unit at {:?}", op.addr))?,
                ),
                _ => None,
            };
            let (w, array_cycles) = self.word(op);
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

/// Host address of each unit of a command at its current physical page (after the FTL call).
pub fn host_units(ftl: &Ftl, lpn: u64, count: u32, prp1: u64) -> HashMap<PhysPage, u64> {
    let mut m = HashMap::with_capacity(count as usize);
    for k in 0..count as u64 {
        if let Some(ppa) = ftl.lookup(lpn + k) {
            m.insert(ftl.layout().phys_page(ppa), prp1 + UNIT as u64 * k);
        }
    }
    m
}
