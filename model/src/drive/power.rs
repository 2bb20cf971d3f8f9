//! Sudden power loss of the whole drive ([`Drive::power_loss`]): the host commands inside the
//! drive are lost (never completed), every NAND operation queued or running stops (or, with
//! power-loss protection, finishes on the hold-up capacitors' energy, which also programs the
//! write buffer and the journal page), the controller's DRAM and SRAM state is gone. Power
//! returns at once: the FTL rebuilds its mapping from NAND (`ftl::mount`), the mount's NAND
//! reads (and re-erases) run on the dies and channels like any other op, and the drive serves
//! IO again when they are done. Source: see `config::PersistenceConfig`.

use super::{slots, Drive, NONE};
use crate::ctrl::{DataBuffer, Dram, FirmwareCores};
use crate::engine::EventQueue;
use crate::ftl::power_loss::{LostOp, MountReport};
use crate::ftl::{NandOp, NandOpKind};
use crate::time::SimTime;
use std::collections::VecDeque;

/// Mount ops queued per die at a time.
const MOUNT_OPS_PER_DIE: usize = 4096;

/// What a power loss cost and how long the mount took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerLossReport {
    /// When power failed (simulated).
    pub at: SimTime,
    /// Host commands submitted and not completed (the host sees them fail).
    pub commands_lost: u64,
    /// NAND programs and erases that had not completed (0 with PLP).
    pub nand_ops_lost: u64,
    pub mount: MountReport,
    /// From power-on to the end of the mount's last NAND op.
    pub mount_time: SimTime,
    /// Integrity violations the checker has counted so far (the mount's check included), and
    /// the first one described.
    pub violations: u64,
    pub first_violation: Option<String>,
}

impl Drive {
    /// Power fails now, with power-loss protection as configured (`ftl.plp`).
    pub fn power_loss(&mut self) -> PowerLossReport {
        self.power_loss_with(self.cfg.ftl.plp)
    }

    /// Power fails now, with (`plp`) or without hold-up capacitors; the drive mounts and is
    /// ready when this returns (its clock at the end of the mount). Starts a new statistics
    /// window.
    pub fn power_loss_with(&mut self, plp: bool) -> PowerLossReport {
        let at = self.now();
        let commands_lost = self.outstanding;
        let lost = self.unfinished_nand_ops();
        let mut report_lost = lost.len() as u64;
        let lost = if plp {
            // The capacitors: what runs and waits finishes, then the buffers are programmed.
            for l in &lost {
                self.ftl.nand_done(&l.op);
            }
            let mut ops = Vec::new();
            self.ftl.flush_on_power_fail(&mut ops);
            for op in &ops {
                self.ftl.nand_done(op);
            }
            report_lost = 0;
            Vec::new()
        } else {
            lost
        };
        let mut mount_ops = Vec::new();
        let mount = self.ftl.power_loss(&lost, plp, &mut mount_ops);
        self.lose_volatile_state(at);
        self.run_mount(mount_ops);
        let mount_time = self.now() - at;
        self.reset_stats();
        PowerLossReport {
            at,
            commands_lost,
            nand_ops_lost: report_lost,
            mount,
            mount_time,
            violations: self.ftl.stats().integrity_violations,
            first_violation: self.ftl.integrity_failure().map(str::to_string),
        }
    }

    /// Runs the mount's ops to completion, at most [`MOUNT_OPS_PER_DIE`] per die at a time (a
    /// scan of a whole drive is millions of reads; firmware keeps a bounded number queued).
    fn run_mount(&mut self, ops: Vec<NandOp>) {
        let mut per_die: Vec<Vec<NandOp>> = vec![Vec::new(); self.dies.len()];
        for op in ops {
            let d = self.die_index(&op) as usize;
            per_die[d].push(op);
        }
        let rounds = per_die.iter().map(|v| v.len()).max().unwrap_or(0);
        for k in (0..rounds).step_by(MOUNT_OPS_PER_DIE) {
            let mut batch = std::mem::take(&mut self.batch);
            for v in &per_die {
                batch.extend(v.iter().skip(k).take(MOUNT_OPS_PER_DIE));
            }
            self.dispatch_batch(&mut batch, NONE);
            self.batch = batch;
            while self.ops_inflight > 0 {
                let Some((t, ev)) = self.q.pop() else { break };
                self.handle(t, ev);
            }
        }
    }

