//! The behavioural execution of the datapath: model blocks composed behind the firmware port —
//! `ssdlab_model::nvme::frontend::FrontEnd` (fetch, completions, MSI-X, PRP data path
//! `FrontEnd::transfer`), one `ChannelSequencer` per channel, `ftl::map_cache::MapCache` — with
//! the page-buffer/DMA glue timed by [`Glue`] (the top level's documented latencies). Stepped one
//! cycle at a time like the hardware, so the same firmware and host drive it.

use super::exec::DatapathExec;
use super::port::*;
use ssdlab_hdl::nand::op::{DCYC_LSB, KIND_ERASE, KIND_LSB, KIND_PROGRAM, PLANES_LSB};
use ssdlab_hdl::nvme::root_complex::RootComplex;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::ftl::map_cache::{MapAccess, MapCache};
use ssdlab_model::nand::sequencer::{ChannelSequencer, SeqCompletion, SeqOp, SeqTiming};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::nvme::frontend::datapath::Direction;
use ssdlab_model::nvme::frontend::entry::Status;
use ssdlab_model::nvme::frontend::tlp::Cycle;
use ssdlab_model::nvme::frontend::{FetchedCommand, FrontEnd};
use std::collections::VecDeque;

/// The mapping-cache configuration of the datapath's instance (`MapCacheExport`).
pub fn map_cache_config() -> ssdlab_model::config::MapCacheConfig {
    ssdlab_hdl::ftl::map_cache::export_config()
}

/// Latencies of the glue around the blocks, in core cycles (from the top level's doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glue {
    /// `nand_cmd` handshake -> the channel's intake sees the op.
    pub nand_dispatch: Cycle,
    /// `dma` handshake -> the PRP data path starts.
    pub dma_start: Cycle,
    /// Data path done -> `dma_done`.
    pub dma_end: Cycle,
}

impl Glue {
    /// The top level (hdl/src/top.rs): the NAND command port is the array's own (no extra stage);
    /// the DMA latencies are the top's "DMA latency" doc, derived register by register: the
    /// first TLP leaves `DMA_START_CYCLES` = 5 cycles after the handshake (walker latch, screen,
    /// splitter, stream register, requester-mux lock; moves without a PRP list, as this
    /// firmware's 4 KiB moves are), where `FrontEnd::transfer` sends it at once; `dma_done`
    /// comes `DMA_END_CYCLES` = 0 cycles after the transfer's own end (one `done` register set
    /// by the last beat, as the model's end is last beat + 1). Not modelled here (a front-end
    /// difference, not glue): the mux's idle beat between data-path TLPs, which makes a 4 KiB
    /// MWr move at MPS 256 end 3 cycles after the behavioural one (292 vs 289 cycles).
    pub const TOP: Glue = Glue { nand_dispatch: 0, dma_start: ssdlab_hdl::top::DMA_START_CYCLES, dma_end: ssdlab_hdl::top::DMA_END_CYCLES };
}

/// Timing of the mapping cache's request pipeline and miss engine, from its documentation
/// (`hdl/src/ftl/map_cache.rs`): a request is decided at tag check, the cycle after its
/// handshake; a miss is filled by the one-at-a-time engine, its response `6 + L + (E-1) I`
/// cycles after the handshake with the engine idle (`11 + L + 2 (E-1) I` with a dirty victim;
/// L, I = the bench DRAM's latency and beat interval); a hit on a line whose fill is pending
/// waits in tag check until the fill's response cycle and is decided the cycle after, holding
/// the request port meanwhile.
#[derive(Debug, Default)]
struct MapTiming {
    /// Pending fills: (line, response cycle).
    fills: VecDeque<(u64, Cycle)>,
    engine_free: Cycle,
    ready_at: Cycle,
}

impl MapTiming {
    /// The decision cycle of a request taken at `c`.
    fn decide(&mut self, c: Cycle, line: u64, hit: bool, dirty: bool, entries: u64) -> Cycle {
        let (l, i) = (super::hw_exec::DRAM.latency, super::hw_exec::DRAM.interval);
        self.fills.retain(|f| f.1 > c);
        if hit {
            let at = match self.fills.iter().find(|f| f.0 == line) {
                Some(&(_, done)) => done + 1,
                None => c + 1,
            };
            self.ready_at = at;
            return at;
        }
        let start = c.max(self.engine_free);
        let done = start + 6 + l + (entries - 1) * i + if dirty { 5 + (entries - 1) * i } else { 0 };
        self.engine_free = done;
        self.fills.push_back((line, done));
        c + 1
    }
}

