//! The bottleneck rule on the model itself, each case shaped with `--set` so that hand
//! arithmetic says which resource saturates (the tiny test drive: 16 KiB pages, 2 planes), and
//! the per-core and per-plane fractions beside it.

use std::process::Command;

fn run(job: &str, sets: &[&str]) -> String {
    let dir = tempfile::Builder::new()
        .prefix("ssdlab-bottleneck-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(format!("{}.fio", sets.len()));
    std::fs::write(&path, job).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ssdlab"));
    c.arg("run")
        .arg(&path)
        .args(["--config", "tests/corpus/small-drive.toml"]);
    for s in sets {
        c.args(["--set", s]);
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The bottleneck line of the last group.
fn last_bottleneck(text: &str) -> (String, f64) {
    let l = text
        .lines()
        .rfind(|l| l.trim_start().starts_with("bottleneck: "))
        .unwrap();
    let rest = l
        .trim_start()
        .trim_start_matches("bottleneck: ")
        .trim_end_matches(" %");
    let (name, pct) = rest.rsplit_once(' ').unwrap();
    (name.to_string(), pct.parse().unwrap())
}

/// The last group's per-core firmware fractions and the busiest die's plane fractions, and
/// that die's array fraction (from the lines before its bottleneck line), in per cent.
fn last_cores_and_planes(text: &str) -> (Vec<f64>, Vec<f64>, f64) {
    let l = text
        .lines()
        .rfind(|l| l.trim_start().starts_with("utilisation: firmware core 0 "))
        .unwrap();
    let (cores, planes) = l.split_once("; busiest die ").unwrap();
    let pcts = |s: &str| -> Vec<f64> {
        s.split(" %")
            .filter_map(|p| p.rsplit(' ').next()?.parse().ok())
            .collect()
    };
    let die = text
        .lines()
        .rfind(|l| l.contains("(busiest die "))
        .and_then(|l| l.rsplit_once(' ').map(|x| x.0))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
        .unwrap();
    (
        pcts(cores),
        pcts(planes.split_once(" planes").unwrap().1),
        die,
    )
}

const FILL: &str =
    "[global]\nioengine=libaio\ndirect=1\nsize=64m\n[fill]\nrw=write\nbs=128k\niodepth=32\n";

#[test]
fn random_read_of_written_data_is_die_bound() {
    // 2 dies: a 4 KiB read holds its die for tR (35 us in the SLC cache the fill went to, 56-76
    // us in TLC) + 1.2 us of data out, so 2 dies give at most ~55 k IO/s; the 2 firmware cores
    // take 4.8 us per read (417 k IO/s), the bus 1.2 us per read on its own channel (3 % busy
    // at 55 k IO/s), the link 1.2 us per 4 KiB.
    let job = format!("{FILL}[rr]\nstonewall\nrw=randread\nbs=4k\niodepth=32\nnumjobs=4\nramp_time=200ms\nruntime=100ms\ntime_based=1\n");
    let text = run(&job, &[]);
    let (name, pct) = last_bottleneck(&text);
    assert!(
        name.starts_with("die ") && name.ends_with(" array"),
        "{name}"
    );
    assert!(pct > 75.0, "{name} {pct}");
    // 4 KiB reads are single-plane operations: the die's two planes share its array time, each
    // below the die, together the die's (within the rounding of the three printed figures).
    let (cores, planes, die) = last_cores_and_planes(&text);
    assert_eq!(cores.len(), 2);
    assert_eq!(planes.len(), 2);
    assert!(
        (planes[0] + planes[1] - die).abs() < 0.2,
        "{planes:?} {die}"
    );
    assert!(planes.iter().all(|p| *p < die), "{planes:?} {die}");
}

#[test]
fn sequential_read_over_one_lane_is_link_bound() {
    // 16 dies (8 channels x 2 ways) read 32 KiB two-plane pages in ~60 us: ~8.7 GB/s of array
    // reads, 8 x 800 MB/s of buses, 2 cores at 2.2 + 32 x 2.6 us per 128 KiB = 3.07 GB/s; one
    // Gen3 lane carries 8 GT/s x 128/130 = 0.98 GB/s. The link saturates first.
    let job = format!("{FILL}[sr]\nstonewall\nrw=read\nbs=128k\niodepth=32\nramp_time=20ms\nruntime=50ms\ntime_based=1\n");
    let sets = [
        "geometry.channels=8",
        "geometry.ways_per_channel=2",
        "pcie.lanes=1",
    ];
    let text = run(&job, &sets);
    let (name, pct) = last_bottleneck(&text);
    assert_eq!(name, "pcie up");
    assert!(pct > 90.0, "{pct}");
    // 128 KiB in 32 KiB two-plane pages: every read holds both planes, each as busy as its die.
    let (_, planes, die) = last_cores_and_planes(&text);
    assert_eq!(planes, vec![die, die], "{text}");
}

#[test]
fn small_writes_with_slow_firmware_are_firmware_bound() {
    // 24.8 us of firmware per 4 KiB write (2.2 + 2.6 + 20) on 2 cores: 80 k IO/s = 330 MB/s;
    // 16 dies programming 32 KiB SLC pages in 220 us take 2.4 GB/s, the link 3.6 GB/s.
    let job = "[global]\nioengine=libaio\ndirect=1\nsize=64m\n[rw]\nrw=randwrite\nbs=4k\niodepth=32\nruntime=20ms\ntime_based=1\n";
    let sets = [
        "geometry.channels=8",
        "geometry.ways_per_channel=2",
        "controller.cpu_ns_per_write_cmd=20000",
    ];
    let text = run(job, &sets);
    let (name, pct) = last_bottleneck(&text);
    assert_eq!(name, "firmware cores");
    assert!(pct > 90.0, "{pct}");
    // Each command goes to the core that frees first: both cores are saturated, not one.
    let (cores, _, _) = last_cores_and_planes(&text);
    assert_eq!(cores.len(), 2);
    assert!(cores.iter().all(|c| *c > 90.0), "{cores:?}");
}
