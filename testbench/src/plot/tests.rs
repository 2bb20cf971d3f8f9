use super::*;
use crate::fio::parse_job_file;
use crate::plot_frame::svg_check::assert_legend_clear;
use crate::plot_throughput::{mbps_points, occupancy_points};
use crate::workload::runner::{run_jobs, Quiet};
use crate::workload::testdev::FixedLatencyDevice;
use ssdlab_model::{SeedTree, SimTime};

fn meta() -> PlotMeta {
    PlotMeta {
        drive: "Test drive".into(),
        config_hash: "00112233aabbccdd".into(),
        seed: 7,
    }
}

/// A scratch directory, removed when the returned guard drops unless `SSDLAB_KEEP_PLOTS` is
/// set: then it stays, pass or fail, and its path is printed for a look at the plots.
fn tmp(name: &str) -> tempfile::TempDir {
    let mut dir = tempfile::Builder::new()
        .prefix(&format!("ssdlab-plot-{name}-"))
        .tempdir()
        .unwrap();
    if std::env::var_os("SSDLAB_KEEP_PLOTS").is_some() {
        dir.disable_cleanup(true);
        eprintln!("plots kept in {}", dir.path().display());
    }
    dir
}

fn demo_groups(reports_flash: bool) -> Vec<GroupResult> {
    let jobs = parse_job_file(
        "[w]\nrw=write\nbs=128k\niodepth=1\nsize=64m\n[r]\nstonewall\nrw=randread\nsize=8m\n",
        "t",
    )
    .unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(50));
    dev.ps_per_byte = 100; // 128 KiB -> 13.1072 us extra
    dev.reports_flash = reports_flash;
    run_jobs(&mut dev, &jobs, "t", &SeedTree::new(1), &mut Quiet).unwrap()
}

#[test]
fn run_plots_are_svg_with_their_series_titles_and_clear_legends() {
    let g = demo_groups(true);
    let dir = tmp("run");
    let files = plot_run(dir.path(), "demo run", &meta(), &g).unwrap();
    assert_eq!(files.len(), 2);
    let tp = std::fs::read_to_string(&files[0]).unwrap();
    assert!(tp.starts_with("<svg"), "{}", &tp[..200.min(tp.len())]);
    for s in [
        "write (MB/s)",
        "read (MB/s)",
        "SLC cache valid data (GiB, left)",
    ] {
        assert!(tp.contains(s), "throughput plot lacks {s}");
    }
    let lp = std::fs::read_to_string(&files[1]).unwrap();
    assert!(lp.contains("w write") && lp.contains("r read"));
    for svg in [&tp, &lp] {
        assert!(svg.contains("Test drive, config 00112233aabbccdd, seed 7"));
        assert_legend_clear(svg);
    }
    // The tail points are labelled: p99.9, p99.99 and the maximum.
    let ticks: Vec<&str> = lp.lines().map(str::trim).collect();
    for label in ["99.9", "99.99", "max"] {
        assert!(
            ticks.contains(&label),
            "latency plot lacks the {label} tick"
        );
    }
}

#[test]
fn throughput_is_decimal_megabytes_per_second() {
    // QD1 128 KiB writes at 50 + 13.1072 us each, 512 of them (32.3 ms). Bins are coarsened from
    // 100 us until they hold 10 mean latencies (631 us): 800 us, so a full bin holds 12 or 13
    // completions (800 / 63.1072 = 12.68): 12 x 131 072 B / 800 us = 1966.08 MB/s (10^6 B/s;
    // 1875 MiB/s) or 13 x = 2129.92 MB/s. The mean is 131 072 B / 63.1072 us = 2077.0 MB/s.
    let g = demo_groups(false);
    let (_, w) = g[0].totals();
    let pts = mbps_points(&w, &g[0], g[0].window_start);
    // 32.31 ms: 40 full bins; the last 0.31 ms (under half a bin) is not shown.
    assert_eq!(pts.len(), 40);
    let full = &pts[..];
    for (_, y) in full {
        let ios = y * 800e-6 * 1e6 / 131_072.0;
        assert!(
            (ios - 12.0).abs() < 1e-9 || (ios - 13.0).abs() < 1e-9,
            "{y} MB/s is {ios} IOs per bin"
        );
    }
    let mean = full.iter().map(|p| p.1).sum::<f64>() / full.len() as f64;
    assert!((mean - 2076.97).abs() < 20.0, "{mean}");
}

#[test]
fn occupancy_curve_follows_the_flash_state_per_bin() {
    // The test device counts every write since the window start as SLC data: 64 MiB by the end
    // of the write group, in 1 MiB blocks taken from 1000 free ones (936 left).
    let g = demo_groups(true);
    let (slc, free) = occupancy_points(&g[..1], g[0].window_start);
    assert!(slc.len() > 10);
    assert!(slc.windows(2).all(|p| p[1].1 >= p[0].1 && p[1].0 > p[0].0));
    assert_eq!(slc.last().unwrap().1, 64.0 / 1024.0);
    assert_eq!(free.last().unwrap().1, 936.0);
    // A sample at t holds what was submitted by t: 128 KiB per 63.1072 us, one ahead (QD1).
    let (t, gib) = slc[slc.len() / 2];
    let ios = (t / 63.1072e-6).floor() + 1.0;
    assert!(
        (gib * 8192.0 - ios).abs() <= 1.0,
        "{t} s: {gib} GiB vs {ios} IOs"
    );
    // A device without an FTL gives no curve.
    assert!(occupancy_points(&demo_groups(false), SimTime::ZERO)
        .0
        .is_empty());
}

#[test]
fn repeated_job_names_get_their_burst_or_clone() {
    let jobs = parse_job_file("[b]\nrw=read\nbs=4k\nsize=64k\nnumjobs=2\n", "t").unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(50));
    let mut groups = Vec::new();
    for k in 0..3 {
        groups.extend(run_jobs(&mut dev, &jobs, "t", &SeedTree::new(k), &mut Quiet).unwrap());
    }
    let labels: Vec<String> = job_labels(&groups, "burst").concat();
    assert_eq!(
        labels,
        [
            "b burst 1 clone 0",
            "b burst 1 clone 1",
            "b burst 2 clone 0",
            "b burst 2 clone 1",
            "b burst 3 clone 0",
            "b burst 3 clone 1"
        ]
    );
    // Names that are unique stay as they are.
    assert_eq!(job_labels(&groups[..1], "burst")[0].len(), 2);
    assert_eq!(
        job_labels(&demo_groups(false), "group").concat(),
        ["w", "r"]
    );
}

#[test]
fn slugs() {
    assert_eq!(slug("Fresh: sequential read"), "fresh-sequential-read");
}
