//! Unit checks of the NAND target model: legal sequences pass, timing and sequence violations
//! (tWC, early data, command while busy, cache-read tRCBSY/ARDY rules) are caught.

use super::*;
use ssdlab_model::DriveConfig;

fn target() -> NandTarget {
    // 200 MHz: tWC 5 cycles, tADL 30, tWB 20, tWHR 16, tCCS 60, tRR 4; as at the pins (no PHY
    // delay between the latches and the target).
    let mut t = SeqTiming::new(&DriveConfig::default_drive().onfi);
    t.rb_lag = 0;
    NandTarget::new(t, 2048, 0, 8)
}

#[test]
fn on_the_beat_port_the_target_runs_the_phys_r_b_delay_late() {
    // The default preset's PHY: R/B# 2 cycles late (pipe 4 - CLE hold 3 + input register 1).
    let t = SeqTiming::new(&DriveConfig::default_drive().onfi);
    assert_eq!(t.rb_lag, 2);
    let mut beat = NandTarget::new(t, 2048, 0, 8);
    beat.push_array_cycles(100);
    let confirm = read_cmd(&mut beat, 0, 5);
    // As at the pins (WE# high at confirm + 5, tWB 20, tR 100), 2 cycles later.
    assert!(!beat.ready(confirm + 5 + 20 + 100 + 1));
    assert!(beat.ready(confirm + 5 + 20 + 100 + 2));
    assert!(beat.violations.is_empty(), "{:?}", beat.violations);
}

fn read_cmd(t: &mut NandTarget, start: u64, spacing: u64) -> u64 {
    let mut n = start;
    t.command(n, READ_1);
    for _ in 0..5 {
        n += spacing;
        t.address(n, 0);
    }
    n += spacing;
    t.command(n, READ_2);
    n
}

#[test]
fn legal_read_has_no_violation_and_goes_busy_for_twb_plus_tr() {
    let mut t = target();
    t.push_array_cycles(100);
    let confirm = read_cmd(&mut t, 0, 5);
    assert!(t.violations.is_empty(), "{:?}", t.violations);
    // busy until WE# high (confirm + 5) + tWB 20 + tR 100
    assert!(!t.ready(confirm + 5 + 20 + 99));
    assert!(t.ready(confirm + 5 + 20 + 100));
    // data out before tRR after ready is a violation, at tRR it is not
    let ready = confirm + 125;
    let _ = t.data_out(ready + 4, 4);
    assert!(t.violations.is_empty(), "{:?}", t.violations);
    assert_eq!(
        t.data_out(ready + 5, 4),
        vec![0xFF; 4],
        "an erased page reads FF"
    );
}

#[test]
fn latches_closer_than_twc_are_rejected() {
    let mut t = target();
    t.push_array_cycles(100);
    read_cmd(&mut t, 0, 4);
    assert!(t.violations[0].contains("tWC"), "{:?}", t.violations);
}

#[test]
fn command_while_busy_and_early_data_are_rejected() {
    let mut t = target();
    t.push_array_cycles(100);
    let c = read_cmd(&mut t, 0, 5);
    let _ = t.data_out(c + 50, 4);
    t.command(c + 60, READ_STATUS);
    assert!(
        t.violations.iter().any(|v| v.contains("early")),
        "{:?}",
        t.violations
    );
    assert!(
        t.violations.iter().any(|v| v.contains("while busy")),
        "{:?}",
        t.violations
    );
}

/// 30h, 31h, 3Fh with tR 100 cycles, tWB 20, tRCBSY 600 (3 us at 200 MHz), tRR 4.
#[test]
fn cache_read_timing_is_enforced() {
    let mut t = target();
    t.push_array_cycles(100);
    let c = read_cmd(&mut t, 0, 5);
    // ready at c + 5 + 20 + 100; 31h then: busy until WE# high + tWB + tRCBSY.
    let n31 = c + 125;
    t.command(n31, READ_CACHE_SEQ);
    assert!(!t.ready(n31 + 5 + 20 + 599) && t.ready(n31 + 5 + 20 + 600));
    // Data out before tRR after ready is early.
    let _ = t.data_out(n31 + 625 + 3, 4);
    assert!(
        t.violations.iter().any(|v| v.contains("early")),
        "{:?}",
        t.violations
    );
    t.violations.clear();
    // The array reads page 1 until n31 + 625 + 100: 3Fh right away waits for it + tRCBSY.
    let n3f = n31 + 630;
    t.command(n3f, READ_CACHE_END);
    assert!(t.violations.is_empty(), "{:?}", t.violations);
    assert!(!t.ready(n31 + 725 + 599) && t.ready(n31 + 725 + 600));
    // A new read while the cache sequence's array read ran would have been rejected; after
    // 3Fh, 31h has no read before it.
    t.command(n31 + 2000, READ_CACHE_SEQ);
    assert!(
        t.violations.iter().any(|v| v.contains("no page read")),
        "{:?}",
        t.violations
    );
}

#[test]
fn command_while_cache_array_busy_is_rejected() {
    let mut t = target();
    t.push_array_cycles(100);
    let c = read_cmd(&mut t, 0, 5);
    t.command(c + 125, READ_CACHE_SEQ);
    // RDY is back at c + 750, ARDY only at c + 850: 00h in between is illegal.
    t.push_array_cycles(100);
    read_cmd(&mut t, c + 760, 5);
    assert!(
        t.violations.iter().any(|v| v.contains("ARDY")),
        "{:?}",
        t.violations
    );
}

#[test]
fn illegal_sequence_is_rejected() {
    let mut t = target();
    t.command(0, READ_2);
    assert!(
        t.violations[0].contains("30h not legal"),
        "{:?}",
        t.violations
    );
}
