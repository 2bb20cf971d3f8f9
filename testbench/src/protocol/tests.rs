//! Protocol loading and execution against the fixed-latency device.

use super::run::run_protocol;
use super::*;
use crate::workload::testdev::FixedLatencyDevice;
use crate::workload::Quiet;
use ssdlab_model::SeedTree;

#[test]
fn builtins_load() {
    for (name, ..) in BUILTINS {
        let p = resolve(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!p.steps.is_empty());
    }
    let p = resolve("ssdfans").unwrap();
    let reported: Vec<f64> = p
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Fio {
                report: Some(r), ..
            } => r.published,
            _ => None,
        })
        .collect();
    // The 12 SSDFans figures, in protocol order (reference/sm2262-ssdfans.toml).
    assert_eq!(
        reported,
        vec![
            3222.0, 1722.0, 428000.0, 264000.0, 580.0, 112.0, 229000.0, 11000.0, 2828.0, 212.0,
            224000.0, 29000.0
        ]
    );
}

/// `ssdfans` follows the article: fresh tests capped at 30 s, steady-state tests 20 GB with no
/// runtime; `ssdfans-30s` caps every test at 30 s. Same steps and figures otherwise.
#[test]
fn ssdfans_times_only_fresh_tests_and_30s_variant_caps_all() {
    let runtimes = |name: &str| -> Vec<(String, Option<SimTime>)> {
        resolve(name)
            .unwrap()
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Fio {
                    id: Some(id), jobs, ..
                } => Some((id.clone(), jobs[0].runtime)),
                _ => None,
            })
            .collect()
    };
    let (article, capped) = (runtimes("ssdfans"), runtimes("ssdfans-30s"));
    assert_eq!(article.len(), 12);
    let ids = |v: &[(String, Option<SimTime>)]| v.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&article), ids(&capped));
    let thirty = Some(SimTime::from_secs(30));
    for ((id, rt), (_, rt30)) in article.iter().zip(&capped) {
        assert_eq!(*rt30, thirty, "{id}");
        let want = if id.starts_with("fresh-") {
            thirty
        } else {
            None
        };
        assert_eq!(*rt, want, "{id}");
    }
}

/// Each fio run of the article is its own command, seconds apart: in both readings every timed
/// step after the first (the 12 tests and the overwrite) follows 5 s of idle time, and no other
/// step does (docs/calibration.md, "Gaps between the tests").
#[test]
fn ssdfans_idles_5_s_between_fio_runs() {
    for name in ["ssdfans", "ssdfans-30s"] {
        let steps = resolve(name).unwrap().steps;
        let timed = |s: &Step| {
            matches!(s, Step::Fio { .. })
                || matches!(
                    s,
                    Step::Precondition {
                        mode: Mode::Timed,
                        ..
                    }
                )
        };
        let idle = |s: &Step| matches!(s, Step::Idle { duration, .. } if *duration == SimTime::from_secs(5));
        let mut timed_seen = 0;
        for (i, s) in steps.iter().enumerate() {
            if timed(s) {
                timed_seen += 1;
                let after_gap = i > 0 && idle(&steps[i - 1]);
                assert_eq!(after_gap, timed_seen > 1, "{name}: step {i}");
            } else if matches!(s, Step::Idle { .. }) {
                assert!(
                    idle(s) && steps.get(i + 1).is_some_and(timed),
                    "{name}: step {i}"
                );
            }
        }
        assert_eq!(
            timed_seen, 14,
            "{name}: the layout, 12 tests and the overwrite"
        );
    }
}

#[test]
fn inline_job_errors_carry_protocol_lines() {
    let text = "name = \"x\"\ndescription = \"d\"\n\n[[step]]\nkind = \"fio\"\nlabel = \"l\"\njob = \"\"\"\n[j]\nrw=read\nexec_prerun=ls\n\"\"\"\n";
    let e = load(text, "p.toml", None).unwrap_err().to_string();
    assert!(
        e.starts_with("p.toml:10: unsupported option `exec_prerun`"),
        "{e}"
    );
}

