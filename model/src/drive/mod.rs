//! The whole drive: PCIe link, NVMe front end, firmware cores, DRAM and data buffer, the FTL,
//! and one ONFI channel sequencer per channel with its dies, run by one discrete-event engine.
//!
//! Life of a host IO (NVMe 1.4 §7.2 command processing):
//! 1. `submit`: the host driver (`host_driver.rs`) writes the SQ entry into host memory and
//!    rings the SQ tail doorbell (4 B MWr down); if the queue holds `entries - 1` commands
//!    already, the host keeps it until a completion. An IO over 128 KiB (the front end's MDTS)
//!    becomes several commands.
//! 2. The front end (`FrontEnd`, `front_end.rs`: the block the HDL is checked against) sees the
//!    doorbell, arbitrates (round robin) and fetches the 64 B entry (MRd up, completion down),
//!    up to 4 fetches in flight.
//! 3. Fetched: a firmware core processes it (`cpu_ns_per_cmd + units × cpu_ns_per_unit`). With
//!    `controller.read_lookup_on_demand` a read's per-unit work waits for step 4 instead: its
//!    own units after the FTL pass, the units it finds prefetched not at all (`prefetch.rs`).
//! 4. Reads: with a read staging buffer (`controller.read_buffer_kib`), the command first takes
//!    room for all its units (or waits, in order); the FTL returns the NAND ops; each op runs on
//!    its die in order behind the channel sequencer; each host-read op's share of the data goes
//!    through DRAM and to the host as a PRP move of the front end (PRP list reads, MWr ≤ MPS).
//!    Writes: the data buffer takes the units (or the write waits for room), the front end moves
//!    the data from the host (PRP list reads, MRd ≤ MRRS and their completions), the FTL stages
//!    it and returns the programs due now, and the command completes at once (early
//!    completion); programs free buffer room when they finish.
//! 5. Completion: the firmware asks the front end to complete the command; it writes the 16 B
//!    CQ entry and (per interrupt coalescing) the MSI-X message; the IO completes when the host
//!    takes the entry on the MSI-X's arrival, then rings the CQ head doorbell.
//!
//! Offsets and lengths are bytes; a read or write covers the 4 KiB units it touches (partial
//! units are rounded out to whole units, not read-modify-written); a trim covers only the units
//! entirely inside its range. Queue numbers beyond `nvme.io_queues`
//! map to `queue % io_queues` (as Linux maps CPUs onto fewer hardware queues).

mod background;
mod erase_hold;
mod front_end;
mod host;
mod host_driver;
mod host_memory;
mod integrity;
mod map_lookup;
mod nand_path;
mod power;
mod prefetch;
mod read_port;
mod read_priority;
mod reference_blocks;
mod reloc_queue;
mod slots;
pub mod stats;
mod window;

pub use integrity::{IntegrityVerdict, Violation};
pub use map_lookup::{MapHierarchyStats, MapLevelStats};
pub use power::PowerLossReport;
pub use stats::{DirStats, DriveStats, EnergyStats, PURPOSES};

use slots::{ChanSlot, DieSlot};

use crate::config::DriveConfig;
use crate::ctrl::nand_crossing::NandCrossing;
use crate::ctrl::{DataBuffer, Dram, FirmwareCores, PageBuffer};
use crate::engine::EventQueue;
use crate::error::{ConfigError, DriveError};
use crate::ftl::map_cache::{MapCache, TagsOnly};
use crate::ftl::Ftl;
use crate::ftl::NandOp;
use crate::nand::sequencer::SeqCompletion;
use crate::nand::NandTiming;
use crate::nvme::frontend::tlp::Cycle;
use crate::nvme::frontend::{FetchedCommand, FrontEnd};
use crate::rng::SeedTree;
use crate::time::SimTime;
use std::collections::VecDeque;

/// Background NAND ops, and separately relocation ops, a die runs at once (two keep a
/// relocation's page reads back to back, so its cache reads overlap); a host read arriving
/// meanwhile waits behind at most these (`read_priority.rs`).
pub const BG_INFLIGHT_PER_DIE: u32 = 2;
/// Upper bound on commands inside the drive plus those the host holds back (a model bug beyond).
const MAX_COMMANDS: usize = 1 << 22;
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IoOp {
    Read,
    Write,
    Trim,
    Flush,
}

