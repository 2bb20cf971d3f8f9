//! A lost write fails the run: the model's test-only fault hook (feature `fault-injection`,
//! enabled for this crate's tests only) drops one mapping update, and every command that runs
//! a drive (`run`, `replay`, `protocol`, `validate`) exits 1 with the first violation, its JSON
//! carrying `integrity: {checked, violations}`. Without the fault the same runs exit 0.

use ssdlab_model::drive::{Drive, HostIo, IoOp};
use ssdlab_model::DriveConfig;
use ssdlab_testbench::cli::{execute, Cli};
use ssdlab_testbench::workload::drive_adapter::open_drive;
use ssdlab_testbench::workload::Device;
use ssdlab_testbench::InputError;
use tempfile::TempDir;

const SMALL: &str = "tests/corpus/small-drive.toml";

fn small() -> DriveConfig {
    DriveConfig::from_toml_str(&std::fs::read_to_string(SMALL).unwrap(), SMALL).unwrap()
}

fn io(d: &mut Drive, op: IoOp, offset: u64, len: u64) {
    d.submit(HostIo {
        op,
        offset,
        len,
        queue: 0,
    })
    .unwrap();
    let mut done = Vec::new();
    while d.outstanding() > 0 {
        d.run_until_completion(&mut done);
    }
}

#[test]
fn a_dropped_mapping_update_of_a_new_unit_reads_as_lost() {
    let mut d = Drive::new(&small(), 1).unwrap();
    // Units 0..4 are host writes 1..4 (checker sequences 1..4); the third, lpn 2, loses its
    // mapping update: the table keeps it unmapped.
    d.inject_dropped_mapping_update(3);
    io(&mut d, IoOp::Write, 0, 16384);
    assert_eq!(d.integrity().violations, 0, "writes are not checked");
    io(&mut d, IoOp::Read, 0, 16384);
    let v = d.integrity();
    assert_eq!((v.checked, v.violations), (4, 1));
    let first = v.first.unwrap();
    assert_eq!(
        first.detail,
        "read of lpn 2: expected seq 3, served unmapped (lost data)"
    );
    assert_eq!((first.op, first.offset, first.len), (IoOp::Read, 0, 16384));
    assert!(first.at > d.stats().window_start && first.at <= d.now());
}

#[test]
fn a_dropped_mapping_update_of_an_overwrite_reads_as_stale() {
    let mut d = Drive::new(&small(), 1).unwrap();
    io(&mut d, IoOp::Write, 8192, 4096); // lpn 2, sequence 1
    d.inject_dropped_mapping_update(1);
    io(&mut d, IoOp::Write, 8192, 4096); // sequence 2; the table keeps the first copy
    io(&mut d, IoOp::Read, 8192, 4096);
    let v = d.integrity();
    assert_eq!((v.checked, v.violations), (1, 1));
    let detail = v.first.unwrap().detail;
    assert!(
        detail.starts_with("read of lpn 2: expected seq 2, served ppa ")
            && detail.ends_with(" holding lpn 2 seq 1"),
        "{detail}"
    );
}

/// `text` in a file `name` of a scratch directory, and its path; the directory is removed when
/// the returned guard drops.
fn scratch(name: &str, text: &str) -> (TempDir, String) {
    let d = tempfile::Builder::new()
        .prefix("ssdlab-integrity-")
        .tempdir()
        .unwrap();
    let p = d.path().join(name);
    std::fs::write(&p, text).unwrap();
    (d, p.display().to_string())
}

/// Runs the command line in-process on the model drive, with write number `fault` (0: none)
/// losing its mapping update; returns the exit code and the JSON report.
fn run_cli(args: &[&str], fault: u64) -> (i32, serde_json::Value) {
    let mut argv = vec!["ssdlab", "--output-format", "json"];
    argv.extend_from_slice(args);
    argv.extend_from_slice(&["--config", SMALL]);
    let cli = <Cli as clap::Parser>::try_parse_from(&argv).unwrap();
    let open = |cfg: &DriveConfig, seed: u64| -> Result<Box<dyn Device>, InputError> {
        let mut d = open_drive(cfg, seed, SMALL)?;
        if fault > 0 {
            d.drive_mut().inject_dropped_mapping_update(fault);
        }
        Ok(Box::new(d))
    };
    let mut out = Vec::new();
    let code = execute(&cli, &open, &mut out).unwrap();
    (code, serde_json::from_slice(&out).unwrap())
}

