//! The host of the co-simulation: an NVMe driver on the root-complex model
//! (`crate::devices::root_complex`) that initialises the controller (NVM Express 1.4, 7.6.1:
//! AQA/ASQ/ACQ, MSI-X vectors, CC.EN, Create I/O CQ/SQ pairs through the admin queue) and then
//! runs one fio job closed-loop as `numjobs` clones (fio's numjobs: each clone its own I/O
//! queue pair, j + 1, as a driver with one queue per CPU): up to `iodepth` commands
//! outstanding per clone (clone j's slots are j x iodepth .. (j + 1) x iodepth; a command takes
//! the lowest free one, which is its cid and its data buffer, so a completion frees its slot
//! at once as fio's does). Each clone issues the command sequence `ssdlab run` issues for the
//! same job file and seed (`workload::runner::Draws`: direction by `rwmixread`, offsets
//! sequential or random with fio's random map), one SQ doorbell per command, one CQ head
//! doorbell per consumed CQE; with a `runtime`, submissions stop that long after the end of
//! the `ramp_time` that follows the job's first command (`time_based`: the job runs until
//! then).
//! Completions are taken from the CQE MWr TLPs the root complex logged (sqid, cid, status at
//! the TLP's cycle).
//!
//! Host memory layout (also used to classify TLPs, [`classify`]): admin SQ 0x10_0000, admin CQ
//! 0x11_0000, I/O CQ q at 0x20_0000 + q * 0x1_0000, I/O SQ q at 0x30_0000 + q * 0x1_0000,
//! PRP lists at 0x80_0000 (one page per command slot), data at 0x100_0000 (a contiguous
//! `max_bs` buffer per command slot: the firmware's unit addressing relies on it), MSI-X
//! messages at 0xFEE0_0000.

use super::exec::DatapathExec;
use super::port::{CplRec, TlpClass};
use crate::devices::root_complex::RootComplex;
use crate::workload::device::Op;
use crate::workload::runner::Draws;
use ssdlab_model::encoding::nvme::opc;
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_model::nvme::frontend::entry::{Cqe, Sqe};
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind};

mod pattern;

pub use crate::devices::root_complex::host_init::{cq_base, sq_base, ACQ_BASE, ASQ_BASE, MSI_ADDR};
use crate::devices::root_complex::host_init::{driver_init, Act};
pub use pattern::IoPattern;
pub const LIST_BASE: u64 = 0x80_0000;
pub const DATA_BASE: u64 = 0x100_0000;
/// Bytes of each command slot's data buffer (the largest block size).
pub const SLOT_BYTES: u64 = 64 * 4096;
/// I/O queue entries (SQ and CQ).
pub const IO_ENTRIES: u32 = 64;
/// Most clones of a job (`numjobs`), one I/O queue pair each: the front end's 8 pairs
/// (`ssdlab_hdl::nvme::QUEUE_PAIRS` - 1, admin excluded).
pub const MAX_JOBS: u32 = (ssdlab_hdl::nvme::QUEUE_PAIRS - 1) as u32;

/// The data of logical unit `lpn` as the host writes it (and a functional precondition
/// stores it): byte j is `lpn * 31 ^ j ^ j >> 8`, so a unit read back from another unit's
/// place, or a shifted one, differs.
pub fn unit_data(lpn: u64) -> Vec<u8> {
    (0..4096u64)
        .map(|j| (lpn.wrapping_mul(31) ^ j ^ (j >> 8)) as u8)
        .collect()
}

/// The class of a device TLP by the region it addresses.
pub fn classify(kind: TlpKind, addr: u64) -> TlpClass {
    match (kind, addr) {
        (_, a) if a >= MSI_ADDR => TlpClass::Msi,
        (TlpKind::MemRead, a)
            if (ASQ_BASE..ASQ_BASE + 0x1000).contains(&a)
                || (0x30_0000..0x40_0000).contains(&a) =>
        {
            TlpClass::Fetch
        }
        (TlpKind::MemWrite, a)
            if (ACQ_BASE..ACQ_BASE + 0x1000).contains(&a)
                || (0x20_0000..0x30_0000).contains(&a) =>
        {
            TlpClass::Cqe
        }
        (_, a) if a >= DATA_BASE => TlpClass::Data(((a - DATA_BASE) / 4096) as u32),
        (_, a) if a >= LIST_BASE => TlpClass::List(((a - LIST_BASE) / 4096) as u16),
        _ => TlpClass::Other,
    }
}

