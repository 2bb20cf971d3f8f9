//! The `power_loss` step: its job runs on the device until `at` (simulated time from the job's
//! start); there power fails ([`Device::power_loss`]: the drive loses what had not reached NAND,
//! then mounts), the commands that were inside the device are reported to the job as
//! completed at the end of the mount (the host sees them fail), and the job goes on against the
//! mounted drive until it ends. [`CutAt`] is the device the job sees.

use super::CutTime;
use crate::error::InputError;
use crate::fio::JobSpec;
use crate::workload::{
    run_jobs, Completion, Device, Extras, GroupResult, Integrity, Io, Observer, Op,
    PowerLossOutcome,
};
use rand::Rng;
use ssdlab_model::{SeedTree, SimTime};
use std::collections::BTreeMap;

/// A device that loses power at `at`.
pub struct CutAt<'a> {
    dev: &'a mut dyn Device,
    at: SimTime,
    plp: Option<bool>,
    /// Commands submitted and not completed: id -> (op, len, submitted).
    open: BTreeMap<u64, (Op, u64, SimTime)>,
    pub outcome: Option<PowerLossOutcome>,
}

impl<'a> CutAt<'a> {
    pub fn new(dev: &'a mut dyn Device, at: SimTime, plp: Option<bool>) -> CutAt<'a> {
        CutAt {
            dev,
            at,
            plp,
            open: BTreeMap::new(),
            outcome: None,
        }
    }

    fn pending(&self, t: SimTime) -> bool {
        self.outcome.is_none() && t >= self.at
    }

    fn settle(&mut self, done: &[Completion]) {
        for c in done {
            self.open.remove(&c.id);
        }
    }

    /// Power fails now: the open commands end (failed) when the mount is done.
    fn cut(&mut self, done: &mut Vec<Completion>) {
        let o = self
            .dev
            .power_loss(self.plp)
            .expect("power_loss steps run only on devices that model it (checked)");
        let now = self.dev.now();
        for (id, (op, len, submitted)) in std::mem::take(&mut self.open) {
            done.push(Completion {
                id,
                op,
                len,
                submitted,
                completed: now,
            });
        }
        self.outcome = Some(o);
    }

    /// Runs the device to the cut and cuts; completions go to `done`.
    fn run_to_cut(&mut self, done: &mut Vec<Completion>) {
        let start = done.len();
        self.dev.run_until(self.at, done);
        self.settle(&done[start..]);
        self.cut(done);
    }
}

impl Device for CutAt<'_> {
    fn capacity_bytes(&self) -> u64 {
        self.dev.capacity_bytes()
    }
    fn io_queues(&self) -> u16 {
        self.dev.io_queues()
    }
    fn queue_entries(&self) -> u32 {
        self.dev.queue_entries()
    }
    fn now(&self) -> SimTime {
        self.dev.now()
    }
    fn submit(&mut self, io: Io) -> u64 {
        let id = self.dev.submit(io);
        self.open.insert(id, (io.op, io.len, self.dev.now()));
        id
    }
    fn run_until(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        if self.pending(t) {
            self.run_to_cut(done);
        }
        let start = done.len();
        self.dev.run_until(t.max(self.dev.now()), done);
        self.settle(&done[start..]);
    }
    fn run_until_completion(&mut self, done: &mut Vec<Completion>) -> bool {
        let start = done.len();
        if self.outcome.is_none() {
            self.dev.run_until_completion_or(self.at, done);
            self.settle(&done[start..]);
            if done.len() == start && self.dev.now() >= self.at {
                self.cut(done);
            }
            return done.len() > start || !self.open.is_empty();
        }
        let any = self.dev.run_until_completion(done);
        self.settle(&done[start..]);
        any
    }
    fn run_until_completion_or(&mut self, t: SimTime, done: &mut Vec<Completion>) {
        let start = done.len();
        if self.pending(t) {
            self.dev.run_until_completion_or(self.at, done);
            self.settle(&done[start..]);
            if done.len() == start {
                self.cut(done);
            }
            return;
        }
        self.dev
            .run_until_completion_or(t.max(self.dev.now()), done);
        self.settle(&done[start..]);
    }
    fn idle(&mut self, d: SimTime, done: &mut Vec<Completion>) {
        let end = self.dev.now() + d;
        if self.pending(end) {
            self.run_to_cut(done);
        }
        let left = end.saturating_sub(self.dev.now());
        let start = done.len();
        self.dev.idle(left, done);
        self.settle(&done[start..]);
    }
    fn functional_write(&mut self, offset: u64, len: u64) {
        self.dev.functional_write(offset, len);
    }
    fn functional_trim(&mut self, offset: u64, len: u64) {
        self.dev.functional_trim(offset, len);
    }
    fn reset_stats(&mut self) {
        self.dev.reset_stats();
    }
    fn integrity(&self) -> Integrity {
        self.dev.integrity()
    }
    fn extras(&self) -> Extras {
        self.dev.extras()
    }
}

/// Runs a `power_loss` step: the job with a cut at `at` from now; the cut happens even if the
/// job ends first (then the drive is idle with whatever its buffers still hold).
pub fn run_power_loss(
    dev: &mut dyn Device,
    jobs: &[JobSpec],
    at: CutTime,
    plp: Option<bool>,
    file: &str,
    seeds: &SeedTree,
    obs: &mut dyn Observer,
) -> Result<(Vec<GroupResult>, PowerLossOutcome), InputError> {
    let after = match at {
        CutTime::At(t) => t,
        CutTime::Random { max } => {
            let mut rng = seeds.stream("power-loss-at", 0);
            SimTime::from_ps(rng.gen_range(0..max.as_ps()))
        }
    };
    let at = dev.now() + after;
    let mut cut = CutAt::new(dev, at, plp);
    let groups = run_jobs(&mut cut, jobs, file, seeds, obs)?;
    if cut.outcome.is_none() {
        let mut done = Vec::new();
        cut.run_to_cut(&mut done);
    }
    let o = cut.outcome.take().expect("cut above");
    Ok((groups, o))
}

/// One line on what survived a cut and how long the mount took.
pub fn summary(o: &PowerLossOutcome) -> String {
    format!(
        "power loss at {:.6} s ({}): {} commands and {} NAND ops lost, {} buffered and {} \
         programmed units lost ({} programs, {} erases interrupted), {} units back at an older \
         version; mount {:.3} ms, {} NAND reads ({} checkpoint + {} journal pages, {} spare reads \
         of {} blocks); integrity violations {}",
        o.at.as_secs_f64(),
        if o.plp { "PLP" } else { "no PLP" },
        o.commands_lost,
        o.nand_ops_lost,
        o.buffered_units_lost,
        o.program_units_lost,
        o.interrupted_programs,
        o.interrupted_erases,
        o.units_rolled_back,
        o.mount_time.as_secs_f64() * 1e3,
        o.mount_reads(),
        o.checkpoint_pages_read,
        o.journal_pages_read,
        o.spare_reads,
        o.scanned_blocks,
        o.violations,
    )
}
