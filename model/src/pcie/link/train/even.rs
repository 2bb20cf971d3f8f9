//! The common read train in closed form: at most `TAGS` requests of one length, each a whole
//! number `k` of MPS blocks at an MPS-aligned address (the front end's data reads), so no
//! request waits for a tag and every request has `k` completions of MPS payload.
//!
//! ACKs: request `i`'s `k` completions owe `floor(k / p)` or one more ACKs upstream (`p` =
//! `tlps_per_ack`), carried by request `i + 1`; the requests owe one ACK downstream per `p`,
//! carried by the first completion of the request that completed the group.
//!
//! Downstream: request `i`'s completions are ready at `e_i + latency` (`e_i` its end) and take
//! `D_i >= k * full`, so the downstream lane is free no earlier than `e_i + latency + D_i`
//! after them. If every request ends at most `k * full` after the one before, request `i + 1`'s
//! completions are ready by the time the lane is free, and from the first request's first
//! completion on the lane runs back to back: the last completion ends at
//! `max(e_0 + latency, free) + sum(D_i)`, with no per-request arithmetic. A request starts at
//! `max(edge(c + b), s + d)` after one that started at `s` (edge `c` at or after it, `b` beats,
//! `d` on the link), so it ends less than `(b + 1)` periods plus its own duration after the
//! one before: that bound at most `k * full` is the train's precondition.

use super::{Lane, ReadShape, ReadTrain, Sent};
use crate::pcie::link::pace::{Port, Start, Step};
use crate::pcie::link::{Dir, Link};
use crate::time::SimTime;

impl Link {
    /// [`Link::read_train`] when `reqs` is of the module's shape (at most `tags` requests,
    /// one length, a whole number of MPS blocks at MPS-aligned addresses) and the requests
    /// cannot come further apart than one request's completions take; `None`, with the link
    /// and port untouched, otherwise. The caller has checked `shape` ([`ReadShape::check`]).
    #[inline]
    pub(super) fn even_reads(
        &mut self,
        shape: &ReadShape,
        port: &mut Port,
        reqs: &[(u64, u32)],
        req_beats: u64,
        tags: usize,
    ) -> Option<ReadTrain> {
        let (&(_, len0), _) = reqs.split_first()?;
        let (addrs, lens) = reqs
            .iter()
            .fold((0, 0), |(a, l), &(addr, len)| (a | addr, l | (len ^ len0)));
        let len = len0 as u64;
        let aligned = (addrs | len) & (shape.mps - 1) == 0 && lens == 0 && len > 0;
        // Fewer TLPs unacknowledged than make an ACK, as `Link::acknowledge` leaves them.
        let p = self.tlps_per_ack;
        let counted = self.dirs.iter().all(|d| d.unacked < p);
        if !aligned || reqs.len() > tags || !counted {
            return None;
        }
        let (n, k, p) = (
            reqs.len() as u64,
            len >> shape.mps.trailing_zeros(),
            p as u64,
        );
        let req_wire = shape.req_header + self.framing;
        // A request after the first carries the ACKs its predecessor's completions owe.
        let acks = (k / p) * self.dllp_bytes;
        let steps = [
            self.req_step(req_wire + acks, req_beats, port.period),
            self.req_step(req_wire + acks + self.dllp_bytes, req_beats, port.period),
        ];
        let full = self.duration(shape.cpl_header + self.framing + shape.mps);
        if SimTime((req_beats + 1) * port.period) + steps[1].dur > full * k {
            return None;
        }
        let (up_end, e0) = self.even_requests(port, (n, k), req_wire, &steps);
        let last = self.even_completions(shape, e0, (n, k), full);
        Some(ReadTrain { up_end, last })
    }