/// One clone of the job: its queue pair (`q` = clone + 1) and its command sequence.
struct Clone {
    draws: Draws,
    sq_tail: u32,
    cq_head: u32,
    issued: u64,
}

pub struct HostDriver {
    pat: IoPattern,
    clones: Vec<Clone>,
    init: Vec<(Cycle, Act)>,
    init_next: usize,
    /// Admin completions of the queue creates seen with success.
    created: u32,
    ready: bool,
    seen: usize,
    /// Per slot (cid): the cycle its command was submitted, while outstanding.
    slots: Vec<Option<Cycle>>,
    /// Commands to submit in all (all clones).
    limit: u64,
    issued: u64,
    stopped: bool,
    /// The cycle of the first I/O command (the start of the job's `runtime`).
    first_io: Option<Cycle>,
    pub completions: Vec<CplRec>,
    /// Every command submitted, in order: (I/O queue, direction, first 4 KiB unit).
    pub commands: Vec<(u16, Op, u64)>,
    /// Per slot: the first unit and unit count of its read command, when reads are checked.
    reads: Vec<Option<(u64, u64)>>,
    check_reads: bool,
    /// 4 KiB units of read data compared with [`unit_data`].
    pub units_checked: u64,
}

impl HostDriver {
    /// The host running `pat`, clone j issuing `draws[j]` (one per clone).
    pub fn new(pat: IoPattern, draws: Vec<Draws>) -> Self {
        let jobs = pat.numjobs as usize;
        assert_eq!(draws.len(), jobs, "one command sequence per clone");
        let slots = jobs * pat.iodepth as usize;
        HostDriver {
            pat,
            clones: draws
                .into_iter()
                .map(|draws| Clone {
                    draws,
                    sq_tail: 0,
                    cq_head: 0,
                    issued: 0,
                })
                .collect(),
            init: driver_init(
                1 + pat.numjobs,
                pat.numjobs as u16,
                IO_ENTRIES,
                IO_ENTRIES,
                &[],
            ),
            init_next: 0,
            created: 0,
            ready: false,
            seen: 0,
            slots: vec![None; slots],
            limit: pat.ios.saturating_mul(jobs as u64),
            issued: 0,
            stopped: false,
            first_io: None,
            completions: Vec::new(),
            commands: Vec::new(),
            reads: vec![None; slots],
            check_reads: false,
            units_checked: 0,
        }
    }

    /// Compares every read's data with [`unit_data`] when its completion arrives: for an
    /// execution that moves data, on units that hold what the host or the precondition wrote.
    pub fn check_read_data(mut self) -> Self {
        self.check_reads = true;
        self
    }

    /// The job's region, 4 KiB units (what the stimulus preconditions).
    pub fn region(&self) -> std::ops::Range<u64> {
        self.pat.first_unit..self.pat.first_unit + self.pat.units
    }

    /// Commands submitted so far (all clones).
    pub fn issued(&self) -> u64 {
        self.issued
    }

    /// Submit at most `n` commands in all (all clones), and no longer stop at the job's
    /// `runtime`: a run that repeats another's commands issues exactly its count, whatever its
    /// own timing.
    pub fn limit_ios(&mut self, n: u64) {
        self.limit = self.limit.min(n);
        self.pat.runtime_cycles = None;
    }

    /// Stop submitting (outstanding commands still complete).
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// Every command issued has completed and no more will be issued.
    pub fn done(&self) -> bool {
        self.ready
            // Every clone issues its `ios`: the total is the limit (or a lower cap).
            && (self.stopped || self.issued == self.limit)
            && self.slots.iter().all(Option::is_none)
    }

