//! NVMe front end at transaction level: the block behind the PCIe hard IP that turns doorbell
//! writes into fetched commands, moves data by PRP and posts completions (NVM Express Base
//! Specification 1.4, sections 3.1 registers, 4.1 queues, 4.3 PRPs, 4.6 completions, 4.13
//! arbitration, 7.6 controller initialization). Mirrored TLP for TLP by `ssdlab_hdl::nvme`.
//!
//! Time is counted in cycles of the front end's 250 MHz clock ([`tlp::CLOCK_PS`]); every
//! upstream TLP (type, address, length, cycle) and every posted CQE is logged unless the log is
//! switched off ([`FrontEnd::set_tlp_log`]: a drive that only needs the timing). Engines:
//! - fetch: round-robin (or weighted) arbitration over SQs with entries, one 64 B MRd per
//!   command, up to `FETCH_TAGS` reads in flight, commands handed on in arrival order;
//!   malformed commands (unsupported opcode, SGL) are completed here with the spec's status;
//! - data ([`FrontEnd::transfer`]): PRP walk, MRd ≤ MRRS / MWr ≤ MPS at aligned boundaries;
//! - completion ([`FrontEnd::complete`], posted by `run_until` in time order): one engine
//!   takes rejections first, then requests in arrival order; 16 B CQE with phase tag; the taken
//!   completion holds the engine while its CQ is full (as in the HDL); then MSI-X with
//!   count/time coalescing. A rejected command holds its fetch tag until the engine takes it.
//!
//! The next stage (firmware/FTL, or [`admin::AdminFirmware`] for admin commands) sits between
//! `run_until`'s fetched commands and `transfer`/`complete`. A caller may step `run_until`
//! every cycle, or only at [`FrontEnd::next_due`] and before each input it applies (`wake.rs`):
//! both give the same TLPs at the same cycles.

pub mod admin;
pub mod arbiter;
mod completion;
mod cq_head;
pub mod data_move;
pub mod datapath;
pub mod entry;
mod fetch;
mod mmio;
pub mod msix;
mod port;
pub mod prp;
pub mod queue_op;
pub mod ring;
pub mod tlp;
mod wake;
pub mod wrr;

use crate::config::{NvmeConfig, PcieConfig};
use crate::encoding::nvme_regs as regs;
use arbiter::{RoundRobin, SqArbiter};
use entry::{Cqe, Sqe, SQE_BYTES};
use msix::{Coalescer, MsixVector};
use port::ReqPort;
use ring::{CqRing, SqRing};
use std::collections::VecDeque;
use tlp::{Cycle, Tlp, TlpKind};

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
    /// Completion taken by the idle completion engine → CQE MWr header (a request valid at the
    /// engine's input while it is idle is taken in that cycle).
    pub cpl_to_cqe: Cycle,
    /// CQ head doorbell data beat → a held CQE's MWr header.
    pub cq_doorbell_to_cqe: Cycle,
    /// Command rejected by the front end (cycle it would have been valid at the command
    /// output) → its CQE MWr header, when the completion engine is idle.
    pub rej_to_cqe: Cycle,
    /// Last completion beat of a fetch → its tag can be reused by the arbiter.
    pub tag_reuse: Cycle,
    /// Aggregation-time deadline → the vector's pending bit is seen by the completion engine.
    pub timer_to_pending: Cycle,
    /// MSI-X vector-control write's data beat → an unmasked pending vector is seen by the engine.
    pub unmask_to_pending: Cycle,
}

impl FrontEndTiming {
    pub const HDL: FrontEndTiming = FrontEndTiming {
        doorbell_to_arb: 2,
        arb_to_fetch: 2,
        fetch_interval: 2,
        cpl_to_cmd: 1,
        cpl_to_cqe: 3,
        cq_doorbell_to_cqe: 4,
        rej_to_cqe: 3,
        tag_reuse: 1,
        timer_to_pending: 1,
        unmask_to_pending: 2,
    };
}

