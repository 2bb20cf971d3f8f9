//! A run of TLPs on both directions of a [`Link`] with the link's state held in locals: a
//! device's read requests upstream interleaved with their completions downstream, each TLP
//! paced exactly as [`Link::send_tlp`] paces it (the same start and end times, counters and ACK
//! DLLPs), written back to the link once, when the burst ends (drop).

use super::{Dir, Link};
use crate::time::SimTime;

/// One direction's state and counters while a burst runs.
#[derive(Clone, Copy, Debug)]
struct Side {
    free_at: SimTime,
    unacked: u32,
    pending_dllp_wire: u64,
    tlps: u64,
    dllps: u64,
    payload: u64,
    wire: u64,
    busy: SimTime,
}

/// A burst on `link`, from [`Link::burst`].
#[derive(Debug)]
pub struct LinkBurst<'a> {
    link: &'a mut Link,
    sides: [Side; 2],
}

impl Link {
    /// Starts a burst: TLPs sent through it are paced as by [`Link::send_tlp`].
    pub fn burst(&mut self) -> LinkBurst<'_> {
        let side = |i: usize| {
            let d = &self.dirs[i];
            Side {
                free_at: d.free_at,
                unacked: d.unacked,
                pending_dllp_wire: d.pending_dllp_wire,
                tlps: 0,
                dllps: 0,
                payload: 0,
                wire: 0,
                busy: SimTime::ZERO,
            }
        };
        let sides = [side(0), side(1)];
        LinkBurst { link: self, sides }
    }
}

impl LinkBurst<'_> {
    /// [`Link::send_tlp`]: one TLP of `header` + `payload` bytes on direction `d`, no earlier
    /// than `now`; returns when its bytes start and finish crossing.
    #[inline(always)]
    pub fn send_tlp(
        &mut self,
        now: SimTime,
        d: Dir,
        header: u64,
        payload: u64,
    ) -> (SimTime, SimTime) {
        let i = d as usize;
        let owed = std::mem::take(&mut self.sides[i].pending_dllp_wire);
        let wire = payload + header + self.link.framing + owed;
        let dur = self.link.duration(wire);
        let s = &mut self.sides[i];
        let start = now.max(s.free_at);
        let end = start + dur;
        s.free_at = end;
        s.tlps += 1;
        s.payload += payload;
        s.wire += wire;
        s.busy += dur;
        // The receiver owes one ACK DLLP per `tlps_per_ack` TLPs (`Link::acknowledge`).
        let o = &mut self.sides[1 - i];
        o.unacked += 1;
        if o.unacked >= self.link.tlps_per_ack {
            o.unacked = 0;
            o.dllps += 1;
            o.pending_dllp_wire += self.link.dllp_bytes;
        }
        (start, end)
    }
}

impl Drop for LinkBurst<'_> {
    fn drop(&mut self) {
        for (d, s) in self.link.dirs.iter_mut().zip(self.sides) {
            d.free_at = s.free_at;
            d.unacked = s.unacked;
            d.pending_dllp_wire = s.pending_dllp_wire;
            d.stats.tlps += s.tlps;
            d.stats.dllps += s.dllps;
            d.stats.payload_bytes += s.payload;
            d.stats.wire_bytes += s.wire;
            d.stats.busy += s.busy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    /// Eight 512 B reads (one MRd up, two 256 B completions down each) after three MWr up, with
    /// one ACK per 4 TLPs (the default drive), sent through a burst and TLP by TLP on a second
    /// link: the same times, counters and owed ACKs.
    #[test]
    fn a_burst_paces_and_counts_as_tlp_by_tlp() {
        let cfg = DriveConfig::default_drive();
        assert_eq!(cfg.pcie.tlps_per_ack, 4);
        let (mut a, mut b) = (Link::new(&cfg.pcie), Link::new(&cfg.pcie));
        for l in [&mut a, &mut b] {
            l.memory_write(SimTime::ZERO, Dir::Up, 3 * 256);
        }
        let mut by_burst = Vec::new();
        {
            let mut burst = a.burst();
            for i in 0..8u64 {
                let (s, e) = burst.send_tlp(SimTime::from_ns(10 * i), Dir::Up, 16, 0);
                by_burst.push((s, e));
                for _ in 0..2 {
                    by_burst.push(burst.send_tlp(e + SimTime::from_ns(800), Dir::Down, 12, 256));
                }
            }
        }
        let mut single = Vec::new();
        for i in 0..8u64 {
            let (s, e) = b.send_tlp(SimTime::from_ns(10 * i), Dir::Up, 16, 0);
            single.push((s, e));
            for _ in 0..2 {
                single.push(b.send_tlp(e + SimTime::from_ns(800), Dir::Down, 12, 256));
            }
        }
        assert_eq!(by_burst, single);
        for d in [Dir::Up, Dir::Down] {
            assert_eq!(a.stats(d), b.stats(d), "{d:?} counters");
            assert_eq!(a.free_at(d), b.free_at(d));
            let (x, y) = (&a.dirs[d as usize], &b.dirs[d as usize]);
            assert_eq!(
                (x.unacked, x.pending_dllp_wire),
                (y.unacked, y.pending_dllp_wire)
            );
        }
        // By hand: 3 MWr then 8 MRd up are 11 TLPs, so 2 ACKs are owed downstream (3 TLPs left
        // unacknowledged); 16 completions down owe 4 ACKs upstream.
        let up = a.stats(Dir::Up);
        assert_eq!((up.tlps, up.payload_bytes, up.dllps), (11, 3 * 256, 4));
        let down = a.stats(Dir::Down);
        assert_eq!(
            (down.tlps, down.payload_bytes, down.dllps),
            (16, 16 * 256, 2)
        );
        assert_eq!(a.dirs[Dir::Down as usize].unacked, 3);
    }
}
