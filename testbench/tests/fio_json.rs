//! `--output-format json` against fio 3.x's JSON (stat.c `add_ddir_status_json`): the fields a
//! fio post-processing script reads exist with fio's types and units, and the unit arithmetic
//! holds (bw = bw_bytes / 1024 in integers, io_kbytes = io_bytes >> 10, runtime in ms rounded
//! up, iops x runtime = total_ios within that 1 ms rounding). The text output of the same run and
//! seed shows the same figures.

use serde_json::Value;
use std::process::Command;

const SMALL: &str = "tests/corpus/small-drive.toml";
const JOB: &str = "tests/data/units.fio";
const PERCENTILES: [&str; 17] = [
    "1.000000",
    "5.000000",
    "10.000000",
    "20.000000",
    "30.000000",
    "40.000000",
    "50.000000",
    "60.000000",
    "70.000000",
    "80.000000",
    "90.000000",
    "95.000000",
    "99.000000",
    "99.500000",
    "99.900000",
    "99.950000",
    "99.990000",
];

fn ssdlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args(args)
        .output()
        .expect("run ssdlab");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not an unsigned integer: {}", v[key]))
}

fn f(v: &Value, key: &str) -> f64 {
    assert!(
        v[key].is_f64(),
        "`{key}` is not a float (fio prints a double): {}",
        v[key]
    );
    v[key].as_f64().unwrap()
}

