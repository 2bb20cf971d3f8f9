//! Trains against the per-TLP reference ([`Link::send_tlp`] for every TLP, the port's
//! arithmetic written out per TLP) over randomized links, port clocks and moves.

use super::{Port, ReadShape, ReadTrain};
use crate::config::{DriveConfig, PcieConfig};
use crate::pcie::link::{Dir, Link};
use crate::rng::Lcg;
use crate::time::SimTime;

/// A link of random rate, MPS and ACK coalescing, with random traffic behind it on both
/// directions (so either may be busy and owe ACK bytes or count unacknowledged TLPs).
fn random_link(rng: &mut Lcg) -> (PcieConfig, Link) {
    let mut cfg = DriveConfig::default_drive().pcie;
    cfg.lanes = rng.pick(&[1, 2, 4, 8, 16]);
    cfg.lane_gts = rng.pick(&[2.5, 5.0, 8.0, 16.0, 32.0]);
    cfg.mps_bytes = rng.pick(&[128, 256, 512, 4096]);
    cfg.tlp_header_bytes = rng.pick(&[12, 16]);
    cfg.dllp_bytes = rng.pick(&[0, 8, 8, 6]);
    cfg.tlps_per_ack = rng.pick(&[1, 2, 3, 4, 4, 5, 8]);
    cfg.host_read_latency_ns = rng.pick(&[0.0, 10.0, 800.0, 1234.5]);
    let mut link = Link::new(&cfg);
    for _ in 0..rng.below(12) {
        let d = rng.pick(&[Dir::Up, Dir::Down]);
        let at = SimTime(rng.below(3_000_000));
        link.send_tlp(at, d, 16, rng.below(600));
    }
    (cfg, link)
}

/// A random clocked port: period, ready and free cycles near the link's traffic.
fn random_port(rng: &mut Lcg) -> Port {
    let period = rng.pick(&[4_000, 4_000, 1_000, 2_500, 7_919]);
    Port {
        period,
        ready: rng.below(3_000_000 / period),
        free: rng.below(3_000_000 / period),
    }
}

/// Random (address, bytes) moves: contiguous equal runs, odd sizes, unaligned addresses.
fn random_reqs(rng: &mut Lcg, count: u64) -> Vec<(u64, u32)> {
    let mut addr = rng.below(1 << 20) * rng.pick(&[1, 4, 512]);
    let odd = 1 + rng.below(4096) as u32;
    let mut len = rng.pick(&[64, 256, 512, odd]);
    let mut reqs = Vec::new();
    for _ in 0..count {
        if rng.below(4) == 0 {
            let odd = 1 + rng.below(4096) as u32;
            len = rng.pick(&[1, 4, 100, 128, 256, 512, 513, 4096, odd]);
            addr += rng.below(5000);
        }
        reqs.push((addr, len));
        addr += len as u64;
    }
    reqs
}

fn mwr_beats(n: u64) -> u64 {
    1 + n.div_ceil(16)
}

/// The reference of [`Link::post_train`]: one `send_tlp` per TLP, the port per TLP.
fn posts_by_tlp(
    l: &mut Link,
    d: Dir,
    header: u64,
    port: &mut Port,
    reqs: &[(u64, u32)],
) -> Option<SimTime> {
    let mut end = None;
    for &(_, n) in reqs {
        let now = port.edge(port.ready.max(port.free));
        let (start, e) = l.send_tlp(now, d, header, n as u64);
        port.free = start.0.div_ceil(port.period) + mwr_beats(n as u64);
        end = Some(e);
    }
    end
}

/// The reference of [`Link::completions`]: one `send_tlp` per completion.
fn completions_by_tlp(
    l: &mut Link,
    shape: &ReadShape,
    up_end: SimTime,
    addr: u64,
    len: u32,
) -> SimTime {
    let ready = up_end + shape.latency;
    let (mut a, stop, mut last) = (addr, addr + len as u64, ready);
    while a < stop {
        let next = ((a & !(shape.mps - 1)) + shape.mps).min(stop);
        last = l.send_tlp(ready, Dir::Down, shape.cpl_header, next - a).1;
        a = next;
    }
    last
}

/// The reference of [`Link::read_train`]: one `send_tlp` per TLP, the port and tags per TLP.
fn reads_by_tlp<const TAGS: usize>(
    l: &mut Link,
    shape: &ReadShape,
    port: &mut Port,
    reqs: &[(u64, u32)],
    req_beats: u64,
) -> Option<ReadTrain> {
    let mut tags = [port.ready; TAGS];
    let mut out = None;
    for (i, &(a, n)) in reqs.iter().enumerate() {
        let now = port.edge(tags[i % TAGS].max(port.free));
        let (start, end) = l.send_tlp(now, Dir::Up, shape.req_header, 0);
        port.free = start.0.div_ceil(port.period) + req_beats;
        let last = completions_by_tlp(l, shape, end, a, n);
        tags[i % TAGS] = last.0.div_ceil(port.period);
        let latest = out.map_or(last, |r: ReadTrain| r.last.max(last));
        out = Some(ReadTrain {
            up_end: end,
            last: latest,
        });
    }
    out
}

