//! The firmware's command intake: fetched NVMe commands (admin queue configuration, NVM Read
//! and Write) turned into FTL calls, per-way jobs and mapping requests ([`super::jobs`]).

use super::{Cmd, Firmware};
use crate::cosim::datapath::jobs::{host_units, host_units_but, HostUnit, Job, Prefetched, UNIT};
use crate::cosim::datapath::port::*;
use ssdlab_model::encoding::nvme::{opc, Status};
use ssdlab_model::ftl::OpPurpose;
use ssdlab_model::nand::{NandOpKind, PhysPage};
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::Cycle;
use std::collections::HashMap;

impl Firmware {
    pub(super) fn command(&mut self, sqid: u16, s: &Sqe) {
        if sqid == 0 {
            return self.admin(s);
        }
        let status = match s.opc {
            opc::NVM_READ | opc::NVM_WRITE => match self.io(sqid, s) {
                Ok(()) => return,
                Err(st) => st,
            },
            _ => Status::INVALID_OPCODE,
        };
        self.cpl_q.push_back(CplReq {
            sqid,
            cid: s.cid,
            status: status.field(),
        });
    }

    fn admin(&mut self, s: &Sqe) {
        let ok = CplReq {
            sqid: 0,
            cid: s.cid,
            status: 0,
        };
        match QcReq::from_admin(s) {
            Some(qc) => self.qc_q.push_back((qc, ok)),
            None if s.opc == opc::ADMIN_ASYNC_EVENT => {}
            None => self.cpl_q.push_back(ok),
        }
    }

    /// An NVM Read/Write: 512 B LBAs, 4 KiB aligned (NVM Express 1.4, 6.14/6.15).
    fn io(&mut self, sqid: u16, s: &Sqe) -> Result<(), Status> {
        let (slba, blocks) = (
            s.cdw10 as u64 | (s.cdw11 as u64) << 32,
            (s.cdw12 & 0xFFFF) as u64 + 1,
        );
        if !slba.is_multiple_of(8)
            || !blocks.is_multiple_of(8)
            || !s.prp1.is_multiple_of(UNIT as u64)
        {
            return Err(Status::INVALID_FIELD);
        }
        let (lpn, count) = (slba / 8, (blocks / 8) as u32);
        if lpn + count as u64 > self.ftl.logical_units() {
            return Err(Status::LBA_OUT_OF_RANGE);
        }
        let cmd = self.next_cmd;
        self.next_cmd += 1;
        let mut ops = Vec::new();
        let write = s.opc == opc::NVM_WRITE;
        let mut reads = HashMap::new();
        // Units served from the read-ahead window: (index in the command, prefetch tag).
        let mut hits: Vec<(u32, u64)> = Vec::new();
        let mut ra = Prefetched::default();
        if write {
            self.ftl.host_write(lpn, count, &mut ops);
            let before = self.staged.len();
            host_units(&self.ftl, (lpn, count), s.prp1, cmd, &mut self.staged);
            if before == 0 {
                self.staged_since = Some(self.now);
            }
        } else {
            if self.reads_staged(lpn, count) || self.reads_open(lpn, count) {
                self.flush_staged();
            }
            hits = (0..count)
                .filter_map(|k| self.ftl.prefetched(lpn + k as u64).map(|p| (k, p.1)))
                .collect();
            let first_tag = self.ftl.prefetch_tags_issued();
            self.ftl.host_read(lpn, count, &mut ops);
            if self.ftl.read_ahead_held() as usize != hits.len() {
                self.fail(format!(
                    "command sqid {sqid} cid {}: the FTL served {} units from its read-ahead window, the firmware found {}",
                    s.cid,
                    self.ftl.read_ahead_held(),
                    hits.len()
                ));
                return Ok(());
            }
            let served: Vec<u32> = hits.iter().map(|h| h.0).collect();
            host_units_but(&self.ftl, (lpn, count), s.prp1, cmd, &served, &mut reads);
            ra = Prefetched::from_window(&self.ftl, first_tag);
        }
        let map = self.ftl.take_map_trace();
        if self.no_relocation && ops.iter().any(|o| relocation(o.purpose)) {
            self.fail(format!("command sqid {sqid} cid {}: relocation, in a run whose read data is checked (its data is not carried)", s.cid));
            return Ok(());
        }
        let mut jobs = Vec::new();
        let planned = if write {
            self.plan_staged(cmd, &ops, &mut jobs)
        } else {
            self.planner
                .read_jobs(cmd, &ops, &mut reads, Some(&mut ra), &mut jobs)
        };
        if let Err(e) = planned {
            self.fail(format!("command sqid {sqid} cid {}: {e}", s.cid));
            return Ok(());
        }
        // Only the FTL's cursor die holds a partial host program unit: after a host program,
        // what is still staged came with this command.
        let programmed = ops
            .iter()
            .any(|o| o.purpose == OpPurpose::HostWrite && o.kind == NandOpKind::Program);
        if self.staged.is_empty() {
            self.staged_since = None;
        } else if programmed {
            self.staged_since = Some(self.now);
        }
        // A write's units move when their program is planned (by this or a later command).
        let moves = if write {
            count
        } else {
            jobs.iter().map(|j| j.moves.len() as u32).sum::<u32>() + hits.len() as u32
        };
        let ready = if write {
            self.now
        } else {
            self.lookup_work(count - hits.len() as u32, &mut jobs)
        };
        self.cmds.insert(
            cmd,
            Cmd {
                sqid,
                cid: s.cid,
                map_left: map.len() as u32,
                dma_left: moves,
                ready,
            },
        );
        self.add_prefetches(std::mem::take(&mut ra.planned), &jobs);
        for (k, tag) in hits {
            let host = s.prp1 + UNIT as u64 * k as u64;
            if let Err(e) = self.hit(tag, lpn + k as u64, host, cmd) {
                self.fail(format!("command sqid {sqid} cid {}: {e}", s.cid));
                return Ok(());
            }
        }
        self.retire_prefetches();
        for a in map {
            let id = self.next_map_id;
            self.next_map_id = id.wrapping_add(1);
            self.map_q.push_back((
                MapReq {
                    id,
                    lpn: a.lpn as u32,
                    update: a.update,
                },
                cmd,
            ));
        }
        self.queue_jobs(jobs);
        self.move_open();
        self.finish(cmd);
        Ok(())
    }

