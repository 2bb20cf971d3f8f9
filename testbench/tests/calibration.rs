//! Calibration checks (docs/calibration.md), end to end through the `ssdlab` binary on full-size
//! presets, so they sit in the slow tier (`make test-slow`).
//!
//! - E12 shape checks: AnandTech's words about the Phison E12 reference design (2018, copied in
//!   reference/anandtech-burst-sustained.md) turned into inequalities on the `e12-960g` preset.
//!
//! - `sm2262-1t` against `e12-960g`: the same review's words comparing the E12 with the
//!   SM2262-based HP EX920 (burst read and write, saturation depth, fragmentation loss).
//! - SSDFans figures: the ±10 % band at each of seeds 1-4 for the figures the model reaches
//!   (docs/calibration.md lists the other one and why), expected values copied from
//!   reference/sm2262-ssdfans.toml.
//! - Fast tier (not ignored): the steady-state mechanism on the tiny test drive — after a
//!   uniform random (norandommap) fill, GC victims are mostly valid and a sequential write pays
//!   write amplification; after a random-map pass (every block once) it does not.

use std::collections::HashMap;
use std::process::Command;

/// Runs a protocol with JSON output; returns (id -> model value, (step label, average W)).
fn protocol_json(name: &str, preset: &str) -> (HashMap<String, f64>, Vec<(String, f64)>) {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args([
            "protocol",
            name,
            "--preset",
            preset,
            "--output-format",
            "json",
        ])
        .output()
        .expect("run ssdlab");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{name} on {preset} (seed 1): {stderr}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).expect("JSON");
    let mut figures = HashMap::new();
    let mut power = Vec::new();
    for s in v["steps"].as_array().expect("steps") {
        let r = &s["report"];
        if let (Some(id), Some(m)) = (r["id"].as_str(), r["model"].as_f64()) {
            figures.insert(id.to_string(), m);
        }
        if let Some(w) = step_power_w(s) {
            power.push((s["label"].as_str().unwrap_or("?").to_string(), w));
        }
    }
    (figures, power)
}

/// Average power of a protocol step's measured windows, W (fio steps only).
fn step_power_w(s: &serde_json::Value) -> Option<f64> {
    let (mut energy, mut secs) = (0.0, 0.0);
    for g in s["ssdlab"].as_array().into_iter().flatten() {
        energy += g["energy_j"].as_f64().unwrap_or(0.0);
        secs += g["window_s"].as_f64().unwrap_or(0.0);
    }
    (secs > 0.0 && s["kind"] == "fio").then(|| energy / secs)
}

/// Tiny drive (testbench/tests/corpus/small-drive.toml: 2 dies, 20 % OP, with `ftl_extra`
/// appended to its `[ftl]` table): 2 sequential fills, 2 random fills of `pattern`, then one
/// 24 MiB 128 KiB fio job `rw`; returns that step's JSON object.
fn tiny_after_random_fill(pattern: &str, rw: &str, ftl_extra: &str) -> serde_json::Value {
    let tag = format!("{pattern}-{rw}-{}", ftl_extra.len());
    let tmp = tempfile::Builder::new()
        .prefix(&format!("ssdlab-calib-{tag}-"))
        .tempdir()
        .expect("temp dir");
    let dir = tmp.path();
    let proto = dir.join("p.toml");
    let text = format!(
        "name = \"tiny\"\ndescription = \"steady-state mechanism\"\n\
         [[step]]\nkind = \"precondition\"\nmode = \"functional\"\npattern = \"sequential\"\nbs = \"1m\"\npasses = 2\n\
         [[step]]\nkind = \"precondition\"\nmode = \"functional\"\npattern = \"{pattern}\"\nbs = \"4k\"\npasses = 2\n\
         [[step]]\nkind = \"fio\"\nid = \"t\"\nlabel = \"test\"\njob = \"\"\"\n[t]\nrw={rw}\nbs=128k\niodepth=32\nsize=24m\n\"\"\"\n\
         report = {{ metric = \"{rw}_mbps\" }}\n"
    );
    std::fs::write(&proto, text).expect("write protocol");
    let base = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/small-drive.toml"
    ))
    .expect("drive");
    let drive = dir.join("drive.toml");
    std::fs::write(
        &drive,
        base.replace("[ftl]\n", &format!("[ftl]\n{ftl_extra}\n")),
    )
    .expect("write drive");
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args([
            "protocol",
            proto.to_str().unwrap(),
            "--config",
            drive.to_str().unwrap(),
            "--output-format",
            "json",
        ])
        .output()
        .expect("run ssdlab");
    assert_eq!(
        out.status.code(),
        Some(0),
        "seed 1: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v["steps"][2].clone()
}

