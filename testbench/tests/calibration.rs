//! Calibration checks (CALIBRATION.md), end to end through the `ssdlab` binary on full-size
//! presets, so they sit in the slow tier (`make test-slow`).
//!
//! - E12 shape checks: AnandTech's words about the Phison E12 reference design (2018, copied in
//!   reference/anandtech-burst-sustained.md) turned into inequalities on the `e12-960g` preset.
//!
//! The SSDFans ±10 % band is NOT asserted here: it is not reached yet (CALIBRATION.md lists the
//! figures that are off and why).

use std::collections::HashMap;
use std::process::Command;

/// Runs a protocol with JSON output; returns (id -> model value, (step label, average W)).
fn protocol_json(name: &str, preset: &str) -> (HashMap<String, f64>, Vec<(String, f64)>) {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args(["protocol", name, "--preset", preset, "--output-format", "json"])
        .output()
        .expect("run ssdlab");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{name} on {preset} (seed 1): {stderr}");
    let v: serde_json::Value = serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).expect("JSON");
    let mut figures = HashMap::new();
    let mut power = Vec::new();
    for s in v["steps"].as_array().expect("steps") {
        let r = &s["report"];
        if let (Some(id), Some(m)) = (r["id"].as_str(), r["model"].as_f64()) {
            figures.insert(id.to_string(), m);
        }
        let (mut energy, mut secs) = (0.0, 0.0);
        for g in s["ssdlab"].as_array().into_iter().flatten() {
            energy += g["energy_j"].as_f64().unwrap_or(0.0);
            secs += g["window_s"].as_f64().unwrap_or(0.0);
        }
        if secs > 0.0 && s["kind"] == "fio" {
            power.push((s["label"].as_str().unwrap_or("?").to_string(), energy / secs));
        }
    }
    (figures, power)
}

fn fig(f: &HashMap<String, f64>, id: &str) -> f64 {
    *f.get(id).unwrap_or_else(|| panic!("figure {id} missing from the protocol output (seed 1): {f:?}"))
}

#[test]
#[ignore = "full-size e12-960g burst protocol (make test-slow)"]
fn e12_burst_read_is_just_under_2_gbps() {
    let (f, _) = protocol_json("anandtech-burst", "e12-960g");
    let read = fig(&f, "burst-seq-read");
    // "just under 2 GB/s": below 2000 MB/s, and within 15 % of it.
    assert!((1700.0..2000.0).contains(&read), "burst read {read:.0} MB/s, want 1700..2000 (seed 1)");
    // Record burst write in 2018: faster than the 970 EVO's ~1.7-2.5 GB/s class; at least the
    // burst read figure and at most the Gen3 x4 payload ceiling (3.6 GB/s, pcie::link tests).
    let write = fig(&f, "burst-seq-write");
    assert!((read..3600.0).contains(&write), "burst write {write:.0} MB/s (seed 1)");
}

#[test]
#[ignore = "full-size e12-960g sustained protocol, ~20 min under load (make test-slow)"]
fn e12_sustained_read_saturates_between_qd4_and_qd16() {
    let (f, _) = protocol_json("anandtech-sustained", "e12-960g");
    let rd = |qd: u32| fig(&f, &format!("read-qd{qd}"));
    // Rises toward saturation between QD4 and QD16: QD16 clearly above QD4 ...
    assert!(rd(16) > 1.15 * rd(4), "QD4 {:.0}, QD16 {:.0} MB/s: no rise (seed 1)", rd(4), rd(16));
    // ... and saturated by QD16: QD32 adds less than 10 %.
    assert!(rd(32) < 1.10 * rd(16), "QD16 {:.0}, QD32 {:.0} MB/s: not saturated (seed 1)", rd(16), rd(32));
    // NOT asserted because the model fails them (CALIBRATION.md, "E12 shape checks"):
    // "flat at low depth" (QD2 is 21 % below QD1), "little loss on fragmented data" (-75 % at
    // QD1) and "sustained writes stay above 1 GB/s" (QD8-QD32: 990, 880, 863 MB/s).
}
