//! The firmware's command intake: fetched NVMe commands (admin queue configuration, NVM Read
//! and Write) turned into FTL calls, per-way jobs and mapping requests ([`super::jobs`]).

use super::{Cmd, Firmware};
use crate::cosim::datapath::jobs::{host_units, Plan, UNIT};
use crate::cosim::datapath::port::*;
use ssdlab_model::encoding::nvme::{opc, Status};
use ssdlab_model::nvme::frontend::entry::Sqe;

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
        if write {
            self.ftl.host_write(lpn, count, &mut ops);
        } else {
            self.ftl.host_read(lpn, count, &mut ops);
        }
        let hosts = host_units(&self.ftl, lpn, count, s.prp1);
        let mut plan = Plan {
            jobs: Vec::new(),
            map: self.ftl.take_map_trace(),
        };
        if let Err(e) = self.planner.jobs(cmd, &ops, &hosts, &mut plan.jobs) {
            self.fail(format!("command sqid {sqid} cid {}: {e}", s.cid));
            return Ok(());
        }
        let moves = plan.jobs.iter().map(|j| j.moves.len() as u32).sum();
        self.cmds.insert(
            cmd,
            Cmd {
                sqid,
                cid: s.cid,
                map_left: plan.map.len() as u32,
                dma_left: moves,
            },
        );
        for a in plan.map {
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
        for mut j in plan.jobs {
            j.seq = self.next_seq;
            for _ in 0..j.moves.len() {
                self.dma_plan.push_back((self.next_seq, None));
                self.next_seq += 1;
            }
            self.ways[j.channel as usize * self.ways_per_channel + j.way as usize]
                .0
                .push_back(j);
        }
        self.finish(cmd);
        Ok(())
    }
}