pub struct ModelExec {
    fe: FrontEnd,
    rc: RootComplex,
    seqs: Vec<ChannelSequencer>,
    st: SeqTiming,
    map: MapCache,
    glue: Glue,
    /// Events due at a later cycle, in cycle order.
    due: VecDeque<(Cycle, HwEvent)>,
    fetched: VecDeque<FetchedCommand>,
    dma_busy_until: Option<Cycle>,
    /// Completions handed to the front end (a DMA waits until they are posted, see `dma`).
    cpl_given: usize,
    map_t: MapTiming,
    next_id: u64,
    done: Vec<SeqCompletion>,
    op_way: Vec<(u8, u8)>,
}

impl ModelExec {
    pub fn new(cfg: &DriveConfig, glue: Glue) -> Result<Self, String> {
        let ways = cfg.geometry.ways_per_channel as usize;
        Ok(ModelExec {
            fe: FrontEnd::new(&cfg.pcie, &cfg.nvme),
            rc: RootComplex::new(&cfg.pcie),
            seqs: (0..cfg.geometry.channels).map(|_| ChannelSequencer::new(&cfg.onfi, ways as u8, 1)).collect(),
            st: SeqTiming::new(&cfg.onfi),
            map: MapCache::new(&map_cache_config()).map_err(|e| e.to_string())?,
            glue,
            due: VecDeque::new(),
            fetched: VecDeque::new(),
            dma_busy_until: None,
            cpl_given: 0,
            map_t: MapTiming::default(),
            next_id: 0,
            done: Vec::new(),
            op_way: Vec::new(),
        })
    }

    /// Cycles channel `ch`'s bus has been held by a phase through the last cycle run
    /// (`ChannelSequencer::bus_cycles_until_now`): the model side of the bus meter (`seqread`).
    pub fn bus_cycles(&self, ch: usize) -> u64 {
        self.seqs[ch].bus_cycles_until_now()
    }

    fn later(&mut self, at: Cycle, e: HwEvent) {
        let i = self.due.iter().rposition(|(c, _)| *c <= at).map_or(0, |i| i + 1);
        self.due.insert(i, (at, e));
    }

    /// The model's op for a packed op word (single page: the firmware issues no cache reads).
    fn seq_op(&self, id: u64, n: &NandReq) -> SeqOp {
        let kind = match (n.op >> KIND_LSB) & 3 {
            KIND_PROGRAM => NandOpKind::Program,
            KIND_ERASE => NandOpKind::Erase,
            _ => NandOpKind::Read,
        };
        let planes = ((n.op >> PLANES_LSB) & 3) as u8 + 1;
        let dcyc = ((n.op >> DCYC_LSB) & 0xFFFF) as u32;
        let bus_bytes = if kind == NandOpKind::Erase { 0 } else { dcyc * self.st.bytes_per_cycle * planes as u32 };
        SeqOp { id, way: n.way, die: 0, kind, planes, bus_bytes, array_time: self.st.to_time(n.array_cycles), pages: 1 }
    }

    fn front_end(&mut self, c: Cycle, offer: &Offer, t: &mut Taken, ev: &mut Vec<HwEvent>) {
        if let Some(q) = offer.qc {
            let entries = q.size as u32 + 1;
            let r = match (q.sq, q.del) {
                (false, false) => self.fe.create_io_cq(q.qid, q.base, entries, q.vec, q.ien),
                (true, false) => self.fe.create_io_sq(q.qid, q.base, entries, q.cqid),
                (false, true) => self.fe.delete_io_cq(q.qid),
                (true, true) => self.fe.delete_io_sq(q.qid),
            };
            let _ = r; // a refused queue operation shows as missing I/O later; the status is the firmware's
            t.qc = true;
        }
        if let Some(p) = offer.cpl {
            let st = Status { sct: (p.status >> 8) as u8 & 7, sc: p.status as u8 };
            self.fe.complete(c, p.sqid, p.cid, st, 0);
            self.cpl_given += 1;
            t.cpl = true;
        }
        let mut out = Vec::new();
        self.fe.run_until(c, &mut self.rc, &mut out);
        self.fetched.extend(out);
        while self.fetched.front().is_some_and(|f| f.cycle <= c) {
            let f = self.fetched.pop_front().expect("checked");
            ev.push(HwEvent::Cmd { sqid: f.sqid, sqe: f.sqe });
        }
    }