    /// Programs and erases sent to the dies and not completed, per die in the order the die
    /// runs them: those on the sequencer first (interrupted), then the relocation, background
    /// and host-path queues (a program or erase never overtakes queued relocation or
    /// background ops on its block, `nand_path.rs`).
    fn unfinished_nand_ops(&self) -> Vec<LostOp> {
        let mut free = vec![false; self.ops.len()];
        for &i in &self.free_ops {
            free[i as usize] = true;
        }
        let mut queued = vec![false; self.ops.len()];
        for d in &self.dies {
            for &i in d.reloc.iter().chain(&d.bg).chain(&d.fifo) {
                queued[i as usize] = true;
            }
        }
        let keep = |op: &NandOp| matches!(op.kind, NandOpKind::Program | NandOpKind::Erase);
        let mut lost = Vec::new();
        for (die, d) in self.dies.iter().enumerate() {
            // On the sequencer, in issue order: the first runs, the others wait behind it.
            let mut on_seq: Vec<(u64, NandOp)> = (0..self.ops.len())
                .filter(|&i| !free[i] && !queued[i] && self.ops[i].die as usize == die)
                .filter(|&i| !self.ops[i].done && self.ops[i].issued != u64::MAX)
                .map(|i| (self.ops[i].issued, self.ops[i].op))
                .collect();
            on_seq.sort_unstable_by_key(|&(k, _)| k);
            for (k, &(_, op)) in on_seq.iter().enumerate() {
                if keep(&op) {
                    lost.push(LostOp {
                        op,
                        interrupted: k == 0,
                    });
                }
            }
            for &i in d.reloc.iter().chain(&d.bg).chain(&d.fifo) {
                let op = self.ops[i as usize].op;
                if keep(&op) {
                    lost.push(LostOp {
                        op,
                        interrupted: false,
                    });
                }
            }
        }
        lost
    }

    /// Everything but the FTL (rebuilt by its mount), the configuration and the id counters
    /// goes back to its power-on state at time `at`.
    fn lose_volatile_state(&mut self, at: SimTime) {
        let cfg = &self.cfg;
        let nq = cfg.nvme.io_queues as usize;
        self.q = EventQueue::new(super::MAX_COMMANDS * 2);
        self.q.advance_to(at);
        let (fe, host, driver) =
            super::front_end::initialised(cfg, super::host_memory::cycle_at_or_after(at));
        (self.fe, self.host, self.driver) = (fe, host, driver);
        self.fe_out.clear();
        self.fe_wake = None;
        (self.fe_due, self.fe_wake_at) = self.fe.due_and_wake();
        self.splits.clear();
        self.free_splits.clear();
        self.cpu = FirmwareCores::new(&cfg.controller);
        self.dram = Dram::new(&cfg.controller);
        self.buf = DataBuffer::new(&cfg.controller);
        self.rbuf = (cfg.controller.read_buffer_kib > 0)
            .then(|| DataBuffer::with_kib(cfg.controller.read_buffer_kib));
        self.rbuf_wait.clear();
        self.dies = slots::die_slots(&cfg.geometry);
        self.chans = slots::chan_slots(cfg);
        self.cmds.clear();
        self.free_cmds.clear();
        self.ops.clear();
        self.free_ops.clear();
        self.host_wait = vec![VecDeque::new(); nq];
        self.buf_wait.clear();
        self.batch.clear();
        self.seq_done.clear();
        self.done_buf.clear();
        self.outstanding = 0;
        self.ops_inflight = 0;
        self.busy_since = None;
        self.host_idle_since = at;
        self.host_progs.clear();
        self.flush_wait.clear();
        self.batch_ids.clear();
        self.dispatching_bg = false;
        self.bg_allowed = false;
        self.reloc_queued = 0;
        self.held_erases.clear();
        self.held_upto = 0;
        self.ra_inflight.clear();
        self.read_port = Default::default();
        self.prefetch = super::prefetch::PrefetchEngine::new(&cfg.ftl);
    }
}
