//! Drive statistics over a measurement window (`Drive::reset_stats` starts one): per-direction
//! ops, bytes and latency histograms (HdrHistogram, nanoseconds, 3 significant digits), NAND op
//! counts by cause, energy by source, busy/idle time, write amplification, SLC occupancy.

use crate::ftl::OpPurpose;
use crate::time::SimTime;
use hdrhistogram::Histogram;

/// All `OpPurpose` values, in the order of [`DriveStats::nand_ops`].
pub const PURPOSES: [OpPurpose; 15] = [
    OpPurpose::HostRead,
    OpPurpose::HostWrite,
    OpPurpose::ReadAhead,
    OpPurpose::GcRead,
    OpPurpose::GcWrite,
    OpPurpose::FoldRead,
    OpPurpose::FoldWrite,
    OpPurpose::WearLevelRead,
    OpPurpose::WearLevelWrite,
    OpPurpose::MapRead,
    OpPurpose::MapWrite,
    OpPurpose::Erase,
    OpPurpose::Journal,
    OpPurpose::Checkpoint,
    OpPurpose::MountRead,
];

/// Index of `p` in [`PURPOSES`].
#[inline]
pub fn purpose_index(p: OpPurpose) -> usize {
    match p {
        OpPurpose::HostRead => 0,
        OpPurpose::HostWrite => 1,
        OpPurpose::ReadAhead => 2,
        OpPurpose::GcRead => 3,
        OpPurpose::GcWrite => 4,
        OpPurpose::FoldRead => 5,
        OpPurpose::FoldWrite => 6,
        OpPurpose::WearLevelRead => 7,
        OpPurpose::WearLevelWrite => 8,
        OpPurpose::MapRead => 9,
        OpPurpose::MapWrite => 10,
        OpPurpose::Erase => 11,
        OpPurpose::Journal => 12,
        OpPurpose::Checkpoint => 13,
        OpPurpose::MountRead => 14,
    }
}

/// Completed host IOs of one kind.
#[derive(Clone, Debug)]
pub struct DirStats {
    pub ops: u64,
    pub bytes: u64,
    /// Submission-to-completion latency, nanoseconds.
    pub latency_ns: Histogram<u64>,
}

impl Default for DirStats {
    fn default() -> Self {
        DirStats {
            ops: 0,
            bytes: 0,
            latency_ns: Histogram::new(3).expect("3 significant digits is valid"),
        }
    }
}

impl DirStats {
    pub fn record(&mut self, bytes: u64, latency: SimTime) {
        self.ops += 1;
        self.bytes += bytes;
        let ns = (latency.as_ps() / 1000).max(1);
        self.latency_ns.record(ns).expect("auto-resizing histogram");
    }
    pub fn mean_latency_us(&self) -> f64 {
        self.latency_ns.mean() / 1e3
    }
}

/// Energy in joules by source.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EnergyStats {
    /// NAND array operations (config per-op energies).
    pub nand_array_j: f64,
    /// ONFI bus I/O (bytes × `power.onfi_pj_per_byte`).
    pub onfi_j: f64,
    /// Controller active/idle power × time.
    pub controller_j: f64,
    pub dram_j: f64,
    pub link_j: f64,
}

impl EnergyStats {
    pub fn total_j(&self) -> f64 {
        self.nand_array_j + self.onfi_j + self.controller_j + self.dram_j + self.link_j
    }
}

#[derive(Clone, Debug, Default)]
pub struct DriveStats {
    pub read: DirStats,
    pub write: DirStats,
    pub trim: DirStats,
    pub flush: DirStats,
    /// NAND ops started, indexed like [`PURPOSES`] (see [`DriveStats::nand_op_count`]).
    pub nand_ops: [u64; 15],
    /// NAND bytes moved over the channel buses.
    pub onfi_bytes: u64,
    pub energy: EnergyStats,
    /// Window start and length.
    pub window_start: SimTime,
    pub elapsed: SimTime,
    /// Time with host commands outstanding or NAND ops in flight, and the rest.
    pub busy_time: SimTime,
    pub idle_time: SimTime,
    /// Firmware core busy time (summed over cores), DRAM and PCIe busy time per direction.
    pub cpu_busy: SimTime,
    /// Per firmware core: its busy time in this window (they sum to `cpu_busy`).
    pub cpu_core_busy: Vec<SimTime>,
    pub dram_busy: SimTime,
    pub link_up_busy: SimTime,
    pub link_down_busy: SimTime,
    /// NAND units written / host units written in this window (0 without host writes).
    pub write_amplification: f64,
    pub host_units_written: u64,
    pub nand_units_written: u64,
    /// 4 KiB units host reads covered in this window, and those of them never written or
    /// trimmed: the FTL answers them with zeroes without a NAND read.
    pub host_units_read: u64,
    pub host_units_unmapped: u64,
    /// SLC cache occupancy now.
    pub slc_blocks: u64,
    pub slc_valid_bytes: u64,
    pub free_blocks: u64,
    /// Garbage collection in this window: blocks collected (foreground + background) and the
    /// valid units they moved; SLC blocks folded into TLC and the units moved. With
    /// `die_block_units` (4 KiB units in one native die-block) they give the victims' mean valid
    /// fraction, the quantity that sets write amplification in steady state.
    pub gc_blocks: u64,
    pub gc_units_moved: u64,
    pub fold_blocks: u64,
    pub fold_units_moved: u64,
    pub die_block_units: u64,
    /// Peak write-buffer occupancy in this window, 4 KiB units.
    pub write_buffer_peak_units: u64,
    /// Per channel: time its ONFI bus was driven in this window (as far as the channel has been
    /// advanced; a channel is brought up to date at its next event).
    pub channel_bus_busy: Vec<SimTime>,
    /// Per die, indexed `(die × ways + way) × channels + channel`: array time (tR/tPROG/tBERS)
    /// of the ops started in this window.
    pub die_array_busy: Vec<SimTime>,
    /// Per plane, indexed `die index x planes_per_die + plane` (die index as above): array time
    /// of the ops that occupied the plane; a multi-plane op counts on each of its planes.
    pub plane_array_busy: Vec<SimTime>,
    /// Program/erase suspends in this window (reads that suspended a program or erase).
    pub nand_suspends: u64,
    /// Mapping lookups in this window per level of the hierarchy (SRAM cache, DRAM table).
    pub map: super::MapHierarchyStats,
}

impl DriveStats {
    pub fn nand_op_count(&self, p: OpPurpose) -> u64 {
        self.nand_ops[purpose_index(p)]
    }
    /// Mean valid fraction (0..1) of the GC victims of this window; None without GC.
    pub fn gc_victim_valid_fraction(&self) -> Option<f64> {
        (self.gc_blocks > 0 && self.die_block_units > 0)
            .then(|| self.gc_units_moved as f64 / (self.gc_blocks * self.die_block_units) as f64)
    }
    pub fn total_ios(&self) -> u64 {
        self.read.ops + self.write.ops + self.trim.ops + self.flush.ops
    }
}