fn shape_of(cfg: &PcieConfig) -> ReadShape {
    ReadShape {
        req_header: cfg.tlp_header_bytes as u64,
        cpl_header: 12,
        mps: cfg.mps_bytes as u64,
        latency: SimTime::from_ns_f64(cfg.host_read_latency_ns),
    }
}

#[test]
fn posted_trains_pace_as_one_tlp_at_a_time() {
    let mut rng = Lcg(7);
    for case in 0..3000 {
        let (cfg, mut train) = random_link(&mut rng);
        let (mut port, count) = (random_port(&mut rng), rng.below(40));
        let mut reqs = random_reqs(&mut rng, count);
        if rng.below(3) == 0 {
            // MPS-sized TLPs back to back: the front end's data writes.
            let mps = cfg.mps_bytes.min(4096);
            reqs = (0..rng.below(40)).map(|i| (i * mps as u64, mps)).collect();
        }
        let mut tlp = train.clone();
        let (d, header) = (rng.pick(&[Dir::Up, Dir::Down]), cfg.tlp_header_bytes as u64);
        let mut by_tlp = port;
        let got = train.post_train(d, header, &mut port, &reqs, mwr_beats);
        let want = posts_by_tlp(&mut tlp, d, header, &mut by_tlp, &reqs);
        assert_eq!((got, port), (want, by_tlp), "case {case}: {reqs:?}");
        assert_eq!(
            train.dirs_state(),
            tlp.dirs_state(),
            "case {case}: {reqs:?}"
        );
    }
}

fn check_reads<const TAGS: usize>(rng: &mut Lcg, case: usize) {
    let (cfg, link) = random_link(rng);
    let (port, count) = (random_port(rng), rng.below(80));
    let mut reqs = random_reqs(rng, count);
    if rng.below(3) == 0 {
        // MRRS-sized requests of a page-aligned buffer: the front end's data reads.
        let mrrs = rng.pick(&[256, 512, 1024]);
        reqs = (0..rng.below(80))
            .map(|i| (4096 + i * mrrs as u64, mrrs))
            .collect();
    }
    let req_beats = rng.pick(&[1, 1, 2]);
    assert_reads_pace_by_tlp::<TAGS>(&cfg, &link, port, &reqs, req_beats, case);
}

/// `reqs` as a read train on one copy of `link` and TLP by TLP on another, both from `port`:
/// the same result, port and link state.
fn assert_reads_pace_by_tlp<const TAGS: usize>(
    cfg: &PcieConfig,
    link: &Link,
    port: Port,
    reqs: &[(u64, u32)],
    req_beats: u64,
    case: impl std::fmt::Display,
) {
    let shape = shape_of(cfg);
    let (mut train, mut tlp, mut by_train, mut by_tlp) = (link.clone(), link.clone(), port, port);
    let got = train.read_train::<TAGS>(&shape, &mut by_train, reqs, req_beats);
    let want = reads_by_tlp::<TAGS>(&mut tlp, &shape, &mut by_tlp, reqs, req_beats);
    assert_eq!((got, by_train), (want, by_tlp), "case {case}: {reqs:?}");
    assert_eq!(
        train.dirs_state(),
        tlp.dirs_state(),
        "case {case}: {reqs:?}"
    );
}

#[test]
fn read_trains_pace_as_one_tlp_at_a_time() {
    let mut rng = Lcg(11);
    for case in 0..2000 {
        check_reads::<32>(&mut rng, case);
        // Few tags: requests wait for their tags often.
        check_reads::<3>(&mut rng, case);
    }
}

#[test]
fn completions_pace_as_one_tlp_at_a_time() {
    let mut rng = Lcg(13);
    for case in 0..3000 {
        let (cfg, mut fast) = random_link(&mut rng);
        let shape = shape_of(&cfg);
        let mut tlp = fast.clone();
        let up_end = SimTime(rng.below(4_000_000));
        let (addr, len) = random_reqs(&mut rng, 1)[0];
        let got = fast.completions(&shape, up_end, addr, len);
        assert_eq!(
            got,
            completions_by_tlp(&mut tlp, &shape, up_end, addr, len),
            "case {case}"
        );
        assert_eq!(
            fast.dirs_state(),
            tlp.dirs_state(),
            "case {case}: {addr:#x}+{len}"
        );
    }
}

