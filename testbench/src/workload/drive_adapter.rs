//! [`Device`] for the model's drive (`ssdlab_model::drive::Drive`, ARCHITECTURE.md, "Model core").

use super::device::{Completion, Device, Extras, Io, Op};
use crate::error::InputError;
use ssdlab_model::drive::{Drive, HostIo, IoCompletion, IoOp, PURPOSES};
use ssdlab_model::{DriveConfig, SimTime};

/// The model's drive behind the workload runner's [`Device`] trait.
pub struct ModelDrive {
    drive: Drive,
    buf: Vec<IoCompletion>,
}

/// Builds the drive of `cfg`; `origin` names the config in errors.
pub fn open_drive(cfg: &DriveConfig, seed: u64, origin: &str) -> Result<ModelDrive, InputError> {
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
        self.drive
            .submit(HostIo {
                op,
                offset: io.offset,
                len: io.len,
                queue: io.queue,
            })
            .0
    }
    fn run_until(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        let mut buf = std::mem::take(&mut self.buf);
        self.drive.run_until(t, &mut buf);
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
        self.drive.run_until_completion_or(t, &mut buf);
        self.buf = buf;
        self.convert(done);
    }
    fn idle(&mut self, d: SimTime, done: &mut Vec<Completion>) {
        let mut buf = std::mem::take(&mut self.buf);
        self.drive.idle(d, &mut buf);
        self.buf = buf;
        self.convert(done);
    }
    fn functional_write(&mut self, offset: u64, len: u64) {
        self.drive.functional_write(offset, len);
    }
    fn functional_write_many(&mut self, offsets: &[u64], len: u64) {
        self.drive.functional_write_many(offsets, len);
    }
    fn functional_trim(&mut self, offset: u64, len: u64) {
        self.drive.functional_trim(offset, len);
    }
    fn reset_stats(&mut self) {
        self.drive.reset_stats();
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
        }
    }
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
