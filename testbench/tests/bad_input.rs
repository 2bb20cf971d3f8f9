//! Bad input never panics and never shows a partial result: every file in tests/corpus/{fio,
//! protocol,trace,config} goes through the `ssdlab` binary, which must exit with code 2, print
//! nothing on stdout, and print one error line naming the file (and line, where there is one)
//! with the reason. The expected line of each case is `<file>.expected`, written by hand and
//! checked here; `UPDATE_EXPECT=1 cargo test --test bad_input` rewrites them after a deliberate
//! wording change (review the diff).

use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

const SMALL: &str = "tests/corpus/small-drive.toml";

fn args_for(category: &str, file: &str) -> Vec<String> {
    let v: Vec<&str> = match category {
        "fio" => vec!["run", file, "--config", SMALL],
        "protocol" => vec!["protocol", file, "--config", SMALL],
        "trace" => vec!["replay", file, "--config", SMALL],
        "config" => vec!["run", "tests/corpus/ok.fio", "--config", file],
        other => panic!("unknown corpus category {other}"),
    };
    v.into_iter().map(String::from).collect()
}

fn cases() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for cat in ["fio", "protocol", "trace", "config"] {
        let dir = Path::new("tests/corpus").join(cat);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x != "expected"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (cat.to_string(), f)));
    }
    out
}