impl IoOp {
    /// The command's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            IoOp::Read => "read",
            IoOp::Write => "write",
            IoOp::Trim => "trim",
            IoOp::Flush => "flush",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostIo {
    pub op: IoOp,
    pub offset: u64,
    pub len: u64,
    pub queue: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IoId(pub u64);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoCompletion {
    pub id: IoId,
    pub op: IoOp,
    pub len: u64,
    pub submitted: SimTime,
    pub completed: SimTime,
}

/// Typed events of the drive's engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ev {
    /// The front end's next event is due: it runs through the last clock edge before the
    /// event's time (`front_end.rs`).
    FrontEnd,
    /// The front end handed command `cmd` on (its 64 B SQ entry arrived).
    Fetched { cmd: u32 },
    /// Firmware finished processing the command.
    Firmware { cmd: u32 },
    /// Write `cmd`'s data move leaves the page buffer's DMA port.
    WriteMove { cmd: u32 },
    /// Host write data is in the data buffer.
    WriteData { cmd: u32 },
    /// `bytes` of read data are in DRAM, ready to go up the link.
    SendData { cmd: u32, bytes: u32 },
    /// One data move of read `cmd` finished.
    SendDone { cmd: u32 },
    /// An MSI-X message with this vector reached the host.
    HostIrq { vector: u16 },
    /// Channel sequencer `ch` has an internal event due.
    Channel { ch: u16 },
    /// The read-ahead engine finished issuing its current prefetch read (`prefetch.rs`).
    Prefetch,
    /// The firmware's mapping work for op `id` (a page read or a prefetch) is done: it may go to
    /// its die (`controller.read_lookup_on_demand`).
    LookupDone { id: u32 },
    /// The mapping work of read `cmd`, which reads no page itself, is done.
    ReadWork { cmd: u32 },
}

/// One host command inside the drive.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cmd {
    id: u64,
    op: IoOp,
    len: u64,
    queue: u16,
    submitted: SimTime,
    lpn: u64,
    units: u32,
    /// NAND ops owned by the command still running; of those, host-read ops (they carry data).
    ops_left: u32,
    data_ops_left: u32,
    /// Read data sends (DRAM → link) scheduled and not yet done.
    sends_left: u32,
    /// Host bytes each host-read op carries; bytes not yet given to a send (the last op takes them).
    share: u32,
    unsent: u64,
    /// Read data bytes handed to moves so far (the next move starts there in the buffer).
    sent: u32,
    /// Command identifier the host driver gave it (queue id = `queue + 1`).
    cid: u16,
    /// The split IO it belongs to (`host.rs`), or NONE.
    split: u32,
    /// Flush: still waiting for host-data programs dispatched before it.
    waits_programs: bool,
    live: bool,
}

/// One NAND op in flight or waiting on its die.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpRec {
    op: NandOp,
    die: u32,
    /// Owning command (reads, flushes) or NONE.
    owner: u32,
    /// Waiting for another op (`after`) to complete.
    blocked: bool,
    /// Intrusive list of ops waiting for this one.
    first_waiter: u32,
    next_waiter: u32,
    done: bool,
    /// Sequence number of a host-data program (for flush ordering), else u64::MAX.
    pseq: u64,
    /// FTL tag of a ReadAhead op (see `Ftl::prefetch_tags_issued`), else u64::MAX.
    ra_tag: u64,
    /// Background work (from `Drive::idle`): waits in the die's `bg` queue (see `DieSlot`).
    bg: bool,
    /// Foreground relocation interleaved with host programs: waits in the die's `reloc` queue.
    reloc: bool,
    /// Order in which ops were handed to the sequencer (a die runs them in that order).
    issued: u64,
    /// Order in which ops were dispatched (the FTL's order; `erase_hold.rs`).
    sent: u64,
}

