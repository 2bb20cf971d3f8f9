//! The device a workload drives: the contract's `Drive` API as a trait, so that the workload
//! runner, protocols and trace replay are written once and tested against a hand-computable
//! [`super::testdev::FixedLatencyDevice`] as well as the real model (`model::drive::Drive`).
//!
//! The method set mirrors ARCHITECTURE.md ("Model core"); the adapter for `Drive` lives in
//! [`super::drive_adapter`].

pub use super::occupancy::FlashState;
pub use crate::utilisation::BusyTimes;
use crate::utilisation::Utilisation;
use ssdlab_model::SimTime;
use std::collections::BTreeMap;

/// Host command kind (NVMe Read, Write, Dataset Management deallocate, Flush).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Read,
    Write,
    Trim,
    Flush,
}

/// One host command; offsets and lengths in bytes, 512 B aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Io {
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    pub queue: u16,
}

/// A completed command with its submission and completion times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    pub id: u64,
    pub op: Op,
    pub len: u64,
    pub submitted: SimTime,
    pub completed: SimTime,
}

/// Device-side figures of a measurement window (since the last `reset_stats`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    pub host_bytes_written: u64,
    pub nand_bytes_written: u64,
    /// NAND operations by cause (`OpPurpose` names) in the window.
    pub nand_ops: BTreeMap<String, u64>,
    /// SLC cache occupancy at the end of the window, bytes (valid data) and die-blocks.
    pub slc_used_bytes: u64,
    pub slc_blocks: u64,
    /// Free die-blocks (all pools) at the end of the window.
    pub free_blocks: u64,
    /// Blocks garbage-collected in the window and their mean valid fraction (0..1) when
    /// collected; SLC blocks folded into TLC.
    pub gc_blocks: u64,
    pub gc_victim_valid_fraction: Option<f64>,
    pub fold_blocks: u64,
    /// 4 KiB units the host's reads covered in the window, and those of them never written or
    /// trimmed (answered without a NAND read). Devices that do not track them report 0, 0.
    pub read_units: u64,
    pub unwritten_read_units: u64,
    /// Energy drawn in the window by all sources, J.
    pub energy_j: f64,
    /// Energy by source (controller, dram, link, nand...), J.
    pub energy_by_source_j: BTreeMap<String, f64>,
    /// Busy times of the drive's resources in the window (devices that model them).
    pub busy: Option<BusyTimes>,
    /// Mapping lookups in the window per level: (accesses, hits) of the SRAM cache and of the
    /// DRAM table behind it (`model::drive::MapHierarchyStats`).
    pub map_sram: (u64, u64),
    pub map_dram: (u64, u64),
}

impl Extras {
    /// NAND bytes written per host byte written; `None` when the host wrote nothing.
    pub fn write_amplification(&self) -> Option<f64> {
        (self.host_bytes_written > 0)
            .then(|| self.nand_bytes_written as f64 / self.host_bytes_written as f64)
    }

    /// Busy fractions of the window's resources, when the device reports busy times.
    pub fn utilisation(&self) -> Option<Utilisation> {
        self.busy.as_ref().map(Utilisation::of)
    }

    /// Share (0..1) of the read units that hit never-written or trimmed LBAs; `None` without
    /// reads tracked.
    pub fn unwritten_read_share(&self) -> Option<f64> {
        (self.read_units > 0).then(|| self.unwritten_read_units as f64 / self.read_units as f64)
    }

    /// "WA 6.81, GC 412 blocks at 85.3 % valid, fold 0, SLC 0 blocks, 361 free blocks": the
    /// flash-management state behind a window's figures, for step logs.
    pub fn ftl_summary(&self) -> String {
        let wa = self
            .write_amplification()
            .map_or("-".to_string(), |w| format!("{w:.2}"));
        let gc = match self.gc_victim_valid_fraction {
            Some(v) => format!("{} blocks at {:.1} % valid", self.gc_blocks, v * 100.0),
            None => "0 blocks".to_string(),
        };
        format!(
            "WA {wa}, GC {gc}, fold {}, SLC {} blocks, {} free blocks",
            self.fold_blocks, self.slc_blocks, self.free_blocks
        )
    }
}

