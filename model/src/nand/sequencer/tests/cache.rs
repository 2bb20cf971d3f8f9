//! Hand-arithmetic checks of the sequential cache read (ONFI 4.1 section 5.6: 00h-addr-30h,
//! 31h ... 31h, 3Fh) on the SM2262 preset's ONFI timing: 200 MHz = 5 ns/cycle, 800 MT/s =
//! 4 B/cycle, tWC 25 ns, tWB 100 ns, tRR 20 ns, tRCBSY 3 us (Micron "cache busy", typical).

use super::super::*;
use super::{onfi, run_engine_style, PAGE};

fn cache_read(id: u64, way: u8, pages: u8, t_r: SimTime) -> SeqOp {
    SeqOp {
        id,
        way,
        die: 0,
        kind: NandOpKind::Read,
        planes: 1,
        bus_bytes: PAGE * pages as u32,
        array_time: t_r,
        pages,
    }
}

/// Three pages, tR 56 us, one way, nothing else on the channel. Times in ns:
/// - intake 15; 00h + 5 address + 30h = 7 latches x 25 = 175 (ends 190); tWB 100 + tR 56 000
///   -> R/B# high at 56 290; through the PHY and the synchronizer 30 -> 31h at 56 320,
///   latched by 56 345;
/// - tWB 100 + tRCBSY 3 000 (page 1 into the cache register; the array reads page 2 from
///   59 445 to 115 445) -> ready 59 445; tRR 20 + R/B# 30 -> data out of page 1 from 59 495:
///   RE# preamble 15, 18 592 B / 800 MB/s = 23 240, postamble 25, then 31h (25) -> 82 800;
/// - the array still reads page 2 until 115 445 (> 82 800 + tWB): ready at 115 445 + 3 000 =
///   118 445 (array reads page 3 until 174 445); +50 -> data out of page 2 + 3Fh from 118 495
///   to 141 800;
/// - ready at 174 445 + 3 000 = 177 445; +50 -> data out of page 3 from 177 495, the postamble
///   ends at 200 775 and the last byte is back 30 ns later (11 cycles after its beat): 200 805.
///
/// Three separate reads on the way would take 3 x (175 + 100 + 56 000 + 50 + 23 280) + 15 +
/// 2 x 5 + 30 = 238 870 ns (the next read's commands follow the postamble, not the return):
/// the cache read hides two data-outs behind tR.
#[test]
fn three_page_cache_read_completion_time() {
    let t_r = SimTime::from_us(56);
    let (done, trace, busy) =
        run_op_list_traced(&onfi(), 4, 1, &[(SimTime::ZERO, cache_read(9, 2, 3, t_r))]);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].started, SimTime::from_ns(15));
    assert_eq!(done[0].completed, SimTime::from_ns(200_805));
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
    assert_eq!(cmds, vec![0x00, 0x30, 0x31, 0x31, 0x3F]);
    let outs: Vec<(u64, u32)> = trace
        .iter()
        .filter_map(|e| {
            if let BusKind::DataOut { cycles } = e.kind {
                Some((e.cycle, cycles))
            } else {
                None
            }
        })
        .collect();
    // Data out phases start at 59 495, 118 495, 177 495 ns = cycles 11 899, 23 699, 35 499;
    // the first beat of each follows its 3-cycle RE# preamble.
    assert_eq!(outs, vec![(11_902, 4648), (23_702, 4648), (35_502, 4648)]);
    // Bus held: 7 + 1 + 2 + 0 latches x 5 cycles + 3 pages x (3 + 4648 + 5) cycles.
    assert_eq!(busy, 10 * 5 + 3 * 4656);
    let plain: Vec<_> = (0..3u64)
        .map(|k| {
            (
                SimTime::ZERO,
                SeqOp {
                    pages: 1,
                    bus_bytes: PAGE,
                    id: k,
                    ..cache_read(0, 2, 1, t_r)
                },
            )
        })
        .collect();
    let last = run_op_list(&onfi(), 4, 1, &plain)
        .iter()
        .map(|c| c.completed)
        .max()
        .unwrap();
    assert_eq!(last, SimTime::from_ns(238_870));
}

/// A two-page cache read is 30h, one 31h and 3Fh; with tR shorter than a page's data out
/// (tR 10 us < 23.24 us) the array read of page 2 is over before 3Fh, so 3Fh waits only
/// tWB + tRCBSY: 15 + 175 + 100 + 10 000 + 30 (R/B# through the PHY and synchronizer; 31h at
/// 10 320) + 25 + 100 + 3 000 + 50 (tRR + R/B#; page 1 out at 13 495) + 15 + 23 240 + 25 + 25
/// (3Fh ends 36 800) + 100 + 3 000 + 50 + 15 + 23 240 + 55 = 63 260 (each data out inside its
/// 15 ns RE# preamble and 25 ns postamble; the last byte back 55 ns after its beat).
#[test]
fn two_page_cache_read_with_short_tr() {
    let (done, trace, _) = run_op_list_traced(
        &onfi(),
        4,
        1,
        &[(SimTime::ZERO, cache_read(1, 0, 2, SimTime::from_us(10)))],
    );
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
    assert_eq!(cmds, vec![0x00, 0x30, 0x31, 0x3F]);
    assert_eq!(done[0].completed, SimTime::from_ns(63_260));
}

/// Four ways, each two 8-page cache reads at tR 56 us, all issued at once. Per way and page the
/// array needs tR + tRCBSY = 11 800 cycles, the bus D + 31h + turnaround = 4656 + 5 + 1 = 4662
/// (D: RE# preamble 3 + 4648 beats + postamble 5); the other three ways fill 3 x 4662 = 13 986
/// >= tWB + tRCBSY + tRR + sync + the page-1 wait, so the bus saturates. Busy = 8 ops x (35 + 5
/// + 7 x 4661 + 4656) = 8 x 37 323 = 298 584.
#[test]
fn four_way_back_to_back_cache_reads_keep_bus_busy() {
    let t = SeqTiming::new(&onfi());
    let t_r = SimTime::from_us(56);
    let ops: Vec<_> = (0..8u64)
        .map(|k| (SimTime::ZERO, cache_read(k, (k % 4) as u8, 8, t_r)))
        .collect();
    let (done, _, busy) = run_op_list_traced(&onfi(), 4, 1, &ops);
    assert_eq!(done.len(), 8);
    assert_eq!(busy, 8 * 37_323);
    let end = t.to_cycles_ceil(done.iter().map(|c| c.completed).max().unwrap());
    let frac = busy as f64 / end as f64;
    println!("4-way back-to-back 8-page cache reads (tR 56 us, tRCBSY 3 us): bus busy {:.2} % ({busy} of {end} cycles)", frac * 100.0);
    assert!(frac >= 0.95, "bus busy {frac}");
}

/// The engine's call pattern (advance at arbitrary times) gives the same result on a mix
/// with cache reads as a standalone run.
#[test]
fn engine_style_calls_match_with_cache_reads() {
    let ops: Vec<_> = (0..10u64)
        .map(|k| {
            (
                SimTime::from_ns(k * 911),
                SeqOp {
                    id: k,
                    ..cache_read(k, (k % 3) as u8, 1 + (k % 4) as u8, SimTime::from_us(8 + k))
                },
            )
        })
        .collect();
    let reference = run_op_list(&onfi(), 4, 1, &ops);
    let (done, _) = run_engine_style(&ops, SimTime::from_ns(250));
    assert_eq!(done, reference);
    assert_eq!(done.len(), 10);
}
