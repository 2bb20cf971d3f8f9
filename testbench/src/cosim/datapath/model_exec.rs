//! The behavioural execution of the datapath: model blocks composed behind the firmware port —
//! `ssdlab_model::nvme::frontend::FrontEnd` (fetch, completions, MSI-X, PRP data path stepped
//! TLP by TLP, `FrontEnd::step_move`), one `ChannelSequencer` per channel,
//! `ftl::map_cache::MapCache` with its pipeline timing (`map_cache::pipeline`) and the page
//! buffer with its DMA port (`ctrl::page_buffer::PageBuffer`, the top level's documented
//! latencies). This file only wires them to the port. Stepped one cycle at a time like the
//! hardware, so the same firmware and host drive it; at any queue depth it is cycle-exact with
//! the RTL on the co-simulation's jobs (README "Co-simulation").

use super::exec::DatapathExec;
use super::port::*;
use crate::devices::root_complex::RootComplex;
use ssdlab_hdl::nand::op::unpack_op;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::ctrl::nand_crossing::{DownFifo, NandCrossing};
use ssdlab_model::ctrl::PageBuffer;
use ssdlab_model::encoding::nvme::Status;
use ssdlab_model::ftl::map_cache::pipeline::PipelineTiming;
use ssdlab_model::ftl::map_cache::{MapAccess, MapCache};
use ssdlab_model::nand::sequencer::{ChannelSequencer, SeqCompletion, SeqOp, SeqTiming};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::nvme::frontend::data_move::DataMove;
use ssdlab_model::nvme::frontend::datapath::Direction;
use ssdlab_model::nvme::frontend::tlp::{cycle_at_or_after, edge_time, Cycle, CLOCK_PS};
use ssdlab_model::nvme::frontend::{FetchedCommand, FrontEnd};
use std::collections::VecDeque;

/// The mapping-cache configuration of the datapath's instance (`MapCacheExport`).
pub fn map_cache_config() -> ssdlab_model::config::MapCacheConfig {
    ssdlab_hdl::ftl::map_cache::export_config()
}

pub struct ModelExec {
    fe: FrontEnd,
    rc: RootComplex,
    seqs: Vec<ChannelSequencer>,
    st: SeqTiming,
    map: MapCache,
    pb: PageBuffer,
    /// Events due at a later cycle, in cycle order.
    due: VecDeque<(Cycle, HwEvent)>,
    fetched: VecDeque<FetchedCommand>,
    /// The data move in flight and its bytes (zeros for device -> host).
    mv: Option<(DataMove, Vec<u8>)>,
    /// First cycle the completer-request stream (host MMIO toward the device) is free.
    cq_free: Cycle,
    map_t: PipelineTiming,
    next_id: u64,
    done: Vec<SeqCompletion>,
    op_way: Vec<(u8, u8)>,
    /// Op ids in the array per (channel, way), oldest first (a read that completes before
    /// the oldest overtook it in a suspension).
    open: Vec<VecDeque<u64>>,
    ways: usize,
    /// The ops' and completions' clock crossing per channel, when the sequencers have a clock
    /// of their own (`NandCrossing`).
    cross: Option<NandCrossing>,
    fifos: Vec<DownFifo>,
}

impl ModelExec {
    pub fn new(cfg: &DriveConfig) -> Result<Self, String> {
        let ways = cfg.geometry.ways_per_channel as usize;
        Ok(ModelExec {
            fe: FrontEnd::new(&cfg.pcie, &cfg.nvme),
            rc: RootComplex::new(&cfg.pcie),
            seqs: (0..cfg.geometry.channels)
                .map(|_| {
                    let mut s = ChannelSequencer::new(&cfg.onfi, ways as u8, 1);
                    s.set_suspend(&cfg.nand.suspend);
                    s
                })
                .collect(),
            st: SeqTiming::new(&cfg.onfi),
            map: MapCache::new(&map_cache_config()).map_err(|e| e.to_string())?,
            pb: PageBuffer::new(cfg.geometry.channels, ways as u32),
            due: VecDeque::new(),
            fetched: VecDeque::new(),
            mv: None,
            cq_free: 0,
            map_t: PipelineTiming::new(super::hw_exec::DRAM.latency, super::hw_exec::DRAM.interval),
            next_id: 0,
            done: Vec::new(),
            op_way: Vec::new(),
            open: vec![VecDeque::new(); cfg.geometry.channels as usize * ways],
            ways,
            cross: NandCrossing::new(&cfg.onfi),
            fifos: vec![DownFifo::default(); cfg.geometry.channels as usize],
        })
    }

