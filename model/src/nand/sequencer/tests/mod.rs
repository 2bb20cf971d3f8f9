//! Hand-arithmetic checks of the behavioural sequencer (ONFI timing of the SM2262 preset:
//! 200 MHz sequencer clock = 5 ns/cycle, 800 MT/s = 4 B/cycle, tWC 25 ns = 5 cycles,
//! tWB 100 ns = 20, tRR 20 ns = 4, tWHR 80 ns = 16, tADL 150 ns = 30, tCCS 300 ns = 60; the
//! PHY's RE# preamble tRPRE 15 ns = 3 cycles and postamble tRPST 25 ns = 5 around every data
//! out: 40 ns per burst; R/B# reaches a way 2 cycles later through the PHY (`rb_lag`) and
//! 4 cycles through its synchronizer: 30 ns after the NAND's ready). An op completes when the
//! byte of its last data-out beat is back: the PHY's read return, pipe 4 + tDQSRE 4 + io
//! round trip 2 + capture 1 = 11 cycles (55 ns) after the beat, 30 ns after the postamble.

mod cache;
mod one_shot;
mod suspend;

use super::*;

pub(super) fn onfi() -> OnfiConfig {
    OnfiConfig {
        transfer_mts: 800,
        core_clock_mhz: 200,
        t_wc_ns: 25.0,
        t_adl_ns: 150.0,
        t_wb_ns: 100.0,
        t_whr_ns: 80.0,
        t_ccs_ns: 300.0,
        t_rr_ns: 20.0,
        addr_cycles: 5,
        t_rcbsy_us: 3.0,
        pins: Default::default(),
    }
}

fn op(id: u64, way: u8, kind: NandOpKind, planes: u8, bus_bytes: u32, array: SimTime) -> SeqOp {
    SeqOp {
        id,
        way,
        die: 0,
        kind,
        planes,
        bus_bytes,
        array_time: array,
        pages: 1,
    }
}

pub(super) const PAGE: u32 = 16384 + 2208;

#[test]
fn single_read_is_commands_twb_tr_trr_and_data() {
    let ops = [(
        SimTime::ZERO,
        op(1, 0, NandOpKind::Read, 1, PAGE, SimTime::from_us(56)),
    )];
    let done = run_op_list(&onfi(), 4, 1, &ops);
    assert_eq!(done.len(), 1);
    // intake 3 cycles (15 ns); 00h + 5 address + 30h = 7 latches x 25 ns = 175 ns;
    // tWB 100 ns; tR 56 us; tRR 20 ns; R/B# through the PHY and synchronizer 6 cycles (30 ns);
    // RE# preamble 15 ns, 18592 B at 800 MB/s = 23.24 us, the last byte back 55 ns after its
    // beat (the 25 ns postamble runs meanwhile).
    let expect_ns = 15 + 175 + 100 + 56_000 + 20 + 30 + 15 + 23_240 + 55;
    assert_eq!(done[0].started, SimTime::from_ns(15));
    assert_eq!(done[0].completed, SimTime::from_ns(expect_ns));
}

