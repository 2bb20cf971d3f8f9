//! Admin command execution for the front end (the controller firmware's part in a real drive):
//! Create/Delete I/O SQ/CQ (NVM Express Base Specification 1.4, sections 5.3-5.7), Identify
//! controller/namespace (5.15, Figures 247 and 249) and Asynchronous Event Request (5.2),
//! completed through the front end's completion path.

use super::datapath::Direction;
use super::tlp::Cycle;
use super::{FetchedCommand, FrontEnd, HostPort};
use crate::encoding::nvme::{opc, Status};
use std::collections::VecDeque;

/// Outstanding AER commands the controller accepts (Identify AERL = 3, 0's based).
pub const AER_LIMIT: usize = 4;
/// PCI vendor ID reported in Identify (0xFFFF: "no vendor", a model, not a product).
pub const VENDOR_ID: u16 = 0xFFFF;
/// MDTS in units of the 4 KiB minimum page: 2^5 * 4 KiB = 128 KiB.
pub const MDTS: u8 = 5;

/// What Identify reports about the single namespace (NSID 1).
#[derive(Clone, Copy, Debug)]
pub struct NamespaceInfo {
    pub lba_bytes: u32,
    pub capacity_lbas: u64,
}

#[derive(Debug)]
pub struct AdminFirmware {
    ns: NamespaceInfo,
    /// Cycles the firmware takes per admin command.
    pub latency: Cycle,
    aer: VecDeque<u16>,
}

impl AdminFirmware {
    pub fn new(ns: NamespaceInfo) -> Self {
        assert!(
            ns.lba_bytes.is_power_of_two() && ns.lba_bytes >= 512,
            "LBA size {}",
            ns.lba_bytes
        );
        AdminFirmware {
            ns,
            latency: 0,
            aer: VecDeque::new(),
        }
    }

    /// Executes an admin command and completes it (AER commands stay outstanding).
    pub fn execute(&mut self, fe: &mut FrontEnd, cmd: &FetchedCommand, host: &mut impl HostPort) {
        assert_eq!(cmd.sqid, 0, "admin firmware got an I/O command");
        let s = &cmd.sqe;
        let t = cmd.cycle + self.latency;
        let qid = s.cdw10 as u16;
        let entries = (s.cdw10 >> 16) + 1;
        let r: Result<(u32, Cycle), Status> = match s.opc {
            opc::ADMIN_CREATE_IO_CQ if s.cdw11 & 1 == 0 => Err(Status::INVALID_FIELD), // CAP.CQR = 1
            opc::ADMIN_CREATE_IO_CQ => fe
                .create_io_cq(
                    qid,
                    s.prp1,
                    entries,
                    (s.cdw11 >> 16) as u16,
                    s.cdw11 & 2 != 0,
                )
                .map(|_| (0, t)),
            opc::ADMIN_CREATE_IO_SQ if s.cdw11 & 1 == 0 => Err(Status::INVALID_FIELD),
            opc::ADMIN_CREATE_IO_SQ => fe
                .create_io_sq(qid, s.prp1, entries, (s.cdw11 >> 16) as u16)
                .map(|_| (0, t)),
            opc::ADMIN_DELETE_IO_SQ => fe.delete_io_sq(qid).map(|_| (0, t)),
            opc::ADMIN_DELETE_IO_CQ => fe.delete_io_cq(qid).map(|_| (0, t)),
            opc::ADMIN_IDENTIFY => self.identify(fe, cmd, t, host),
            opc::ADMIN_ASYNC_EVENT => {
                if self.aer.len() >= AER_LIMIT {
                    Err(Status::AER_LIMIT)
                } else {
                    self.aer.push_back(s.cid);
                    self.poll_events(fe, t);
                    return;
                }
            }
            _ => Err(Status::INVALID_OPCODE),
        };
        match r {
            Ok((dw0, done)) => fe.complete(done, 0, s.cid, Status::SUCCESS, dw0),
            Err(st) => fe.complete(t, 0, s.cid, st, 0),
        }
    }

    /// Completes outstanding AER commands with pending asynchronous events.
    pub fn poll_events(&mut self, fe: &mut FrontEnd, cycle: Cycle) {
        for _ in 0..AER_LIMIT {
            if self.aer.is_empty() {
                return;
            }
            let Some(ev) = fe.take_event() else { return };
            let cid = self.aer.pop_front().expect("non-empty");
            fe.complete(cycle, 0, cid, Status::SUCCESS, ev.dw0());
        }
    }

    fn identify(
        &self,
        fe: &mut FrontEnd,
        cmd: &FetchedCommand,
        t: Cycle,
        host: &mut impl HostPort,
    ) -> Result<(u32, Cycle), Status> {
        let s = &cmd.sqe;
        let mut page = vec![0u8; 4096];
        match s.cdw10 & 0xFF {
            0x01 => {
                page[0..2].copy_from_slice(&VENDOR_ID.to_le_bytes());
                page[4..24].copy_from_slice(b"SSDLAB00000000000001");
                page[24..64]
                    .copy_from_slice(format!("{:<40}", "ssdlab NVMe front-end model").as_bytes());
                page[64..72].copy_from_slice(b"0.1.0   ");
                page[77] = MDTS;
                page[80..82].copy_from_slice(&1u16.to_le_bytes()); // CNTLID
                page[80 + 4..88].copy_from_slice(&0x0001_0400u32.to_le_bytes()); // VER
                page[259] = (AER_LIMIT - 1) as u8; // AERL
                page[512] = 0x66; // SQES: 64 B
                page[513] = 0x44; // CQES: 16 B
                page[516..520].copy_from_slice(&1u32.to_le_bytes()); // NN
            }
            0x00 if s.nsid == 1 => {
                let c = self.ns.capacity_lbas.to_le_bytes();
                page[0..8].copy_from_slice(&c);
                page[8..16].copy_from_slice(&c);
                page[16..24].copy_from_slice(&c);
                page[130] = self.ns.lba_bytes.trailing_zeros() as u8; // LBAF0.LBADS
            }
            0x00 => return Err(Status { sct: 0, sc: 0x0B }), // Invalid Namespace or Format
            _ => return Err(Status::INVALID_FIELD),
        }
        let (_, done) = fe.transfer(t, s.prp1, s.prp2, 4096, Direction::ToHost, &page, host)?;
        Ok((0, done))
    }
}