#[test]
fn schema_errors_are_named() {
    let e = load(
        "name = \"x\"\ndescription = \"d\"\n[[step]]\nkind = \"nap\"\n",
        "p.toml",
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("p.toml:") && e.contains("nap"), "{e}");
    let text = "name = \"x\"\ndescription = \"d\"\n[[step]]\nkind = \"score\"\nlabel = \"s\"\nof = [\"nope\"]\n";
    let e = load(text, "p.toml", None).unwrap_err().to_string();
    assert!(e.starts_with("p.toml:3: step 1: `of` names `nope`"), "{e}");
}

const SMALL: &str = r#"name = "small"
description = "d"

[[step]]
kind = "precondition"
mode = "functional"
pattern = "random"
bs = "4k"
size = "1m"

[[step]]
kind = "fio"
id = "a"
label = "QD4 read"
job = """
[a]
rw=read
iodepth=4
size=400k
"""
report = { metric = "read_iops", published = 50000 }

[[step]]
kind = "burst"
id = "b"
label = "bursts"
bursts = 2
duty_cycle_pct = 20
job = """
[b]
rw=write
bs=128k
size=1m
"""
report = { metric = "write_mbps" }

[[step]]
kind = "score"
label = "mean"
of = ["a"]
"#;

#[test]
fn small_protocol_runs_with_hand_figures() {
    let p = load(SMALL, "small.toml", None).unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
    let steps = run_protocol(&mut dev, &p, &SeedTree::new(1), &mut Quiet, &mut |_, _| {}).unwrap();
    // Functional fill: 1 MiB.
    assert_eq!(dev.functional_bytes, 1 << 20);
    // QD4 at 100 us: 40 000 IOPS; published 50 000 -> -20 %.
    let r = steps[1].report.as_ref().unwrap();
    assert!(
        (r.model - 40_000.0).abs() < 1e-6 && (r.error_pct().unwrap() + 20.0).abs() < 1e-9,
        "{r:?}"
    );
    // Bursts: 8 x 128 KiB at QD1 = 800 us busy each; 20 % duty -> 3.2 ms idle after each.
    // Throughput over busy time: 1 MiB / 800 us = 1310.72 MB/s.
    let b = steps[2].report.as_ref().unwrap();
    assert!((b.model - 1310.72).abs() < 1e-6, "{b:?}");
    assert_eq!(
        steps[2].sim_end - steps[2].sim_start,
        SimTime::from_us(2 * (800 + 3200))
    );
    // Second burst starts at offset 1 MiB.
    let writes: Vec<u64> = dev
        .log
        .iter()
        .filter(|(_, io)| io.op == crate::workload::Op::Write)
        .map(|(_, io)| io.offset)
        .collect();
    assert_eq!(writes[8], 1 << 20);
    assert_eq!(steps[3].report.as_ref().unwrap().model, 40_000.0);
}

#[test]
fn region_beyond_device_fails_before_running() {
    let text = SMALL.replace("size=400k", "size=2g");
    let p = load(&text, "small.toml", None).unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
    let e = run_protocol(&mut dev, &p, &SeedTree::new(1), &mut Quiet, &mut |_, _| {}).unwrap_err();
    assert!(e.to_string().starts_with("small.toml:16: job `a`"), "{e}");
    assert_eq!(
        dev.functional_bytes, 0,
        "nothing may run before the whole protocol is checked"
    );
}