    /// The job's ramp (fio `ramp_time`) in cycles from its first command: the completions
    /// before its end are not counted in the host's figures.
    pub fn ramp_cycles(&self) -> u64 {
        self.pat.ramp_cycles
    }

    /// The job's ramp and runtime are over at `now` (fio stops submitting then).
    fn timed_out(&self, now: Cycle) -> bool {
        let lead = self.pat.ramp_cycles;
        let end = |t: Cycle| {
            let r = self.pat.runtime_cycles?;
            Some(t.saturating_add(lead).saturating_add(r))
        };
        self.first_io.and_then(end).is_some_and(|e| now >= e)
    }

    /// The slot clone `j` submits into at `now`, if it may submit then.
    fn next_slot(&self, j: usize, now: Cycle) -> Option<usize> {
        let c = &self.clones[j];
        let qd = self.pat.iodepth as usize;
        if !self.ready
            || self.stopped
            || self.timed_out(now)
            || self.issued >= self.limit
            || c.issued >= self.pat.ios
        {
            return None;
        }
        (j * qd..(j + 1) * qd).find(|&s| self.slots[s].is_none())
    }

    /// One cycle of host activity at `now`.
    pub fn step(&mut self, now: Cycle, x: &mut dyn DatapathExec) -> Result<(), String> {
        while let Some((t, a)) = self.init.get(self.init_next).filter(|(t, _)| *t <= now) {
            match a {
                Act::Mmio(off, v) => x.mmio_write(*t, *off, *v),
                Act::Put(addr, b) => x.rc().put(*addr, b),
            }
            self.init_next += 1;
        }
        self.scan(now, x)?;
        if self.timed_out(now) {
            self.stopped = true;
        }
        // Clone j submits into its lowest free slot: completions come out of order (dies
        // finish reads in any order), and a clone waiting for its oldest slot would run below
        // its iodepth. Clones submit in order within a cycle.
        for j in 0..self.clones.len() {
            if let Some(slot) = self.next_slot(j, now) {
                self.submit(now, j, slot, x);
            }
        }
        Ok(())
    }

    /// The first cycle >= `now` at which [`HostDriver::step`] may act (an init action due, a
    /// logged TLP becoming visible, a free slot to submit into), with no new device TLPs;
    /// `Cycle::MAX`: none. A value <= `now` means "now".
    pub fn next_action(&self, now: Cycle, rc: &RootComplex) -> Cycle {
        let init = self.init.get(self.init_next).map_or(Cycle::MAX, |a| a.0);
        let seen = rc
            .seen
            .get(self.seen)
            .map_or(Cycle::MAX, |t| t.cycle + 1 + t.len.div_ceil(16) as u64);
        if (0..self.clones.len()).any(|j| self.next_slot(j, now).is_some()) {
            now
        } else {
            init.min(seen)
        }
    }

    /// Consumes CQEs whose MWr has reached host memory by `now` (the root complex logs a TLP at
    /// its header beat; its payload beats follow, one per cycle).
    fn scan(&mut self, now: Cycle, x: &mut dyn DatapathExec) -> Result<(), String> {
        loop {
            let Some(t) = x.rc().seen.get(self.seen).copied() else {
                return Ok(());
            };
            if t.cycle + 1 + t.len.div_ceil(16) as u64 > now {
                return Ok(());
            }
            self.seen += 1;
            if t.kind != TlpKind::MemWrite || classify(t.kind, t.addr) != TlpClass::Cqe {
                continue;
            }
            let c = Cqe::decode(&x.rc().get(t.addr, 16));
            if t.addr < cq_base(1) {
                // Create I/O CQ and SQ per clone (cids 100 on): ready when all succeeded.
                self.created += (c.cid >= 100 && c.status.field() == 0) as u32;
                self.ready = self.created == 2 * self.pat.numjobs;
                continue;
            }
            let q = ((t.addr - cq_base(1)) / (cq_base(2) - cq_base(1))) as usize;
            let j = q.min(self.clones.len() - 1);
            let slot = c.cid as usize;
            let submitted = self
                .slots
                .get_mut(slot)
                .and_then(Option::take)
                .ok_or(format!(
                    "cycle {}: CQE for cid {} not outstanding",
                    t.cycle, c.cid
                ))?;
            if let Some((lpn, units)) = self.reads[slot].take() {
                self.check(x.rc(), slot, lpn, units)
                    .map_err(|e| format!("cycle {}: read cid {}: {e}", t.cycle, c.cid))?;
            }
            self.completions.push(CplRec {
                sqid: c.sqid,
                cid: c.cid,
                status: c.status.field(),
                submitted,
                cycle: t.cycle,
            });
            let cl = &mut self.clones[j];
            cl.cq_head = (cl.cq_head + 1) % IO_ENTRIES;
            x.mmio_write(now, cq_doorbell(j as u16 + 1), cl.cq_head);
        }
    }