/// A simulated NVMe SSD. See the module doc for what happens to an IO.
pub struct Drive {
    cfg: DriveConfig,
    q: EventQueue<Ev>,
    /// The NVMe front end, the host memory and link behind it, and the host's driver
    /// (`front_end.rs`).
    fe: FrontEnd,
    host: host_memory::HostMemory,
    driver: host_driver::HostDriver,
    fe_out: Vec<FetchedCommand>,
    /// Earliest front-end wake scheduled and not yet run.
    fe_wake: Option<Cycle>,
    /// `fe.next_due()` as of the last input or run (the block is idle until then).
    fe_due: Option<Cycle>,
    /// The front end's next output cycle (`FrontEnd::next_wake`), kept with `fe_due`.
    fe_wake_at: Option<Cycle>,
    splits: Vec<host::SplitIo>,
    free_splits: Vec<u32>,
    /// SRAM level of the mapping hierarchy (`map_lookup.rs`).
    map_sram: MapCache<TagsOnly>,
    cpu: FirmwareCores,
    dram: Dram,
    /// On-chip page buffer between the channels and the PCIe data path (its DMA port's latency
    /// on host data moves, its channels' on NAND ops).
    page_buf: PageBuffer,
    /// Its DMA port's queue of read data (`read_port.rs`).
    read_port: read_port::ReadPort,
    buf: DataBuffer,
    /// Read staging buffer (`controller.read_buffer_kib`; None = no limit) and the reads waiting
    /// for room in it, in arrival order.
    rbuf: Option<DataBuffer>,
    rbuf_wait: VecDeque<u32>,
    timing: NandTiming,
    dies: Vec<DieSlot>,
    chans: Vec<ChanSlot>,
    /// The FIFOs between the firmware port and every channel's sequencer clock (`None`: one
    /// clock, no crossing).
    nand_x: Option<NandCrossing>,
    ftl: Ftl,
    cmds: Vec<Cmd>,
    free_cmds: Vec<u32>,
    ops: Vec<OpRec>,
    free_ops: Vec<u32>,
    host_wait: Vec<VecDeque<u32>>,
    buf_wait: VecDeque<u32>,
    batch: Vec<NandOp>,
    seq_done: Vec<SeqCompletion>,
    done_buf: Vec<IoCompletion>,
    next_id: u64,
    outstanding: u64,
    ops_inflight: u64,
    busy_since: Option<SimTime>,
    busy_acc: SimTime,
    /// Host-data programs: next sequence number, those in flight, flushes waiting for them.
    host_prog_next: u64,
    host_progs: std::collections::BTreeSet<u64>,
    flush_wait: VecDeque<(u64, u32)>,
    /// When the last host command completed with none left outstanding.
    host_idle_since: SimTime,
    batch_ids: Vec<u32>,
    /// The batch being dispatched is background work (`Drive::idle`).
    dispatching_bg: bool,
    /// Background ops may start (inside `Drive::idle`: no host IO).
    bg_allowed: bool,
    /// Relocation ops waiting in the dies' `reloc` queues.
    reloc_queued: u64,
    /// Erases the FTL holds behind earlier programs (`erase_hold.rs`), the latest dispatch
    /// number among them; ops dispatched so far.
    held_erases: Vec<u32>,
    held_upto: u64,
    sent_next: u64,
    /// Tag the next dispatched ReadAhead op gets; ReadAhead ops in flight by tag, with the reads
    /// served from their data that wait for them (a prefetch is in DRAM only once it is done).
    ra_tag_next: u64,
    ra_inflight: rustc_hash::FxHashMap<u64, Vec<u32>>,
    /// Ops handed to the sequencers so far.
    issued: u64,
    prefetch: prefetch::PrefetchEngine,
    unit_bus_bytes: u32,
    /// The window's statistics: counters kept as events happen, and derived figures (time,
    /// energy, FTL and per-resource counters) brought up to date when `stats` is next read
    /// after a change (`stats_stale`), not at every event.
    stats: std::cell::RefCell<DriveStats>,
    stats_stale: std::cell::Cell<bool>,
    nand_pj: u64,
    /// FTL counters at the start of the stats window.
    base_ftl: crate::ftl::FtlStats,
    base_map: map_lookup::MapBase,
    base_channel_busy: Vec<SimTime>,
    base_suspends: u64,
    base_die_busy: Vec<SimTime>,
    base_plane_busy: Vec<SimTime>,
    /// The integrity checker's first violation, with its command (`integrity.rs`).
    first_violation: Option<Violation>,
}

