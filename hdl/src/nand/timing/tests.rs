//! Suspend rules in cycles, by hand at a 200 MHz sequencer clock (5 ns cycles).

use super::*;
use ssdlab_model::DriveConfig;

fn onfi_200mhz() -> OnfiConfig {
    let mut o = DriveConfig::default_drive().onfi;
    o.core_clock_mhz = 200;
    o
}

#[test]
fn suspend_counts_come_from_the_suspend_config() {
    let cfg = SuspendConfig {
        policy: SuspendPolicyKind::WaitOver,
        t_resume_us: 10.0,
        min_progress_us: 50.0,
        wait_over_us: 200.0,
        max_suspends_per_op: 3,
        ..SuspendConfig::default()
    };
    let t = HdlTiming::new(&onfi_200mhz(), 1 << 10)
        .and_then(|t| t.with_suspend(&cfg))
        .unwrap();
    // 200 us / 5 ns = 40 000; 10 us = 2 000; 10 + 50 us = 12 000 cycles.
    assert!(t.suspend.enabled);
    assert_eq!(t.suspend.threshold, 40_000);
    assert_eq!(t.suspend.t_resume, 2_000);
    assert_eq!(t.suspend.guard, 12_000);
    assert_eq!(t.suspend.max_per_op, 3);
    assert_eq!(
        (t.suspend.commands.suspend, t.suspend.commands.resume),
        (0xB0, 0xD0)
    );
    // `always` suspends whenever array time is left: threshold 0.
    let always = SuspendConfig {
        policy: SuspendPolicyKind::Always,
        ..cfg.clone()
    };
    let t = t.with_suspend(&always).unwrap();
    assert_eq!(t.suspend.threshold, 0);
    // The default (`never`) and a cap of 0 are off.
    let t = HdlTiming::new(&onfi_200mhz(), 1 << 10).unwrap();
    assert!(!t.suspend.enabled);
    let capped = SuspendConfig {
        max_suspends_per_op: 0,
        ..always
    };
    assert!(!t.with_suspend(&capped).unwrap().suspend.enabled);
}

#[test]
fn too_short_a_guard_is_refused_naming_the_field() {
    let cfg = SuspendConfig {
        policy: SuspendPolicyKind::Always,
        t_resume_us: 0.0,
        min_progress_us: 0.005,
        ..SuspendConfig::default()
    };
    // 0 + 5 ns = 1 cycle < the 2 the way FSM decides ahead.
    let e = HdlTiming::new(&onfi_200mhz(), 1 << 10)
        .and_then(|t| t.with_suspend(&cfg))
        .unwrap_err();
    assert!(
        e.contains("nand.suspend.min_progress_us") && e.contains("1 cycles"),
        "{e}"
    );
}
