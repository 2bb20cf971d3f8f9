//! Drive tests of the NAND path with hand-derived ONFI timing: hand-made op batches on dies and
//! channels (way interleaving, `after` dependencies across dies), per-window channel and die
//! utilisation, and a flush waiting for host-data programs already running
//! (`nand_path.rs`; ONFI 4.1 latch/data-out arithmetic as in `tests.rs`).

use super::super::*;
use super::{flat_cfg, run_all};
use crate::ftl::{NandOpKind, OpPurpose};
use crate::nand::{CellMode, DieId, PhysPage};

fn read_op(channel: u16, way: u8, block: u32, bus_bytes: u32) -> NandOp {
    NandOp {
        kind: NandOpKind::Read,
        mode: CellMode::Tlc,
        addr: PhysPage {
            die: DieId {
                channel,
                way,
                die: 0,
            },
            plane: 0,
            block,
            page: 0,
        },
        planes: 1,
        bus_bytes,
        purpose: OpPurpose::GcRead,
        after: None,
    }
}

/// Runs a hand-made op batch on an idle drive; returns when the last op completed.
fn time_batch(cfg: &DriveConfig, ops: &[NandOp]) -> SimTime {
    time_batch_crossing(cfg, ops, true)
}

/// [`time_batch`], with the clock crossings between the firmware port and the sequencers
/// (`NandCrossing`) kept or taken out.
fn time_batch_crossing(cfg: &DriveConfig, ops: &[NandOp], crossing: bool) -> SimTime {
    let mut d = Drive::new(cfg, 1).unwrap();
    if !crossing {
        d.nand_x = None;
    }
    let mut batch = ops.to_vec();
    d.dispatch_batch(&mut batch, NONE);
    let mut guard = 0;
    while d.ops_inflight > 0 {
        let (at, ev) = d.q.pop().expect("ops in flight have events");
        d.handle(at, ev);
        guard += 1;
        assert!(guard < 100_000);
    }
    d.now()
}

#[test]
fn dies_interleave_on_one_channel_when_the_bus_is_the_bottleneck() {
    // One channel, 4 ways, tR 50 us; 4 full-page reads (18592 B = 23.24 us of data out each).
    // Interleaved: commands go out back to back (7 latches = 175 ns each), the dies read in
    // parallel, then the 4 data-outs share the bus: ≈ 175 + 100 + 50_000 + 20 + 4 × 23_240 ns
    // = 143.255 us (plus the other ways' command slots). Serialised it would be
    // 4 × (175 + 100 + 50_000 + 20 + 23_240) = 294.1 us.
    let mut cfg = flat_cfg();
    cfg.geometry.channels = 1;
    cfg.geometry.ways_per_channel = 4;
    let ops: Vec<_> = (0..4).map(|w| read_op(0, w, 1, 18_592)).collect();
    let t = time_batch(&cfg, &ops);
    let hand = SimTime::from_ns(175 + 100 + 50_000 + 20 + 4 * 23_240);
    assert!(
        t >= hand && t <= hand + SimTime::from_ns(4 * 175 + 200),
        "{t} vs {hand}"
    );
    // The same 4 reads on one die run one after another.
    let same: Vec<_> = (0..4).map(|b| read_op(0, 0, b, 18_592)).collect();
    let t1 = time_batch(&cfg, &same);
    let serial = SimTime::from_ns(4 * (175 + 100 + 50_000 + 20 + 23_240));
    assert!(
        t1 >= serial && t1 <= serial + SimTime::from_ns(400),
        "{t1} vs {serial}"
    );
}

#[test]
fn a_nand_op_pays_the_clock_crossing_down_and_up() {
    // One read on an idle channel, handed over at time 0, with the sequencer on its 200 MHz
    // clock (5 ns) and the firmware port on the 250 MHz PCIe clock (4 ns). Down: pushed at the
    // PCIe edge at 0 ns, the sequencer counts it from its second edge after, 10 ns, so it takes
    // it in cycle 2 rather than 0 and everything it does for the op, the completion included,
    // happens 10 ns later. Up: the completion is pushed at that sequencer edge and seen at the
    // second PCIe edge strictly after it.
    let mut cfg = flat_cfg();
    cfg.geometry.channels = 1;
    let ops = [read_op(0, 0, 1, 18_592)];
    let direct = time_batch_crossing(&cfg, &ops, false);
    assert_eq!(direct.as_ps() % 5_000, 0, "completes at a sequencer edge");
    let pushed = direct.as_ps() + 10_000;
    let seen = (pushed / 4_000 + 2) * 4_000;
    assert_eq!(time_batch(&cfg, &ops), SimTime::from_ps(seen));
}

