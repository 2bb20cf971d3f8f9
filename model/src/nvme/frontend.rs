//! NVMe front end at transaction level: the block behind the PCIe hard IP that turns doorbell
//! writes into fetched commands, moves data by PRP and posts completions (NVM Express Base
//! Specification 1.4, sections 3.1 registers, 4.1 queues, 4.3 PRPs, 4.6 completions, 4.13
//! arbitration, 7.6 controller initialization). Mirrored TLP for TLP by `ssdlab_hdl::nvme`.
//!
//! Time is counted in cycles of the front end's 250 MHz clock ([`tlp::CLOCK_PS`]); every
//! upstream TLP (type, address, length, cycle) is logged. Engines:
//! - fetch: round-robin (or weighted) arbitration over SQs with entries, one 64 B MRd per
//!   command, up to `FETCH_TAGS` reads in flight, commands handed on in arrival order;
//!   malformed commands (unsupported opcode, SGL) are completed here with the spec's status;
//! - data ([`FrontEnd::transfer`]): PRP walk, MRd ≤ MRRS / MWr ≤ MPS at aligned boundaries;
//! - completion ([`FrontEnd::complete`]): 16 B CQE with phase tag, held while the CQ is full,
//!   then MSI-X with count/time coalescing.
//! The next stage (firmware/FTL, or [`admin::AdminFirmware`] for admin commands) sits between
//! `run_until`'s fetched commands and `transfer`/`complete`.

pub mod admin;
pub mod arbiter;
pub mod datapath;
pub mod entry;
mod mmio;
pub mod msix;
mod port;
pub mod prp;
pub mod regs;
pub mod ring;
pub mod tlp;
pub mod wrr;

use crate::config::{NvmeConfig, PcieConfig};
use arbiter::{RoundRobin, SqArbiter};
use entry::{opc, Cqe, Sqe, Status, SQE_BYTES};
use msix::{Coalescer, MsixVector};
use port::ReqPort;
use ring::{CqRing, SqRing};
use std::collections::VecDeque;
use tlp::{Cycle, Tlp, TlpKind, TlpPurpose, CLOCK_PS};

/// SQ fetch reads in flight at once (tags of the fetch engine).
pub const FETCH_TAGS: usize = 4;
/// Data-read (MRd) tags of the data path.
pub const DATA_TAGS: usize = 32;

/// Pipeline latencies of the front end in cycles; the HDL implements exactly these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrontEndTiming {
    /// Doorbell write beat accepted → the arbiter sees the new tail.
    pub doorbell_to_arb: Cycle,
    /// Arbitration → SQ fetch MRd header on the requester port.
    pub arb_to_fetch: Cycle,
    /// Minimum cycles between two arbitrations.
    pub fetch_interval: Cycle,
    /// Last completion beat of a fetch → 64 B command handed on.
    pub cpl_to_cmd: Cycle,
    /// Completion request from the next stage → CQE MWr header.
    pub cpl_to_cqe: Cycle,
    /// CQ head doorbell data beat → a held CQE's MWr header.
    pub cq_doorbell_to_cqe: Cycle,
    /// Last completion beat of a fetch → its tag can be reused by the arbiter.
    pub tag_reuse: Cycle,
}

impl FrontEndTiming {
    pub const HDL: FrontEndTiming =
        FrontEndTiming {
        doorbell_to_arb: 2,
        arb_to_fetch: 2,
        fetch_interval: 2,
        cpl_to_cmd: 1,
        cpl_to_cqe: 2,
        cq_doorbell_to_cqe: 3,
        tag_reuse: 1,
    };
}

/// The host side of the TLP interface: the root complex and host memory.
pub trait HostPort {
    /// A read request left the device at `cycle`; returns the data and the cycle its last
    /// completion beat reached the device.
    fn read(&mut self, cycle: Cycle, addr: u64, len: u32) -> (Vec<u8>, Cycle);
    /// A write request (data, CQE or MSI-X message) left the device at `cycle`.
    fn write(&mut self, cycle: Cycle, addr: u64, data: &[u8]);
    /// The front end has an upstream TLP ready at `ready`; returns the cycle the link takes its
    /// header (the throughput ceiling). Without a link model: at once.
    fn upstream(&mut self, ready: Cycle, _kind: TlpKind, _len_bytes: u32) -> Cycle {
        ready
    }
}

/// A command handed to the next stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchedCommand {
    pub sqid: u16,
    /// SQ slot it was fetched from.
    pub slot: u32,
    pub sqe: Sqe,
    /// Cycle the command is valid at the front end's command output.
    pub cycle: Cycle,
}

/// Asynchronous event information, Error Status type (section 5.2, Figure 147).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncEvent {
    /// 00h: write to a doorbell of a queue that does not exist.
    InvalidDoorbellRegister,
    /// 01h: doorbell value beyond the queue size.
    InvalidDoorbellValue,
}

