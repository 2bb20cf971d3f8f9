//! The firmware's side of the DMA port (`dma_*`, `ssdlab_hdl::top`): a job's data moves queue
//! in region order, units that follow each other in the region two to a move (PRP1 and PRP2
//! their host pages, `jobs::Moves::runs`), and each move's done frees what it was for: a read's
//! region half, a program's fill, an open unit's early move, and its commands' completions.
//! The port takes one move at a time (`nvme::prp::dma::PrpDma`), so each move costs a host
//! read round trip before its data; pairing units halves that count.

use super::super::jobs::Run;
use super::*;

/// A DMA move queued or in flight, and what it is for.
#[derive(Clone, Copy, Debug)]
pub(super) struct DmaTag {
    way: usize,
    /// The units moved: region bytes, host pages (PRP1, PRP2) and their commands.
    run: Run,
    /// The region half a read's data leaves from; `None`: host -> region.
    half: Option<u8>,
    /// A move into the open unit's half ([`open_unit`]).
    early: bool,
    /// A hit's move out of the half of this prefetch ([`prefetch`]).
    prefetch: Option<u64>,
}

impl DmaTag {
    /// The request the DMA port takes for this move, on a datapath of `ways_per_channel`.
    pub(super) fn req(&self, ways_per_channel: usize) -> DmaReq {
        DmaReq {
            to_host: self.half.is_some(),
            prp1: self.run.host[0],
            prp2: self.run.prp2(),
            len: self.run.units * UNIT,
            channel: (self.way / ways_per_channel) as u8,
            way: (self.way % ways_per_channel) as u8,
            offset: self.run.offset,
        }
    }
}

impl Firmware {
    /// Job `j`'s data moves are ready: they join the DMA port's queue, in region order (a
    /// read's from region half `half`). Returns how many moves that is.
    pub(super) fn dma(&mut self, w: usize, j: Job, half: Option<u8>) -> usize {
        self.queue_moves(w, &j.moves, half, false)
    }

    /// Queues `moves` of way `w` on the DMA port, a run of units that follow each other in the
    /// region as one move ([`Moves::runs`]: PRP1 and PRP2 its units' host pages): to the host
    /// from region half `half`, else host -> region (`early`: into the open unit's half, where
    /// a lone unit joins a lone unit queued before it, [`Firmware::join_queued`]). Returns the
    /// moves queued.
    pub(super) fn queue_moves(
        &mut self,
        w: usize,
        moves: &Moves,
        half: Option<u8>,
        early: bool,
    ) -> usize {
        let mut queued = 0;
        for run in moves.runs() {
            if early && self.join_queued(w, &run) {
                continue;
            }
            self.dma_q.push_back(DmaTag {
                way: w,
                run,
                half,
                early,
                prefetch: None,
            });
            queued += 1;
        }
        queued
    }

    /// Queues the hit moves `moves` out of half `half` of way `w`, which prefetch `tag`
    /// holds, on the DMA port ([`Moves::runs`]). Returns the moves queued.
    pub(super) fn queue_hit_moves(&mut self, w: usize, moves: &Moves, half: u8, tag: u64) -> usize {
        let before = self.dma_q.len();
        self.dma_q.extend(moves.runs().map(|run| DmaTag {
            way: w,
            run,
            half: Some(half),
            early: false,
            prefetch: Some(tag),
        }));
        self.dma_q.len() - before
    }

    /// Writes come one unit at a time, so while the DMA port is busy their moves into the
    /// open unit queue up one by one. A lone unit `run` next to the lone unit of the last
    /// queued move into the same way's open unit joins it as a two-unit run (in region order),
    /// so the two cost one host read round trip. The offered move (the queue's head) is never
    /// changed.
    fn join_queued(&mut self, w: usize, run: &Run) -> bool {
        if run.units != 1 || self.dma_q.len() < 2 {
            return false;
        }
        let half = self.regions.half_bytes();
        let tag = self.dma_q.back_mut().expect("two queued");
        let q = tag.run;
        if !(tag.early && tag.way == w && q.units == 1 && q.offset / half == run.offset / half) {
            return false;
        }
        let (a, b) = if q.end() == run.offset {
            (q, *run)
        } else if run.end() == q.offset {
            (*run, q)
        } else {
            return false;
        };
        tag.run = Run {
            offset: a.offset,
            units: 2,
            host: [a.host[0], b.host[0]],
            cmd: [a.cmd[0], b.cmd[0]],
        };
        true
    }

    pub(super) fn dma_done(&mut self, status: u16) {
        let Some(tag) = self.dma_fly.pop_front() else {
            return self.fail("DMA done with no DMA in flight".into());
        };
        if status != 0 {
            return self.fail(format!(
                "DMA for command {} ended with status {status:#x}",
                tag.run.cmd[0]
            ));
        }
        if let Some(t) = tag.prefetch {
            if let Err(e) = self.hit_moved(t) {
                return self.fail(e);
            }
        } else if tag.early {
            if !self.open.moved(tag.way) {
                return self.fail("a move into an open unit ended with none in flight".into());
            }
        } else if let Some(h) = tag.half {
            if !self.regions.drained(tag.way, h) {
                return self.fail(format!(
                    "DMA done on way {} half {h}: no read drains",
                    tag.way
                ));
            }
        } else {
            self.fill_done(tag.way);
        }
        // A command completes once the last of its units has moved.
        for &cmd in &tag.run.cmd[..tag.run.units as usize] {
            if let Some(c) = self.cmds.get_mut(&cmd) {
                c.dma_left -= 1;
            }
            self.finish(cmd);
        }
    }
}
