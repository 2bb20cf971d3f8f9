//! `ssdlab report` loaded in headless Chromium (Debian package `chromium`, installed by
//! `scripts/ensure-tools.sh`): the page renders to a screenshot with no script or load errors,
//! and needs nothing from the network.

use std::path::PathBuf;
use std::process::Command;
use tempfile::TempDir;

/// A path `name` that does not exist yet, in a scratch directory removed when the returned
/// guard drops.
fn tmp(name: &str) -> (TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("ssdlab-report-{name}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    (dir, path)
}

#[test]
fn report_loads_in_headless_chromium_without_errors() {
    let bin = env!("CARGO_BIN_EXE_ssdlab");
    let (_out_dir, out) = tmp("sweep");
    let o = Command::new(bin)
        .args(["sweep", "--job", "../examples/sweep/randread-seqwrite.fio"])
        .args(["--config", "tests/corpus/small-drive.toml"])
        .args([
            "--grid",
            "geometry.channels=1,2",
            "--grid",
            "onfi.transfer_mts=400,800",
        ])
        .arg("--output")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(bin).arg("report").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    // Self-contained: no external scripts, styles, images or fonts.
    for needle in ["http://", "https://", "src=", "<link"] {
        let hits: Vec<&str> = html.matches(needle).collect();
        let allowed =
            needle == "http://" && html.matches("http://www.w3.org/2000/svg").count() == hits.len();
        assert!(hits.is_empty() || allowed, "report refers to `{needle}`");
    }
    assert!(html.contains("<svg") && html.contains("<table") && html.contains("bottleneck"));
    assert!(html.contains("drive: test: tiny SM2262-like drive"));
    // Every chart names the drive and seed, and keeps its legend clear of the points.
    let charts: Vec<&str> = html.split("<svg").skip(1).collect();
    assert!(!charts.is_empty());
    for c in &charts {
        let svg = c.split("</svg>").next().unwrap();
        assert!(svg.contains("root seed 1, config hash per point"), "{svg}");
        ssdlab_testbench::plot_frame::svg_check::assert_legend_clear(svg);
    }

    let chromium = ["chromium", "chromium-browser"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect("chromium is not installed: run scripts/ensure-tools.sh (make test does)");
    let (_profile_dir, profile) = tmp("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let shot = out.join("report.png");
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--window-size=1400,1800",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!(
            "file://{}",
            out.join("report.html").canonicalize().unwrap().display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "chromium failed: {err}");
    // Console errors (a script error in the sort code) and failed loads show up on stderr.
    for bad in ["Uncaught", "CONSOLE", "net::ERR_"] {
        assert!(!err.contains(bad), "chromium reported `{bad}`: {err}");
    }
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG screenshot");
    assert!(
        png.len() > 20_000,
        "a blank page compresses to a few KB; got {} B",
        png.len()
    );
}