    /// Cycles channel `ch`'s bus has been held by a phase through the last cycle run
    /// (`ChannelSequencer::bus_cycles_until_now`): the model side of the bus meter (`seqread`).
    pub fn bus_cycles(&self, ch: usize) -> u64 {
        self.seqs[ch].bus_cycles_until_now()
    }

    fn later(&mut self, at: Cycle, e: HwEvent) {
        let i = self
            .due
            .iter()
            .rposition(|(c, _)| *c <= at)
            .map_or(0, |i| i + 1);
        self.due.insert(i, (at, e));
    }

    /// The model's op for a packed op word: its data cycles are per plane, and per page of a
    /// one-shot program (the firmware issues no cache reads).
    fn seq_op(&self, id: u64, n: &NandReq) -> SeqOp {
        let o = unpack_op(n.op);
        let bus_bytes = if o.kind == NandOpKind::Erase {
            0
        } else {
            o.data_cycles as u32 * self.st.bytes_per_cycle * o.planes as u32 * o.pages as u32
        };
        SeqOp {
            id,
            way: n.way,
            die: 0,
            kind: o.kind,
            planes: o.planes,
            bus_bytes,
            array_time: self.st.to_time(n.array_cycles),
            pages: o.pages,
        }
    }

    fn front_end(&mut self, c: Cycle, offer: &Offer, t: &mut Taken, ev: &mut Vec<HwEvent>) {
        if let Some(q) = offer.qc {
            let _ = self.fe.apply_queue_op(&q); // a refused queue operation shows as missing I/O later; the status is the firmware's
            t.qc = true;
        }
        if let Some(p) = offer.cpl {
            let st = Status {
                sct: (p.status >> 8) as u8 & 7,
                sc: p.status as u8,
            };
            self.fe.complete(c, p.sqid, p.cid, st, 0);
            t.cpl = true;
        }
        let mut out = Vec::new();
        self.fe.run_until(c, &mut self.rc, &mut out);
        self.fetched.extend(out);
        while self.fetched.front().is_some_and(|f| f.cycle <= c) {
            let f = self.fetched.pop_front().expect("checked");
            ev.push(HwEvent::Cmd {
                sqid: f.sqid,
                sqe: f.sqe,
            });
        }
    }