    /// The upstream half of [`Link::even_reads`]: `n` requests of `req_wire` bytes through
    /// `port`, each after the first carrying the ACKs the `k` completions of the one before
    /// owe: `steps[0]` with `k / p` of them, `steps[1]` with one more. Returns when the last
    /// and the first finished crossing.
    #[inline(always)]
    fn even_requests(
        &mut self,
        port: &mut Port,
        (n, k): (u64, u64),
        req_wire: u64,
        steps: &[Step; 2],
    ) -> (SimTime, SimTime) {
        let (p, dllp) = (self.tlps_per_ack as u64, self.dllp_bytes);
        let (acks, extra) = (k / p, k % p);
        let mut up = Lane::load(&self.dirs[Dir::Up as usize]);
        let first = match std::mem::take(&mut up.pending) {
            owed if owed == acks * dllp => steps[0],
            owed if owed == (acks + 1) * dllp => steps[1],
            owed => self.req_step(req_wire + owed, steps[0].beats, port.period),
        };
        let mut at = Start::at(port, port.ready.max(port.free), up.free_at);
        let e0 = at.time(port) + first.dur;
        // `more`: requests carrying `acks + 1` ACKs; `up.unacked` the completions left over.
        let (mut prev, mut more) = (&first, 0);
        for _ in 1..n {
            at = at.next(prev, port);
            up.unacked += extra;
            let wrap = up.unacked >= p;
            up.unacked -= if wrap { p } else { 0 };
            (prev, more) = (&steps[wrap as usize], more + wrap as u64);
        }
        let up_end = at.time(port) + prev.dur;
        port.free = at.cycle + prev.beats;
        // The last request's completions owe ACKs to the next TLP upstream.
        up.unacked += extra;
        let wrap = up.unacked >= p;
        up.unacked -= if wrap { p } else { 0 };
        up.pending = (acks + wrap as u64) * dllp;
        up.busy = first.dur + steps[0].dur * (n - 1 - more) + steps[1].dur * more;
        up.free_at = up_end;
        let sent = Sent {
            tlps: n,
            payload: 0,
            overhead: n * req_wire,
        };
        up.store(&mut self.dirs[Dir::Up as usize], sent, n * k, (p, dllp));
        (up_end, e0)
    }

    /// The downstream half of [`Link::even_reads`]: the `k` completions of each of `n`
    /// requests, the first request having finished crossing at `e0`, back to back from the
    /// first (the precondition); `full` is how long one without DLLP bytes takes. Returns when
    /// the last finished crossing.
    #[inline(always)]
    fn even_completions(
        &mut self,
        shape: &ReadShape,
        e0: SimTime,
        (n, k): (u64, u64),
        full: SimTime,
    ) -> SimTime {
        let (p, dllp) = (self.tlps_per_ack as u64, self.dllp_bytes);
        let mut down = Lane::load(&self.dirs[Dir::Down as usize]);
        let base = shape.cpl_header + self.framing;
        // The first request's first completion carries what was owed before and, if that
        // request completed a group, its ACK; each later one completing a group carries one.
        let owes_first = down.unacked + 1 == p;
        let first = self.duration(base + shape.mps + down.pending + owes_first as u64 * dllp);
        let later = (down.unacked + n) / p - owes_first as u64;
        let with_ack = self.duration(base + shape.mps + dllp);
        let busy = first + full * (n * k - 1 - later) + with_ack * later;
        let last = (e0 + shape.latency).max(down.free_at) + busy;
        down.unacked = (down.unacked + n) % p;
        (down.pending, down.free_at, down.busy) = (0, last, busy);
        let sent = Sent {
            tlps: n * k,
            payload: n * k * shape.mps,
            overhead: n * k * base,
        };
        down.store(&mut self.dirs[Dir::Down as usize], sent, n, (p, dllp));
        last
    }

    /// The step of a request of `wire` bytes taking `beats` on a port of clock `period`.
    #[inline(always)]
    fn req_step(&mut self, wire: u64, beats: u64, period: u64) -> Step {
        Step::new(self.duration(wire), beats, period)
    }
}
