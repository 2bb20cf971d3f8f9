//! The `power_loss` step: its errors, and a run on a small model drive where the cut lands
//! while 4 KiB writes are in flight.

use super::run::run_protocol;
use super::*;
use crate::workload::drive_adapter::open_drive;
use crate::workload::testdev::FixedLatencyDevice;
use crate::workload::Quiet;
use ssdlab_model::{DriveConfig, SeedTree};

const JOB: &str = "job = \"\"\"\n[w]\nrw=randwrite\nbs=4k\niodepth=16\nsize=64m\nruntime=20ms\ntime_based\n\"\"\"\n";

fn protocol(at: &str) -> String {
    format!("name = \"x\"\ndescription = \"d\"\n\n[[step]]\nkind = \"power_loss\"\nlabel = \"cut\"\n{at}\n{JOB}")
}

#[test]
fn bad_cut_times_are_named_with_their_line() {
    for (at, want) in [
        ("at = \"random\"", "at = \"random\" needs at_max"),
        (
            "at = \"1s\"\nat_max = \"2s\"",
            "at_max goes only with at = \"random\"",
        ),
        ("at = \"random\"\nat_max = \"0s\"", "at_max must be above 0"),
        ("at = \"soon\"", "at: "),
    ] {
        let e = load(&protocol(at), "p.toml", None).unwrap_err().to_string();
        assert!(
            e.starts_with("p.toml:4: step 1: ") && e.contains(want),
            "{e}"
        );
    }
}

#[test]
fn a_device_without_power_loss_is_refused_before_running() {
    let p = load(&protocol("at = \"5ms\""), "p.toml", None).unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(10));
    let e = run_protocol(&mut dev, &p, &SeedTree::new(1), &mut Quiet, &mut |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not model power loss"), "{e}");
}

#[test]
fn a_cut_mid_job_ends_the_commands_in_flight_and_the_job_goes_on() {
    let mut cfg = DriveConfig::default_drive();
    cfg.geometry.blocks_per_plane = 128;
    cfg.ftl.over_provisioning_pct = 15.0;
    cfg.ftl.gc_threshold_free_blocks = 4;
    cfg.ftl.persistence.enabled = true;
    let mut dev = open_drive(&cfg, 3, "test").unwrap();
    let p = load(&protocol("at = \"5ms\""), "p.toml", None).unwrap();
    let steps = run_protocol(&mut dev, &p, &SeedTree::new(3), &mut Quiet, &mut |_, _| {}).unwrap();
    let o = steps[0].power_loss.as_ref().unwrap();
    assert_eq!(o.at, SimTime::from_ms(5));
    // QD16: the cut finds 16 commands inside the drive (the job keeps its queue full).
    assert_eq!(o.commands_lost, 16);
    assert!(
        !o.plp && o.mount_time > SimTime::ZERO && o.mount_reads() > 0,
        "{o:?}"
    );
    assert_eq!(o.violations, 0, "{:?}", o.first_violation);
    // The job ran on after the mount, to the end of its 20 ms (the mount's time included).
    assert!(o.at + o.mount_time < SimTime::from_ms(20), "{o:?}");
    assert!(
        steps[0].sim_end >= SimTime::from_ms(20),
        "{:?}",
        steps[0].sim_end
    );
    let written: u64 = steps[0].groups.iter().map(|g| g.totals().1.bytes).sum();
    assert!(written > 0);
}
