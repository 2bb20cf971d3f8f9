//! The SNIA PTS protocols (`pts-iops`, `pts-throughput`, `pts-latency`) through the binary.
//! Scaled runs on the tiny drive (tests/corpus/small-drive.toml: fewer cells, 200 ms cells)
//! run in `make test`; the full-size runs on sm2262-512g are ignored (`make test-slow`).
//! Every run's JSON is checked against the specification's criterion recomputed here from the
//! window's values: steady exactly when max - min <= 20 % of the mean and the least-squares
//! line's excursion <= 10 %, the run stopping there or at the round cap.

use serde_json::Value;
use std::process::Command;

const SMALL: &str = "tests/corpus/small-drive.toml";

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

/// `text` with each (from, to) replaced once; every `from` must be there.
fn scaled(text: &str, edits: &[(&str, &str)]) -> String {
    let mut t = text.to_string();
    for (from, to) in edits {
        assert!(t.contains(from), "`{from}` not in the protocol");
        t = t.replacen(from, to, 1);
    }
    t
}

/// A scratch directory `ssdlab-<name>-*`, removed when the returned guard drops.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ssdlab-{name}-"))
        .tempdir()
        .unwrap()
}

/// Writes `text` to a file of its own and runs it on `drive_args` with JSON output.
fn run_json(name: &str, text: &str, drive_args: &[&str]) -> (Value, String) {
    let dir = scratch(name);
    let path = dir.path().join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let mut args = vec!["protocol", p, "--output-format", "json"];
    args.extend_from_slice(drive_args);
    let (code, out, err) = ssdlab(&args);
    assert_eq!(code, 0, "{err}");
    (serde_json::from_str(&out).expect("stdout is JSON"), out)
}