#[test]
fn program_ends_with_status_read() {
    let ops = [(
        SimTime::ZERO,
        op(7, 1, NandOpKind::Program, 1, PAGE, SimTime::from_us(1900)),
    )];
    let (done, trace, busy) = run_op_list_traced(&onfi(), 4, 1, &ops);
    // 80h + 5 addr = 6 latches (150 ns), tADL 150 ns, data 23.24 us, 10h (25 ns);
    // tWB 100 ns, tPROG 1900 us; 70h (25 ns), tWHR 80 ns, one status beat (5 ns) after its
    // RE# preamble (15 ns), the status byte back 55 ns after the beat.
    let first_ns = 150 + 150 + 23_240 + 25;
    let expect_ns = 15 + first_ns + 100 + 1_900_000 + 30 + 25 + 80 + 15 + 5 + 55;
    assert_eq!(done[0].completed, SimTime::from_ns(expect_ns));
    assert_eq!(busy, (first_ns + 150) / 5);
    let cmds: Vec<u8> = trace
        .iter()
        .filter_map(|e| {
            if let BusKind::Cmd(c) = e.kind {
                Some(c)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(cmds, vec![0x80, 0x10, 0x70]);
    assert!(trace.iter().all(|e| e.way == 1));
}

#[test]
fn multiplane_erase_uses_d1_then_d0_and_row_address_only() {
    let ops = [(
        SimTime::ZERO,
        op(3, 2, NandOpKind::Erase, 2, 0, SimTime::from_ms(6)),
    )];
    let (done, trace, _) = run_op_list_traced(&onfi(), 4, 1, &ops);
    let kinds: Vec<BusKind> = trace.iter().map(|e| e.kind).collect();
    use BusKind::*;
    assert_eq!(
        kinds,
        vec![
            Cmd(0x60),
            Addr,
            Addr,
            Addr,
            Cmd(0xD1),
            Cmd(0x60),
            Addr,
            Addr,
            Addr,
            Cmd(0xD0),
            Cmd(0x70),
            DataOut { cycles: 1 }
        ]
    );
    // 2 x 5 latches = 250 ns, tWB 100 ns, tBERS 6 ms, R/B# 30 ns, 70h + tWHR + 1 beat after
    // its preamble, its byte back 55 ns later = 25 + 80 + 15 + 5 + 55 = 180 ns.
    assert_eq!(
        done[0].completed,
        SimTime::from_ns(15 + 250 + 100 + 6_000_000 + 30 + 180)
    );
}

#[test]
fn two_plane_read_changes_column_before_second_plane() {
    let ops = [(
        SimTime::ZERO,
        op(4, 0, NandOpKind::Read, 2, 2 * PAGE, SimTime::from_us(60)),
    )];
    let (done, trace, _) = run_op_list_traced(&onfi(), 4, 1, &ops);
    let cmds: Vec<u8> = trace
        .iter()
        .filter_map(|e| {
            if let BusKind::Cmd(c) = e.kind {
                Some(c)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(cmds, vec![0x00, 0x32, 0x00, 0x30, 0x06, 0xE0, 0x06, 0xE0]);
    // first: 2 x 7 latches = 350 ns; tWB 100; tR 60 us; tRR 20; R/B# 30; then per plane
    // 06h + 5 addr + E0h = 175 ns, tCCS 300 ns, data 23.24 us with its 15 + 25 ns RE# pre-
    // and postamble; the last byte back 30 ns after the last postamble.
    let expect = 15 + 350 + 100 + 60_000 + 20 + 30 + 2 * (175 + 300 + 15 + 23_240 + 25) + 30;
    assert_eq!(done[0].completed, SimTime::from_ns(expect));
}

#[test]
fn busy_way_does_not_block_others_and_bus_is_shared() {
    // Way 0 programs (long tPROG), way 1 reads: the read is not held up by the program's array time.
    let ops = [
        (
            SimTime::ZERO,
            op(1, 0, NandOpKind::Program, 1, PAGE, SimTime::from_us(1900)),
        ),
        (
            SimTime::ZERO,
            op(2, 1, NandOpKind::Read, 1, PAGE, SimTime::from_us(56)),
        ),
    ];
    let done = run_op_list(&onfi(), 4, 1, &ops);
    let read = done.iter().find(|c| c.id == 2).unwrap();
    // The read is accepted one cycle after the program (ready at cycle 3) but waits for the
    // program's first phase: 150 + 150 + 23240 + 25 = 23565 ns after the program starts at
    // 15 ns, plus the 1-cycle bus turnaround (5 ns).
    let start = 15 + 23_565 + 5;
    assert_eq!(read.started, SimTime::from_ns(start));
    assert_eq!(
        read.completed,
        SimTime::from_ns(start + 175 + 100 + 56_000 + 20 + 30 + 15 + 23_240 + 55)
    );
    assert_eq!(done[0].id, 2, "the read finishes long before the program");
}

#[test]
fn round_robin_grants_in_way_order_after_last_grant() {
    // Four reads issued together; ways 3,2,1,0 in enqueue order. The intake accepts one op per
    // cycle, so way 3 requests first and wins; then ways 0,1,2 in round-robin order after 3.
    let ops: Vec<_> = (0..4u8)
        .map(|k| {
            (
                SimTime::ZERO,
                op(
                    k as u64,
                    3 - k,
                    NandOpKind::Read,
                    1,
                    4096,
                    SimTime::from_us(5),
                ),
            )
        })
        .collect();
    let (_, trace, _) = run_op_list_traced(&onfi(), 4, 1, &ops);
    let firsts: Vec<u8> = trace
        .iter()
        .filter(|e| e.kind == BusKind::Cmd(0x00))
        .map(|e| e.way)
        .collect();
    assert_eq!(firsts, vec![3, 0, 1, 2]);
}

/// Bus saturation: with N ways each read holds the bus C + D cycles (C = 7 latches, D = data out
/// with its RE# preamble and postamble) and leaves it for tWB + tR + tRR. The bus is never idle
/// in steady state when the other N - 1 ways' phases cover that gap: tWB + tR + tRR + sync <=
/// (N - 1)(C + D + 2 gaps). For N = 4, 16 KiB+spare pages (D = 3 + 4648 + 5 = 4656, C = 35):
/// tR <= 3 x 4693 - 28 cycles = 70.2 us; 56 us (LSB) holds.
#[test]
fn four_way_back_to_back_reads_keep_bus_busy() {
    let t = SeqTiming::new(&onfi());
    let (c, d) = (
        7 * t.latch as u64,
        t.data_out_cycles(t.plane_data_cycles(PAGE, 1) as u64),
    );
    assert_eq!((c, d), (35, 4656));
    let t_r = SimTime::from_us(56);
    assert!(
        t.wait_cycles(
            &op(0, 0, NandOpKind::Read, 1, PAGE, t_r),
            t.to_cycles_ceil(t_r)
        ) + RB_SYNC_CYCLES
            + t.rb_lag as u64
            <= 3 * (c + d + 2),
        "saturation condition"
    );
    let per_way = 16u64;
    let ops: Vec<_> = (0..per_way * 4)
        .map(|k| {
            (
                SimTime::ZERO,
                op(k, (k % 4) as u8, NandOpKind::Read, 1, PAGE, t_r),
            )
        })
        .collect();
    let (done, _, busy) = run_op_list_traced(&onfi(), 4, 1, &ops);
    let end = done.iter().map(|c| c.completed).max().unwrap();
    let frac = busy as f64 / t.to_cycles_ceil(end) as f64;
    println!(
        "4-way back-to-back reads: bus busy {:.2} % over {} ({} reads)",
        frac * 100.0,
        end,
        done.len()
    );
    assert_eq!(busy, per_way * 4 * (c + d));
    // Idle: the 3-cycle intake, then way 0's first command phase and its tWB + tR + tRR + the
    // R/B# delay (PHY 2, synchronizer 4).
    // Then every phase follows the previous one after the 1-cycle turnaround: 64 data and the
    // remaining 60 command phases, 123 gaps; the last byte back 6 cycles after the postamble.
    assert_eq!(
        t.to_cycles_ceil(end),
        3 + c + (20 + 11200 + 4 + 2 + 4) + 64 * d + 60 * c + 123 + 6
    );
    assert!(frac >= 0.95, "bus busy {frac}");
}

#[test]
fn engine_style_calls_match_run_op_list() {
    // Calling advance at arbitrary times (as the drive's engine does) gives the same result.
    let ops: Vec<_> = (0..12u64)
        .map(|k| {
            (
                SimTime::from_ns(k * 777),
                op(
                    k,
                    (k % 3) as u8,
                    if k % 4 == 1 {
                        NandOpKind::Program
                    } else {
                        NandOpKind::Read
                    },
                    1 + (k % 2) as u8,
                    8192,
                    SimTime::from_us(20 + k),
                ),
            )
        })
        .collect();
    let reference = run_op_list(&onfi(), 4, 1, &ops);
    let (done, seq) = run_engine_style(&ops, SimTime::from_ns(333));
    assert_eq!(done, reference);
    assert_eq!(
        seq.bus_busy_time(),
        seq.timing().to_time(seq.bus_cycles_until_now())
    );
}

/// Runs `ops` the way the drive's engine does: `advance` every `step` up to each issue time,
/// then from event to event until done.
pub(super) fn run_engine_style(
    ops: &[(SimTime, SeqOp)],
    step: SimTime,
) -> (Vec<SeqCompletion>, ChannelSequencer) {
    let mut seq = ChannelSequencer::new(&onfi(), 4, 1);
    let mut done = Vec::new();
    let mut now = SimTime::ZERO;
    for (t, o) in ops {
        while now < *t {
            now = (now + step).min(*t);
            seq.advance(now, &mut done);
        }
        seq.enqueue(*t, *o);
    }
    while let Some(e) = seq.next_event_time() {
        seq.advance(e, &mut done);
    }
    (done, seq)
}

#[test]
fn page_type_sets_the_read_time_on_the_channel() {
    // Two single-unit reads of FTL-level ops on ways 0 and 1 of channel 0, issued together, their
    // array times from the die timing the drive uses (`NandTiming::array_time`): page 0 (LSB,
    // tR 56 us) and page 2 (MSB, 76 us). Each needs 7 command/address latches (175 ns), tWB
    // 100 ns, tR, tRR 20 ns and 4648 B of data out (5.81 us); they overlap, so the MSB read
    // completes about 20 us (the tR difference) after the LSB one.
    use crate::config::DriveConfig;
    use crate::ftl::{NandOp, OpPurpose};
    use crate::nand::{CellMode, DieId, NandTiming, PhysPage};
    let mut cfg = DriveConfig::default_drive();
    // tR pinned to the figures above (the preset's TLC tR values are fitted).
    cfg.nand.tlc.t_read_lsb_us = 56.0;
    cfg.nand.tlc.t_read_csb_us = 66.0;
    cfg.nand.tlc.t_read_msb_us = 76.0;
    let timing = NandTiming::new(&cfg.nand, &cfg.onfi);
    let seq_op = |id: u64, way: u8, page: u32| {
        let nand = NandOp {
            kind: NandOpKind::Read,
            mode: CellMode::Tlc,
            addr: PhysPage {
                die: DieId {
                    channel: 0,
                    way,
                    die: 0,
                },
                plane: 0,
                block: 3,
                page,
            },
            planes: 1,
            bus_bytes: 4648,
            purpose: OpPurpose::HostRead,
            after: None,
        };
        let s = op(id, way, NandOpKind::Read, 1, 4648, timing.array_time(&nand));
        (SimTime::ZERO, s)
    };
    let g = &cfg.geometry;
    let done = run_op_list(
        &cfg.onfi,
        g.ways_per_channel as u8,
        g.dies_per_way as u8,
        &[seq_op(0, 0, 0), seq_op(1, 1, 2)],
    );
    let lsb = done.iter().find(|c| c.id == 0).unwrap().completed;
    let msb = done.iter().find(|c| c.id == 1).unwrap().completed;
    let base = SimTime::from_ns(175 + 100 + 20 + 5_810);
    let us = SimTime::from_us;
    // Beyond `base + tR`: intake 15, R/B# 30, RE# preamble 15, the last byte's return 55 ns.
    assert!(
        lsb >= base + us(56) && lsb <= base + us(56) + SimTime::from_ns(115),
        "{lsb}"
    );
    // The MSB read's commands went out right after the LSB read's (175 ns later at most).
    assert!(
        msb >= base + us(76) && msb <= base + us(76) + SimTime::from_ns(300),
        "{msb}"
    );
}
