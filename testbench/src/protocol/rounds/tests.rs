//! The `rounds` step: its checks at load, the round loop on hand-made series (steady, capped),
//! a run on the fixed-latency device with hand figures, and the built-in PTS protocols' shape.

use super::run::round_loop;
use super::*;
use crate::protocol::run::run_protocol;
use crate::protocol::{load, resolve, Step};
use crate::workload::testdev::FixedLatencyDevice;
use crate::workload::Quiet;
use ssdlab_model::{SeedTree, SimTime};

/// Two axes, 2 x 2 cells: reads then writes, QD1 and QD4, 100 random 4 KiB IOs each.
const GRID: &str = r#"name = "g"
description = "d"

[[step]]
kind = "rounds"
id = "grid"
label = "grid"
metrics = ["iops", "lat_avg_us"]
track = { rw = "randwrite", iodepth = 4 }
steady_state = { max_rounds = 8, window = 5 }
job = """
[c]
bs=4k
size=400k
"""

[[step.axis]]
option = "rw"
values = ["randread", "randwrite"]

[[step.axis]]
option = "iodepth"
values = [1, 4]
"#;

fn rounds_of(text: &str) -> RoundsStep {
    match load(text, "p.toml", None).unwrap().steps.remove(0) {
        Step::Rounds(r) => r,
        s => panic!("{s:?}"),
    }
}

fn load_err(text: &str) -> String {
    load(text, "p.toml", None).unwrap_err().to_string()
}

#[test]
fn cells_are_the_axes_product_last_axis_fastest() {
    let r = rounds_of(GRID);
    let labels: Vec<&str> = r.cells.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "rw=randread iodepth=1",
            "rw=randread iodepth=4",
            "rw=randwrite iodepth=1",
            "rw=randwrite iodepth=4"
        ]
    );
    assert_eq!(r.track, 3);
    assert_eq!(r.cells[1].jobs[0].iodepth, 4);
    assert_eq!(r.rule, SteadyRule::new(8, 5).unwrap());
}

/// Runs the loop on `series` as the tracked cell's figure (the other cells: 10 x the round).
fn drive_loop(s: &RoundsStep, series: &[f64]) -> (run::RoundsOutcome, u32) {
    let mut calls = 0;
    let o = round_loop(
        s,
        |r| -> Result<Vec<Vec<f64>>, ()> {
            calls += 1;
            let v = series[r as usize - 1];
            Ok((0..s.cells.len())
                .map(|c| match c == s.track {
                    true => vec![v, 1.0],
                    false => vec![10.0 * r as f64, 2.0 * r as f64],
                })
                .collect())
        },
        |_, _, _, _| {},
    )
    .unwrap();
    (o, calls)
}

#[test]
fn a_hand_series_reaches_steady_state_at_round_seven() {
    let s = rounds_of(GRID);
    // Rounds 3-7 are 100 102 98 101 99: excursion 4 % and line 1.2 % of the mean 100.
    let series = [300.0, 200.0, 100.0, 102.0, 98.0, 101.0, 99.0, 500.0];
    let (o, calls) = drive_loop(&s, &series);
    assert_eq!((o.rounds_run(), calls), (7, 7));
    assert!(o.steady());
    assert_eq!((o.window.first_round, o.window.rounds), (3, 5));
    assert!((o.window.mean - 100.0).abs() < 1e-9);
    // Cell 0's iops over rounds 3-7: 10 x (3 + 4 + 5 + 6 + 7) / 5 = 50.
    assert!((o.window_value(0, 0) - 50.0).abs() < 1e-9);
    let row = report::report_row(&s, &o);
    assert_eq!(row.setting, "steady state at round 7");
    let j = report::json(&o);
    assert_eq!(j["window"]["values"].as_array().unwrap().len(), 5);
    assert_eq!(j["status"], "steady state");
}

#[test]
fn a_hand_series_that_never_settles_hits_the_cap() {
    let s = rounds_of(GRID);
    // Alternating 50 / 150: every window's excursion is 100 % of its mean.
    let series: Vec<f64> = (0..8)
        .map(|i| if i % 2 == 0 { 50.0 } else { 150.0 })
        .collect();
    let (o, calls) = drive_loop(&s, &series);
    assert_eq!((o.rounds_run(), calls), (8, 8), "the cap is 8 rounds");
    assert!(!o.steady());
    assert_eq!(o.window.first_round, 4);
    let text = report::text("grid", &o);
    assert!(
        text.starts_with("grid: round cap hit (8 rounds), not steady"),
        "{text}"
    );
    assert_eq!(report::json(&o)["status"], "round cap hit");
}