/// Writes 64 KiB (16 units) and reads them back.
const WRITE_THEN_READ: &str =
    "[w]\nrw=write\nbs=4k\nsize=64k\n[r]\nstonewall\nrw=read\nbs=4k\nsize=64k\n";

#[test]
fn run_exits_1_on_a_lost_write_and_0_without() {
    let (_dir, job) = scratch("wr.fio", WRITE_THEN_READ);
    let (code, doc) = run_cli(&["run", &job], 0);
    assert_eq!(code, 0);
    assert_eq!(
        doc["ssdlab"]["integrity"],
        serde_json::json!({"checked": 16, "violations": 0})
    );
    let (code, doc) = run_cli(&["run", &job], 5);
    assert_eq!(code, 1);
    assert_eq!(
        doc["ssdlab"]["integrity"],
        serde_json::json!({"checked": 16, "violations": 1})
    );
}

#[test]
fn verify_reads_back_the_writes_and_a_lost_one_fails_the_run() {
    // One write job with verify: its 16 units are read back after the pass, so the checker
    // sees 16 units with no read job; a lost mapping update then fails it with exit 1.
    let (_dir, job) = scratch(
        "v.fio",
        "[w]\nrw=randwrite\nbs=4k\nsize=64k\niodepth=4\nverify=crc32c\n",
    );
    let (code, doc) = run_cli(&["run", &job], 0);
    assert_eq!(code, 0);
    assert_eq!(
        doc["ssdlab"]["integrity"],
        serde_json::json!({"checked": 16, "violations": 0})
    );
    assert_eq!(doc["jobs"][0]["read"]["total_ios"], 16);
    let (code, doc) = run_cli(&["run", &job], 5);
    assert_eq!(code, 1);
    assert_eq!(doc["ssdlab"]["integrity"]["violations"], 1);
}

#[test]
fn replay_exits_1_on_a_lost_write() {
    // Write lpn 0..3 at t = 0, read them 1 ms later.
    let (_dir, trace) = scratch(
        "wr.csv",
        "0,h,0,Write,0,16384,1\n10000,h,0,Read,0,16384,1\n",
    );
    assert_eq!(run_cli(&["replay", &trace], 0).0, 0);
    let (code, doc) = run_cli(&["replay", &trace], 2);
    assert_eq!(code, 1);
    assert_eq!(
        doc["ssdlab"]["integrity"],
        serde_json::json!({"checked": 4, "violations": 1})
    );
}

#[test]
fn protocol_and_validate_exit_1_on_a_lost_write() {
    let (_dir, proto) = scratch(
        "p.toml",
        &format!(
            "name = \"wr\"\ndescription = \"write then read\"\n[[step]]\nkind = \"fio\"\nid = \"wr\"\n\
             label = \"write then read\"\njob = \"\"\"\n{WRITE_THEN_READ}\"\"\"\n\
             report = {{ metric = \"read_mbps\", published = 1.0 }}\n"
        ),
    );
    let (code, doc) = run_cli(&["protocol", &proto], 5);
    assert_eq!(code, 1);
    assert_eq!(
        doc["integrity"],
        serde_json::json!({"checked": 16, "violations": 1})
    );
    // A generous tolerance: the figure passes, the lost write still fails the validation.
    let (code, doc) = run_cli(
        &["validate", "--protocol", &proto, "--tolerance-pct", "1e9"],
        5,
    );
    assert_eq!(code, 1);
    assert_eq!(doc["validation"]["pass"], true);
    assert_eq!(doc["integrity"]["violations"], 1);
    let (code, _) = run_cli(
        &["validate", "--protocol", &proto, "--tolerance-pct", "1e9"],
        0,
    );
    assert_eq!(code, 0);
    let args = [
        "validate",
        "--protocol",
        &proto,
        "--tolerance-pct",
        "1e9",
        "--seeds",
        "2",
    ];
    let (code, doc) = run_cli(&args, 5);
    assert_eq!(code, 1);
    assert_eq!(doc["runs"][1]["integrity"]["violations"], 1);
}