    /// A read's mapping work after its FTL call ([`super::cores`]): its `own` units' (those
    /// the read-ahead window does not hold), for its page reads (`jobs` with moves) and its
    /// data, then each prefetch's, for that prefetch. Returns when the read's own work ends.
    fn lookup_work(&mut self, own: u32, jobs: &mut [Job]) -> Cycle {
        let now = self.now;
        let ready = self.cores.lookups(now, own as u64);
        self.wake_at(ready);
        let mut k = 0;
        for j in jobs.iter_mut() {
            if j.prefetch.is_some() {
                let units = *self
                    .ftl
                    .prefetch_op_units()
                    .get(k)
                    .expect("one unit count per ReadAhead op");
                k += 1;
                j.ready = self.cores.lookups(now, units as u64);
                self.wake_at(j.ready);
            } else if !j.moves.is_empty() {
                j.ready = ready;
            }
        }
        assert_eq!(
            k,
            self.ftl.prefetch_op_units().len(),
            "a ReadAhead op with no job"
        );
        ready
    }

    /// Whether a unit of `lpn..lpn + count` is staged (its data still in a host buffer).
    fn reads_staged(&self, lpn: u64, count: u32) -> bool {
        self.holds_any(&self.staged, lpn, count)
    }

    /// Whether `units` (host units by the page that holds them) has a unit of
    /// `lpn..lpn + count`, where the FTL maps it.
    pub(super) fn holds_any(
        &self,
        units: &HashMap<PhysPage, Vec<HostUnit>>,
        lpn: u64,
        count: u32,
    ) -> bool {
        let l = self.ftl.layout();
        !units.is_empty()
            && (lpn..lpn + count as u64).any(|u| {
                self.ftl.lookup(u).is_some_and(|ppa| {
                    let (page, slot) = l.page_and_slot(ppa);
                    units
                        .get(&page)
                        .is_some_and(|v| v.iter().any(|h| h.slot == slot))
                })
            })
    }

    /// Pads and programs the staged units' program unit (`Ftl::flush`): a read of a staged
    /// unit then finds it on NAND, and a write waits no longer than [`STAGE_FLUSH_CYCLES`].
    pub(super) fn flush_staged(&mut self) {
        let mut ops = Vec::new();
        self.ftl.flush(&mut ops);
        self.staged_since = None;
        if !self.ftl.take_map_trace().is_empty() {
            return self.fail("the flush of staged units made mapping accesses".into());
        }
        // A command number of its own with nothing to complete.
        let cmd = self.next_cmd;
        self.next_cmd += 1;
        let mut jobs = Vec::new();
        if let Err(e) = self.plan_staged(cmd, &ops, &mut jobs) {
            return self.fail(format!("flush of staged units: {e}"));
        }
        if !self.staged.is_empty() {
            return self.fail(format!(
                "{} pages still staged after a flush",
                self.staged.len()
            ));
        }
        self.queue_jobs(jobs);
    }

    /// Puts `jobs` on their ways' queues (after the open unit's program, when one of them
    /// needs its way's whole region).
    fn queue_jobs(&mut self, jobs: Vec<Job>) {
        self.close_open_before(&jobs);
        for j in jobs {
            self.ways[j.channel as usize * self.ways_per_channel + j.way as usize]
                .0
                .push_back(j);
        }
    }
}

/// Ops that move data from one place on NAND to another.
fn relocation(p: OpPurpose) -> bool {
    use OpPurpose::*;
    matches!(
        p,
        GcRead | GcWrite | FoldRead | FoldWrite | WearLevelRead | WearLevelWrite
    )
}