impl AsyncEvent {
    /// Completion DW0 of the AER command: type 0 (error), info, log page 01h (Figure 146).
    pub fn dw0(self) -> u32 {
        let info = match self {
            AsyncEvent::InvalidDoorbellRegister => 0x00,
            AsyncEvent::InvalidDoorbellValue => 0x01,
        };
        (info << 8) | (0x01 << 16)
    }
}

/// A CQE the front end wrote, with the cycle of its MWr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PostedCqe {
    pub cqid: u16,
    pub cqe: Cqe,
    pub cycle: Cycle,
}

#[derive(Clone, Copy, Debug)]
struct PendingCpl {
    sqid: u16,
    cid: u16,
    status: Status,
    dw0: u32,
    ready: Cycle,
}

/// The front-end block.
#[derive(Debug)]
pub struct FrontEnd {
    timing: FrontEndTiming,
    mps: u32,
    mrrs: u32,
    max_entries: u32,
    io_queues: u16,
    pub(crate) regs: mmio::Regs,
    sqs: Vec<Option<SqRing>>,
    cqs: Vec<Option<CqRing>>,
    arbiter: Box<dyn SqArbiter>,
    port: ReqPort,
    fetch_tags: [Cycle; FETCH_TAGS],
    fetch_free: Cycle,
    msix: Vec<MsixVector>,
    coalescer: Coalescer,
    held: Vec<VecDeque<PendingCpl>>,
    events: VecDeque<AsyncEvent>,
    posted: Vec<PostedCqe>,
}

impl FrontEnd {
    pub fn new(pcie: &PcieConfig, nvme: &NvmeConfig) -> Self {
        let pairs = nvme.io_queues as usize + 1;
        let coalesce_cycles = (nvme.irq_coalesce_time_us * 1e6 / CLOCK_PS as f64).round() as Cycle;
        FrontEnd {
            timing: FrontEndTiming::HDL,
            mps: pcie.mps_bytes,
            mrrs: pcie.mrrs_bytes,
            max_entries: nvme.queue_entries,
            io_queues: nvme.io_queues as u16,
            regs: mmio::Regs::new(nvme.queue_entries),
            sqs: vec![None; pairs],
            cqs: vec![None; pairs],
            arbiter: Box::new(RoundRobin::default()),
            port: ReqPort::new(),
            fetch_tags: [0; FETCH_TAGS],
            fetch_free: 0,
            msix: vec![MsixVector { masked: true, ..Default::default() }; pairs],
            coalescer: Coalescer::new(pairs, nvme.irq_coalesce_count, coalesce_cycles),
            held: vec![VecDeque::new(); pairs],
            events: VecDeque::new(),
            posted: Vec::new(),
        }
    }

    /// Replaces the arbitration policy (e.g. with [`wrr::WeightedRoundRobin`]).
    pub fn set_arbiter(&mut self, arbiter: Box<dyn SqArbiter>) {
        self.arbiter = arbiter;
    }

    /// Every upstream TLP so far, in the order it left the front end.
    pub fn tlps(&self) -> &[Tlp] {
        self.port.log()
    }
    /// Every completion entry posted so far.
    pub fn posted(&self) -> &[PostedCqe] {
        &self.posted
    }
    /// Takes the oldest asynchronous event not yet reported.
    pub fn take_event(&mut self) -> Option<AsyncEvent> {
        self.events.pop_front()
    }
    pub fn ready(&self) -> bool {
        self.regs.csts & regs::CSTS_RDY != 0
    }

    /// Runs the fetch engine and interrupt timers up to `until`, appending fetched commands.
    pub fn run_until(&mut self, until: Cycle, host: &mut impl HostPort, out: &mut Vec<FetchedCommand>) {
        let bound = 4 * (self.sqs.len() as u64 * self.max_entries as u64 + 16);
        for _ in 0..bound {
            let fetch_at = self.next_fetch_time();
            let timer = self.coalescer.next_deadline();
            let t_timer = timer.map(|t| t.0).unwrap_or(Cycle::MAX);
            match fetch_at {
                Some(t) if t <= until && t <= t_timer => self.fetch_one(t, host, out),
                _ if t_timer <= until => {
                    let (t, v) = timer.expect("deadline");
                    self.coalescer.expire(v);
                    self.send_msix(t, v, host);
                }
                _ => return,
            }
        }
        panic!("front end run_until({until}) did not settle within {bound} steps");
    }

    fn next_fetch_time(&self) -> Option<Cycle> {
        if !self.ready() {
            return None;
        }
        let tag_free = *self.fetch_tags.iter().min().expect("tags");
        let queue_ready = self
            .sqs
            .iter()
            .flatten()
            .filter_map(|sq| if sq.has_entry() { Some(0) } else { sq.next_visible() })
            .min()?;
        Some(self.fetch_free.max(tag_free).max(queue_ready))
    }

