//! Trains of TLPs on a [`Link`]: a device's data move in one call, either posted writes on one
//! direction or read requests upstream with their completions downstream. Each TLP is paced
//! exactly as [`Link::send_tlp`] paces it (the same start and end times, counters and ACK
//! DLLPs); both directions' state is held in locals for the whole train and written back once.
//!
//! What a train does per TLP is only what its timing needs (when it starts and ends, the
//! ACK DLLP bytes it carries); the counters follow from totals when the train ends:
//! - ACKs: one per `tlps_per_ack` TLPs received, whether counted one TLP or many at a time
//!   ([`Link::acknowledge`]), so a direction's ACKs are its received TLPs and its unacknowledged
//!   count before and after;
//! - wire bytes: headers, framing and payload per TLP, plus the DLLP bytes that rode ahead of
//!   them (owed before, plus ACKs added, minus still owed after);
//! - a direction's owed DLLP bytes ride on its next TLP, so on a one-way train only the first
//!   TLP carries them, and on a read train each request and its first completion;
//! - a read's completions are all ready at once, so each after the first starts as the one
//!   before it ends; full-MPS ones without DLLP bytes all take the same time.

mod even;
mod read;
pub use read::ReadTrain;

use super::pace::{Port, Start, Step};
use super::{Dir, DirState, Link};
use crate::time::SimTime;

/// A device read as the link carries it: header-only requests, completions of at most `mps`
/// payload split at MPS-aligned addresses, `latency` after their request finished crossing.
#[derive(Clone, Copy, Debug)]
pub struct ReadShape {
    pub req_header: u64,
    pub cpl_header: u64,
    /// A power of two (`PcieConfig::validate`).
    pub mps: u64,
    pub latency: SimTime,
}

impl ReadShape {
    /// Refuses an MPS that is not a power of two: the trains split and align completions by
    /// masking with `mps - 1`. Checked once at each public entry ([`Link::read_train`],
    /// [`Link::completions`]).
    fn check(&self) {
        assert!(
            self.mps.is_power_of_two(),
            "MPS {} not a power of two",
            self.mps
        );
    }
}

/// One direction's state while a train runs: what its timing needs.
#[derive(Clone, Copy, Debug)]
struct Lane {
    free_at: SimTime,
    unacked: u64,
    pending: u64,
    busy: SimTime,
}

/// What a direction sent during a train, in all.
#[derive(Clone, Copy, Debug)]
struct Sent {
    tlps: u64,
    payload: u64,
    /// Header and framing bytes.
    overhead: u64,
}

impl Lane {
    fn load(d: &DirState) -> Lane {
        Lane {
            free_at: d.free_at,
            unacked: d.unacked as u64,
            pending: d.pending_dllp_wire,
            busy: SimTime::ZERO,
        }
    }

    /// This direction received `tlps` more TLPs: one ACK DLLP owed per `per_ack`, the count
    /// below `per_ack` carried ([`Link::acknowledge`]).
    #[inline(always)]
    fn owe(&mut self, tlps: u64, per_ack: u64, dllp_bytes: u64) {
        self.unacked += tlps;
        while self.unacked >= per_ack {
            self.unacked -= per_ack;
            self.pending += dllp_bytes;
        }
    }

    /// Writes the lane back to `d` (still as the train found it), which sent `sent` and
    /// received `received` TLPs (one ACK of `dllp_bytes` per `per_ack`).
    fn store(self, d: &mut DirState, sent: Sent, received: u64, (per_ack, dllp_bytes): (u64, u64)) {
        let acked = d.unacked as u64 + received - self.unacked;
        debug_assert!(acked.is_multiple_of(per_ack), "ACKs cover whole groups");
        let acks = acked / per_ack;
        let dllp_sent = d.pending_dllp_wire + acks * dllp_bytes - self.pending;
        d.free_at = self.free_at;
        d.unacked = self.unacked as u32;
        d.pending_dllp_wire = self.pending;
        d.stats.tlps += sent.tlps;
        d.stats.dllps += acks;
        d.stats.payload_bytes += sent.payload;
        d.stats.wire_bytes += sent.overhead + sent.payload + dllp_sent;
        d.stats.busy += self.busy;
    }
}