    /// The `nand_*` port: the op enters its channel's sequencer in this cycle, or, across a
    /// clock crossing, is taken when the channel's FIFO has room and enters when the sequencer
    /// sees it.
    fn nand_op(&mut self, c: Cycle, n: &NandReq, t: &mut Taken) {
        let ch = n.channel as usize;
        if let Some(x) = self.cross {
            if !x.room(&mut self.fifos[ch], edge_time(c)) {
                return;
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        let op = self.seq_op(id, n);
        let at = self.pb.nand_accept_cycle(ch, c, op.kind, op.bus_bytes);
        let at = match self.cross {
            Some(x) => x.push(&mut self.fifos[ch], edge_time(at)),
            None => edge_time(at),
        };
        self.seqs[ch].enqueue(at, op);
        self.op_way.push((n.channel, n.way));
        self.open[ch * self.ways + n.way as usize].push_back(id);
        t.nand = true;
    }

    /// The `dma` port: a move is taken when none is in flight, from its predecessor's
    /// `dma_done` cycle on (the HDL's `PrpDma` is ready again in that cycle).
    fn dma(&mut self, c: Cycle, offer: &Offer, t: &mut Taken) {
        let Some(d) = offer.dma.filter(|_| self.pb.dma_ready(c)) else {
            return;
        };
        let dir = if d.to_host {
            Direction::ToHost
        } else {
            Direction::FromHost
        };
        let data = if d.to_host {
            vec![0u8; d.len as usize]
        } else {
            Vec::new()
        };
        // The first request is offered to the requester mux the cycle before its header may
        // leave (`PageBuffer::dma_take`).
        let first = self.pb.dma_take(c, d.len as u64);
        match self
            .fe
            .start_move(first, d.prp1, d.prp2, d.len, dir, &mut self.rc)
        {
            Ok(mv) => self.mv = Some((mv, data)),
            Err(st) => {
                let at = self.pb.dma_reject(c);
                self.later(at, HwEvent::DmaDone { status: st.field() });
            }
        }
        self.rc.discard_device_beats();
        t.dma = true;
    }

    /// One cycle of the move in flight, after the front end's fetches and CQEs of the cycle
    /// were granted (they win the requester port at a packet boundary).
    fn step_move(&mut self, c: Cycle) {
        let Some((mv, data)) = self.mv.as_mut() else {
            return;
        };
        self.fe.step_move(mv, c, data, &mut self.rc);
        self.rc.discard_device_beats();
        if mv.finished() {
            let at = self.pb.dma_finish(mv.end().max(c + 1));
            self.mv = None;
            self.later(at, HwEvent::DmaDone { status: 0 });
        }
    }
}

impl DatapathExec for ModelExec {
    fn name(&self) -> &'static str {
        "model"
    }
    fn suspends(&self) -> u64 {
        self.seqs.iter().map(ChannelSequencer::suspends).sum()
    }
    fn rc(&mut self) -> &mut RootComplex {
        &mut self.rc
    }
    fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32) {
        // The completer-request stream carries one beat per cycle: a write queued behind
        // another (the CQ head and SQ tail doorbells of one host step) starts after its last
        // beat, as on the hardware's `cq_*` stream (the root complex's queue of beats toward
        // the device is discarded for the model, so the model keeps the stream's free cycle).
        let at = self.rc.mmio_write(cycle.max(self.cq_free), offset, value);
        self.cq_free = at + 1;
        self.rc.discard_device_beats();
        self.fe.mmio_write(at, offset, value, &mut self.rc);
        while self.fe.take_event().is_some() {}
    }
    fn cycle(&mut self, c: Cycle, offer: &Offer, ev: &mut Vec<HwEvent>) -> Taken {
        let mut t = Taken::default();
        self.front_end(c, offer, &mut t, ev);
        if let Some(m) = offer.map.filter(|_| c >= self.map_t.ready_at) {
            let d = self.map.access(MapAccess {
                lpn: m.lpn as u64,
                update: m.update,
            });
            let evict = d
                .evicted
                .map(|e| ((e.line * self.map.line_entries()) as u32, e.dirty));
            let at = self.map_t.decide(
                c,
                d.hit,
                d.set,
                d.way,
                d.wrote_back(),
                self.map.line_entries(),
            );
            self.later(
                at,
                HwEvent::MapDec(MapDec {
                    id: m.id,
                    hit: d.hit,
                    way: d.way as u8,
                    evict,
                }),
            );
            t.map = true;
        }
        if let Some(n) = offer.nand {
            self.nand_op(c, &n, &mut t);
        }
        self.dma(c, offer, &mut t);
        self.step_move(c);
        let now = edge_time(c);
        let mut pending = Vec::new();
        for (ch, s) in self.seqs.iter_mut().enumerate() {
            self.done.clear();
            s.advance(now, &mut self.done);
            for d in &self.done {
                let (dc, way) = self.op_way[d.id as usize];
                debug_assert_eq!(dc as usize, ch);
                let q = &mut self.open[ch * self.ways + way as usize];
                let k = q
                    .iter()
                    .position(|&i| i == d.id)
                    .expect("completed op is open");
                q.remove(k);
                let at = match self.cross {
                    Some(x) => x.completion_seen(d.completed).as_ps() / CLOCK_PS,
                    None => cycle_at_or_after(d.completed),
                };
                pending.push((
                    at,
                    HwEvent::NandDone {
                        channel: ch as u8,
                        way,
                        overtook: k > 0,
                    },
                ));
            }
        }
        for (at, e) in pending {
            self.later(at, e);
        }
        // Events of one cycle in the order the hardware executions report them: decisions,
        // NAND completions by channel, then the DMA's.
        let first = ev.len();
        while self.due.front().is_some_and(|(at, _)| *at <= c) {
            ev.push(self.due.pop_front().expect("checked").1);
        }
        ev[first..].sort_by_key(|e| match *e {
            HwEvent::Cmd { .. } => 0,
            HwEvent::MapDec(_) | HwEvent::MapResp { .. } => 1,
            HwEvent::NandDone { channel, .. } => 2 + channel as u16,
            HwEvent::DmaDone { .. } => 100,
        });
        t
    }
}
