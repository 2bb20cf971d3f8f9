//! Seeded mutations of the bad-input corpus' job files, configs, protocols and traces through
//! the command line's parse-and-validate path (`--check`, in-process): every mutation must give
//! a result or an `InputError` (exit 0/1 or 2), never a panic. Mutations are deterministic per
//! seed; a failure prints the seed, and `SSDLAB_FUZZ_SEED=n` replays one. `make test` runs 300;
//! `make test-slow` (`SSDLAB_SLOW=1`, the ignored test) runs `SSDLAB_FUZZ_CASES` (default
//! 10 000). A few mutations also go through the binary, for the exit-code contract.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use ssdlab_model::DriveConfig;
use ssdlab_testbench::cli::{execute, Cli};
use ssdlab_testbench::workload::drive_adapter::open_drive;
use ssdlab_testbench::workload::Device;
use ssdlab_testbench::InputError;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

const SMALL: &str = "tests/corpus/small-drive.toml";

/// Tokens a mutation inserts or puts in place of a number: extremes, syntax, control bytes.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1e300",
    "1e-300",
    "nan",
    "inf",
    "-0",
    "100d",
    "213d",
    "999999h",
    "0x",
    "%",
    "\0",
    "\r",
    "\u{feff}",
    "[",
    "]",
    "=",
    "\"",
    "\"\"\"",
    ",",
    "+",
    "\n",
    "k",
    "m",
    "g",
    "t",
    "p",
    "bs=",
    "size=",
    "offset=",
    "iodepth=",
    "thinktime=",
    "include ",
    "[[step]]\n",
    "kind = \"idle\"\n",
    "Q",
    "D",
    "W",
    "R",
];

/// (category, file) of every corpus input and the good inputs the mutations start from.
fn bases() -> Vec<(&'static str, PathBuf)> {
    let mut out = vec![
        ("fio", PathBuf::from("tests/corpus/ok.fio")),
        ("config", PathBuf::from(SMALL)),
        ("protocol", PathBuf::from("tests/data/small-protocol.toml")),
        ("trace", PathBuf::from("tests/data/tiny-msr.csv")),
    ];
    for cat in ["fio", "config", "protocol", "trace"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new("tests/corpus").join(cat))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x != "expected"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (cat, f)));
    }
    out
}

/// One to four random edits of `text`.
fn mutate(text: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut t = text.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let at = rng.gen_range(0..=t.len());
        let tok = TOKENS[rng.gen_range(0..TOKENS.len())].as_bytes();
        match rng.gen_range(0..6) {
            0 => {
                // A number (a run of digits) replaced by a token.
                let digits: Vec<usize> = (0..t.len()).filter(|&i| t[i].is_ascii_digit()).collect();
                if let Some(&i) = digits.get(rng.gen_range(0..digits.len().max(1))) {
                    let end = (i..t.len())
                        .find(|&j| !t[j].is_ascii_digit())
                        .unwrap_or(t.len());
                    t.splice(i..end, tok.iter().copied());
                }
            }
            1 => {
                t.splice(at..at, tok.iter().copied());
            }
            2 => {
                let end = (at + rng.gen_range(1..16)).min(t.len());
                t.drain(at..end);
            }
            3 => {
                let start = t[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = t[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(t.len(), |i| at + i + 1);
                let line = t[start..end].to_vec();
                t.splice(start..start, line);
            }
            4 if !t.is_empty() => {
                let i = rng.gen_range(0..t.len());
                t[i] = rng.gen();
            }
            _ => t.truncate(at),
        }
    }
    t
}

/// A scratch directory for the mutated inputs, removed when the returned guard drops.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ssdlab-fuzz-")
        .tempdir()
        .unwrap()
}

