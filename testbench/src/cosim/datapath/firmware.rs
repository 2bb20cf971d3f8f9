//! The firmware of the co-simulation: the behavioural model's FTL plus NVMe queue handling,
//! driving the datapath only through its firmware port (docs/hdl.md). It takes fetched
//! commands once their firmware CPU time has run ([`cores`]: the drive's cores and costs),
//! turns them into FTL calls ([`intake`]), plans them ([`super::jobs`]), and keeps one bounded
//! request queue per port (map, NAND, DMA, completion, queue config), each offered head-first
//! and held until taken.
//!
//! Page-buffer rule (docs/hdl.md, "Page buffer"), enforced by construction: a way runs its
//! jobs in FTL order, one at a time but for a host read queued behind the way's running host
//! read, each read in its own half of the region ([`region`]; the scheduling is [`ways`]), so
//! the way starts the second the moment the first one's data is out, and a host program whose
//! data moves into the other half while the way's host program runs, queued behind it once
//! there. A written unit moves into the half of its way's region reserved for the program
//! unit the FTL is filling ([`open_unit`]), or, with no half free, waits in its host buffer
//! (staged) until the FTL emits the program of its unit, which may be a later command's; that
//! program first moves the units not yet in the region host -> region (DMA), then is issued;
//! its half (or the region) is free again when the program completes. Staged units that wait
//! [`STAGE_FLUSH_CYCLES`], or that a read asks for (in the open unit too), are padded and
//! programmed (`Ftl::flush`).
//! A host read issues the read, then moves its half of the region -> host; free when that DMA
//! ends. A read-ahead prefetch reads into a half and holds it for the host reads served from
//! it ([`prefetch`]); a job that finds no half free takes a quiet prefetch's. A read's jobs and
//! data wait for its mapping work on the cores ([`cores`]). Relocation reads and programs keep their data in the region. With program/erase suspend on
//! ([`Firmware::with_reads_beside`]), a host read of another block may also run while the
//! way's program or erase is still in the array (the read's data reaches the region only after
//! the program's data left it: a way's first phases run in order), so a read can land on a
//! programming die; the next other job waits for both. A command's jobs wait for the mapping
//! decisions of its FTL call (decisions come in request order, one cycle after the handshake).
//! Completions: a write when its data is in the page buffer (the model drive completes it
//! earlier, once in DRAM), a read when its data reached the host. Data moves go to the DMA
//! port in the order their data is ready (a read's when its NAND op completes, a program's
//! when its way starts it), as the drive moves each die's data as soon as it has it: a way
//! that finished first does not wait for an earlier command's read on a slower die. The
//! executions agree cycle for cycle, so they order the moves alike.

mod cores;
mod dma;
mod intake;
mod open_unit;
mod prefetch;
mod region;
mod ways;

use super::jobs::{HostUnit, Job, Moves, Planner, MAX_MOVES, UNIT};
use super::port::*;
use dma::DmaTag;
use ssdlab_hdl::nand::op::{HALF_LSB, ROW_LSB};
use ssdlab_model::ftl::Ftl;
use ssdlab_model::nand::{NandOpKind, PhysPage};
use ssdlab_model::nvme::frontend::tlp::Cycle;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

/// Bound of every firmware queue (requests waiting for a port, commands in flight).
pub const QUEUE_BOUND: usize = 4096;
/// Mapping requests outstanding at once (ids are 8 bits).
pub const MAP_OUTSTANDING: usize = 64;
/// Cycles host data may wait staged for its program unit to fill before the firmware pads and
/// programs the unit (`Ftl::flush`): 20 us at 250 MHz, so a lone write completes.
pub const STAGE_FLUSH_CYCLES: Cycle = 5000;

/// Where a way is in its current job (a host read's data leaving for the host is tracked
/// per region half, [`region`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Busy {
    /// Host data moving into the region (moves still in flight); the program follows.
    Fill(Job, usize),
    /// The NAND op is in the array's queue or running.
    Nand(Job),
}

#[derive(Debug)]
struct Cmd {
    sqid: u16,
    cid: u16,
    map_left: u32,
    dma_left: u32,
    /// The first cycle its data may move: the end of a read's mapping work ([`cores`]).
    ready: Cycle,
}

