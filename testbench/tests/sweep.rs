//! `ssdlab sweep` end to end on the tiny test drive: bad grids stop before anything runs,
//! results and resume, the Slurm job-array script's shards merged equal to one unsharded sweep.

use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

const DRIVE: &str = "tests/corpus/small-drive.toml";
const JOB: &str = "../examples/sweep/randread-seqwrite.fio";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_ssdlab")
}

/// A path `name` that does not exist yet, in a scratch directory removed when the returned
/// guard drops.
fn tmp(name: &str) -> (TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("ssdlab-sweep-{name}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

fn sweep(out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(bin())
        .args(["sweep", "--job", JOB, "--config", DRIVE, "--output"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn bad_grids_exit_2_naming_key_and_point_before_running() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--grid", "geometry.chanels=1,2"],
            "did you mean geometry.channels",
        ),
        (
            &["--grid", "geometry.channels="],
            "`geometry.channels` has an empty list",
        ),
        (
            &["--grid", "geometry.channels=1,two"],
            "`geometry.channels` expects an integer, got `two`",
        ),
        (
            &["--grid", "geometry.channels=2,0"],
            "sweep point 1 (geometry.channels=0): --set: invalid config field `geometry.channels`",
        ),
    ];
    for (args, want) in cases {
        let (_out_dir, out) = tmp("bad");
        let o = sweep(&out, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!out.exists(), "{args:?}: nothing may run or be written");
    }
}

#[test]
fn the_sensitivity_spec_checks_every_point_without_running() {
    // 31 points of the full-size preset: --check plans and validates them all, writes nothing.
    let (_out_dir, out) = tmp("spec-check");
    let o = Command::new(bin())
        .args([
            "sweep",
            "--spec",
            "../calibration/sensitivity.toml",
            "--common-seed",
        ])
        .args(["--check", "--output"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stdout.is_empty());
    assert!(!out.exists());
    // A spec point that fails validation is refused by --check as by the sweep.
    let o = Command::new(bin())
        .args([
            "sweep",
            "--spec",
            "../calibration/sensitivity.toml",
            "--check",
        ])
        .args(["--set", "geometry.channels=0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("geometry.channels"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn sweep_writes_rows_and_resume_skips_them() {
    let (_out_dir, out) = tmp("resume");
    let o = sweep(&out, &["--grid", "geometry.channels=2,4", "--jobs", "2"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(text.matches("; randread-4k: ").count(), 2, "{text}");
    let csv = std::fs::read_to_string(out.join("points.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for col in [
        "point",
        "config_hash",
        "geometry.channels",
        "bottleneck",
        "randread-4k.read_iops",
        "seqwrite-128k.write_mbs",
        "fill.busy_pct.firmware_core_max",
        "fill.busy_pct.plane_array_max",
    ] {
        assert!(head.contains(&col), "{col} missing from {head:?}");
    }
    assert_eq!(csv.lines().count(), 3, "header and one row per point");
    let rows = std::fs::read_to_string(out.join("points.jsonl")).unwrap();
    // Again without --resume: refused; with it: nothing left to run, same rows.
    assert_eq!(
        sweep(&out, &["--grid", "geometry.channels=2,4"])
            .status
            .code(),
        Some(2)
    );
    let o = sweep(&out, &["--grid", "geometry.channels=2,4", "--resume"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("0 points to run (2 done before)"));
    assert_eq!(
        std::fs::read_to_string(out.join("points.jsonl")).unwrap(),
        rows
    );
    // A different grid cannot resume this directory.
    let o = sweep(&out, &["--grid", "geometry.channels=2,8", "--resume"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_point_failing_at_run_time_is_its_row_and_exit_1() {
    // One channel of the tiny drive holds 322 MB, less than the job's 128 MiB offset + 128 MiB:
    // that point fails when its job is checked against the drive, the other runs.
    let (_out_dir, out) = tmp("fail");
    let o = sweep(
        &out,
        &[
            "--grid",
            "geometry.channels=2,1",
            "--set",
            "geometry.blocks_per_plane=64",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("point 0 [geometry.channels=2]: bottleneck"),
        "{text}"
    );
    assert!(
        text.contains("point 1 [geometry.channels=1]: error: "),
        "{text}"
    );
}

#[test]
fn slurm_array_shards_merge_to_the_unsharded_sweep() {
    let grid = [
        "--grid",
        "geometry.channels=1,2",
        "--grid",
        "onfi.transfer_mts=400,800",
    ];
    let (_whole_dir, whole) = tmp("whole");
    let o = sweep(&whole, &grid);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (_arr_dir, arr) = tmp("array");
    let n = 3;
    for i in 0..n {
        let o = Command::new("bash")
            .arg("../examples/slurm/sweep-array.sh")
            .arg(n.to_string())
            .arg(&arr)
            .args(["--job", JOB, "--config", DRIVE])
            .args(grid)
            .env("SSDLAB", bin())
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "shard {i}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let merged = arr.join("merged");
    let shards: Vec<PathBuf> = (0..n).map(|i| arr.join(format!("shard-{i}"))).collect();
    let o = Command::new(bin())
        .args(["sweep", "merge"])
        .args(&shards)
        .arg("--output")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["points.jsonl", "points.csv", "sweep.json"] {
        assert_eq!(
            std::fs::read_to_string(merged.join(f)).unwrap(),
            std::fs::read_to_string(whole.join(f)).unwrap(),
            "{f}"
        );
    }
    // A shard twice is refused, and so is a shard of another grid.
    let o = Command::new(bin())
        .args(["sweep", "merge"])
        .arg(&shards[0])
        .arg(&shards[0])
        .arg("--output")
        .arg(arr.join("dup"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("refusing to merge duplicate points"));
    let (_other_dir, other) = tmp("other");
    assert_eq!(
        sweep(&other, &["--grid", "geometry.channels=1"])
            .status
            .code(),
        Some(0)
    );
    let o = Command::new(bin())
        .args(["sweep", "merge"])
        .arg(&shards[0])
        .arg(&other)
        .arg("--output")
        .arg(arr.join("mix"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("differs"));
}