/// The mutated input of `seed`, written to a file in `dir`, and the command line that checks it.
fn case(dir: &Path, seed: u64) -> (PathBuf, Vec<String>) {
    let all = bases();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Half the mutations start from the four good inputs (the first bases), half from anywhere.
    let pick = if rng.gen_bool(0.5) { 4 } else { all.len() };
    let (cat, base) = &all[rng.gen_range(0..pick)];
    let text = mutate(&std::fs::read(base).unwrap(), &mut rng);
    let name = base.file_name().unwrap().to_string_lossy();
    let file = dir.join(format!("{seed}-{name}"));
    std::fs::write(&file, text).unwrap();
    let f = file.display().to_string();
    let args: Vec<&str> = match *cat {
        "fio" => vec!["run", &f, "--config", SMALL],
        "config" => vec!["run", "tests/corpus/ok.fio", "--config", &f],
        "protocol" => vec!["protocol", &f, "--config", SMALL],
        _ => vec!["replay", &f, "--config", SMALL],
    };
    let mut argv = vec!["ssdlab".to_string(), "--check".to_string()];
    argv.extend(args.into_iter().map(String::from));
    (file, argv)
}

/// Runs one seed in-process, its input written in `dir`: whether the inputs were accepted; Err
/// describes a panic (or an unusable command line).
fn run_seed(dir: &Path, seed: u64) -> Result<bool, String> {
    let (file, argv) = case(dir, seed);
    let cli = match <Cli as clap::Parser>::try_parse_from(&argv) {
        Ok(c) => c,
        Err(e) => return Err(format!("seed {seed}: command line {argv:?}: {e}")),
    };
    let open = |cfg: &DriveConfig, s: u64| -> Result<Box<dyn Device>, InputError> {
        Ok(Box::new(open_drive(cfg, s, "fuzz")?))
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| execute(&cli, &open, &mut Vec::new())));
    let _ = std::fs::remove_file(&file);
    match outcome {
        Ok(Ok(0 | 1)) => Ok(true),
        Ok(Err(_)) => Ok(false),
        Ok(Ok(code)) => Err(format!("seed {seed}: exit code {code} ({argv:?})")),
        Err(_) => Err(format!(
            "seed {seed}: panicked on {argv:?} (SSDLAB_FUZZ_SEED={seed} replays it)"
        )),
    }
}

/// Runs the seeds; returns how many inputs were accepted and how many refused.
fn run_seeds(seeds: impl Iterator<Item = u64>) -> (usize, usize) {
    // The memory check compares with a fixed limit, not the machine's free memory.
    std::env::set_var("SSDLAB_MEMORY_LIMIT_MIB", "512");
    let (mut accepted, mut refused, mut failures) = (0, 0, Vec::new());
    let dir = scratch();
    for s in seeds {
        match run_seed(dir.path(), s) {
            Ok(true) => accepted += 1,
            Ok(false) => refused += 1,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} mutations failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (accepted, refused)
}

#[test]
fn mutated_inputs_never_panic() {
    match std::env::var("SSDLAB_FUZZ_SEED") {
        Ok(s) => {
            run_seeds(std::iter::once(
                s.parse().expect("SSDLAB_FUZZ_SEED is a number"),
            ));
        }
        Err(_) => {
            let (accepted, refused) = run_seeds(0..300);
            // The corpus is mostly bad input, but mutations of the good files and edits that
            // miss the fault keep some accepted: both paths are exercised.
            assert!(
                accepted >= 15 && refused >= 150,
                "{accepted} accepted, {refused} refused"
            );
        }
    }
}

#[test]
#[ignore = "10^4 mutations: make test-slow"]
fn many_mutated_inputs_never_panic() {
    let n: u64 = std::env::var("SSDLAB_FUZZ_CASES").map_or(10_000, |v| v.parse().unwrap());
    let _ = run_seeds(1_000_000..1_000_000 + n);
}

#[test]
fn mutated_inputs_through_the_binary_exit_0_1_or_2() {
    let dir = scratch();
    for seed in 0..16 {
        let (file, argv) = case(dir.path(), seed);
        let out = Command::new(env!("CARGO_BIN_EXE_ssdlab"))
            .args(&argv[1..])
            .env("SSDLAB_MEMORY_LIMIT_MIB", "512")
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&file);
        let code = out.status.code();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(code, Some(0..=2)),
            "seed {seed}: {code:?} {argv:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "seed {seed}: {stderr}");
        if code == Some(2) {
            assert!(out.stdout.is_empty(), "seed {seed}: stdout on an error");
        }
    }
}