/// The device's data-integrity verdict over everything it ran (the model: its FTL's checker,
/// `Drive::integrity`): host-read units verified, violations, the first one described (with
/// its logical unit, expected and found version, the host command and the simulated time).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Integrity {
    pub checked: u64,
    pub violations: u64,
    pub first: Option<String>,
}

impl Integrity {
    /// `{"checked": .., "violations": ..}` for JSON reports.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({"checked": self.checked, "violations": self.violations})
    }
}

/// What a sudden power loss cost and how the device came back (devices that model one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerLossOutcome {
    pub at: SimTime,
    pub plp: bool,
    /// Host commands inside the device when power failed (never completed).
    pub commands_lost: u64,
    /// NAND programs and erases that had not completed.
    pub nand_ops_lost: u64,
    /// 4 KiB units lost from the write buffer, and from programs queued or interrupted.
    pub buffered_units_lost: u64,
    pub program_units_lost: u64,
    pub interrupted_programs: u64,
    pub interrupted_erases: u64,
    /// Logical units that came back at an older version than their latest write.
    pub units_rolled_back: u64,
    /// The mount: its NAND reads by kind, blocks scanned, and time from power-on.
    pub checkpoint_pages_read: u64,
    pub journal_pages_read: u64,
    pub spare_reads: u64,
    pub scanned_blocks: u64,
    pub mount_time: SimTime,
    /// Integrity violations counted so far (the mount's check included); the first described.
    pub violations: u64,
    pub first_violation: Option<String>,
}

impl PowerLossOutcome {
    /// NAND reads the mount took.
    pub fn mount_reads(&self) -> u64 {
        self.checkpoint_pages_read + self.journal_pages_read + self.spare_reads
    }
}

/// What a workload needs from a device. See ARCHITECTURE.md ("Model core") for the semantics of each method.
pub trait Device {
    fn capacity_bytes(&self) -> u64;
    /// Number of NVMe IO queues (jobs are spread over them).
    fn io_queues(&self) -> u16;
    /// Entries per IO queue (bounds the iodepth of one job).
    fn queue_entries(&self) -> u32;
    fn now(&self) -> SimTime;
    fn submit(&mut self, io: Io) -> u64;
    fn run_until(&mut self, t: SimTime, done: &mut Vec<Completion>);
    /// False when nothing is outstanding.
    fn run_until_completion(&mut self, done: &mut Vec<Completion>) -> bool;
    /// Processes events until at least one IO completes or time `t` is reached, whichever comes
    /// first (now <= t afterwards). Needed by closed-loop workloads with timers (thinktime, end
    /// of ramp): `run_until(t)` alone would swallow completions that must trigger new submissions.
    fn run_until_completion_or(&mut self, t: SimTime, done: &mut Vec<Completion>);
    fn idle(&mut self, d: SimTime, done: &mut Vec<Completion>);
    fn functional_write(&mut self, offset: u64, len: u64);
    /// `functional_write(o, len)` for each of `offsets` in order; devices with a faster batched
    /// path (the model drive: FTL table prefetch) override it. Same resulting state.
    fn functional_write_many(&mut self, offsets: &[u64], len: u64) {
        for &o in offsets {
            self.functional_write(o, len);
        }
    }
    fn functional_trim(&mut self, offset: u64, len: u64);
    fn reset_stats(&mut self);
    /// SLC-cache occupancy and free blocks now, for devices with an FTL (cheap: the runner
    /// samples it after every batch of completions).
    fn flash_state(&self) -> Option<FlashState> {
        None
    }
    /// The program/erase suspend settings, when the device models NAND suspend.
    fn nand_suspend(&self) -> Option<ssdlab_model::config::SuspendConfig> {
        None
    }
    /// Replaces the suspend settings (only called when [`Device::nand_suspend`] is Some).
    fn set_nand_suspend(&mut self, _c: &ssdlab_model::config::SuspendConfig) {}
    fn extras(&self) -> Extras;
    /// The integrity verdict since the device was opened (not reset with the statistics).
    fn integrity(&self) -> Integrity;
    /// Whether [`Device::power_loss`] is modelled.
    fn models_power_loss(&self) -> bool {
        false
    }
    /// Power fails now (with hold-up capacitors if `plp`, else as the device is built) and
    /// returns when the device serves IO again; None when not modelled.
    fn power_loss(&mut self, _plp: Option<bool>) -> Option<PowerLossOutcome> {
        None
    }
}
