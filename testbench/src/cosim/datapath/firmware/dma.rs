//! The firmware's side of the DMA port (`dma_*`, `ssdlab_hdl::top`): a job's data moves queue
//! in region order, units that follow each other in the region two to a move (PRP1 and PRP2
//! their host pages, `jobs::Moves::runs`), and each move's done frees what it was for: a read's
//! region half, a program's fill, an open unit's early move, and its commands' completions.
//! The port takes one move at a time (`nvme::prp::dma::PrpDma`), so each move costs a host
//! read round trip before its data; pairing units halves that count.

use super::super::jobs::{Run, RUN_UNITS};
use super::*;

/// What a DMA in flight is for.
#[derive(Clone, Copy, Debug)]
pub(super) struct DmaTag {
    way: usize,
    /// The command of each unit the move carries (`units` of them).
    cmd: [u64; RUN_UNITS as usize],
    /// The region half a read's data leaves from; `None`: a program's fill.
    half: Option<u8>,
    /// Units the move carries.
    units: u32,
    /// A move into the open unit's half ([`open_unit`]).
    early: bool,
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
        let (channel, way) = (w / self.ways_per_channel, w % self.ways_per_channel);
        let mut queued = 0;
        for run in moves.runs() {
            if early && self.join_queued(w, &run) {
                continue;
            }
            let req = DmaReq {
                to_host: half.is_some(),
                prp1: run.host[0],
                prp2: run.prp2(),
                len: run.units * UNIT,
                channel: channel as u8,
                way: way as u8,
                offset: run.offset,
            };
            let tag = DmaTag {
                way: w,
                cmd: run.cmd,
                half,
                units: run.units,
                early,
            };
            self.dma_q.push_back((req, tag));
            queued += 1;
        }
        queued
    }

    /// Writes come one unit at a time, so while the DMA port is busy their moves into the
    /// open unit queue up one by one. A lone unit `run` next to the lone unit of the last
    /// queued move into the same way's open unit joins it as its second page, so the two
    /// cost one host read round trip. The offered move (the queue's head) is never changed.
    fn join_queued(&mut self, w: usize, run: &Run) -> bool {
        if run.units != 1 || self.dma_q.len() < 2 {
            return false;
        }
        let half = self.regions.half_bytes();
        let (req, tag) = self.dma_q.back_mut().expect("two queued");
        let same_half = req.offset / half == run.offset / half;
        let fits = tag.early && tag.way == w && tag.units == 1 && same_half;
        if fits && req.offset + UNIT == run.offset {
            (req.prp2, tag.cmd[1]) = (run.host[0], run.cmd[0]);
        } else if fits && run.offset + UNIT == req.offset {
            (req.prp1, req.prp2, req.offset) = (run.host[0], req.prp1, run.offset);
            tag.cmd = [run.cmd[0], tag.cmd[0]];
        } else {
            return false;
        }
        req.len = 2 * UNIT;
        tag.units = 2;
        true
    }

    pub(super) fn dma_done(&mut self, status: u16) {
        let Some(tag) = self.dma_fly.pop_front() else {
            return self.fail("DMA done with no DMA in flight".into());
        };
        if status != 0 {
            return self.fail(format!(
                "DMA for command {} ended with status {status:#x}",
                tag.cmd[0]
            ));
        }
        if tag.early {
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
        for &cmd in &tag.cmd[..tag.units as usize] {
            if let Some(c) = self.cmds.get_mut(&cmd) {
                c.dma_left -= 1;
            }
        }
        for &cmd in &tag.cmd[..tag.units as usize] {
            self.finish(cmd);
        }
    }
}