/// The host side of the TLP interface: the root complex and host memory.
pub trait HostPort {
    /// A read request left the device at `cycle`; returns the data and the cycle its last
    /// completion beat reached the device.
    fn read(&mut self, cycle: Cycle, addr: u64, len: u32) -> (Vec<u8>, Cycle);
    /// A write request (data, CQE or MSI-X message) left the device at `cycle`.
    fn write(&mut self, cycle: Cycle, addr: u64, data: &[u8]);
    /// [`HostPort::read`] for a caller that needs only the cycle its last completion beat
    /// reached the device (data not modelled). Default: `read`, data dropped.
    fn read_timing(&mut self, cycle: Cycle, addr: u64, len: u32) -> Cycle {
        self.read(cycle, addr, len).1
    }
    /// [`HostPort::read`] of one 64 B SQ entry (the fetch engine's read), without a heap
    /// buffer. Default: `read`.
    fn read_sqe(&mut self, cycle: Cycle, addr: u64) -> ([u8; 64], Cycle) {
        let (data, arrived) = self.read(cycle, addr, SQE_BYTES);
        let raw = data
            .as_slice()
            .try_into()
            .expect("SQ fetch returns 64 bytes");
        (raw, arrived)
    }
    /// [`HostPort::write`] of `len` bytes whose values are not modelled. Default: zeroes.
    fn write_timing(&mut self, cycle: Cycle, addr: u64, len: u32) {
        self.write(cycle, addr, &vec![0; len as usize]);
    }
    /// Data MWr TLPs `reqs` (address, bytes; values not modelled) sent one after another
    /// through the requester port, each no earlier than `ready` nor than the port is free after
    /// the one before (`port_free` for the first); returns the cycle the port is free after the
    /// last. Default: [`HostPort::upstream`] and [`HostPort::write_timing`] per TLP, as
    /// [`port::ReqPort::send`] does; a host may do the same arithmetic in one burst.
    fn upstream_writes(&mut self, ready: Cycle, port_free: Cycle, reqs: &[(u64, u32)]) -> Cycle {
        let mut free = port_free;
        for &(a, n) in reqs {
            let start = self.upstream(ready.max(free), TlpKind::MemWrite, n);
            free = start + tlp::beats(TlpKind::MemWrite, n);
            self.write_timing(start, a, n);
        }
        free
    }
    /// Data MRd TLPs `reqs` (address, bytes; values not modelled) sent one after another
    /// through the requester port: request `i` no earlier than `ready`, nor than the port is
    /// free after the one before (`port_free` for the first), nor than request `i - DATA_TAGS`'s
    /// completion arrived (its tag free again). Returns the cycle the port is free after the
    /// last and the cycle after the last completion beat arrived (at least `ready`). Default:
    /// [`HostPort::upstream`] and [`HostPort::read_timing`] per TLP, as [`port::ReqPort::send`]
    /// does; a host may do the same arithmetic in one burst.
    fn upstream_reads(
        &mut self,
        ready: Cycle,
        port_free: Cycle,
        reqs: &[(u64, u32)],
    ) -> (Cycle, Cycle) {
        let mut tags = [ready; DATA_TAGS];
        let (mut free, mut done) = (port_free, ready);
        for (i, &(a, n)) in reqs.iter().enumerate() {
            let slot = i % DATA_TAGS;
            let start = self.upstream(tags[slot].max(free), TlpKind::MemRead, n);
            free = start + tlp::beats(TlpKind::MemRead, n);
            let arrived = self.read_timing(start, a, n);
            tags[slot] = arrived;
            done = done.max(arrived + 1);
        }
        (free, done)
    }
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
    /// Scratch ready mask of `arbitrate` (one per SQ), kept so arbitration allocates nothing.
    ready_mask: Vec<bool>,
    port: ReqPort,
    fetch_tags: [Cycle; FETCH_TAGS],
    fetch_free: Cycle,
    /// [`FrontEnd::scan_sqs`] as of the last change to the SQs (`sqs_changed`).
    sq_ready: Option<Cycle>,
    msix: Vec<MsixVector>,
    /// Vectors with their pending bit set (so the engine's search skips an all-clear table).
    msix_pending: usize,
    coalescer: Coalescer,
    held: VecDeque<completion::PendingCpl>,
    /// What the engine took (and the cycle it took it), waiting to be sent.
    engine: Option<(completion::EngineItem, Cycle)>,
    /// Cycle from which the completion engine is idle.
    engine_idle: Cycle,
    /// Per CQ: earliest CQE header after the last head doorbell that freed a full queue.
    cq_head_ready: Vec<Cycle>,
    /// CQ head doorbell writes handed in and not yet applied: (arrival cycle, qid, head), in
    /// arrival order (`cq_head.rs`).
    cq_heads: VecDeque<(Cycle, u16, u32)>,
    events: VecDeque<AsyncEvent>,
    posted: Vec<PostedCqe>,
    /// Scratch of `run_move`: the PRP walk and the data requests of the move under way, kept
    /// so a data move allocates nothing.
    move_walk: prp::PrpWalk,
    move_reqs: Vec<(u64, u32)>,
}