/// Checks one `rounds` step's JSON against the criterion; returns (rounds run, steady).
fn check_rounds(r: &Value, cells: usize) -> (u64, bool) {
    let run = r["rounds_run"].as_u64().unwrap();
    let (cap, w) = (
        r["max_rounds"].as_u64().unwrap(),
        r["window_rounds"].as_u64().unwrap(),
    );
    let steady = r["steady"].as_bool().unwrap();
    assert!(
        w <= run && run <= cap,
        "{run} rounds, window {w}, cap {cap}"
    );
    if !steady {
        assert_eq!(run, cap, "a run that is not steady goes to the cap");
    }
    let track: Vec<f64> = r["tracking"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(track.len() as u64, run);
    let win = &track[(run - w) as usize..];
    let n = win.len() as f64;
    let mean = win.iter().sum::<f64>() / n;
    let exc =
        win.iter().cloned().fold(f64::MIN, f64::max) - win.iter().cloned().fold(f64::MAX, f64::min);
    let xm = (n - 1.0) / 2.0;
    let (sxy, sxx) = win.iter().enumerate().fold((0.0, 0.0), |(a, b), (i, y)| {
        let dx = i as f64 - xm;
        (a + dx * (y - mean), b + dx * dx)
    });
    let fit = (sxy / sxx).abs() * (n - 1.0);
    assert_eq!(
        steady,
        exc <= 0.2 * mean && fit <= 0.1 * mean,
        "window {win:?}"
    );
    // Steady earlier would have stopped the run: every earlier full window fails.
    for end in w as usize..run as usize {
        let e = &track[end - w as usize..end];
        let m = e.iter().sum::<f64>() / n;
        let ex =
            e.iter().cloned().fold(f64::MIN, f64::max) - e.iter().cloned().fold(f64::MAX, f64::min);
        let (a, b) = e.iter().enumerate().fold((0.0, 0.0), |(a, b), (i, y)| {
            let dx = i as f64 - xm;
            (a + dx * (y - m), b + dx * dx)
        });
        assert!(
            !(ex <= 0.2 * m && (a / b).abs() * (n - 1.0) <= 0.1 * m),
            "steady at round {end} already"
        );
    }
    let cs = r["cells"].as_array().unwrap();
    assert_eq!(cs.len(), cells);
    // The window average of the tracked cell is the window mean of the tracking variable.
    let tracked = cs
        .iter()
        .find(|c| c["label"] == r["tracking"]["cell"])
        .unwrap();
    let metric = r["tracking"]["metric"].as_str().unwrap();
    assert!((tracked["window"][metric].as_f64().unwrap() - mean).abs() <= 1e-9 * mean.max(1.0));
    (run, steady)
}

const IOPS: &str = include_str!("../protocols/pts-iops.toml");
const LATENCY: &str = include_str!("../protocols/pts-latency.toml");
const THROUGHPUT: &str = include_str!("../protocols/pts-throughput.toml");

/// pts-iops cut to 3 mixes x 2 block sizes, 200 ms cells.
fn iops_small() -> String {
    scaled(
        IOPS,
        &[
            ("runtime=1\n", "runtime=200ms\n"),
            ("[100, 95, 65, 50, 35, 5, 0]", "[100, 65, 0]"),
            (
                "[\"1m\", \"128k\", \"64k\", \"32k\", \"16k\", \"8k\", \"4k\", \"512\"]",
                "[\"128k\", \"4k\"]",
            ),
        ],
    )
}

#[test]
fn scaled_pts_iops_stops_by_the_criterion_and_is_deterministic() {
    let text = iops_small();
    let (v, out) = run_json("pts-iops", &text, &["--config", SMALL]);
    let step = &v["steps"][1];
    assert_eq!(step["kind"], "rounds");
    let (run, steady) = check_rounds(&step["rounds"], 6);
    eprintln!("scaled pts-iops: {run} rounds, steady {steady}");
    assert_eq!(step["report"]["metric"], "Iops");
    let (_, again) = run_json("pts-iops-again", &text, &["--config", SMALL]);
    assert_eq!(out, again, "same seed, same output");
}

#[test]
fn scaled_pts_latency_with_a_five_round_cap_runs_exactly_five() {
    // Cap = window: the first window decides, steady or not, and nothing runs after it.
    let text = scaled(
        LATENCY,
        &[
            ("runtime=1\n", "runtime=200ms\n"),
            ("max_rounds = 25", "max_rounds = 5"),
        ],
    );
    let (v, _) = run_json("pts-latency", &text, &["--config", SMALL]);
    let (run, steady) = check_rounds(&v["steps"][1]["rounds"], 9);
    eprintln!("scaled pts-latency: {run} rounds, steady {steady}");
    assert_eq!(run, 5);
}

#[test]
fn scaled_pts_throughput_runs_both_block_sizes() {
    let text = THROUGHPUT.replace("runtime=1\n", "runtime=200ms\n");
    let (v, _) = run_json("pts-throughput", &text, &["--config", SMALL]);
    for i in [1, 3] {
        check_rounds(&v["steps"][i]["rounds"], 2);
    }
}

#[test]
fn scaled_pts_text_report_names_the_verdict_and_the_grid() {
    let dir = scratch("pts-text");
    let path = dir.path().join("pts-text.toml");
    std::fs::write(&path, iops_small()).unwrap();
    let (code, out, err) = ssdlab(&["protocol", path.to_str().unwrap(), "--config", SMALL]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("IOPS test rounds (56 cells): "), "{out}");
    assert!(
        out.contains("tracking variable: iops of rwmixread=0 bs=4k (IOPS)"),
        "{out}"
    );
    assert!(out.contains("bs\\rwmixread"), "{out}");
    assert!(err.contains("round 1/25: rwmixread=0 bs=4k iops"), "{err}");
}

fn full_size(name: &str, rounds_steps: &[usize], cells: usize) {
    let (code, out, err) = ssdlab(&[
        "protocol",
        name,
        "--preset",
        "sm2262-512g",
        "--output-format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    for i in rounds_steps {
        let (run, steady) = check_rounds(&v["steps"][*i]["rounds"], cells);
        eprintln!("{name} step {}: {run} rounds, steady {steady}", i + 1);
    }
}

#[test]
#[ignore = "full-size: minutes of wall time (make test-slow)"]
fn pts_iops_on_sm2262_512g() {
    full_size("pts-iops", &[1], 56);
}

#[test]
#[ignore = "full-size: minutes of wall time (make test-slow)"]
fn pts_throughput_on_sm2262_512g() {
    full_size("pts-throughput", &[1, 3], 2);
}

#[test]
#[ignore = "full-size: minutes of wall time (make test-slow)"]
fn pts_latency_on_sm2262_512g() {
    full_size("pts-latency", &[1], 9);
}
