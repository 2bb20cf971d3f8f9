//! The `ssdlab` binary end to end on a tiny drive (tests/corpus/small-drive.toml): text and
//! JSON output of `run`, a protocol with every step kind, `presets`, replay, determinism.

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

/// A scratch directory `ssdlab-<tag>-*`, removed when the returned guard drops.
fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ssdlab-{tag}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn presets_lists_the_three_drives() {
    let (code, out, _) = ssdlab(&["presets"]);
    assert_eq!(code, 0);
    for name in ["sm2262-512g", "sm2262-1t", "e12-960g"] {
        assert!(out.contains(name), "{out}");
    }
}

#[test]
fn run_json_has_fio_shape_and_is_deterministic() {
    let job = "tests/data/mixed.fio";
    let (code, out, err) = ssdlab(&[
        "run",
        job,
        "--config",
        SMALL,
        "--output-format",
        "json",
        "--seed",
        "7",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    let j = &v["jobs"][0];
    let (r, w) = (
        j["read"]["total_ios"].as_u64().unwrap(),
        j["write"]["total_ios"].as_u64().unwrap(),
    );
    // number_ios=2000: every issued IO completes and is counted.
    assert_eq!(r + w, 2000);
    assert!(
        j["read"]["clat_ns"]["percentile"]["50.000000"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert!(j["read"]["iops"].as_f64().unwrap() > 0.0);
    assert!(v["ssdlab"]["groups"][0]["nand_ops"].is_object());
    let (_, again, _) = ssdlab(&[
        "run",
        job,
        "--config",
        SMALL,
        "--output-format",
        "json",
        "--seed",
        "7",
    ]);
    assert_eq!(out, again, "same seed, same output");
}

#[test]
fn run_text_output_is_fio_like() {
    let (code, out, err) = ssdlab(&["run", "tests/corpus/ok.fio", "--config", SMALL]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("job: (groupid=0, jobs=1)")
            && out.contains("read: IOPS=")
            && out.contains("clat percentiles (usec)"),
        "{out}"
    );
    assert!(out.contains("Run status group 0 (all jobs):"), "{out}");
}

#[test]
fn protocol_with_every_step_kind_and_plots() {
    let tmp = scratch("cli-plots");
    let dir = tmp.path().join("plots");
    let d = dir.display().to_string();
    let (code, out, err) = ssdlab(&[
        "protocol",
        "tests/data/small-protocol.toml",
        "--config",
        SMALL,
        "--plot",
        &d,
    ]);
    assert_eq!(code, 0, "{err}");
    for label in [
        "Sequential read, QD1",
        "Sequential read, QD4",
        "Burst write",
        "Read score",
    ] {
        assert!(out.contains(label), "{label} missing:\n{out}");
    }
    assert!(out.contains("QD4x1 128KiB read"), "{out}");
    let svgs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        svgs.iter().any(|f| f.ends_with("throughput-vs-qd.svg")),
        "{svgs:?}"
    );
    assert!(svgs.iter().any(|f| f.ends_with("latency.svg")), "{svgs:?}");
}

#[test]
fn replay_msr_trace() {
    let t = "tests/data/tiny-msr.csv";
    let (code, out, err) = ssdlab(&["replay", t, "--config", SMALL, "--output-format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["jobs"][0]["read"]["total_ios"], 2);
    assert_eq!(v["jobs"][0]["write"]["io_bytes"], 65536);
}

#[test]
fn validate_exit_status_follows_the_tolerance() {
    // No drive reads at 1 TB/s: the figure is off by nearly -100 %, outside ±10 %.
    let (code, out, err) = ssdlab(&[
        "validate",
        "--protocol",
        "tests/data/validate-protocol.toml",
        "--config",
        SMALL,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("validation: 0 of 1 figures within ±10 %; outside: sr (-9"),
        "{out}"
    );
    // ... but inside a ±100 % band (the error is above -100 % for any positive throughput).
    let (code, out, _) = ssdlab(&[
        "validate",
        "--protocol",
        "tests/data/validate-protocol.toml",
        "--config",
        SMALL,
        "--tolerance-pct",
        "100",
        "--output-format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["validation"]["pass"], true);
    assert!(v["steps"][1]["report"]["error_pct"].as_f64().unwrap() > -100.0);
}

#[test]
fn output_option_writes_the_report_to_a_file_only_on_success() {
    let tmp = scratch("cli-output");
    let path = tmp.path().join("report.json");
    let p = path.display().to_string();
    let args = [
        "run",
        "tests/corpus/ok.fio",
        "--config",
        SMALL,
        "--output-format",
        "json",
    ];
    let (code, stdout, err) = ssdlab(&args);
    assert_eq!(code, 0, "{err}");
    let (code, nothing, err) = ssdlab(&[&args[..], &["--output", &p]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(nothing.is_empty(), "stdout must stay empty with --output");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        stdout,
        "the file holds what stdout would have"
    );
    std::fs::remove_file(&path).unwrap();
    // Bad input: exit 2 and no file at all.
    let (code, _, _) = ssdlab(&[
        "run",
        "tests/corpus/fio/empty.fio",
        "--config",
        SMALL,
        "--output",
        &p,
    ]);
    assert_eq!(code, 2);
    assert!(!path.exists(), "a failed run must not leave a report file");
}

/// `validate --seeds N`: every run is exactly the one-seed run at its seed (whatever the thread
/// count), the spread's numbers are arithmetic on those runs, and the exit status and the
/// seeds named outside follow the tolerance.
/// A protocol's `compare` key (or `--compare`) adds the other protocol's figures after the
/// validation, not judged: the exit code is the validated protocol's alone.
#[test]
fn validate_prints_the_compare_protocol_beside_it_without_judging_it() {
    let base = [
        "validate",
        "--protocol",
        "tests/data/validate-compare.toml",
        "--config",
        SMALL,
        "--tolerance-pct",
        "100",
    ];
    let (code, out, err) = ssdlab(&base);
    assert_eq!(code, 0, "{out}{err}");
    let at = out
        .find("beside it, not judged: protocol validate-test (seeds 1)")
        .unwrap_or_else(|| panic!("{out}"));
    // The same unreachable figure, shown with its error (near -100 %) but no verdict.
    assert!(
        out[at..].contains("Sequential read") && out[at..].contains("-9"),
        "{out}"
    );
    assert!(!out[at..].contains("validation:"), "{out}");
    let (code, out, _) = ssdlab(&[&base[..], &["--compare", "none"]].concat());
    assert_eq!(code, 0);
    assert!(!out.contains("not judged"), "{out}");
}

#[test]
fn validate_over_seeds_reports_each_seed_as_its_own_run() {
    let proto = "tests/data/validate-seeds.toml";
    let base = [
        "validate",
        "--protocol",
        proto,
        "--config",
        SMALL,
        "--output-format",
        "json",
    ];
    let multi = |extra: &[&str]| {
        let (code, out, err) = ssdlab(&[&base[..], extra].concat());
        (
            code,
            serde_json::from_str::<serde_json::Value>(&out)
                .unwrap_or_else(|e| panic!("{e}: {out}{err}")),
            out,
        )
    };
    let (_, v, one_thread) = multi(&[
        "--seeds",
        "3",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--tolerance-pct",
        "1000",
    ]);
    let (code, _, three_threads) = multi(&[
        "--seeds",
        "3",
        "--seed",
        "5",
        "--jobs",
        "3",
        "--tolerance-pct",
        "1000",
    ]);
    assert_eq!(code, 0, "every seed within ±1000 %");
    assert_eq!(
        one_thread, three_threads,
        "the thread count must not change any figure"
    );
    assert_eq!(v["seeds"], serde_json::json!([5, 6, 7]));
    for (k, seed) in ["5", "6", "7"].iter().enumerate() {
        let (_, mut alone, _) = multi(&["--seed", seed]);
        alone.as_object_mut().unwrap().remove("validation");
        // The drive's provenance sits once atop the multi-seed document, not in each run.
        let provenance = alone.as_object_mut().unwrap().remove("ssdlab").unwrap();
        assert_eq!(v["ssdlab"]["config_hash"], provenance["config_hash"]);
        assert_eq!(v["runs"][k], alone, "run {k} is `validate --seed {seed}`");
    }
    let f = &v["figures"][0];
    let models: Vec<f64> = f["model"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(
        models.iter().any(|&m| m != models[0]),
        "the seed moves a random write: {models:?}"
    );
    assert!((f["model_mean"].as_f64().unwrap() - models.iter().sum::<f64>() / 3.0).abs() < 1e-9);
    let errs: Vec<f64> = models
        .iter()
        .map(|m| (m - 100_000.0) / 100_000.0 * 100.0)
        .collect();
    for (k, e) in errs.iter().enumerate() {
        assert!((f["error_pct"][k].as_f64().unwrap() - e).abs() < 1e-9);
    }
    // A tolerance between the smallest and the largest |error|: some seeds in, some out.
    let mut abs: Vec<f64> = errs.iter().map(|e| e.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let tol = (abs[0] + abs[2]) / 2.0;
    let tol_s = format!("{tol}");
    let (code, v, _) = multi(&["--seeds", "3", "--seed", "5", "--tolerance-pct", &tol_s]);
    assert_eq!(code, 1);
    let expect: Vec<u64> = (0..3)
        .filter(|&k| errs[k].abs() > tol)
        .map(|k| 5 + k as u64)
        .collect();
    assert!(!expect.is_empty() && expect.len() < 3);
    assert_eq!(
        v["figures"][0]["outside_at_seeds"],
        serde_json::json!(expect)
    );
    assert_eq!(v["validation"]["pass"], false);
    let (code, text, _) = ssdlab(&[
        "validate",
        "--protocol",
        proto,
        "--config",
        SMALL,
        "--seeds",
        "3",
        "--seed",
        "5",
        "--tolerance-pct",
        &tol_s,
    ]);
    assert_eq!(code, 1);
    assert!(
        text.contains(&format!(
            "validation: {} of 3 seeds with every figure within",
            3 - expect.len()
        )),
        "{text}"
    );
    let (code, _, err) = ssdlab(&[
        "validate",
        "--protocol",
        proto,
        "--config",
        SMALL,
        "--seeds",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--seeds"), "{err}");
}

#[test]
fn never_written_reads_are_reported_and_precondition_fills_them() {
    let job = "tests/data/randread.fio";
    // A fresh drive holds no data: every one of the 2000 x 4 KiB reads is of a never-written
    // LBA, so the share is 100 % and the warning (above 1 %) names the job file.
    let (code, out, err) = ssdlab(&["run", job, "--config", SMALL]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("reads of never-written or trimmed LBAs=100.0% (2000 of 2000 4 KiB units)"),
        "{out}"
    );
    assert!(err.contains(&format!("warning: {job}: 100.0 %")), "{err}");
    // Filled first (either order), the same reads all hit written data: 0 %, no warning.
    for order in ["sequential", "random"] {
        let (code, out, err) = ssdlab(&[
            "run",
            job,
            "--config",
            SMALL,
            "--precondition",
            order,
            "--output-format",
            "json",
        ]);
        assert_eq!(code, 0, "{order}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
        let g = &v["ssdlab"]["groups"][0];
        assert_eq!(g["read_units"], 2000, "{order}");
        assert_eq!(g["unwritten_read_units"], 0, "{order}");
        assert_eq!(g["unwritten_read_pct"], 0.0, "{order}");
        assert!(!err.contains("warning"), "{order}: {err}");
        // The fill is outside the measurement window: the job itself wrote nothing.
        assert_eq!(g["host_bytes_written"], 0, "{order}");
    }
}

#[test]
fn bad_precondition_value_is_refused() {
    let (code, out, err) = ssdlab(&[
        "run",
        "tests/data/randread.fio",
        "--config",
        SMALL,
        "--precondition",
        "zigzag",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty() && err.contains("zigzag"), "{err}");
}

#[test]
fn replay_reports_never_written_reads() {
    // One 64 KiB write at 0, then 4 KiB reads at 0 (written) and at 1 MiB (never written):
    // 1 of 2 units, 50 %.
    let tmp = scratch("unwritten");
    let path = tmp.path().join("unwritten.csv");
    std::fs::write(
        &path,
        "128166372003061629,h,0,Write,0,65536,1\n128166372003161629,h,0,Read,0,4096,1\n\
         128166372003261629,h,0,Read,1048576,4096,1\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let (code, out, err) = ssdlab(&["replay", p, "--config", SMALL]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("reads of never-written or trimmed LBAs=50.0% (1 of 2 4 KiB units)"),
        "{out}"
    );
    assert!(err.contains(&format!("warning: {p}: 50.0 %")), "{err}");
}

#[test]
fn json_plus_adds_bins_and_terse_is_refused() {
    let job = "tests/data/randread.fio";
    let (code, out, err) = ssdlab(&["run", job, "--config", SMALL, "--output-format", "json+"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    let clat = &v["jobs"][0]["read"]["clat_ns"];
    // Every one of the 2000 reads is in exactly one bin.
    let total: u64 = clat["bins"]
        .as_object()
        .expect("bins object")
        .values()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 2000);
    assert_eq!(clat["N"], 2000);
    let (code, out, err) = ssdlab(&["run", job, "--config", SMALL, "--output-format", "terse"]);
    assert_eq!(code, 2);
    assert!(
        out.is_empty() && err.contains("terse (fio's semicolon-separated format) is not supported"),
        "{err}"
    );
}