pub struct Firmware {
    ftl: Ftl,
    planner: Planner,
    ways_per_channel: usize,
    ways: Vec<(VecDeque<Job>, Option<Busy>)>,
    /// Per way: a program or erase still in the array beside the read in `ways[w].1`.
    bg: Vec<Option<Job>>,
    /// Per way: the region halves host reads hold until their data has left.
    regions: region::Regions,
    /// Per way: a host read waiting in the way's queue behind the host read in `ways[w].1`,
    /// so the way starts it the moment the first one's data is out, as the drive's sequencer
    /// does with the die's queued reads; or a host program behind the way's host program.
    behind: Vec<Option<Job>>,
    /// Per way: a host program whose data moves into its half of the region while the way's
    /// host program in `ways[w].1` runs (moves still in flight); queued behind it once filled.
    filling: Vec<Option<(Job, usize)>>,
    /// The host program unit being filled, its units moving into a reserved half of its way's
    /// region as they come ([`open_unit`]).
    open: open_unit::OpenUnits,
    /// The read-ahead's prefetches waiting in region halves for their reads ([`prefetch`]).
    prefetch: prefetch::Prefetches,
    /// Cycles at which a job or a read's data may go (mapping work ends), to act on.
    wakes: BinaryHeap<Reverse<Cycle>>,
    reads_beside: bool,
    /// Relocation (GC, fold, wear levelling) is an error ([`Firmware::without_relocation`]).
    no_relocation: bool,
    cmds: HashMap<u64, Cmd>,
    next_cmd: u64,
    map_q: VecDeque<(MapReq, u64)>,
    map_wait: VecDeque<u64>,
    nand_q: VecDeque<NandReq>,
    dma_q: VecDeque<DmaTag>,
    dma_fly: VecDeque<DmaTag>,
    cpl_q: VecDeque<CplReq>,
    qc_q: VecDeque<(QcReq, CplReq)>,
    next_map_id: u8,
    /// Host units written and not yet in a program the firmware planned, by where the FTL put
    /// them, and the cycle the oldest of them came.
    staged: HashMap<PhysPage, Vec<HostUnit>>,
    staged_since: Option<Cycle>,
    /// The cycle of the last [`Firmware::pump`].
    now: Cycle,
    /// Fetched commands waiting for their firmware CPU time ([`cores`]).
    cores: cores::Cores,
    /// Errors found (bad host command, broken rule); the run stops on the first.
    pub error: Option<String>,
}

impl Firmware {
    /// The firmware of a drive with `channels` x `ways_per_channel` ways, charging command
    /// processing on the cores of `controller` ([`cores`]).
    pub fn new(
        ftl: Ftl,
        planner: Planner,
        channels: usize,
        ways_per_channel: usize,
        controller: &ssdlab_model::config::ControllerConfig,
    ) -> Self {
        let half_region = planner.half_region;
        Firmware {
            ftl,
            planner,
            ways_per_channel,
            ways: (0..channels * ways_per_channel)
                .map(|_| (VecDeque::new(), None))
                .collect(),
            bg: vec![None; channels * ways_per_channel],
            regions: region::Regions::new(channels * ways_per_channel, half_region),
            behind: vec![None; channels * ways_per_channel],
            filling: vec![None; channels * ways_per_channel],
            open: open_unit::OpenUnits::default(),
            prefetch: prefetch::Prefetches::default(),
            wakes: BinaryHeap::new(),
            reads_beside: false,
            no_relocation: false,
            cmds: HashMap::new(),
            next_cmd: 0,
            map_q: VecDeque::new(),
            map_wait: VecDeque::new(),
            nand_q: VecDeque::new(),
            dma_q: VecDeque::new(),
            dma_fly: VecDeque::new(),
            cpl_q: VecDeque::new(),
            qc_q: VecDeque::new(),
            next_map_id: 0,
            staged: HashMap::new(),
            staged_since: None,
            now: 0,
            cores: cores::Cores::new(controller),
            error: None,
        }
    }

    /// Lets a host read of a way run beside the way's program or erase (see the module doc).
    pub fn with_reads_beside(mut self, on: bool) -> Self {
        self.reads_beside = on;
        self
    }

    /// Fails the run at the first relocation op: relocated data stays in the region it was read
    /// into (this firmware does not carry it to the program's way), so a run whose read data is
    /// checked end to end must have none.
    pub fn without_relocation(mut self) -> Self {
        self.no_relocation = true;
        self
    }

    pub fn ftl(&self) -> &Ftl {
        &self.ftl
    }

    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// Nothing queued or in flight.
    pub fn idle(&self) -> bool {
        self.cmds.is_empty()
            && self.cores.is_empty()
            && self.qc_q.is_empty()
            && self.cpl_q.is_empty()
            && self.dma_fly.is_empty()
            && self.ways.iter().all(|w| w.0.is_empty() && w.1.is_none())
            && self.regions.is_empty()
            && self.behind.iter().all(Option::is_none)
            && self.filling.iter().all(Option::is_none)
            && self.bg.iter().all(Option::is_none)
            && self.staged.is_empty()
            && self.open.idle()
            && self.prefetch.idle()
    }

