//! [`Device`] for the model's drive (`ssdlab_model::drive::Drive`, ARCHITECTURE.md, "Model core").

use super::device::{
    BusyTimes, Completion, Device, Extras, FlashState, Integrity, Io, Op, PowerLossOutcome,
};
use crate::error::InputError;
use ssdlab_model::drive::{Drive, HostIo, IoCompletion, IoOp, PURPOSES};
use ssdlab_model::{DriveConfig, DriveError, SimTime};

/// The model's drive behind the workload runner's [`Device`] trait.
pub struct ModelDrive {
    drive: Drive,
    buf: Vec<IoCompletion>,
}

/// Overrides the host memory a drive may take (MiB), instead of /proc/meminfo's MemAvailable:
/// for tests (deterministic) and for machines where other jobs need the memory.
pub const MEMORY_LIMIT_ENV: &str = "SSDLAB_MEMORY_LIMIT_MIB";

/// The host memory a drive may allocate and where that figure comes from; None when neither the
/// override nor /proc/meminfo gives one (no check then).
pub fn memory_limit() -> Result<Option<(u64, String)>, InputError> {
    if let Some(v) = std::env::var_os(MEMORY_LIMIT_ENV) {
        let mib: u64 = v
            .to_str()
            .and_then(|s| s.trim().parse().ok())
            .filter(|&m: &u64| m.checked_mul(1 << 20).is_some())
            .ok_or_else(|| InputError::file(MEMORY_LIMIT_ENV, "must be a whole number of MiB"))?;
        return Ok(Some((mib << 20, format!("allowed by {MEMORY_LIMIT_ENV}"))));
    }
    Ok(mem_available_bytes().map(|b| (b, "available (MemAvailable in /proc/meminfo)".to_string())))
}

/// `MemAvailable` of /proc/meminfo in bytes; None where the file or the line is missing.
pub fn mem_available_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    info.lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| kib.saturating_mul(1024))
}

/// Refuses a config whose drive would not fit in `limit` bytes of host memory.
pub fn check_memory(
    cfg: &DriveConfig,
    origin: &str,
    limit: Option<(u64, String)>,
) -> Result<(), InputError> {
    let need = cfg
        .memory_estimate_bytes()
        .map_err(|e| InputError::config(origin, e))?;
    match limit {
        Some((have, what)) if need > have => Err(InputError::file(
            origin,
            format!(
                "this drive needs about {:.1} GiB of host memory for its mapping tables, more than the {:.1} GiB {what}",
                need as f64 / (1u64 << 30) as f64,
                have as f64 / (1u64 << 30) as f64
            ),
        )),
        _ => Ok(()),
    }
}

/// Builds the drive of `cfg`; `origin` names the config in errors. A config whose drive would
/// not fit in the host's memory ([`memory_limit`]) is refused before anything is allocated.
pub fn open_drive(cfg: &DriveConfig, seed: u64, origin: &str) -> Result<ModelDrive, InputError> {
    cfg.validate().map_err(|e| InputError::config(origin, e))?;
    check_memory(cfg, origin, memory_limit()?)?;
    let drive = Drive::new(cfg, seed).map_err(|e| InputError::config(origin, e))?;
    Ok(ModelDrive {
        drive,
        buf: Vec::new(),
    })
}

impl ModelDrive {
    pub fn drive(&self) -> &Drive {
        &self.drive
    }
    /// For tests that arm the model's test-only fault hooks.
    pub fn drive_mut(&mut self) -> &mut Drive {
        &mut self.drive
    }
    fn convert(&mut self, done: &mut Vec<Completion>) {
        done.extend(self.buf.drain(..).map(|c| Completion {
            id: c.id.0,
            op: match c.op {
                IoOp::Read => Op::Read,
                IoOp::Write => Op::Write,
                IoOp::Trim => Op::Trim,
                IoOp::Flush => Op::Flush,
            },
            len: c.len,
            submitted: c.submitted,
            completed: c.completed,
        }));
    }
}