    /// The read data in `slot`'s buffer against the units `lpn..lpn + units`.
    fn check(&mut self, rc: &RootComplex, slot: usize, lpn: u64, units: u64) -> Result<(), String> {
        let buf = DATA_BASE + slot as u64 * SLOT_BYTES;
        for k in 0..units {
            let (got, want) = (rc.get(buf + 4096 * k, 4096), unit_data(lpn + k));
            if let Some(j) = (0..4096).find(|&j| got[j] != want[j]) {
                return Err(format!(
                    "lpn {}: byte {j} is {:#04x}, the unit's data has {:#04x}",
                    lpn + k,
                    got[j],
                    want[j]
                ));
            }
            self.units_checked += 1;
        }
        Ok(())
    }

    /// Clone `j` submits its next command into `slot` on its queue pair j + 1.
    fn submit(&mut self, now: Cycle, j: usize, slot: usize, x: &mut dyn DatapathExec) {
        let p = self.pat;
        let units = (p.bs / 4096) as u64;
        let cl = &mut self.clones[j];
        let (op, offset, len) = cl.draws.next_io();
        // `IoPattern::from_job` admits one block size and 4 KiB-aligned files only.
        assert!(
            offset % 4096 == 0 && len == p.bs as u64,
            "{op:?} {offset} {len}"
        );
        let lpn = offset / 4096;
        let read = op == Op::Read;
        let buf = DATA_BASE + slot as u64 * SLOT_BYTES;
        let prp2 = match units {
            1 => 0,
            2 => buf + 4096,
            _ => {
                let list = LIST_BASE + slot as u64 * 4096;
                let entries: Vec<u8> = (1..units)
                    .flat_map(|k| (buf + 4096 * k).to_le_bytes())
                    .collect();
                x.rc().put(list, &entries);
                list
            }
        };
        if !read {
            let fill: Vec<u8> = (0..units).flat_map(|k| unit_data(lpn + k)).collect();
            x.rc().put(buf, &fill);
        } else if self.check_reads {
            self.reads[slot] = Some((lpn, units));
        }
        let q = j as u16 + 1;
        let mut s = Sqe::new(
            if read { opc::NVM_READ } else { opc::NVM_WRITE },
            slot as u16,
            1,
            buf,
            prp2,
        );
        (s.cdw10, s.cdw11, s.cdw12) = (
            (lpn * 8) as u32,
            ((lpn * 8) >> 32) as u32,
            (units * 8 - 1) as u32,
        );
        let cl = &mut self.clones[j];
        x.rc().put(sq_base(q) + 64 * cl.sq_tail as u64, &s.encode());
        cl.sq_tail = (cl.sq_tail + 1) % IO_ENTRIES;
        cl.issued += 1;
        x.mmio_write(now, sq_doorbell(q), cl.sq_tail);
        self.slots[slot] = Some(now);
        self.issued += 1;
        self.commands.push((q, op, lpn));
        self.first_io.get_or_insert(now);
    }
}