#[test]
fn steady_state_writes_pay_gc_only_after_a_uniform_random_fill() {
    // A random-map pass rewrites every block once: every earlier copy is invalid at its end, so
    // the over-provisioning is all in wholly invalid blocks and the next writes need no copying.
    let map = tiny_after_random_fill("random", "write", "")["ftl"].clone();
    let wa = map["write_amplification"].as_f64().expect("WA");
    assert!(wa < 1.1, "after a random-map fill: WA {wa} (seed 1), {map}");
    // Uniform random with repetition leaves the invalid space spread over the blocks: greedy GC
    // in that steady state has WA ~ (1 + r) / (2 r) with r = spare / user = 0.25 at 20 % OP,
    // i.e. 2.5 (less spare after the static SLC and GC reserve: more).
    let uni = tiny_after_random_fill("uniform", "write", "")["ftl"].clone();
    let wa = uni["write_amplification"].as_f64().expect("WA");
    let valid = uni["gc_victim_valid_fraction"].as_f64().expect("GC ran");
    assert!(
        wa > 2.0,
        "after a uniform random fill: WA {wa} (seed 1), {uni}"
    );
    assert!(valid > 0.5, "victims {valid} valid (seed 1)");
}

#[test]
fn stream_reads_of_whole_pages_slow_scattered_sequential_reads_by_the_transfer_ratio() {
    // After a uniform 4 KiB fill every unit of a 128 KiB read sits on its own page: one read per
    // unit, die-bound (2 dies, one per channel, TLC tR 56/66/76 us: mean 66 us). Moving only the
    // unit costs 4096 + 2208 / 4 = 4648 B at 800 MT/s = 5.8 us of data out per read; a whole
    // 2-plane page 2 x 18 592 B = 46.5 us. Throughput ratio (66 + 5.8) / (66 + 46.5) = 0.64.
    let mbps = |extra: &str| {
        let step = tiny_after_random_fill("uniform", "read", extra);
        step["report"]["model"]
            .as_f64()
            .unwrap_or_else(|| panic!("no read figure (seed 1): {step}"))
    };
    let units = mbps("");
    let whole = mbps("stream_read_page_cache = true");
    let ratio = whole / units;
    assert!((0.57..0.71).contains(&ratio), "whole-page stream reads {whole:.0} vs unit reads {units:.0} MB/s: ratio {ratio:.3}, hand 0.64 (seed 1)");
}

fn fig(f: &HashMap<String, f64>, id: &str) -> f64 {
    *f.get(id)
        .unwrap_or_else(|| panic!("figure {id} missing from the protocol output (seed 1): {f:?}"))
}

#[test]
#[ignore = "full-size e12-960g burst protocol (make test-slow)"]
fn e12_burst_read_is_just_under_2_gbps() {
    let (f, _) = protocol_json("anandtech-burst", "e12-960g");
    let read = fig(&f, "burst-seq-read");
    // "just under 2 GB/s": below 2000 MB/s, and within 15 % of it.
    assert!(
        (1700.0..2000.0).contains(&read),
        "burst read {read:.0} MB/s, want 1700..2000 (seed 1)"
    );
    // Record burst write in 2018: faster than the 970 EVO's ~1.7-2.5 GB/s class; at least the
    // burst read figure and at most the Gen3 x4 payload ceiling (3.6 GB/s, pcie::link tests).
    let write = fig(&f, "burst-seq-write");
    assert!(
        (read..3600.0).contains(&write),
        "burst write {write:.0} MB/s (seed 1)"
    );
}