/// `JOB` on the small drive at seed 3: its JSON stdout (exit 0 asserted).
fn units_run() -> String {
    let (code, out, err) = ssdlab(&[
        "run",
        JOB,
        "--config",
        SMALL,
        "--output-format",
        "json",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    out
}

/// [`units_run`] parsed.
fn units_json() -> Value {
    serde_json::from_str(&units_run()).expect("stdout is one JSON document")
}

/// One direction that moved `ios` IOs of `bs` bytes.
fn check_dir(d: &Value, ios: u64, bs: u64) {
    assert_eq!(u(d, "total_ios"), ios);
    assert_eq!(u(d, "io_bytes"), ios * bs);
    assert_eq!(u(d, "io_kbytes") * 1024, ios * bs);
    let (bw, bw_bytes, runtime) = (u(d, "bw"), u(d, "bw_bytes"), u(d, "runtime"));
    assert_eq!(bw, bw_bytes / 1024, "bw is KiB/s, integer");
    assert!(runtime > 0);
    // runtime is rounded up to a whole ms: the exact runtime is in (runtime - 1, runtime] ms.
    let iops = f(d, "iops");
    let (lo, hi) = (
        iops * (runtime - 1) as f64 / 1000.0,
        iops * runtime as f64 / 1000.0,
    );
    assert!(
        lo <= ios as f64 && ios as f64 <= hi + 1e-6,
        "iops {iops} x runtime {runtime} ms vs {ios} IOs"
    );
    let bytes = (ios * bs) as f64;
    assert!(
        bw_bytes as f64 * (runtime - 1) as f64 / 1000.0 <= bytes
            && bytes <= (bw_bytes + 1) as f64 * runtime as f64 / 1000.0
    );
    for lat in ["slat_ns", "clat_ns", "lat_ns"] {
        for k in ["min", "max", "N"] {
            u(&d[lat], k);
        }
        f(&d[lat], "mean");
        f(&d[lat], "stddev");
    }
    assert_eq!(u(&d["clat_ns"], "N"), ios);
    assert_eq!(u(&d["lat_ns"], "N"), ios);
    let (min, max) = (u(&d["clat_ns"], "min"), u(&d["clat_ns"], "max"));
    let pct = d["clat_ns"]["percentile"]
        .as_object()
        .expect("clat_ns.percentile");
    let mut last = 0;
    for k in PERCENTILES {
        let p = pct[k].as_u64().unwrap_or_else(|| panic!("percentile {k}"));
        assert!(
            p >= last && p >= min && p <= max,
            "{k}: {p} outside [{min}, {max}] or not monotonic"
        );
        last = p;
    }
    for k in [
        "bw_min",
        "bw_max",
        "bw_samples",
        "iops_min",
        "iops_max",
        "iops_samples",
        "short_ios",
        "drop_ios",
    ] {
        u(d, k);
    }
    for k in ["bw_mean", "bw_dev", "bw_agg", "iops_mean", "iops_stddev"] {
        f(d, k);
    }
    assert!(u(d, "bw_min") <= u(d, "bw_max") && u(d, "iops_min") <= u(d, "iops_max"));
}

/// A direction without IO: zeros, runtime 0 (fio only counts runtime for a direction with IO).
fn check_idle(d: &Value) {
    for k in ["io_bytes", "bw", "bw_bytes", "runtime", "total_ios"] {
        assert_eq!(u(d, k), 0, "{k}");
    }
}

#[test]
fn json_fields_types_and_units_follow_fio() {
    let out = units_run();
    let v: Value = serde_json::from_str(&out).expect("stdout is one JSON document");
    assert!(v["fio version"].is_string());
    u(&v, "timestamp");
    u(&v, "timestamp_ms");
    let jobs = v["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 2);
    let (rr, sw) = (&jobs[0], &jobs[1]);
    assert_eq!((rr["jobname"].as_str(), u(rr, "groupid")), (Some("rr"), 0));
    assert_eq!((sw["jobname"].as_str(), u(sw, "groupid")), (Some("sw"), 1));
    // 4 MiB / 4 KiB = 1024 reads; 4 MiB / 128 KiB = 32 writes.
    check_dir(&rr["read"], 1024, 4096);
    check_idle(&rr["write"]);
    check_idle(&rr["trim"]);
    check_dir(&sw["write"], 32, 131_072);
    check_idle(&sw["read"]);
    for j in jobs {
        u(j, "job_runtime");
        // fio's latency_ns/us/ms: percent of the job's IOs per range, together 100 % (each
        // non-empty range is at least 0.01, so allow that much per range).
        let mut sum = 0.0;
        for unit in ["latency_ns", "latency_us", "latency_ms"] {
            let o = j[unit].as_object().unwrap_or_else(|| panic!("{unit}"));
            assert_eq!(
                o.len(),
                if unit == "latency_ms" { 12 } else { 10 },
                "{unit}"
            );
            sum += o.values().map(|v| v.as_f64().unwrap()).sum::<f64>();
        }
        assert!((sum - 100.0).abs() < 0.32, "latency ranges sum to {sum}");
    }
    // fio prints each section's options as written, values as strings.
    assert_eq!(
        rr["job options"],
        serde_json::json!({"rw": "randread", "bs": "4k", "iodepth": "8"})
    );
    assert_eq!(
        sw["job options"],
        serde_json::json!({"stonewall": "", "rw": "write", "bs": "128k", "iodepth": "2"})
    );
    assert_eq!(
        v["global options"],
        serde_json::json!({"ioengine": "io_uring", "direct": "1", "filename": "/dev/nvme0n1", "size": "4m"})
    );
    // fio's disk_util, named after filename=/dev/nvme0n1, counts every IO of both groups.
    let du = &v["disk_util"][0];
    assert_eq!(
        (du["name"].as_str(), u(du, "read_ios"), u(du, "write_ios")),
        (Some("nvme0n1"), 1024, 32)
    );
    assert_eq!(
        (u(du, "read_sectors"), u(du, "write_sectors")),
        (8192, 8192)
    );
    let util = f(du, "util");
    assert!(util > 0.0 && util <= 100.0, "{util}");
    // Same figures in the text output of the same run and seed (fio spells 4 MiB "4096KiB").
    let (code, text, err) = ssdlab(&["run", JOB, "--config", SMALL, "--seed", "3"]);
    assert_eq!(code, 0, "{err}");
    for (j, dir) in [(rr, "read"), (sw, "write")] {
        let line = format!("(4096KiB/{}msec)", u(&j[dir], "runtime"));
        assert!(text.contains(&line), "{line} not in:\n{text}");
        // fio prints clat min/max in us as integer divisions of the ns figures, and the
        // percentiles rounded up: the 99th of the JSON, (ns + 999) / 1000, in the table.
        let c = &j[dir]["clat_ns"];
        let lat = format!(
            "clat (usec): min={}, max={},",
            u(c, "min") / 1000,
            u(c, "max") / 1000
        );
        assert!(text.contains(&lat), "{lat} not in:\n{text}");
        let p99 = format!(
            "99.00th=[{:>6}]",
            u(&c["percentile"], "99.000000").div_ceil(1000)
        );
        assert!(text.contains(&p99), "{p99} not in:\n{text}");
    }
    // Same seed, byte-identical JSON (timestamps are fixed at 0: simulated time has no date).
    assert_eq!(out, units_run());
}

#[test]
fn include_gives_the_same_jobs_as_the_included_file() {
    // tests/data/include-units.fio is one `include units.fio` line (fio resolves it beside the
    // including file): same jobs, same figures for the same seed.
    let run = |job: &str| {
        let (code, out, err) = ssdlab(&[
            "run",
            job,
            "--config",
            SMALL,
            "--output-format",
            "json",
            "--seed",
            "3",
        ]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let (a, b) = (run(JOB), run("tests/data/include-units.fio"));
    assert_eq!(a["jobs"], b["jobs"]);
    assert_eq!(a["global options"], b["global options"]);
}

/// `ssdlab.groups[].flash_state_over_time` on a fresh drive: while the first group only reads
/// never-written blocks, the SLC cache stays empty and no block is opened; while the second
/// writes 4 MiB sequentially (no GC or folding can run on a fresh drive in a few ms), the SLC
/// cache's valid data only grows and never exceeds the 4 MiB written, and free blocks only fall.
#[test]
fn flash_state_over_time_follows_a_fresh_drive() {
    let v = units_json();
    let series = |g: usize, key: &str| -> Vec<f64> {
        let s = &v["ssdlab"]["groups"][g]["flash_state_over_time"];
        s[key]
            .as_array()
            .unwrap_or_else(|| panic!("group {g}: `{key}` is not an array: {s}"))
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    for g in 0..2 {
        let t = series(g, "t_ms");
        let window_ms = v["ssdlab"]["groups"][g]["window_s"].as_f64().unwrap() * 1e3;
        assert!(!t.is_empty(), "group {g} has no samples");
        assert!(t.windows(2).all(|w| w[0] < w[1]), "group {g}: t_ms {t:?}");
        assert!(*t.last().unwrap() <= window_ms * (1.0 + 1e-9));
        for key in ["slc_valid_bytes", "slc_blocks", "free_blocks"] {
            assert_eq!(series(g, key).len(), t.len(), "group {g} {key}");
        }
    }
    assert!(series(0, "slc_valid_bytes").iter().all(|b| *b == 0.0));
    let free0 = series(0, "free_blocks");
    assert!(
        free0.iter().all(|b| *b == free0[0]),
        "reads opened blocks: {free0:?}"
    );
    let slc = series(1, "slc_valid_bytes");
    assert!(slc.windows(2).all(|w| w[0] <= w[1]), "{slc:?}");
    assert!(
        *slc.last().unwrap() > 0.0 && *slc.last().unwrap() <= 4_194_304.0,
        "{slc:?}"
    );
    let free1 = series(1, "free_blocks");
    assert!(free1.windows(2).all(|w| w[0] >= w[1]), "{free1:?}");
}
