//! BAR0 accesses from the host (completer requests): controller registers with the enable,
//! ready and shutdown handshakes of section 7.6.1/7.6.2 (CC.EN 0→1 loads the admin queues
//! from AQA/ASQ/ACQ and sets CSTS.RDY; CC.EN 1→0 resets all queues and clears RDY; CC.SHN
//! reports CSTS.SHST = 10b complete), doorbells with the checks of section 4.1/5.2 (a write to
//! a queue that does not exist or a value beyond the queue size is ignored and raises an
//! asynchronous event), and the MSI-X table. Queue creation/deletion by admin commands lands
//! here too (section 5.3-5.7 status codes).

use super::ring::{CqRing, SqRing};
use super::tlp::Cycle;
use super::{AsyncEvent, FrontEnd, HostPort};
use crate::encoding::nvme::Status;
use crate::encoding::nvme_regs::*;

#[derive(Clone, Debug)]
pub struct Regs {
    pub cap: u64,
    pub cc: u32,
    pub csts: u32,
    pub intms: u32,
    pub aqa: u32,
    pub asq: u64,
    pub acq: u64,
}

impl Regs {
    pub fn new(entries: u32) -> Self {
        Regs {
            cap: cap_value(entries),
            cc: 0,
            csts: 0,
            intms: 0,
            aqa: 0,
            asq: 0,
            acq: 0,
        }
    }
}

fn set_lo(r: &mut u64, v: u32) {
    *r = (*r & !0xFFFF_FFFF) | v as u64;
}
fn set_hi(r: &mut u64, v: u32) {
    *r = (*r & 0xFFFF_FFFF) | ((v as u64) << 32);
}

