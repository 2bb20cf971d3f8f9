//! One-shot TLC program by hand (the SM2262's timing of `tests/mod.rs`): three pages per plane
//! loaded one after the other, every plane of a page before the next (80h-addr-data-11h for all
//! but a page's last plane, 1Ah after it, 10h after the last page's), then tPROG once.

use super::*;

#[test]
fn tlc_one_shot_program_loads_three_pages_per_plane_then_programs_once() {
    let prog = SeqOp {
        pages: 3,
        ..op(
            3,
            0,
            NandOpKind::Program,
            2,
            6 * PAGE,
            SimTime::from_us(1900),
        )
    };
    let ops = [(SimTime::ZERO, prog)];
    let (done, trace, busy) = run_op_list_traced(&onfi(), 4, 1, &ops);
    // Each of the 6 page loads: 80h + 5 addr = 6 latches (150 ns), tADL 150 ns, 18 592 B at
    // 800 MB/s = 23 240 ns, the confirm latch 25 ns: 23 565 ns; 141 390 ns for all.
    let first_ns = 6 * (150 + 150 + 23_240 + 25);
    assert_eq!(first_ns, 141_390);
    // Then as a one-page program: tWB, tPROG, R/B# 30 ns, 70h, tWHR, the status beat back.
    let expect_ns = 15 + first_ns + 100 + 1_900_000 + 30 + 25 + 80 + 15 + 5 + 55;
    assert_eq!(done[0].completed, SimTime::from_ns(expect_ns));
    // Bus busy: the loads and the 150 ns status phase (70h, tWHR, preamble, beat, postamble).
    assert_eq!(busy, (first_ns + 150) / 5);
    let cmds: Vec<u8> = trace
        .iter()
        .filter_map(|e| match e.kind {
            BusKind::Cmd(c) => Some(c),
            _ => None,
        })
        .collect();
    let (p1, p2, next, mp) = (0x80, 0x10, 0x1A, 0x11);
    assert_eq!(
        cmds,
        vec![p1, mp, p1, next, p1, mp, p1, next, p1, mp, p1, p2, 0x70]
    );
    let loads: Vec<u32> = trace
        .iter()
        .filter_map(|e| match e.kind {
            BusKind::DataIn { cycles } => Some(cycles),
            _ => None,
        })
        .collect();
    assert_eq!(loads, vec![18_592 / 4; 6]);
}
