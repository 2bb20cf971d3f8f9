//! The page buffer's DMA port as the drive's reads use it: one data move at a time, as the
//! block takes them (`ctrl::page_buffer`: the port takes the next move at the previous one's
//! `dma_done`; `ssdlab_hdl`'s `PrpDma` the same). A read's share of data that is in DRAM waits
//! in the port's queue, in the order the shares became ready, and is handed to the port once
//! the move before it has ended; its first TLP then leaves the port's start latency later.
//!
//! Why not a reservation: the link is a reservation in the front end (`FrontEnd::move_timing`
//! books it at once), so moves booked ahead would keep the link for themselves, and a
//! completion entry the firmware posts meanwhile would go up after all of them. 32 sequential
//! 128 KiB reads served from read-ahead data would have every command's data booked the moment
//! its prefetches are in, and all 32 completions would leave together after 1.3 ms of data:
//! the commands would complete in rounds. One move at a time, a completion goes up after its
//! own command's last move, as the datapath's firmware posts it.
//!
//! Host writes' moves do not pass here: the drive moves a write's 128 KiB in one move whose
//! host reads overlap the ones of the move before (docs/hdl.md, "A preset's datapath").

use super::{Drive, Ev};
use crate::time::SimTime;
use std::collections::VecDeque;

/// A read's share of data waiting for the port: when it is in DRAM, the command, its bytes.
#[derive(Clone, Copy, Debug)]
struct Share {
    ready: SimTime,
    cmd: u32,
    bytes: u32,
}

/// The port's queue of read data and whether a move of it is in flight.
#[derive(Clone, Debug, Default)]
pub(super) struct ReadPort {
    queue: VecDeque<Share>,
    busy: bool,
}

/// Shares the port's queue can hold: a live command has at most one queued share per data op,
/// and at most 33 data ops (a 128 KiB read's 32 page reads or prefetches, and its lookup work).
const QUEUE_BOUND: usize = super::MAX_COMMANDS * 33;

impl Drive {
    /// `bytes` of read `cmd`'s data go to the host: read from DRAM now, then through the port.
    pub(super) fn schedule_send(&mut self, now: SimTime, cmd: u32, bytes: u64) {
        let m = &mut self.cmds[cmd as usize];
        m.unsent -= bytes;
        m.sends_left += 1;
        if bytes == 0 {
            // Nothing to move: the command's last share was in its earlier sends.
            self.q.schedule(now, Ev::SendData { cmd, bytes: 0 });
            return;
        }
        let ready = self.dram.access(now, bytes);
        assert!(
            self.read_port.queue.len() < QUEUE_BOUND,
            "read data waiting for the DMA port bounded"
        );
        self.read_port.queue.push_back(Share {
            ready,
            cmd,
            bytes: bytes as u32,
        });
        self.start_next_send(now);
    }

    /// The port is free at `now`: hands it the next share (its move starts once the share is
    /// in DRAM, the port's start latency later).
    fn start_next_send(&mut self, now: SimTime) {
        if self.read_port.busy {
            return;
        }
        let Some(s) = self.read_port.queue.pop_front() else {
            return;
        };
        self.read_port.busy = true;
        let t = self
            .page_buf
            .host_move_start(s.ready.max(now), s.bytes as u64);
        self.q.schedule(
            t,
            Ev::SendData {
                cmd: s.cmd,
                bytes: s.bytes,
            },
        );
    }

    /// A move of read `cmd`'s data ended at `now`: the port takes the next one.
    pub(super) fn on_send_done(&mut self, now: SimTime, cmd: u32) {
        assert!(
            self.read_port.busy,
            "a read data move ended on an idle port"
        );
        self.read_port.busy = false;
        let done = self.page_buf.host_move_done(now);
        debug_assert_eq!(done, now, "dma_done at the move's end");
        self.start_next_send(done);
        self.send_finished(now, cmd);
    }
}