#[test]
#[ignore = "full-size e12-960g sustained protocol, ~1-20 min depending on load (make test-slow)"]
fn e12_sustained_shapes() {
    let (f, power) = protocol_json("anandtech-sustained", "e12-960g");
    let rd = |qd: u32| fig(&f, &format!("read-qd{qd}"));
    let wr = |qd: u32| fig(&f, &format!("write-qd{qd}"));
    // Saturated by QD16: QD32 adds less than 10 %.
    assert!(
        rd(32) < 1.10 * rd(16),
        "QD16 {:.0}, QD32 {:.0} MB/s: not saturated (seed 1)",
        rd(16),
        rd(32)
    );
    // "Stays above 1 GB/s throughout" the sustained write, at every queue depth.
    for qd in [1, 2, 4, 8, 16, 32] {
        assert!(
            wr(qd) > 1000.0,
            "sustained write QD{qd}: {:.0} MB/s, want > 1000 (seed 1)",
            wr(qd)
        );
    }
    // "One of the few drives that draws more power when reading from data with internal
    // fragmentation": at each depth of AnandTech's score (QD1, QD2, QD4) the fragmented read
    // draws more average power than the clean one.
    let w = |label: &str| {
        power
            .iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("no power for {label} (seed 1)"))
            .1
    };
    for qd in [1, 2, 4] {
        let (clean, frag) = (
            w(&format!("Sustained sequential read, QD{qd}")),
            w(&format!("Sustained sequential read, fragmented, QD{qd}")),
        );
        assert!(
            frag > clean,
            "QD{qd}: fragmented {frag:.2} W <= clean {clean:.2} W (seed 1)"
        );
    }
    // "Flat at low queue depths": QD2 and QD4 within 10 % of QD1 (AnandTech gives words, not
    // figures; 10 % is about the smallest step its chart makes visible). The model's flatness
    // comes from the read-ahead engine's serial issue rate (`ftl.read_ahead_issue_ns_per_unit`,
    // 4096 B / 2 us = 2048 MB/s by hand) bounding every read inside the stream's window.
    for qd in [2, 4] {
        let r = rd(qd) / rd(1);
        assert!(
            (0.9..1.1).contains(&r),
            "QD{qd} {:.0} vs QD1 {:.0} MB/s: not flat (seed 1)",
            rd(qd),
            rd(1)
        );
    }
    // "Then rises toward saturation between QD4 and QD16": QD16 at least 15 % above QD4 (a rise
    // the chart shows, well beyond the 10 % "flat" band); deeper queues read beyond the engine's
    // queue reach (`ftl.read_ahead_queue_kib`) themselves.
    assert!(
        rd(16) > 1.15 * rd(4),
        "QD4 {:.0}, QD16 {:.0} MB/s: no rise (seed 1)",
        rd(4),
        rd(16)
    );
    // "Suffers little from internal fragmentation" (unlike the EX920, which loses more than half):
    // the fragmented read within 15 % of the clean one at each depth of AnandTech's score.
    for qd in [1, 2, 4] {
        let (clean, frag) = (rd(qd), fig(&f, &format!("frag-read-qd{qd}")));
        assert!(
            frag > 0.85 * clean,
            "QD{qd}: fragmented {frag:.0} vs clean {clean:.0} MB/s: loses > 15 % (seed 1)"
        );
    }
}

#[test]
#[ignore = "full-size sm2262-1t and e12-960g burst protocols and the sm2262-1t sustained one (make test-slow)"]
fn ex920_against_the_e12() {
    // AnandTech's E12 preview on the SM2262-based HP EX920 1 TB (`sm2262-1t`, docs/calibration.md):
    // "the SM2262-based HP EX920 is faster" in burst sequential reads, while
    // the E12 "set the record for burst sequential write".
    let (e12, _) = protocol_json("anandtech-burst", "e12-960g");
    let (ex920, _) = protocol_json("anandtech-burst", "sm2262-1t");
    let (r_e12, r_ex) = (fig(&e12, "burst-seq-read"), fig(&ex920, "burst-seq-read"));
    assert!(
        r_ex > r_e12,
        "burst read: EX920 {r_ex:.0} <= E12 {r_e12:.0} MB/s (seed 1)"
    );
    let (w_e12, w_ex) = (fig(&e12, "burst-seq-write"), fig(&ex920, "burst-seq-write"));
    assert!(
        w_e12 > w_ex,
        "burst write: E12 {w_e12:.0} <= EX920 {w_ex:.0} MB/s (seed 1)"
    );
    // "The HP EX920 needs a much lower queue depth to saturate" than the E12, which saturates
    // between QD4 and QD16 (`e12_sustained_shapes`): within 10 % of its QD32 figure by QD4, and
    // "unlike the EX920" the E12 suffers little from fragmentation: the EX920 loses > 15 % at
    // each depth of AnandTech's score.
    let (f, _) = protocol_json("anandtech-sustained", "sm2262-1t");
    let rd = |qd: u32| fig(&f, &format!("read-qd{qd}"));
    assert!(
        rd(4) > 0.9 * rd(32),
        "QD4 {:.0}, QD32 {:.0} MB/s: not saturated by QD4 (seed 1)",
        rd(4),
        rd(32)
    );
    for qd in [1, 2, 4] {
        let (clean, frag) = (rd(qd), fig(&f, &format!("frag-read-qd{qd}")));
        assert!(
            frag < 0.85 * clean,
            "QD{qd}: fragmented {frag:.0} vs clean {clean:.0} MB/s: loses <= 15 % (seed 1)"
        );
    }
}

