//! Bad input never panics and never shows a partial result: every file in tests/corpus/{fio,
//! protocol,trace,config} goes through the `ssdlab` binary, which must exit with code 2, print
//! nothing on stdout, and print one error line naming the file (and line, where there is one)
//! with the reason. The expected line of each case is `<file>.expected`, written by hand and
//! checked here; `UPDATE_EXPECT=1 cargo test --test bad_input` rewrites them after a deliberate
//! wording change (review the diff).

use std::path::{Path, PathBuf};
use std::process::Command;

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
