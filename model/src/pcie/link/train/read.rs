//! A read train: a device's read requests upstream through its clocked port, each followed by
//! its completions downstream, at most `TAGS` requests in flight (a request waits for the
//! completions of the request `TAGS` before it: its tag).
//!
//! Requests are paced by the port and the upstream lane together ([`Start::next`]); a
//! request's completions, all ready `latency` after it crossed, follow one another on the
//! downstream lane. The directions' ACK DLLPs ride on their own next TLP: a request's
//! completions owe them upstream, carried by the next request; requests owe them downstream,
//! carried by the first completion after.

use super::{Completions, Lane, ReadShape, Sent};
use crate::pcie::link::pace::{Port, Start, Step};
use crate::pcie::link::{Dir, Link};
use crate::time::SimTime;

/// What a read train leaves its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadTrain {
    /// When the last request finished crossing upstream.
    pub up_end: SimTime,
    /// When the last completion of all finished crossing back.
    pub last: SimTime,
}

impl Link {
    /// Read requests `reqs` (address, bytes) upstream through `port`, each followed by its
    /// completions downstream (see [`ReadShape`]). Request `i` takes `req_beats` on the port.
    /// The first is ready at the edge of cycle `port.ready` or `port.free`, whichever is later;
    /// each next as soon as the port is free after the one before and, from `i = TAGS` on, at
    /// the edge at or after request `i - TAGS`'s last completion crossed (its tag free again).
    /// `port.free` becomes the cycle the port is free after the last. What one
    /// [`Link::send_tlp`] per TLP gives; `None` if `reqs` is empty.
    #[inline]
    pub fn read_train<const TAGS: usize>(
        &mut self,
        shape: &ReadShape,
        port: &mut Port,
        reqs: &[(u64, u32)],
        req_beats: u64,
    ) -> Option<ReadTrain> {
        if reqs.is_empty() {
            return None;
        }
        shape.check();
        if let Some(r) = self.even_reads(shape, port, reqs, req_beats, TAGS) {
            return Some(r);
        }
        let acks @ (per_ack, dllp) = (self.tlps_per_ack as u64, self.dllp_bytes);
        let mut up = Lane::load(&self.dirs[Dir::Up as usize]);
        let mut down = Lane::load(&self.dirs[Dir::Down as usize]);
        let cpl = Completions::new(self, shape);
        let req_wire = shape.req_header + self.framing;
        let req = Step::new(self.duration(req_wire), req_beats, port.period);
        // The step of a request carrying `owing.0` bytes of ACKs, the last such one looked up.
        let mut owing = (0, req);
        // Request `i`'s last completion's arrival, at `i % TAGS` (when its tag is free again).
        let mut tags = [SimTime::ZERO; TAGS];
        let mut at = Start::at(port, port.ready.max(port.free), up.free_at);
        let (mut prev, mut latest, mut cpls, mut payload) = (req, SimTime::ZERO, 0, 0);
        for (i, &(addr, len)) in reqs.iter().enumerate() {
            if i > 0 {
                let tag = match i < TAGS {
                    true => 0,
                    false => tags[i % TAGS].0.div_ceil(port.period),
                };
                at = at.next_from(&prev, port, tag);
            }
            prev = match std::mem::take(&mut up.pending) {
                0 => req,
                owed if owed == owing.0 => owing.1,
                owed => {
                    let d = self.duration(req_wire + owed);
                    owing = (owed, Step::new(d, req_beats, port.period));
                    owing.1
                }
            };
            let end = at.time(port) + prev.dur;
            up.busy += prev.dur;
            down.owe(1, per_ack, dllp);
            let (last, n) = cpl.send(self, &mut down, end, addr, len as u64);
            up.owe(n, per_ack, dllp);
            (tags[i % TAGS], latest) = (last, latest.max(last));
            (cpls, payload) = (cpls + n, payload + len as u64);
        }
        let n = reqs.len() as u64;
        let up_end = at.time(port) + prev.dur;
        (up.free_at, port.free) = (up_end, at.cycle + prev.beats);
        let ups = Sent {
            tlps: n,
            payload: 0,
            overhead: n * req_wire,
        };
        let downs = Sent {
            tlps: cpls,
            payload,
            overhead: cpls * cpl.base,
        };
        up.store(&mut self.dirs[Dir::Up as usize], ups, cpls, acks);
        down.store(&mut self.dirs[Dir::Down as usize], downs, n, acks);
        Some(ReadTrain {
            up_end,
            last: latest,
        })
    }
}