/// One group whose single job read with completion latencies 1, 2, ..., 10 000 us.
fn reads_of_1_to_10000_us() -> crate::workload::GroupResult {
    use crate::workload::stats::DirStats;
    let spec = parse_job_file("[a]\nrw=randread\n", "t").unwrap()[0].clone();
    let mut read = DirStats::default();
    for us in 1..=10_000u64 {
        read.record(4096, SimTime::from_us(us), SimTime::from_us(us));
    }
    crate::workload::GroupResult {
        logs: Vec::new(),
        groupid: 0,
        jobs: vec![crate::workload::JobResult {
            extra: Default::default(),
            name: "a".into(),
            groupid: 0,
            clone: Some(0),
            spec,
            read,
            write: DirStats::default(),
            trim: DirStats::default(),
            runtime: SimTime::from_secs(1),
        }],
        window_start: SimTime::ZERO,
        window_end: SimTime::from_secs(1),
        busy: SimTime::from_secs(1),
        extras: Default::default(),
        occupancy: Default::default(),
    }
}

#[test]
fn deep_percentile_metrics_by_rank() {
    use super::report::metric_value;
    use super::schema::Metric;
    let g = [reads_of_1_to_10000_us()];
    // Rank ceil(p / 100 x 10 000): p99.9 -> the 9990th latency (9990 us), p99.99 -> 9999 us,
    // within the histogram's 1.6 % bucket error; the maximum is exact.
    let near = |m: Metric, want: f64| {
        let v = metric_value(m, &g);
        assert!((v - want).abs() / want < 0.016, "{m:?}: {v} vs {want}");
    };
    near(Metric::ReadLatP99Us, 9900.0);
    near(Metric::ReadLatP999Us, 9990.0);
    near(Metric::ReadLatP9999Us, 9999.0);
    assert_eq!(metric_value(Metric::ReadLatMaxUs, &g), 10_000.0);
    // 9990 and 9999 us may share a 131 us bucket; the order must hold in any case.
    assert!(metric_value(Metric::ReadLatP9999Us, &g) >= metric_value(Metric::ReadLatP999Us, &g));
    for m in [
        Metric::WriteLatP999Us,
        Metric::WriteLatP9999Us,
        Metric::WriteLatMaxUs,
    ] {
        assert_eq!(metric_value(m, &g), 0.0, "{m:?}: no writes");
    }
}

#[test]
fn deep_percentile_metric_names_load() {
    for name in ["read_lat_p999_us", "write_lat_p9999_us", "read_lat_max_us"] {
        let text = format!(
            "name = \"x\"\ndescription = \"d\"\n[[step]]\nkind = \"fio\"\nlabel = \"l\"\n\
             job = \"[j]\\nrw=randread\\n\"\nreport = {{ metric = \"{name}\" }}\n"
        );
        let p = load(&text, "p.toml", None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            matches!(&p.steps[0], Step::Fio { report: Some(r), .. } if r.metric.unit() == "us")
        );
    }
}

const SET_STEP: &str = "name = \"x\"\ndescription = \"d\"\n\n[[step]]\nkind = \"set\"\nlabel = \"on\"\nset = { \"nand.suspend.policy\" = \"always\" }\n";

#[test]
fn set_step_takes_only_valid_suspend_keys() {
    let p = load(SET_STEP, "p.toml", None).unwrap();
    assert!(matches!(&p.steps[0], Step::Set { keys, .. } if keys.len() == 1));
    let e = load(
        &SET_STEP.replace("nand.suspend.policy", "geometry.channels"),
        "p.toml",
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("p.toml:4: step 1: set: `geometry.channels` cannot change"),
        "{e}"
    );
    let e = load(&SET_STEP.replace("always", "sometimes"), "p.toml", None)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("p.toml:4: step 1: set: nand.suspend"), "{e}");
    let e = load(
        &SET_STEP.replace("policy\" = \"always\"", "t_suspend_us\" = 5000.0"),
        "p.toml",
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("nand.suspend.t_suspend_us"), "{e}");
}

#[test]
fn set_step_needs_a_device_with_nand_suspend() {
    let p = load(SET_STEP, "p.toml", None).unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
    let e = run_protocol(&mut dev, &p, &SeedTree::new(1), &mut Quiet, &mut |_, _| {}).unwrap_err();
    assert!(e.to_string().contains("models no NAND suspend"), "{e}");
}