impl Drive {
    /// A drive built from `cfg` (checked first: an invalid field is an error naming it), with
    /// every random choice drawn from `seed`; its statistics window starts now.
    pub fn new(cfg: &DriveConfig, seed: u64) -> Result<Drive, ConfigError> {
        cfg.validate()?;
        let seeds = SeedTree::new(seed);
        let mut ftl = Ftl::new(cfg, &seeds)?;
        // NAND completions reach the FTL (`op_done`), so a power loss knows what is on NAND.
        ftl.track_durability(true);
        let g = &cfg.geometry;
        let nq = cfg.nvme.io_queues as usize;
        let (fe, host, driver) = front_end::initialised(cfg, 0);
        let mut d = Drive {
            q: EventQueue::new(MAX_COMMANDS * 2),
            fe,
            host,
            driver,
            fe_out: Vec::new(),
            fe_wake: None,
            fe_due: None,
            fe_wake_at: None,
            splits: Vec::new(),
            free_splits: Vec::new(),
            map_sram: MapCache::tags_only(&cfg.ftl.map_cache)?,
            cpu: FirmwareCores::new(&cfg.controller),
            dram: Dram::new(&cfg.controller),
            page_buf: PageBuffer::new(g.channels, g.ways_per_channel),
            read_port: Default::default(),
            buf: DataBuffer::new(&cfg.controller),
            rbuf: (cfg.controller.read_buffer_kib > 0)
                .then(|| DataBuffer::with_kib(cfg.controller.read_buffer_kib)),
            rbuf_wait: VecDeque::new(),
            timing: NandTiming::new(&cfg.nand, &cfg.onfi),
            dies: slots::die_slots(g),
            chans: slots::chan_slots(cfg),
            nand_x: NandCrossing::new(&cfg.onfi),
            ftl,
            cmds: Vec::new(),
            free_cmds: Vec::new(),
            ops: Vec::new(),
            free_ops: Vec::new(),
            host_wait: vec![VecDeque::new(); nq],
            buf_wait: VecDeque::new(),
            batch: Vec::new(),
            seq_done: Vec::new(),
            done_buf: Vec::new(),
            next_id: 0,
            outstanding: 0,
            ops_inflight: 0,
            busy_since: None,
            busy_acc: SimTime::ZERO,
            host_idle_since: SimTime::ZERO,
            host_prog_next: 0,
            host_progs: Default::default(),
            flush_wait: VecDeque::new(),
            batch_ids: Vec::new(),
            dispatching_bg: false,
            bg_allowed: false,
            reloc_queued: 0,
            held_erases: Vec::new(),
            held_upto: 0,
            sent_next: 0,
            ra_tag_next: 0,
            ra_inflight: Default::default(),
            issued: 0,
            prefetch: prefetch::PrefetchEngine::new(&cfg.ftl),
            unit_bus_bytes: (g.page_bytes + g.spare_bytes) / g.units_per_page(),
            stats: Default::default(),
            stats_stale: std::cell::Cell::new(true),
            nand_pj: 0,
            base_ftl: Default::default(),
            base_map: Default::default(),
            base_channel_busy: Vec::new(),
            base_suspends: 0,
            base_die_busy: Vec::new(),
            base_plane_busy: Vec::new(),
            first_violation: None,
            cfg: cfg.clone(),
        };
        (d.fe_due, d.fe_wake_at) = d.fe.due_and_wake();
        d.reset_stats();
        Ok(d)
    }