#[test]
fn every_broken_input_is_named_with_exit_code_2() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() >= 40, "corpus shrank to {} cases", all.len());
    for (cat, file) in &all {
        let f = file.display().to_string();
        let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
            .args(args_for(cat, &f))
            // The memory check compares with a fixed limit, not the machine's free memory.
            .env("SSDLAB_MEMORY_LIMIT_MIB", "4096")
            .output()
            .expect("run ssdlab");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr
            .lines()
            .find(|l| l.starts_with("ssdlab: error: "))
            .unwrap_or("<no error line>")
            .to_string();
        let golden = PathBuf::from(format!("{f}.expected"));
        if update {
            std::fs::write(&golden, format!("{first}\n")).unwrap();
        }
        let expected = std::fs::read_to_string(&golden)
            .unwrap_or_default()
            .trim_end()
            .to_string();
        // A config error names the file inside the message; an error inside an included job
        // file names that file (its path starts with the including file's directory).
        let named = match cat.as_str() {
            "config" => first.contains(&f),
            _ if f.contains("include-") => first.starts_with(&format!(
                "ssdlab: error: {}",
                file.parent().unwrap().display()
            )),
            _ => first.starts_with(&format!("ssdlab: error: {f}")),
        };
        if out.status.code() != Some(2)
            || !out.stdout.is_empty()
            || first != expected
            || !named
            || stderr.contains("panicked")
        {
            failures.push(format!(
                "{f}: exit {:?}, stdout {} bytes\n  got:      {first}\n  expected: {expected}\n  stderr: {stderr}",
                out.status.code(),
                out.stdout.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn unknown_preset_and_protocol_are_exit_code_2() {
    let cases = [
        vec!["presets", "--bogus"],
        vec!["run", "tests/corpus/ok.fio", "--preset", "nope"],
        vec!["protocol", "nope.toml"],
        // A directory where a job file belongs.
        vec!["run", "tests/corpus", "--config", SMALL],
        // NaN would pass every figure; a negative band none.
        vec![
            "validate",
            "--protocol",
            "tests/data/validate-protocol.toml",
            "--config",
            SMALL,
            "--tolerance-pct",
            "NaN",
        ],
        vec![
            "validate",
            "--protocol",
            "tests/data/validate-protocol.toml",
            "--config",
            SMALL,
            "--tolerance-pct=-5",
        ],
    ];
    for args in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A scratch directory, removed when the returned guard drops.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ssdlab-bad-input-{name}-"))
        .tempdir()
        .unwrap()
}

fn ssdlab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ssdlab"))
        .args(args)
        .env("SSDLAB_MEMORY_LIMIT_MIB", "4096")
        .output()
        .unwrap()
}

/// Exit 2, nothing on stdout, one error line starting with `starts` and containing `has`.
fn assert_refused(args: &[&str], starts: &str, has: &str) {
    let out = ssdlab(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout not empty");
    assert!(
        first.starts_with(&format!("ssdlab: error: {starts}")) && first.contains(has),
        "{args:?}: {first}"
    );
}

#[test]
fn speed_that_overflows_simulated_time_is_refused() {
    assert_refused(
        &[
            "replay",
            "tests/data/tiny-msr.csv",
            "--config",
            SMALL,
            "--speed",
            "1e-300",
        ],
        "tests/data/tiny-msr.csv:",
        "past the model's 200 days",
    );
}

#[test]
fn plot_into_a_regular_file_is_refused_before_anything_runs() {
    let dir = scratch("plot");
    let f = dir.path().join("not-a-dir");
    std::fs::write(&f, "x").unwrap();
    let f = f.display().to_string();
    let args = [
        "run",
        "tests/corpus/ok.fio",
        "--config",
        SMALL,
        "--plot",
        &f,
    ];
    assert_refused(&args, &f, "exists and is not a directory");
}

#[test]
fn timed_precondition_beyond_the_queue_names_the_protocol_line_before_any_step_runs() {
    let dir = scratch("qd");
    let d = dir.path();
    let cfg = std::fs::read_to_string(SMALL)
        .unwrap()
        .replace("queue_entries = 1024", "queue_entries = 64");
    std::fs::write(d.join("q64.toml"), cfg).unwrap();
    let proto =
        "name = \"qd\"\ndescription = \"d\"\n\n[[step]]\nkind = \"idle\"\nduration = \"1s\"\n\n\
                 [[step]]\nkind = \"precondition\"\nmode = \"timed\"\npattern = \"sequential\"\n\
                 bs = \"128k\"\nsize = \"8m\"\niodepth = 100\n";
    std::fs::write(d.join("p.toml"), proto).unwrap();
    let (p, c) = (d.join("p.toml"), d.join("q64.toml"));
    let (p, c) = (p.display().to_string(), c.display().to_string());
    let out = ssdlab(&["protocol", &p, "--config", &c]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // Line 8 is the second `[[step]]`; the idle step before it never ran (no step line).
    let first = stderr.lines().next().unwrap();
    assert_eq!(
        first,
        format!("ssdlab: error: {p}:8: step 2: `Timed Sequential precondition`: job `precondition`: iodepth 100 exceeds the NVMe queue (64 entries)")
    );
}

#[test]
fn fifo_and_device_files_are_refused_without_blocking() {
    let dir = scratch("fifo");
    let d = dir.path();
    let fifo = d.join("input");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo = fifo.display().to_string();
    for path in [fifo.as_str(), "/dev/zero"] {
        for args in [
            vec!["run", path, "--config", SMALL],
            vec!["run", "tests/corpus/ok.fio", "--config", path],
            vec!["replay", path, "--config", SMALL],
            vec!["protocol", path, "--config", SMALL],
        ] {
            assert_refused(&args, path, "not a regular file");
        }
    }
}

#[test]
fn a_one_megabyte_key_gives_a_bounded_error_line() {
    let dir = scratch("long");
    let f = dir.path().join("long.fio");
    std::fs::write(&f, format!("[j]\n{}=1\n", "k".repeat(1 << 20))).unwrap();
    let f = f.display().to_string();
    let out = ssdlab(&["run", &f, "--config", SMALL]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    let first = stderr.lines().next().unwrap();
    // 300 + 80 characters of the message, the count left out, and the prefix.
    assert!(
        first.chars().count() < 500,
        "{} chars",
        first.chars().count()
    );
    assert!(
        first.contains("characters left out")
            && first.ends_with("the supported and ignored options)"),
        "{first}"
    );
}

#[test]
fn utf8_byte_order_marks_are_accepted() {
    let dir = scratch("bom");
    let d = dir.path();
    let bom = "\u{feff}";
    let write = |name: &str, text: String| {
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let job = write("j.fio", format!("{bom}[j]\nrw=read\nsize=64k\n"));
    let cfg = write(
        "c.toml",
        format!("{bom}{}", std::fs::read_to_string(SMALL).unwrap()),
    );
    let proto = write(
        "p.toml",
        format!("{bom}name = \"b\"\ndescription = \"d\"\n[[step]]\nkind = \"idle\"\nduration = \"1ms\"\n"),
    );
    let trace = write(
        "t.csv",
        format!("{bom}128166372003061629,wdev,0,Read,0,4096,1\n"),
    );
    for args in [
        vec!["run", job.as_str(), "--config", cfg.as_str()],
        vec!["protocol", proto.as_str(), "--config", SMALL],
        vec!["replay", trace.as_str(), "--config", SMALL],
    ] {
        let out = ssdlab(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn blkparse_discards_are_reported() {
    let dir = scratch("discard");
    let f = dir.path().join("d.txt");
    std::fs::write(
        &f,
        "  8,0    1        1     0.000000000  10  Q   D 8 + 8 [fio]\n  8,0    1        2     0.000001000  10  Q   D 64 + 16 [fio]\n",
    )
    .unwrap();
    let f = f.display().to_string();
    let out = ssdlab(&["replay", &f, "--config", SMALL, "--output-format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let trim = &doc["jobs"][0]["trim"];
    // Two discards of 8 and 16 sectors: 4 KiB + 8 KiB.
    assert_eq!(trim["total_ios"], 2);
    assert_eq!(trim["io_bytes"], 12288);
}

#[test]
fn buffered_io_runs_with_a_warning_naming_its_line() {
    let dir = scratch("buffered");
    let f = dir.path().join("b.fio");
    std::fs::write(&f, "[j]\nrw=read\nsize=64k\ndirect=0\n").unwrap();
    let f = f.display().to_string();
    let out = ssdlab(&["run", &f, "--config", SMALL]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "ssdlab: warning: {f}:4: direct=0: no host page cache is modelled; the job runs as direct=1"
        )),
        "{stderr}"
    );
    assert!(!out.stdout.is_empty());
}