/// SSDFans' fio figures of the SM2262 512 GB board (SSDFans, "SMI NVMe主控2262性能评测",
/// 2018-03-26; copied in reference/sm2262-ssdfans.toml), by protocol step id.
const SSDFANS_PUBLISHED: [(&str, f64); 12] = [
    ("fresh-seq-read", 3222.0),
    ("fresh-seq-write", 1722.0),
    ("fresh-rand-read", 428_000.0),
    ("fresh-rand-write", 264_000.0),
    ("random-overwrite-seq-read", 580.0),
    ("random-overwrite-seq-write", 112.0),
    ("random-overwrite-rand-read", 229_000.0),
    ("random-overwrite-rand-write", 11_000.0),
    ("seq-overwrite-seq-read", 2828.0),
    ("seq-overwrite-seq-write", 212.0),
    ("seq-overwrite-rand-read", 224_000.0),
    ("seq-overwrite-rand-write", 29_000.0),
];

/// The figures `sm2262-512g` reproduces within ±10 % at every seed judged (docs/calibration.md);
/// the other one is listed there with the measured error and what is known
/// of the cause.
const SSDFANS_WITHIN_10_PCT: &[&str] = &[
    "fresh-seq-read",
    "fresh-seq-write",
    "fresh-rand-read",
    "fresh-rand-write",
    "random-overwrite-seq-read",
    "random-overwrite-seq-write",
    "random-overwrite-rand-read",
    "seq-overwrite-seq-read",
    "seq-overwrite-seq-write",
    "seq-overwrite-rand-read",
    "seq-overwrite-rand-write",
];

/// Seeds the band is judged over: a figure inside at one seed and outside at the next is not
/// calibrated (docs/calibration.md).
const SEEDS: &str = "4";

/// `ssdlab validate --protocol ssdfans --seeds 4 --compare none --output-format json` on
/// sm2262-512g (seeds 1-4): the article's reading (steady-state tests of 20 GB), which the preset
/// is fitted to (docs/calibration.md); the 30 s reading beside it is not judged, so not run.
fn validate_over_seeds() -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args([
            "validate",
            "--protocol",
            "ssdfans",
            "--compare",
            "none",
            "--preset",
            "sm2262-512g",
            "--seeds",
            SEEDS,
            "--jobs",
            "2",
            "--output-format",
            "json",
        ])
        .output()
        .expect("run ssdlab");
    // Exit 1 is expected: one figure is outside the band.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "validate --seeds {SEEDS} (seeds 1-{SEEDS}): {stderr}"
    );
    serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).expect("JSON")
}

#[test]
#[ignore = "full-size sm2262-512g ssdfans protocol at 4 seeds, ~10-20 min (make test-slow)"]
fn ssdfans_figures_within_10_percent() {
    let v = validate_over_seeds();
    let seeds = &v["seeds"];
    let figure = |id: &str| {
        v["figures"]
            .as_array()
            .expect("figures")
            .iter()
            .find(|f| f["id"] == id)
            .unwrap_or_else(|| panic!("no figure {id} (seeds {seeds})"))
            .clone()
    };
    for id in SSDFANS_WITHIN_10_PCT {
        let published = SSDFANS_PUBLISHED
            .iter()
            .find(|(i, _)| i == id)
            .expect("known id")
            .1;
        let f = figure(id);
        for (k, m) in f["model"]
            .as_array()
            .expect("model values")
            .iter()
            .enumerate()
        {
            let model = m.as_f64().expect("number");
            let err = (model - published) / published * 100.0;
            assert!(
                err.abs() <= 10.0,
                "{id}: model {model:.0} vs published {published:.0}: {err:+.1} % (seed {})",
                seeds[k]
            );
        }
    }
    // Outside the band, guarded against getting worse: the random write after the random
    // overwrite, which no mechanism found brings
    // near 11 000 IOPS (docs/calibration.md, "Open questions"): it must stay a steady-state
    // collapse, far below the fresh 264 000.
    for m in figure("random-overwrite-rand-write")["model"]
        .as_array()
        .expect("model values")
    {
        assert!(
            m.as_f64().expect("number") < 264_000.0 * 0.2,
            "RO random write {m} IOPS: no steady-state collapse (seeds {seeds})"
        );
    }
    // Average power of every test within the M.2 envelope the issue names (2-7 W active).
    for run in v["runs"].as_array().expect("runs") {
        for s in run["steps"].as_array().expect("steps") {
            let Some(w) = step_power_w(s) else { continue };
            assert!(
                (2.0..7.0).contains(&w),
                "{}: {w:.2} W (seed {})",
                s["label"],
                run["seed"]
            );
        }
    }
}