/// Equal MRRS-aligned requests, as the front end's data reads, on a link with traffic behind it
/// that leaves either direction busy past the train's start or idle, owing ACK bytes or not.
fn even_case(rng: &mut Lcg) -> (PcieConfig, Link, Port, Vec<(u64, u32)>) {
    let (mut cfg, _) = random_link(rng);
    cfg.tlps_per_ack = 1 + rng.below(8) as u32;
    cfg.mps_bytes = rng.pick(&[128, 256, 512]);
    let mut link = Link::new(&cfg);
    let mut port = random_port(rng);
    let at = port.period * port.ready.max(port.free);
    for _ in 0..rng.below(6) {
        let d = rng.pick(&[Dir::Up, Dir::Down]);
        // Around the train's first request: before it (idle), or still busy when it starts.
        let t = SimTime((at + rng.below(4_000_000)).saturating_sub(2_000_000));
        link.send_tlp(t, d, 16, rng.pick(&[0, 64, 256, 4096]));
    }
    if rng.below(4) == 0 {
        port.ready += rng.below(1000);
    }
    let mrrs = rng.pick(&[256, 512, 1024, 2048, 4096]);
    let base = 4096 * rng.below(1 << 20);
    let reqs = (0..1 + rng.below(34))
        .map(|i| (base + i * mrrs as u64, mrrs))
        .collect();
    (cfg, link, port, reqs)
}

/// Checks [`Link::even_reads`] against the reference on `reqs`; returns whether it applied
/// (and, if not, that it left the link and port as they were).
fn check_even(cfg: &PcieConfig, link: &Link, port: Port, reqs: &[(u64, u32)], case: u64) -> bool {
    let (mut even, mut tlp) = (link.clone(), link.clone());
    let (mut by_even, mut by_tlp) = (port, port);
    let shape = shape_of(cfg);
    let got = even.even_reads(&shape, &mut by_even, reqs, 1, 32);
    if got.is_none() {
        assert_eq!(
            (even.dirs_state(), by_even),
            (link.dirs_state(), port),
            "case {case}"
        );
        return false;
    }
    let want = reads_by_tlp::<32>(&mut tlp, &shape, &mut by_tlp, reqs, 1);
    assert_eq!(
        (got, by_even),
        (want, by_tlp),
        "case {case}: {cfg:?} {reqs:?}"
    );
    assert_eq!(even.dirs_state(), tlp.dirs_state(), "case {case}: {reqs:?}");
    true
}

#[test]
fn even_reads_pace_as_one_tlp_at_a_time() {
    let mut rng = Lcg(17);
    let (mut hits, mut misses) = (0, 0);
    for case in 0..6000 {
        let (cfg, link, port, reqs) = even_case(&mut rng);
        match check_even(&cfg, &link, port, &reqs, case) {
            true => hits += 1,
            false => misses += 1,
        }
    }
    // Both the closed form and its refusals (more than 32 requests, fast links) are covered.
    assert!(
        hits > 3000 && misses > 500,
        "{hits} closed, {misses} refused"
    );
}

#[test]
fn even_reads_refuse_what_is_not_their_shape() {
    let mut rng = Lcg(19);
    for case in 0..500 {
        let (cfg, link, port, mut reqs) = even_case(&mut rng);
        let (mps, n) = (cfg.mps_bytes as u64, reqs.len());
        if !check_even(&cfg, &link, port, &reqs, case) {
            continue;
        }
        let i = rng.below(n as u64) as usize;
        let refused = match rng.below(4) {
            // One more than the tags: the last would wait for the first's tag.
            0 => {
                let (a, m) = reqs[n - 1];
                reqs.extend((1..=32 - n as u64 + 1).map(|j| (a + j * m as u64, m)));
                reqs.len() > 32
            }
            // One request shorter, or not MPS-aligned, or a whole MPS block off the others.
            1 => {
                reqs[i].1 -= 1;
                true
            }
            2 => {
                reqs[i].0 += mps / 2;
                true
            }
            _ => {
                reqs[i].0 += mps;
                false
            }
        };
        assert_eq!(
            !check_even(&cfg, &link, port, &reqs, case),
            refused,
            "case {case}"
        );
        assert_reads_pace_by_tlp::<32>(&cfg, &link, port, &reqs, 1, case);
    }
}

#[test]
fn one_completion_paces_as_send_tlp() {
    let mut rng = Lcg(23);
    for case in 0..2000 {
        let (cfg, mut fast) = random_link(&mut rng);
        let shape = shape_of(&cfg);
        let mut tlp = fast.clone();
        let up_end = SimTime(rng.below(4_000_000));
        // An SQ entry, or a piece ending at or just past an MPS boundary.
        let len = rng.pick(&[64, 64, 1, shape.mps as u32, 8, 16]);
        let addr = rng.below(1 << 30) * 64 + rng.pick(&[0, shape.mps - len as u64, 1]);
        let got = fast.completions(&shape, up_end, addr, len);
        let want = completions_by_tlp(&mut tlp, &shape, up_end, addr, len);
        assert_eq!(got, want, "case {case}: {addr:#x}+{len}");
        assert_eq!(
            fast.dirs_state(),
            tlp.dirs_state(),
            "case {case}: {addr:#x}+{len}"
        );
    }
}
