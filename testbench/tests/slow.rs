//! Full-size runs (behind #[ignore]; `make test-slow` runs them): the three built-in protocols on
//! the presets they were written for, end to end through the binary.

use std::process::Command;

fn protocol(name: &str, preset: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args(["protocol", name, "--preset", preset])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{name} on {preset}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
#[ignore = "full-size: minutes of wall time (make test-slow)"]
fn ssdfans_on_sm2262_512g_prints_all_twelve_figures() {
    let out = protocol("ssdfans", "sm2262-512g");
    // The 12 published SSDFans figures appear beside the model's values.
    for published in [
        "3222 MB/s",
        "1722 MB/s",
        "428000 IOPS",
        "264000 IOPS",
        "580 MB/s",
        "112 MB/s",
        "229000 IOPS",
        "11000 IOPS",
        "2828 MB/s",
        "212 MB/s",
        "224000 IOPS",
        "29000 IOPS",
    ] {
        assert!(out.contains(published), "{published} missing:\n{out}");
    }
}

#[test]
#[ignore = "full-size: minutes of wall time (make test-slow)"]
fn anandtech_protocols_on_e12_and_sm2262_1t() {
    for preset in ["e12-960g", "sm2262-1t"] {
        let out = protocol("anandtech-burst", preset);
        assert!(
            out.contains("Burst sequential read") && out.contains("Burst sequential write"),
            "{out}"
        );
        let out = protocol("anandtech-sustained", preset);
        assert!(out.contains("score (mean of QD1, QD2, QD4)"), "{out}");
    }
}

/// Prints the functional-preconditioning rate on the full 512 GB preset (a figure, not a check):
/// one sequential fill in 1 MiB writes, then 4 KiB random overwrites as the protocol does them.
#[test]
#[ignore = "full-size: prints the functional preconditioning rate (make test-slow)"]
fn functional_precondition_rate_on_sm2262_512g() {
    use ssdlab_model::SeedTree;
    use ssdlab_testbench::workload::drive_adapter::open_drive;
    use ssdlab_testbench::workload::offsets::OffsetGen;
    use ssdlab_testbench::workload::Device;
    let cfg = ssdlab_testbench::presets::load("sm2262-512g").unwrap();
    let mut d = open_drive(&cfg, 1, "sm2262-512g").unwrap();
    let cap = d.capacity_bytes();
    let t = std::time::Instant::now();
    for off in (0..cap / (1 << 20)).map(|i| i << 20) {
        d.functional_write(off, 1 << 20);
    }
    let seq = t.elapsed().as_secs_f64();
    println!(
        "sequential fill: {:.1} M units/s ({:.1} s)",
        cap as f64 / 4096.0 / seq / 1e6,
        seq
    );
    let n = 20_000_000u64;
    let mut g = OffsetGen::new(0, cap, 4096, true, false, SeedTree::new(1).stream("p", 0));
    let t = std::time::Instant::now();
    for _ in 0..n {
        d.functional_write(g.next_offset(), 4096);
    }
    let rnd = t.elapsed().as_secs_f64();
    println!(
        "random 4 KiB overwrite: {:.2} M units/s ({n} units in {rnd:.1} s)",
        n as f64 / rnd / 1e6
    );
}