impl Device for ModelDrive {
    fn capacity_bytes(&self) -> u64 {
        self.drive.capacity_bytes()
    }
    fn nand_suspend(&self) -> Option<ssdlab_model::config::SuspendConfig> {
        Some(self.drive.config().nand.suspend.clone())
    }
    fn set_nand_suspend(&mut self, c: &ssdlab_model::config::SuspendConfig) {
        self.drive
            .set_suspend(c)
            .expect("suspend settings are validated when the protocol loads");
    }
    fn io_queues(&self) -> u16 {
        self.drive.config().nvme.io_queues.min(u16::MAX as u32) as u16
    }
    fn queue_entries(&self) -> u32 {
        self.drive.config().nvme.queue_entries
    }
    fn now(&self) -> SimTime {
        self.drive.now()
    }
    fn submit(&mut self, io: Io) -> u64 {
        let op = match io.op {
            Op::Read => IoOp::Read,
            Op::Write => IoOp::Write,
            Op::Trim => IoOp::Trim,
            Op::Flush => IoOp::Flush,
        };
        let id = self.drive.submit(HostIo {
            op,
            offset: io.offset,
            len: io.len,
            queue: io.queue,
        });
        accepted(id).0
    }
    fn run_until(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        let mut buf = std::mem::take(&mut self.buf);
        accepted(self.drive.run_until(t, &mut buf));
        self.buf = buf;
        self.convert(done);
    }
    fn run_until_completion(&mut self, done: &mut Vec<Completion>) -> bool {
        let mut buf = std::mem::take(&mut self.buf);
        let any = self.drive.run_until_completion(&mut buf);
        self.buf = buf;
        self.convert(done);
        any
    }
    fn run_until_completion_or(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        let mut buf = std::mem::take(&mut self.buf);
        accepted(self.drive.run_until_completion_or(t, &mut buf));
        self.buf = buf;
        self.convert(done);
    }
    fn idle(&mut self, d: SimTime, done: &mut Vec<Completion>) {
        let mut buf = std::mem::take(&mut self.buf);
        accepted(self.drive.idle(d, &mut buf));
        self.buf = buf;
        self.convert(done);
    }
    fn functional_write(&mut self, offset: u64, len: u64) {
        accepted(self.drive.functional_write(offset, len));
    }
    fn functional_write_many(&mut self, offsets: &[u64], len: u64) {
        accepted(self.drive.functional_write_many(offsets, len));
    }
    fn functional_trim(&mut self, offset: u64, len: u64) {
        accepted(self.drive.functional_trim(offset, len));
    }
    fn reset_stats(&mut self) {
        self.drive.reset_stats();
    }
    fn flash_state(&self) -> Option<FlashState> {
        let s = self.drive.stats();
        Some(FlashState {
            slc_bytes: s.slc_valid_bytes,
            slc_blocks: s.slc_blocks,
            free_blocks: s.free_blocks,
        })
    }
    fn integrity(&self) -> Integrity {
        let v = self.drive.integrity();
        Integrity {
            checked: v.checked,
            violations: v.violations,
            first: v.first.map(|f| f.to_string()),
        }
    }
    fn models_power_loss(&self) -> bool {
        true
    }
    fn power_loss(&mut self, plp: Option<bool>) -> Option<PowerLossOutcome> {
        let r = match plp {
            Some(p) => self.drive.power_loss_with(p),
            None => self.drive.power_loss(),
        };
        let m = r.mount;
        Some(PowerLossOutcome {
            at: r.at,
            plp: m.plp,
            commands_lost: r.commands_lost,
            nand_ops_lost: r.nand_ops_lost,
            buffered_units_lost: m.buffered_units_lost,
            program_units_lost: m.program_units_lost,
            interrupted_programs: m.interrupted_programs,
            interrupted_erases: m.interrupted_erases,
            units_rolled_back: m.units_rolled_back,
            checkpoint_pages_read: m.checkpoint_pages_read,
            journal_pages_read: m.journal_pages_read,
            spare_reads: m.spare_reads,
            scanned_blocks: m.scanned_blocks,
            mount_time: r.mount_time,
            violations: r.violations,
            first_violation: r.first_violation,
        })
    }
    fn extras(&self) -> Extras {
        let s = self.drive.stats();
        let e = &s.energy;
        Extras {
            host_bytes_written: s.host_units_written * 4096,
            nand_bytes_written: s.nand_units_written * 4096,
            nand_ops: PURPOSES
                .iter()
                .zip(s.nand_ops.iter())
                .map(|(p, n)| (format!("{p:?}"), *n))
                .collect(),
            slc_used_bytes: s.slc_valid_bytes,
            slc_blocks: s.slc_blocks,
            free_blocks: s.free_blocks,
            gc_blocks: s.gc_blocks,
            gc_victim_valid_fraction: s.gc_victim_valid_fraction(),
            fold_blocks: s.fold_blocks,
            read_units: s.host_units_read,
            unwritten_read_units: s.host_units_unmapped,
            energy_j: e.total_j(),
            energy_by_source_j: [
                ("nand_array", e.nand_array_j),
                ("onfi", e.onfi_j),
                ("controller", e.controller_j),
                ("dram", e.dram_j),
                ("link", e.link_j),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
            busy: Some(BusyTimes {
                elapsed: s.elapsed,
                channel_bus: s.channel_bus_busy.clone(),
                die_array: s.die_array_busy.clone(),
                cpu_cores: self.drive.config().controller.cpu_cores,
                cpu: s.cpu_busy,
                cpu_core: s.cpu_core_busy.clone(),
                plane_array: s.plane_array_busy.clone(),
                planes_per_die: self.drive.config().geometry.planes_per_die,
                dram: s.dram_busy,
                link_up: s.link_up_busy,
                link_down: s.link_down_busy,
                write_buffer_peak_units: s.write_buffer_peak_units,
                write_buffer_units: self.drive.config().controller.write_buffer_kib as u64 / 4,
            }),
            map_sram: (s.map.sram.accesses, s.map.sram.hits),
            map_dram: (s.map.dram.accesses, s.map.dram.hits),
        }
    }
}

/// The drive's answer to a request the front end has already checked: job files, traces and
/// protocols are validated against the capacity, the queue sizes and `SimTime::LIMIT` before
/// anything runs (`bad_input.rs` and `fuzz_inputs.rs` hold that), so a refusal here is a bug in
/// that validation, not bad input.
fn accepted<T>(r: Result<T, DriveError>) -> T {
    r.unwrap_or_else(|e| panic!("the drive refused a validated request: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> ModelDrive {
        let cfg = DriveConfig::from_toml_str(
            include_str!("../../tests/corpus/small-drive.toml"),
            "small",
        )
        .unwrap();
        open_drive(&cfg, 1, "small").unwrap()
    }

    #[test]
    fn memory_check_compares_the_estimate_with_the_limit() {
        let cfg = DriveConfig::from_toml_str(
            include_str!("../../tests/corpus/small-drive.toml"),
            "small",
        )
        .unwrap();
        // 196 608 physical units (2 dies x 2 planes x 128 blocks x 96 pages x 4) and 157 286
        // logical: 2.8 MB of tables plus the 64 MiB fixed part, under 100 MiB.
        let need = cfg.memory_estimate_bytes().unwrap();
        assert!((64 << 20..100 << 20).contains(&need), "{need}");
        assert!(check_memory(&cfg, "small", Some((need, "x".into()))).is_ok());
        let e = check_memory(&cfg, "small", Some((need - 1, "allowed by X".into()))).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("small: this drive needs about 0.1 GiB"),
            "{e}"
        );
        assert!(check_memory(&cfg, "small", None).is_ok());
    }

    #[test]
    fn completion_or_deadline_stops_at_whichever_is_first() {
        let mut d = small();
        d.functional_write(0, 4096);
        let mut done = Vec::new();
        d.submit(Io {
            op: Op::Read,
            offset: 0,
            len: 4096,
            queue: 0,
        });
        // A NAND read takes tens of microseconds: 1 ns later nothing has completed.
        let t1 = d.now() + SimTime::from_ns(1);
        d.run_until_completion_or(t1, &mut done);
        assert!(done.is_empty());
        assert_eq!(d.now(), t1);
        // With a far deadline the call returns at the completion, well before the deadline.
        let far = SimTime::from_secs(1);
        d.run_until_completion_or(far, &mut done);
        assert_eq!(done.len(), 1);
        assert_eq!(d.now(), done[0].completed);
        assert!(done[0].completed < far);
    }

    #[test]
    fn extras_report_host_writes() {
        let mut d = small();
        d.reset_stats();
        let mut done = Vec::new();
        d.submit(Io {
            op: Op::Write,
            offset: 0,
            len: 8192,
            queue: 0,
        });
        assert!(d.run_until_completion(&mut done));
        assert_eq!(d.extras().host_bytes_written, 8192);
    }
}