#[test]
fn after_dependency_delays_a_cross_die_op() {
    // A program on channel 1 after a read on channel 0: the program's data-in cannot start before
    // the read completes (175 + 100 + 50_000 + 20 + 5_810 ns, its data out inside the PHY's
    // 15 ns RE# preamble and 25 ns postamble), then tPROG (SLC 220 us) follows.
    let cfg = flat_cfg();
    let read = read_op(0, 0, 1, 4_648);
    let mut prog = read_op(1, 0, 2, 18_592);
    prog.kind = NandOpKind::Program;
    prog.mode = CellMode::Slc;
    prog.after = Some(0);
    let t = time_batch(&cfg, &[read, prog]);
    let read_done = SimTime::from_ns(175 + 100 + 50_000 + 20 + 15 + 5_810 + 25);
    // 80h + 5 addr (150 ns), tADL 150 ns, 23.24 us data, 10h 25 ns, tWB 100 ns, tPROG 220 us,
    // status 70h 25 ns + tWHR 80 ns + 5 ns inside its RE# preamble and postamble (40 ns).
    let prog_t = SimTime::from_ns(150 + 150 + 23_240 + 25 + 100 + 220_000 + 25 + 80 + 15 + 5 + 25);
    assert!(
        t >= read_done + prog_t && t <= read_done + prog_t + SimTime::from_ns(200),
        "{t}"
    );
}

#[test]
fn channel_and_die_utilisation_are_reported_per_window() {
    // One 4 KiB read of lpn 0 after the preconditioning: exactly one die spends tR (50 us) in the
    // array, and one channel's bus is driven for 7 latches (175 ns) + 4648 B of data (5.81 us)
    // = 5.985 us, give or take the status/turnaround cycles of the sequencer.
    let mut d = Drive::new(&flat_cfg(), 1).unwrap();
    d.functional_write(0, 16 << 20).unwrap();
    d.reset_stats();
    d.submit(HostIo {
        op: IoOp::Read,
        offset: 0,
        len: 4096,
        queue: 0,
    })
    .unwrap();
    run_all(&mut d);
    let s = d.stats();
    let busy_dies: Vec<_> = s
        .die_array_busy
        .iter()
        .filter(|t| **t > SimTime::ZERO)
        .collect();
    assert_eq!(busy_dies, vec![&SimTime::from_us(50)]);
    let busy_ch: Vec<_> = s
        .channel_bus_busy
        .iter()
        .filter(|t| **t > SimTime::ZERO)
        .copied()
        .collect();
    assert_eq!(busy_ch.len(), 1, "{busy_ch:?}");
    assert!(
        busy_ch[0] >= SimTime::from_ns(5_985) && busy_ch[0] <= SimTime::from_ns(6_100),
        "{busy_ch:?}"
    );
    assert_eq!(s.channel_bus_busy.len(), 8);
    assert_eq!(s.die_array_busy.len(), 16);
    // The read is a 1-plane op: one of the 16 x 2 planes holds the die's 50 us.
    assert_eq!(s.plane_array_busy.len(), 32);
    let busy_planes: Vec<_> = s
        .plane_array_busy
        .iter()
        .filter(|t| **t > SimTime::ZERO)
        .collect();
    assert_eq!(busy_planes, vec![&SimTime::from_us(50)]);
    // One command of one unit, 4000 + 200 ns, on core 0 (the lowest index of two idle cores).
    assert_eq!(
        s.cpu_core_busy,
        vec![SimTime::from_ns(4_200), SimTime::ZERO]
    );
    assert_eq!(s.cpu_busy, SimTime::from_ns(4_200));
}

#[test]
fn flush_waits_for_host_programs_already_running() {
    // 12 writes of 128 KiB = 384 units = one full program unit (2 planes × 3 pages × 4 units)
    // on each of the 16 dies: the writes complete early (link-bound: 1.5 MiB down at ~3.4 GB/s
    // ≈ 0.46 ms), the 16 programs run on. The last program's data (2 × 3 × 18592 B = 139 us of
    // bus, 2 dies per channel) goes in after the last write's data arrived, then tPROG 1900 us
    // (SLC set equal). A flush submitted then has nothing staged, but must wait for them:
    // its latency is within [1900, 1900 + 2 × 139 + slack] us.
    let mut cfg = flat_cfg();
    cfg.nand.slc.t_prog_us = 1900.0;
    cfg.nand.tlc.t_prog_us = 1900.0; // pinned: the preset's is fitted
    cfg.ftl.slc_cache.enabled = false; // native one-shot TLC program units
    let mut d = Drive::new(&cfg, 1).unwrap();
    for i in 0..12u64 {
        d.submit(HostIo {
            op: IoOp::Write,
            offset: i * 131_072,
            len: 131_072,
            queue: (i % 8) as u16,
        })
        .unwrap();
    }
    let mut done = Vec::new();
    while done.len() < 12 {
        assert!(d.run_until_completion(&mut done));
    }
    assert!(
        d.now() < SimTime::from_us(600),
        "writes complete early: {}",
        d.now()
    );
    d.submit(HostIo {
        op: IoOp::Flush,
        offset: 0,
        len: 0,
        queue: 0,
    })
    .unwrap();
    let done = run_all(&mut d);
    let f = done
        .iter()
        .find(|c| c.op == IoOp::Flush)
        .expect("flush completes");
    let lat = f.completed - f.submitted;
    assert!(
        lat >= SimTime::from_us(1900) && lat <= SimTime::from_us(2250),
        "flush after {lat}"
    );
}