impl FrontEnd {
    /// A 32-bit host write to BAR0 at `offset`, accepted at `cycle`.
    pub fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32, _host: &mut impl HostPort) {
        match offset {
            INTMS => self.regs.intms |= value,
            INTMC => self.regs.intms &= !value,
            CC => self.write_cc(cycle, value),
            AQA => self.regs.aqa = value & 0x0FFF_0FFF,
            ASQ => set_lo(&mut self.regs.asq, value & !0xFFF),
            o if o == ASQ + 4 => set_hi(&mut self.regs.asq, value),
            ACQ => set_lo(&mut self.regs.acq, value & !0xFFF),
            o if o == ACQ + 4 => set_hi(&mut self.regs.acq, value),
            o if (DOORBELL_BASE..MSIX_TABLE).contains(&o) => self.doorbell(cycle, o, value),
            o if (MSIX_TABLE..MSIX_TABLE + 16 * self.msix.len() as u32).contains(&o) => {
                self.msix_write(cycle, o - MSIX_TABLE, value)
            }
            _ => {} // read-only or reserved: writes are ignored (section 3.1)
        }
    }

    /// A 32-bit host read of BAR0 at `offset` (doorbells read as 0, reserved space as 0).
    pub fn mmio_read(&self, offset: u32) -> u32 {
        let r = &self.regs;
        match offset {
            CAP => r.cap as u32,
            o if o == CAP + 4 => (r.cap >> 32) as u32,
            VS => VS_1_4,
            INTMS | INTMC => r.intms,
            CC => r.cc,
            CSTS => r.csts,
            AQA => r.aqa,
            ASQ => r.asq as u32,
            o if o == ASQ + 4 => (r.asq >> 32) as u32,
            ACQ => r.acq as u32,
            o if o == ACQ + 4 => (r.acq >> 32) as u32,
            _ => 0,
        }
    }

    fn write_cc(&mut self, cycle: Cycle, value: u32) {
        self.apply_cq_heads();
        let was = self.regs.cc & CC_EN != 0;
        let en = value & CC_EN != 0;
        self.regs.cc = value;
        if (value >> CC_SHN_SHIFT) & 0x3 != 0 {
            self.regs.csts = (self.regs.csts & !(0x3 << 2)) | CSTS_SHST_COMPLETE;
        }
        if en && !was {
            let asqs = (self.regs.aqa & 0xFFF) + 1;
            let acqs = ((self.regs.aqa >> 16) & 0xFFF) + 1;
            if asqs < 2 || acqs < 2 || self.regs.asq == 0 || self.regs.acq == 0 {
                self.regs.csts |= CSTS_CFS; // admin queue not configured: fatal status
                return;
            }
            self.cqs[0] = Some(CqRing::new(self.regs.acq, acqs, 0, true));
            self.sqs[0] = Some(SqRing::new(self.regs.asq, asqs, 0));
            self.sqs_changed();
            self.regs.csts = (self.regs.csts & !CSTS_CFS) | CSTS_RDY;
        } else if !en && was {
            self.sqs.iter_mut().for_each(|q| *q = None);
            self.sqs_changed();
            self.cqs.iter_mut().for_each(|q| *q = None);
            self.reset_completions(cycle);
            self.regs.csts &= !CSTS_RDY;
        }
    }

    fn doorbell(&mut self, cycle: Cycle, offset: u32, value: u32) {
        let Some((qid, is_cq)) = doorbell_of(offset) else {
            self.events.push_back(AsyncEvent::InvalidDoorbellRegister);
            return;
        };
        let q = qid as usize;
        let entries = if is_cq {
            self.cqs.get(q).and_then(|c| c.as_ref()).map(|c| c.entries)
        } else {
            self.sqs.get(q).and_then(|s| s.as_ref()).map(|s| s.entries)
        };
        let Some(entries) = entries else {
            self.events.push_back(AsyncEvent::InvalidDoorbellRegister);
            return;
        };
        if value >= entries {
            self.events.push_back(AsyncEvent::InvalidDoorbellValue);
            return;
        }
        if is_cq {
            self.push_cq_head(cycle, qid, value);
        } else {
            let visible = cycle + self.timing.doorbell_to_arb;
            let sq = self.sqs[q].as_mut().expect("checked");
            if sq.push_doorbell(visible, value) {
                self.sqs_changed();
            } else {
                // Only this SQ's oldest pending write can be new: the scan's minimum with it.
                let front = sq.next_visible().expect("just queued");
                self.sq_ready = Some(self.sq_ready.map_or(front, |r| r.min(front)));
                debug_assert_eq!(self.sq_ready, self.scan_sqs(), "SQ readiness");
            }
        }
    }

    fn msix_write(&mut self, cycle: Cycle, rel: u32, value: u32) {
        let v = (rel / 16) as usize;
        let e = &mut self.msix[v];
        match rel % 16 {
            0 => e.addr = (e.addr & !0xFFFF_FFFF) | (value & !0x3) as u64,
            4 => e.addr = (e.addr & 0xFFFF_FFFF) | ((value as u64) << 32),
            8 => e.data = value,
            12 => {
                e.masked = value & 1 != 0;
                if !e.masked && e.pending {
                    // The completion engine sends it once it sees the vector unmasked.
                    e.ready_at = cycle + self.timing.unmask_to_pending;
                }
            }
            _ => {}
        }
    }

    fn check_new_queue(&self, qid: u16, entries: u32, base: u64) -> Result<(), Status> {
        if qid == 0 || qid > self.io_queues {
            return Err(Status::INVALID_QID);
        }
        if entries < 2 || entries > self.max_entries {
            return Err(Status::INVALID_QSIZE);
        }
        if !base.is_multiple_of(4096) {
            return Err(Status::PRP_OFFSET_INVALID);
        }
        Ok(())
    }

    /// Create I/O Completion Queue (section 5.3): `entries` is QSIZE + 1.
    pub fn create_io_cq(
        &mut self,
        qid: u16,
        base: u64,
        entries: u32,
        vector: u16,
        irq: bool,
    ) -> Result<(), Status> {
        self.check_new_queue(qid, entries, base)?;
        if self.cqs[qid as usize].is_some() {
            return Err(Status::INVALID_QID);
        }
        if vector as usize >= self.msix.len() {
            return Err(Status { sct: 1, sc: 0x08 }); // Invalid Interrupt Vector
        }
        self.apply_cq_heads();
        self.cqs[qid as usize] = Some(CqRing::new(base, entries, vector, irq));
        Ok(())
    }

    /// Create I/O Submission Queue (section 5.4).
    pub fn create_io_sq(
        &mut self,
        qid: u16,
        base: u64,
        entries: u32,
        cqid: u16,
    ) -> Result<(), Status> {
        self.check_new_queue(qid, entries, base)?;
        if self.sqs[qid as usize].is_some() {
            return Err(Status::INVALID_QID);
        }
        if cqid == 0 || self.cqs.get(cqid as usize).is_none_or(|c| c.is_none()) {
            return Err(Status::CQ_INVALID);
        }
        self.sqs[qid as usize] = Some(SqRing::new(base, entries, cqid));
        self.sqs_changed();
        Ok(())
    }

    /// Delete I/O Submission Queue (section 5.6).
    pub fn delete_io_sq(&mut self, qid: u16) -> Result<(), Status> {
        if qid == 0 || self.sqs.get(qid as usize).is_none_or(|s| s.is_none()) {
            return Err(Status::INVALID_QID);
        }
        self.sqs[qid as usize] = None;
        self.sqs_changed();
        Ok(())
    }

    /// Delete I/O Completion Queue (section 5.5): 0Ch Invalid Queue Deletion while an SQ uses it.
    pub fn delete_io_cq(&mut self, qid: u16) -> Result<(), Status> {
        if qid == 0 || self.cqs.get(qid as usize).is_none_or(|c| c.is_none()) {
            return Err(Status::INVALID_QID);
        }
        if self.sqs.iter().flatten().any(|s| s.cqid == qid) {
            return Err(Status { sct: 1, sc: 0x0C });
        }
        self.apply_cq_heads();
        self.cqs[qid as usize] = None;
        Ok(())
    }
}