#[test]
fn a_run_on_the_fixed_latency_device_is_steady_at_the_window() {
    let p = load(GRID, "p.toml", None).unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
    let steps = run_protocol(&mut dev, &p, &SeedTree::new(1), &mut Quiet, &mut |_, _| {}).unwrap();
    let o = steps[0].rounds.as_ref().unwrap();
    // Every round alike: steady over the first full window, rounds 1-5.
    assert_eq!(o.rounds_run(), 5);
    assert!(o.steady() && o.window.first_round == 1);
    // 5 rounds x 4 cells x 100 IOs.
    assert_eq!(dev.log.len(), 2000);
    // QD1 at 100 us: 10 000 IOPS; QD4: 40 000; latency 100 us throughout.
    for (c, want) in [(0, 10_000.0), (1, 40_000.0), (2, 10_000.0), (3, 40_000.0)] {
        assert!((o.window_value(c, 0) - want).abs() < 1e-6, "cell {c}");
        assert!((o.window_value(c, 1) - 100.0).abs() < 1e-9, "cell {c}");
    }
    let r = steps[0].report.as_ref().unwrap();
    assert!((r.model - 40_000.0).abs() < 1e-6, "{r:?}");
    let text = report::text("grid", o);
    assert!(text.contains("iodepth\\rw"), "{text}");
    assert!(
        text.contains("4                   40000      40000"),
        "{text}"
    );
}

#[test]
fn builtin_pts_protocols_follow_the_spec_matrices() {
    let rounds = |name: &str| -> Vec<RoundsStep> {
        let p = resolve(name).unwrap();
        p.steps
            .into_iter()
            .filter_map(|s| match s {
                Step::Rounds(r) => Some(r),
                _ => None,
            })
            .collect()
    };
    let iops = rounds("pts-iops");
    // 7 R/W mixes x 8 block sizes; the tracked cell is 0 % read (7th mix) at 4 KiB (7th size).
    assert_eq!(iops[0].cells.len(), 56);
    assert_eq!(iops[0].track, 6 * 8 + 6);
    assert_eq!(iops[0].cells[iops[0].track].label, "rwmixread=0 bs=4k");
    assert_eq!(iops[0].rule, SteadyRule::new(25, 5).unwrap());
    let lat = rounds("pts-latency");
    assert_eq!(lat[0].cells.len(), 9);
    assert_eq!(lat[0].cells[lat[0].track].label, "rwmixread=0 bs=4k");
    assert!(lat[0].cells.iter().all(|c| c.jobs[0].iodepth == 1));
    let tp = rounds("pts-throughput");
    assert_eq!(tp.len(), 2);
    for (t, bs) in tp.iter().zip([128 << 10, 1 << 20]) {
        assert_eq!(t.cells[t.track].label, "rw=write");
        assert_eq!(t.cells[t.track].jobs[0].bs_write, bs);
    }
}

#[test]
fn bad_rounds_steps_name_the_file_line_and_key() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "values = [1, 4]",
            "values = []",
            "axis `iodepth` has no values",
        ),
        (
            "option = \"iodepth\"",
            "option = \"rw\"",
            "axis `rw` is given twice",
        ),
        (
            "values = [1, 4]",
            "values = [1, 1]",
            "axis `iodepth`: value `1` is given twice",
        ),
        (
            "values = [1, 4]",
            "values = [1, 4.5]",
            "must be a string or an integer",
        ),
        (
            "values = [1, 4]",
            "values = [1, \"4\\nrw=trim\"]",
            "must be one fio value",
        ),
        (
            "iodepth = 4 }",
            "iodepth = 8 }",
            "track: `iodepth` = `8` is not one of",
        ),
        ("iodepth = 4 }", "qd = 4 }", "track: `qd` is not an axis"),
        (
            ", iodepth = 4 }",
            " }",
            "track: no value for axis `iodepth`",
        ),
        (
            "track = { rw = \"randwrite\", iodepth = 4 }\n",
            "",
            "`track` must name the tracked cell",
        ),
        (
            "[\"iops\", \"lat_avg_us\"]",
            "[]",
            "`metrics` lists no metric",
        ),
        (
            "\"lat_avg_us\"]",
            "\"iops\"]",
            "metrics: `Iops` is given twice",
        ),
        (
            "max_rounds = 8",
            "max_rounds = 0",
            "max_rounds must be at least 1",
        ),
        (
            "max_rounds = 8",
            "max_rounds = 4",
            "window 5 is larger than max_rounds 4",
        ),
        ("window = 5", "window = 1", "window 1 must be at least 2"),
        (
            "max_rounds = 8",
            "max_rounds = 5000",
            "max_rounds 5000 is above 1000",
        ),
        (
            "values = [1, 4]",
            "values = [1, 4, \"x\"]",
            "cell `rw=randread iodepth=x`: ",
        ),
    ];
    for (from, to, want) in cases {
        assert!(GRID.contains(from), "{from}");
        let e = load_err(&GRID.replacen(from, to, 1));
        assert!(
            e.starts_with("p.toml:4: step 1: ") && e.contains(want),
            "{to}: {e}"
        );
    }
    // Keys the schema does not know are named (with the step's line).
    let e = load_err(&GRID.replace("window = 5 }", "window = 5, slope = 1 }"));
    assert!(
        e.starts_with("p.toml:4: ") && e.contains("unknown field `slope`"),
        "{e}"
    );
    let e = load_err(&GRID.replace("option = \"rw\"", "option = \"rw\"\nvalue = 1"));
    assert!(
        e.starts_with("p.toml:4: ") && e.contains("unknown field `value`"),
        "{e}"
    );
    // A job error keeps the protocol file's own line.
    let e = load_err(&GRID.replace("size=400k", "size=400k\nexec_prerun=ls"));
    assert!(
        e.starts_with("p.toml:15: unsupported option `exec_prerun`"),
        "{e}"
    );
}