    /// The cycle at which the firmware acts with no event: the staged units' flush, or the end
    /// of a command's CPU time or of a read's mapping work.
    pub fn next_action(&self) -> Cycle {
        self.staged_since
            .map_or(Cycle::MAX, |t| t + STAGE_FLUSH_CYCLES)
            .min(self.cores.next())
            .min(self.wakes.peek().map_or(Cycle::MAX, |w| w.0))
    }

    /// Acts again at cycle `at` (a job's or a read's data's mapping work ends then).
    fn wake_at(&mut self, at: Cycle) {
        if at > self.now {
            self.wakes.push(Reverse(at));
            assert!(self.wakes.len() <= 4 * QUEUE_BOUND, "wake-ups bounded");
        }
    }

    /// The head of each request queue.
    pub fn offer(&self) -> Offer {
        Offer {
            map: self
                .map_q
                .front()
                .filter(|_| self.map_wait.len() < MAP_OUTSTANDING)
                .map(|m| m.0),
            nand: self.nand_q.front().copied(),
            dma: self.dma_q.front().map(|t| t.req(self.ways_per_channel)),
            cpl: self.cpl_q.front().copied(),
            qc: self.qc_q.front().map(|q| q.0),
        }
    }

    /// The hardware took the offers flagged in `t`.
    pub fn taken(&mut self, t: Taken) {
        if t.map {
            let (_, cmd) = self
                .map_q
                .pop_front()
                .expect("a taken map request was offered");
            self.map_wait.push_back(cmd);
        }
        if t.nand {
            self.nand_q
                .pop_front()
                .expect("a taken NAND op was offered");
        }
        if t.dma {
            let tag = self.dma_q.pop_front().expect("a taken DMA was offered");
            self.dma_fly.push_back(tag);
        }
        if t.cpl {
            self.cpl_q
                .pop_front()
                .expect("a taken completion was offered");
        }
        if t.qc {
            let (_, cpl) = self
                .qc_q
                .pop_front()
                .expect("a taken queue config was offered");
            self.cpl_q.push_back(cpl);
        }
    }

    /// Handles one hardware event.
    pub fn event(&mut self, e: &HwEvent) {
        match *e {
            HwEvent::Cmd { sqid, sqe } => {
                if let Some((q, s)) = self.cores.arrive(self.now, sqid, sqe) {
                    self.command(q, &s);
                }
            }
            HwEvent::MapDec(_) => {
                let cmd = self
                    .map_wait
                    .pop_front()
                    .expect("a decision answers an outstanding request");
                self.cmds
                    .get_mut(&cmd)
                    .expect("command of a decision")
                    .map_left -= 1;
                self.finish(cmd);
            }
            HwEvent::MapResp { .. } => {}
            HwEvent::NandDone {
                channel,
                way,
                overtook,
            } => self.nand_done(
                channel as usize * self.ways_per_channel + way as usize,
                overtook,
            ),
            HwEvent::DmaDone { status } => self.dma_done(status),
        }
        assert!(
            self.cmds.len() <= QUEUE_BOUND
                && self.nand_q.len() <= QUEUE_BOUND
                && self.dma_q.len() <= QUEUE_BOUND,
            "firmware queues bounded"
        );
    }

    /// Starts every way whose next job may run at cycle `now` (and pads and programs staged
    /// host data that waited [`STAGE_FLUSH_CYCLES`]).
    pub fn pump(&mut self, now: Cycle) {
        self.now = now;
        while self.wakes.peek().is_some_and(|w| w.0 <= now) {
            self.wakes.pop();
        }
        while let Some((q, s)) = self.cores.pop_due(now) {
            self.command(q, &s);
        }
        if self
            .staged_since
            .is_some_and(|t| t + STAGE_FLUSH_CYCLES <= now)
        {
            self.flush_staged();
        }
        self.start_ways();
        self.send_hits();
        self.move_open();
    }

    /// Posts a command's completion once its decisions and data moves are all done.
    fn finish(&mut self, cmd: u64) {
        if self
            .cmds
            .get(&cmd)
            .is_some_and(|c| c.map_left == 0 && c.dma_left == 0)
        {
            let c = self.cmds.remove(&cmd).expect("checked");
            self.cpl_q.push_back(CplReq {
                sqid: c.sqid,
                cid: c.cid,
                status: 0,
            });
        }
    }

    fn fail(&mut self, e: String) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }
}