    fn fetch_one(&mut self, t: Cycle, host: &mut impl HostPort, out: &mut Vec<FetchedCommand>) {
        let mut ready = vec![false; self.sqs.len()];
        for (q, sq) in self.sqs.iter_mut().enumerate() {
            if let Some(sq) = sq {
                sq.settle(t);
                ready[q] = sq.has_entry();
            }
        }
        self.fetch_free = t + self.timing.fetch_interval;
        let Some(q) = self.arbiter.pick(&ready) else { return };
        let sq = self.sqs[q].as_mut().expect("arbiter picked a live queue");
        let slot = sq.head;
        let addr = sq.take();
        // The requester mux takes the request one cycle before the port could show its header
        // (even if the link then holds that header); the arbiter is free the cycle after.
        let port_free = self.port.free_cycle();
        let issue = self.port.send(host, t + self.timing.arb_to_fetch, TlpKind::MemRead, TlpPurpose::SqFetch, addr, SQE_BYTES);
        self.fetch_free = self.fetch_free.max(port_free);
        let (data, arrived) = host.read(issue, addr, SQE_BYTES);
        let tag = (0..FETCH_TAGS).min_by_key(|&i| self.fetch_tags[i]).expect("tags");
        assert!(self.fetch_tags[tag] <= t, "fetch issued without a free tag");
        self.fetch_tags[tag] = arrived + self.timing.tag_reuse;
        let raw: [u8; 64] = data.as_slice().try_into().expect("SQ fetch returns 64 bytes");
        let sqe = Sqe::decode(&raw);
        let cmd = FetchedCommand { sqid: q as u16, slot, sqe, cycle: arrived + self.timing.cpl_to_cmd };
        match self.screen(&cmd) {
            Status::SUCCESS => out.push(cmd),
            bad => self.complete(cmd.cycle, cmd.sqid, sqe.cid, bad, 0, host),
        }
    }

    /// Checks the front end performs before handing a command on: opcode supported for the
    /// queue type (01h Invalid Command Opcode), PSDT = 00b since SGLs are not supported (02h
    /// Invalid Field in Command), section 4.2 and Figure 126.
    fn screen(&self, cmd: &FetchedCommand) -> Status {
        let known = if cmd.sqid == 0 {
            matches!(
                cmd.sqe.opc,
                opc::ADMIN_DELETE_IO_SQ
                    | opc::ADMIN_CREATE_IO_SQ
                    | opc::ADMIN_DELETE_IO_CQ
                    | opc::ADMIN_CREATE_IO_CQ
                    | opc::ADMIN_IDENTIFY
                    | opc::ADMIN_ASYNC_EVENT
            )
        } else {
            matches!(cmd.sqe.opc, opc::NVM_FLUSH | opc::NVM_WRITE | opc::NVM_READ)
        };
        if !known {
            Status::INVALID_OPCODE
        } else if cmd.sqe.psdt != 0 {
            Status::INVALID_FIELD
        } else {
            Status::SUCCESS
        }
    }

    /// The next stage finished command `cid` of `sqid` at `cycle`: post its CQE (held while the
    /// CQ is full) and raise MSI-X as coalescing allows.
    pub fn complete(&mut self, cycle: Cycle, sqid: u16, cid: u16, status: Status, dw0: u32, host: &mut impl HostPort) {
        let cqid = self.sqs[sqid as usize].as_ref().map(|s| s.cqid).expect("completion for a live SQ");
        let p = PendingCpl { sqid, cid, status, dw0, ready: cycle + self.timing.cpl_to_cqe };
        self.held[cqid as usize].push_back(p);
        self.drain_cq(cqid, cycle, host);
    }

    fn drain_cq(&mut self, cqid: u16, now: Cycle, host: &mut impl HostPort) {
        let max = self.max_entries as usize + 1;
        for _ in 0..max {
            let cq = self.cqs[cqid as usize].as_mut().expect("CQ exists while it has completions");
            if cq.full() || self.held[cqid as usize].is_empty() {
                return;
            }
            let p = self.held[cqid as usize].pop_front().expect("non-empty");
            let (addr, phase) = cq.post();
            let (vector, irq) = (cq.vector as usize, cq.irq_enabled);
            let sqhd = self.sqs[p.sqid as usize].as_ref().map_or(0, |s| s.head) as u16;
            let cqe = Cqe { dw0: p.dw0, sqhd, sqid: p.sqid, cid: p.cid, phase, status: p.status };
            let at = self.port.send(host, p.ready.max(now), TlpKind::MemWrite, TlpPurpose::CqEntry, addr, 16);
            host.write(at, addr, &cqe.encode());
            self.posted.push(PostedCqe { cqid, cqe, cycle: at });
            if irq && self.coalescer.on_completion(vector, at, cqid != 0) {
                self.send_msix(at, vector, host);
            }
        }
    }

    fn send_msix(&mut self, ready: Cycle, vector: usize, host: &mut impl HostPort) {
        let v = &mut self.msix[vector];
        if v.masked {
            v.pending = true;
            return;
        }
        let (addr, data) = (v.addr, v.data);
        let at = self.port.send(host, ready, TlpKind::MemWrite, TlpPurpose::Msix, addr, 4);
        host.write(at, addr, &data.to_le_bytes());
    }
}

#[cfg(test)]
mod tests;