impl Link {
    /// Posted TLPs of `header` + `n` bytes on direction `d` through `port`, one per item
    /// (address, `n`) of `reqs` in order: the first at the edge of cycle `port.ready` or
    /// `port.free`, whichever is later, each next as soon as the port is free after the one
    /// before (`beats(n)` cycles from the edge at or after its start); `port.free` becomes the
    /// cycle the port is free after the last. Returns when the last has crossed, if any: what
    /// one [`Link::send_tlp`] per TLP gives.
    #[inline]
    pub fn post_train(
        &mut self,
        d: Dir,
        header: u64,
        port: &mut Port,
        reqs: &[(u64, u32)],
        beats: impl Fn(u64) -> u64,
    ) -> Option<SimTime> {
        let (&(_, n0), rest) = reqs.split_first()?;
        let acks = (self.tlps_per_ack as u64, self.dllp_bytes);
        let mut tx = Lane::load(&self.dirs[d as usize]);
        let base = header + self.framing;
        let p0 = n0 as u64;
        // Nothing is sent the other way meanwhile, so only the first TLP carries owed DLLPs.
        let owed = std::mem::take(&mut tx.pending);
        let mut prev = Step::new(self.duration(base + p0 + owed), beats(p0), port.period);
        let mut at = Start::at(port, port.ready.max(port.free), tx.free_at);
        let (mut busy, mut payload, mut i) = (prev.dur, p0, 0);
        // Runs of equal TLPs: the first of a run is paced by the TLP before it, the others by
        // the run's own step. Each is ready at the edge the port frees, no earlier than
        // `port.ready` since the first was not.
        while let Some(&(_, n)) = rest.get(i) {
            let step = Step::new(self.duration(base + n as u64), beats(n as u64), port.period);
            let run_start = i;
            at = at.next(&prev, port);
            i += 1;
            while rest.get(i).is_some_and(|&(_, m)| m == n) {
                at = at.next(&step, port);
                i += 1;
            }
            let run = (i - run_start) as u64;
            (busy, payload, prev) = (busy + step.dur * run, payload + n as u64 * run, step);
        }
        let end = at.time(port) + prev.dur;
        (tx.free_at, tx.busy, port.free) = (end, busy, at.cycle + prev.beats);
        let tlps = reqs.len() as u64;
        let sent = Sent {
            tlps,
            payload,
            overhead: tlps * base,
        };
        tx.store(&mut self.dirs[d as usize], sent, 0, acks);
        // The receiver's ACKs ride on its next TLP, after this train: owed all at once.
        self.acknowledge(d.other(), tlps);
        Some(end)
    }

    /// The completions of a read of `len` bytes at `addr` whose request finished crossing at
    /// `up_end` (see [`ReadShape`]); returns when the last one has crossed (`up_end + latency`
    /// if there is none): what one [`Link::send_tlp`] per completion gives.
    pub fn completions(
        &mut self,
        shape: &ReadShape,
        up_end: SimTime,
        addr: u64,
        len: u32,
    ) -> SimTime {
        shape.check();
        // Within one MPS block: a single completion, the direction's owed DLLP bytes ahead of it.
        let len = len as u64;
        if len > 0 && (addr & (shape.mps - 1)) + len <= shape.mps {
            let wire = shape.cpl_header + self.framing + len;
            return self.transmit(up_end + shape.latency, Dir::Down, 1, len, wire);
        }
        let acks = (self.tlps_per_ack as u64, self.dllp_bytes);
        let mut down = Lane::load(&self.dirs[Dir::Down as usize]);
        let cpl = Completions::new(self, shape);
        let (last, n) = cpl.send(self, &mut down, up_end, addr, len);
        let sent = Sent {
            tlps: n,
            payload: len,
            overhead: n * cpl.base,
        };
        down.store(&mut self.dirs[Dir::Down as usize], sent, 0, acks);
        self.acknowledge(Dir::Up, n);
        last
    }
}

/// A read's completions on the downstream lane, with the constants of their pacing.
#[derive(Clone, Copy, Debug)]
struct Completions {
    latency: SimTime,
    mps: u64,
    /// `log2(mps)`.
    shift: u32,
    /// Header and framing bytes of one completion.
    base: u64,
    /// How long a completion of MPS payload takes without DLLP bytes ahead of it.
    full: SimTime,
}

impl Completions {
    fn new(link: &mut Link, shape: &ReadShape) -> Completions {
        let base = shape.cpl_header + link.framing;
        Completions {
            latency: shape.latency,
            mps: shape.mps,
            shift: shape.mps.trailing_zeros(),
            base,
            full: link.duration(base + shape.mps),
        }
    }

    /// Sends on `down` the completions of a read of `len` bytes at `addr` whose request
    /// finished crossing at `up_end`. Returns when the last has crossed and how many there
    /// were; the caller owes their ACKs upstream.
    #[inline(always)]
    fn send(
        &self,
        link: &mut Link,
        down: &mut Lane,
        up_end: SimTime,
        addr: u64,
        len: u64,
    ) -> (SimTime, u64) {
        let ready = up_end + self.latency;
        // Whole MPS blocks with no DLLP bytes ahead of the first: all take `full`.
        if (addr | len) & (self.mps - 1) == 0 && down.pending == 0 && len > 0 {
            let n = len >> self.shift;
            let d = self.full * n;
            let t = ready.max(down.free_at) + d;
            (down.free_at, down.busy) = (t, down.busy + d);
            return (t, n);
        }
        let (mut a, stop) = (addr, addr + len);
        if a >= stop {
            return (ready, 0);
        }
        // The first carries the DLLP bytes owed and ends at the first MPS boundary; all are
        // ready at `ready`, so each after the first starts when the one before ends.
        let next = ((a & !(self.mps - 1)) + self.mps).min(stop);
        let owed = std::mem::take(&mut down.pending);
        let dur = match (next - a == self.mps, owed) {
            (true, 0) => self.full,
            _ => link.duration(self.base + (next - a) + owed),
        };
        let (mut t, mut busy, mut n) = (ready.max(down.free_at) + dur, dur, 1);
        a = next;
        // Then whole MPS blocks, then what is left.
        let whole = (stop - a) >> self.shift;
        let d = self.full * whole;
        (t, busy, n, a) = (t + d, busy + d, n + whole, a + (whole << self.shift));
        if a < stop {
            let dur = link.duration(self.base + (stop - a));
            (t, busy, n) = (t + dur, busy + dur, n + 1);
        }
        (down.free_at, down.busy) = (t, down.busy + busy);
        (t, n)
    }
}

#[cfg(test)]
mod tests;