impl FrontEnd {
    pub fn new(pcie: &PcieConfig, nvme: &NvmeConfig) -> Self {
        let pairs = nvme.io_queues as usize + 1;
        let coalesce_cycles = msix::coalesce_time_cycles(nvme);
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
            ready_mask: vec![false; pairs],
            port: ReqPort::new(),
            fetch_tags: [0; FETCH_TAGS],
            fetch_free: 0,
            msix: vec![
                MsixVector {
                    masked: true,
                    ..Default::default()
                };
                pairs
            ],
            msix_pending: 0,
            sq_ready: None,
            coalescer: Coalescer::new(pairs, nvme.irq_coalesce_count, coalesce_cycles),
            held: VecDeque::new(),
            engine: None,
            engine_idle: 0,
            cq_head_ready: vec![0; pairs],
            cq_heads: VecDeque::new(),
            events: VecDeque::new(),
            posted: Vec::new(),
            move_walk: prp::PrpWalk::default(),
            move_reqs: Vec::new(),
        }
    }

    /// Replaces the arbitration policy (e.g. with [`wrr::WeightedRoundRobin`]).
    pub fn set_arbiter(&mut self, arbiter: Box<dyn SqArbiter>) {
        self.arbiter = arbiter;
    }

    /// The SQ arbitration policy.
    pub fn arbiter(&self) -> &dyn SqArbiter {
        self.arbiter.as_ref()
    }

    /// Every upstream TLP so far, in the order it left the front end (while the log is on).
    pub fn tlps(&self) -> &[Tlp] {
        self.port.log()
    }
    /// Keeps (the default) or stops keeping the logs of upstream TLPs ([`FrontEnd::tlps`]) and
    /// posted CQEs ([`FrontEnd::posted`]); timing is the same either way.
    pub fn set_tlp_log(&mut self, on: bool) {
        self.port.set_logging(on);
    }
    /// Every completion entry posted so far (while the log is on).
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

    /// Runs the fetch engine, the completion poster and the interrupt timers up to `until`, in
    /// the order their requests reach the requester port; appends fetched commands to `out`.
    /// Returns [`FrontEnd::next_due`] as it stands after the run.
    pub fn run_until(
        &mut self,
        until: Cycle,
        host: &mut impl HostPort,
        out: &mut Vec<FetchedCommand>,
    ) -> Option<Cycle> {
        self.run_until_wake(until, host, out).0
    }

    /// [`FrontEnd::run_until`], returning [`FrontEnd::due_and_wake`] as it stands after the run.
    pub fn run_until_wake(
        &mut self,
        until: Cycle,
        host: &mut impl HostPort,
        out: &mut Vec<FetchedCommand>,
    ) -> (Option<Cycle>, Option<Cycle>) {
        let bound = 4 * (self.sqs.len() as u64 * self.max_entries as u64 + 16)
            + 4 * self.held.len() as u64
            + self.cq_heads.len() as u64;
        for _ in 0..bound {
            // Events are taken in the order of their grant cycles (`candidates`), and only
            // those due by `until`; a CQ head write goes in before the events of its cycle.
            let cands = self.candidates();
            let [fetch, _, _, _] = cands;
            let next = cands.iter().flatten().min();
            let head_due = |d: Cycle| d <= until && next.is_none_or(|n| d <= n.0);
            if self.next_cq_head().is_some_and(head_due) {
                // Only a write that may free a full CQ the engine waits on changes a candidate.
                let blocked = self.head_wake().is_some();
                while self.next_cq_head().is_some_and(head_due) {
                    self.apply_cq_head();
                }
                if blocked {
                    continue;
                }
            }
            let Some(&(key, which, t)) = next else {
                return self.due_and_wake_of(&cands);
            };
            if key > until {
                return self.due_and_wake_of(&cands);
            }
            match which {
                // Both wait for the same grant: the mux takes the CQE first, but the fetch's
                // arbitration already happened, so the SQ head in the CQE (SQHD) includes it.
                0 if fetch.is_some_and(|f| f.0 == key) => {
                    let tf = fetch.expect("checked").2;
                    let pick = self.arbitrate(tf);
                    self.post_one(t, host);
                    // Completions the engine takes and has ready by the time the port frees
                    // again keep winning the mux.
                    for _ in 0..=self.held.len() {
                        let g = self.grant_cycle().max(tf + 1);
                        if self.engine.is_none() {
                            match self.next_take_time() {
                                Some(tt) if tt + self.timing.cpl_to_cqe <= g + 1 => self.take(tt),
                                _ => break,
                            }
                        }
                        match self.next_post_time() {
                            Some(p) if p.saturating_sub(1) <= g => self.post_one(p, host),
                            _ => break,
                        }
                    }
                    if let Some(p) = pick {
                        self.issue_fetch(tf, p, host, out);
                    }
                }
                0 => self.post_one(t, host),
                1 => self.fetch_one(t, host, out),
                2 => {
                    // The deadline passed: the vector's pending bit is set; the engine sends it.
                    let (_, v) = self.coalescer.next_deadline().expect("deadline");
                    self.coalescer.expire(v);
                    let e = &mut self.msix[v];
                    e.ready_at = if e.pending {
                        e.ready_at
                    } else {
                        t + self.timing.timer_to_pending
                    };
                    self.set_msix_pending(v, true);
                }
                _ => self.take(t),
            }
        }
        panic!("front end run_until({until}) did not settle within {bound} steps");
    }
}

#[cfg(test)]
mod tests;