    fn dma(&mut self, c: Cycle, offer: &Offer, t: &mut Taken) {
        if self.dma_busy_until.is_some_and(|e| e >= c) {
            return;
        }
        let Some(d) = offer.dma else { return };
        // The behavioural data path reserves the requester port for the whole transfer when
        // called; the HDL's requester mux lets a CQE in between data TLPs. Completions handed on
        // before the transfer therefore go first: the transfer waits until they are posted.
        if self.fe.posted().len() < self.cpl_given {
            return;
        }
        let dir = if d.to_host { Direction::ToHost } else { Direction::FromHost };
        let zeros = if d.to_host { vec![0u8; d.len as usize] } else { Vec::new() };
        let start = c + self.glue.dma_start;
        let (end, status) = match self.fe.transfer(start, d.prp1, d.prp2, d.len, dir, &zeros, &mut self.rc) {
            Ok((_, end)) => (end, 0),
            Err(st) => (start, st.field()),
        };
        self.rc.discard_device_beats();
        let at = end.max(c + 1) + self.glue.dma_end;
        self.dma_busy_until = Some(at);
        self.later(at, HwEvent::DmaDone { status });
        t.dma = true;
    }
}

impl DatapathExec for ModelExec {
    fn name(&self) -> &'static str {
        "model"
    }
    fn rc(&mut self) -> &mut RootComplex {
        &mut self.rc
    }
    fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32) {
        let at = self.rc.mmio_write(cycle, offset, value);
        self.rc.discard_device_beats();
        self.fe.mmio_write(at, offset, value, &mut self.rc);
        while self.fe.take_event().is_some() {}
    }
    fn cycle(&mut self, c: Cycle, offer: &Offer, ev: &mut Vec<HwEvent>) -> Taken {
        let mut t = Taken::default();
        self.front_end(c, offer, &mut t, ev);
        if let Some(m) = offer.map.filter(|_| c >= self.map_t.ready_at) {
            let d = self.map.access(MapAccess { lpn: m.lpn as u64, update: m.update });
            let evict = d.evicted.map(|e| ((e.line * self.map.line_entries()) as u32, e.dirty));
            let at = self.map_t.decide(c, m.lpn as u64 / self.map.line_entries(), d.hit, d.wrote_back(), self.map.line_entries());
            self.later(at, HwEvent::MapDec(MapDec { id: m.id, hit: d.hit, way: d.way as u8, evict }));
            t.map = true;
        }
        if let Some(n) = offer.nand {
            let id = self.next_id;
            self.next_id += 1;
            let op = self.seq_op(id, &n);
            let now = self.st.to_time(c + self.glue.nand_dispatch);
            self.seqs[n.channel as usize].enqueue(now, op);
            self.op_way.push((n.channel, n.way));
            t.nand = true;
        }
        self.dma(c, offer, &mut t);
        let now = self.st.to_time(c);
        let mut pending = Vec::new();
        for (ch, s) in self.seqs.iter_mut().enumerate() {
            self.done.clear();
            s.advance(now, &mut self.done);
            for d in &self.done {
                let (dc, way) = self.op_way[d.id as usize];
                debug_assert_eq!(dc as usize, ch);
                let at = self.st.to_cycles_ceil(d.completed);
                pending.push((at, HwEvent::NandDone { channel: ch as u8, way }));
            }
        }
        for (at, e) in pending {
            self.later(at, e);
        }
        while self.due.front().is_some_and(|(at, _)| *at <= c) {
            ev.push(self.due.pop_front().expect("checked").1);
        }
        t
    }
}
