//! A queue create/delete as the firmware hands it to the front end (the HDL's `qc_*` port),
//! decoded from an admin command: Create I/O Completion Queue (NVM Express 1.4, 5.3) and
//! Create I/O Submission Queue (5.4); applied with the status codes of sections 5.3-5.6.

use super::entry::Sqe;
use super::FrontEnd;
use crate::encoding::nvme::{opc, Status};

/// One queue operation; `size` is the SQE's 0-based QSIZE (entries - 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueOp {
    /// Submission queue (else completion queue).
    pub sq: bool,
    /// Delete (else create).
    pub del: bool,
    pub qid: u16,
    pub base: u64,
    pub size: u16,
    /// SQ: the CQ it posts to.
    pub cqid: u16,
    /// CQ: MSI-X vector and interrupts enabled.
    pub vec: u16,
    pub ien: bool,
    /// SQ: QPRIO (CDW11 bits 2:1).
    pub prio: u8,
}

impl QueueOp {
    /// The queue creation an admin SQE asks for (CDW10 QID and QSIZE, PRP1 the base; CQ: CDW11
    /// IV 31:16 and IEN bit 1; SQ: CDW11 CQID 31:16 and QPRIO 2:1); `None` for other opcodes.
    pub fn from_admin(s: &Sqe) -> Option<QueueOp> {
        let (qid, size) = (s.cdw10 as u16, (s.cdw10 >> 16) as u16);
        let q = QueueOp {
            qid,
            base: s.prp1,
            size,
            ..QueueOp::default()
        };
        match s.opc {
            opc::ADMIN_CREATE_IO_CQ => Some(QueueOp {
                vec: (s.cdw11 >> 16) as u16,
                ien: s.cdw11 & 2 != 0,
                ..q
            }),
            opc::ADMIN_CREATE_IO_SQ => Some(QueueOp {
                sq: true,
                cqid: (s.cdw11 >> 16) as u16,
                prio: ((s.cdw11 >> 1) & 3) as u8,
                ..q
            }),
            _ => None,
        }
    }
}

impl FrontEnd {
    /// Creates or deletes the queue `q` names.
    pub fn apply_queue_op(&mut self, q: &QueueOp) -> Result<(), Status> {
        let entries = q.size as u32 + 1;
        match (q.sq, q.del) {
            (false, false) => self.create_io_cq(q.qid, q.base, entries, q.vec, q.ien),
            (true, false) => self.create_io_sq(q.qid, q.base, entries, q.cqid),
            (false, true) => self.delete_io_cq(q.qid),
            (true, true) => self.delete_io_sq(q.qid),
        }
    }
}