    pub fn config(&self) -> &DriveConfig {
        &self.cfg
    }
    pub fn capacity_bytes(&self) -> u64 {
        self.ftl.logical_units() * 4096
    }
    pub fn now(&self) -> SimTime {
        self.q.now()
    }
    /// The statistics of the window since the last `reset_stats`, as of now.
    pub fn stats(&self) -> std::cell::Ref<'_, DriveStats> {
        if self.stats_stale.replace(false) {
            self.derive_stats(&mut self.stats.borrow_mut());
        }
        self.stats.borrow()
    }
    /// Events the drive has handled so far (a work counter for the speed benchmarks).
    pub fn events_handled(&self) -> u64 {
        self.q.popped()
    }
    /// Host commands submitted and not yet completed.
    pub fn outstanding(&self) -> u64 {
        self.outstanding
    }

    /// Submits `io` at the current simulated time. Refused (nothing submitted): a read or write
    /// of no bytes, a range beyond the capacity, 4 GiB or more in one command, more than
    /// `MAX_COMMANDS` outstanding.
    pub fn submit(&mut self, io: HostIo) -> Result<IoId, DriveError> {
        self.host_submit(io)
    }

    /// Processes events up to and including `t`; the clock ends at `t`. Refused: `t` before now.
    pub fn run_until(
        &mut self,
        t: SimTime,
        done: &mut Vec<IoCompletion>,
    ) -> Result<(), DriveError> {
        self.check_not_before("run_until", t)?;
        self.process_until(t);
        done.append(&mut self.done_buf);
        self.refresh_stats();
        Ok(())
    }

    fn check_not_before(&self, call: &'static str, t: SimTime) -> Result<(), DriveError> {
        if t < self.now() {
            return Err(DriveError::TimeBeforeNow {
                call,
                target: t,
                now: self.now(),
            });
        }
        Ok(())
    }

    /// Processes events until at least one IO completes; false when nothing is outstanding.
    pub fn run_until_completion(&mut self, done: &mut Vec<IoCompletion>) -> bool {
        while self.done_buf.is_empty() {
            match self.q.pop() {
                Some((at, ev)) => self.handle(at, ev),
                None => break,
            }
        }
        let any = !self.done_buf.is_empty();
        done.append(&mut self.done_buf);
        self.refresh_stats();
        any
    }

    /// Processes events until at least one IO completes or time `t` is reached, whichever is
    /// first (the clock ends at that completion, or at `t`). For closed-loop hosts with timers
    /// (fio thinktime, end of ramp_time, trace arrivals): `run_until(t)` would swallow
    /// completions that must trigger new submissions before `t`. (Asked for by the workload
    /// runner.)
    /// Refused: `t` before now.
    pub fn run_until_completion_or(
        &mut self,
        t: SimTime,
        done: &mut Vec<IoCompletion>,
    ) -> Result<(), DriveError> {
        self.check_not_before("run_until_completion_or", t)?;
        while self.done_buf.is_empty() {
            match self.q.pop_until(t) {
                Some((at, ev)) => self.handle(at, ev),
                None => {
                    self.q.advance_to(t);
                    break;
                }
            }
        }
        done.append(&mut self.done_buf);
        self.refresh_stats();
        Ok(())
    }

    /// Handles every event due at or before `t` and moves the clock to `t`.
    pub(super) fn process_until(&mut self, t: SimTime) {
        while let Some((at, ev)) = self.q.pop_until(t) {
            self.handle(at, ev);
        }
        self.q.advance_to(t);
    }

    /// 4 KiB units covered by the byte range of `op` (rounded out), checked against the
    /// capacity.
    pub(super) fn units_of(
        &self,
        op: IoOp,
        offset: u64,
        len: u64,
    ) -> Result<(u64, u64), DriveError> {
        let end = offset
            .checked_add(len)
            .filter(|&e| e <= self.capacity_bytes())
            .ok_or(DriveError::BeyondCapacity {
                op: op.name(),
                offset,
                len,
                capacity: self.capacity_bytes(),
            })?;
        let first = offset / 4096;
        Ok((first, end.div_ceil(4096) - first))
    }

    fn handle(&mut self, at: SimTime, ev: Ev) {
        match ev {
            Ev::FrontEnd => self.on_fe_wake(at),
            Ev::Fetched { cmd } => self.on_fetched(at, cmd),
            Ev::Firmware { cmd } => self.on_firmware(at, cmd),
            Ev::WriteMove { cmd } => self.on_write_move(at, cmd),
            Ev::WriteData { cmd } => self.on_write_data(at, cmd),
            Ev::SendData { cmd, bytes } => self.on_send_data(at, cmd, bytes),
            Ev::SendDone { cmd } => self.on_send_done(at, cmd),
            Ev::HostIrq { vector } => self.on_host_irq(at, vector),
            Ev::Channel { ch } => self.on_channel(at, ch),
            Ev::Prefetch => self.on_prefetch_issued(at),
            Ev::LookupDone { id } => self.on_lookup_done(at, id),
            Ev::ReadWork { cmd } => self.on_read_work(at, cmd),
        }
    }
}

#[cfg(test)]
mod tests;
