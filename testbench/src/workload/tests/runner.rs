//! Runner accounting against [`FixedLatencyDevice`], with expected values from hand arithmetic.

use super::super::runner::{run_jobs, Quiet};
use super::super::testdev::FixedLatencyDevice;
use super::super::{GroupResult, Op};
use crate::fio::parse_job_file;
use ssdlab_model::{SeedTree, SimTime};

const GIB: u64 = 1 << 30;

fn run(text: &str, lat_us: u64, seed: u64) -> (FixedLatencyDevice, Vec<GroupResult>) {
    let jobs = parse_job_file(text, "t.fio").unwrap();
    let mut dev = FixedLatencyDevice::new(GIB, SimTime::from_us(lat_us));
    let res = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(seed), &mut Quiet).unwrap();
    (dev, res)
}

#[test]
fn closed_loop_qd4_size_limited() {
    // 400 KiB / 4 KiB = 100 IOs, 4 at a time, 100 us each: 25 rounds = 2.5 ms; 40 000 IOPS.
    let (dev, g) = run("[j]\nrw=read\nbs=4k\niodepth=4\nsize=400k\n", 100, 1);
    let j = &g[0].jobs[0];
    assert_eq!((j.read.ios, j.read.bytes, j.write.ios), (100, 409_600, 0));
    assert_eq!(j.runtime, SimTime::from_us(2_500));
    assert!((j.read.iops(j.runtime) - 40_000.0).abs() < 1e-6);
    assert_eq!(
        (j.read.lat.min_ns(), j.read.lat.max_ns()),
        (100_000, 100_000)
    );
    // Sequential: offsets 0, 4096, ... in order.
    assert!(dev
        .log
        .iter()
        .enumerate()
        .all(|(i, (_, io))| io.offset == i as u64 * 4096 && io.op == Op::Read));
}

#[test]
fn numjobs_use_separate_queues() {
    // Two clones x QD2, each 100 IOs: 50 rounds x 100 us = 5 ms each, 200 IOs in all.
    let (dev, g) = run(
        "[j]\nrw=randwrite\nbs=4k\niodepth=2\nnumjobs=2\nsize=400k\n",
        100,
        2,
    );
    assert_eq!(g[0].jobs.len(), 2);
    assert_eq!(g[0].jobs.iter().map(|j| j.write.ios).sum::<u64>(), 200);
    assert_eq!(g[0].window(), SimTime::from_us(5_000));
    let queues: std::collections::BTreeSet<u16> = dev.log.iter().map(|(_, io)| io.queue).collect();
    assert_eq!(queues.into_iter().collect::<Vec<_>>(), vec![0, 1]);
}

#[test]
fn time_based_runtime_qd1() {
    // Issues at 0, 100, ..., 9 900 us (100 IOs); the last completes at 10 ms.
    let (_, g) = run(
        "[j]\nrw=read\niodepth=1\nruntime=10ms\ntime_based\nsize=8k\n",
        100,
        3,
    );
    let j = &g[0].jobs[0];
    assert_eq!(j.read.ios, 100);
    assert_eq!(j.runtime, SimTime::from_ms(10));
}

#[test]
fn ramp_time_excluded_and_stats_reset_at_ramp_end() {
    // 30 IOs issued at 0..2 900 us, completing at 100..3 000 us; those completing at >= 1 ms
    // count: 1 000, 1 100, ..., 3 000 us = 21 IOs; runtime 3 ms - 1 ms = 2 ms.
    let (dev, g) = run(
        "[j]\nrw=read\nramp_time=1ms\nruntime=2ms\ntime_based\n",
        100,
        4,
    );
    let j = &g[0].jobs[0];
    assert_eq!(j.read.ios, 21);
    assert_eq!(j.runtime, SimTime::from_ms(2));
    assert_eq!(dev.resets, vec![SimTime::from_ms(1)]);
}

#[test]
fn thinktime_delays_next_issue() {
    // QD1, 100 us service + 100 us think: submissions at 0, 200, ..., 1 800 us; last done 1.9 ms.
    let (dev, g) = run("[j]\nrw=write\nthinktime=100\nnumber_ios=10\n", 100, 5);
    let subs: Vec<u64> = dev.log.iter().map(|(t, _)| t.as_ps() / 1_000_000).collect();
    assert_eq!(subs, (0..10).map(|i| i * 200).collect::<Vec<_>>());
    assert_eq!(g[0].jobs[0].runtime, SimTime::from_us(1_900));
}

#[test]
fn stonewall_starts_next_group_after_previous_completes() {
    let (dev, g) = run(
        "[a]\nrw=read\nnumber_ios=3\n[b]\nstonewall\nrw=write\nnumber_ios=2\n",
        100,
        6,
    );
    assert_eq!(g.len(), 2);
    // Group a: 3 x 100 us; group b starts at 300 us.
    let first_write = dev.log.iter().find(|(_, io)| io.op == Op::Write).unwrap().0;
    assert_eq!(first_write, SimTime::from_us(300));
    assert_eq!(g[1].window_start, SimTime::from_us(300));
    // Without stonewall both run at once.
    let (dev, g) = run(
        "[a]\nrw=read\nnumber_ios=3\n[b]\nrw=write\nnumber_ios=2\n",
        100,
        6,
    );
    assert_eq!(g.len(), 1);
    assert_eq!(
        dev.log.iter().find(|(_, io)| io.op == Op::Write).unwrap().0,
        SimTime::ZERO
    );
}

#[test]
fn rwmixread_fraction() {
    let seed = 7;
    let (_, g) = run(
        "[j]\nrw=randrw\nrwmixread=70\nnumber_ios=10000\niodepth=8\n",
        10,
        seed,
    );
    let j = &g[0].jobs[0];
    let frac = j.read.ios as f64 / 10_000.0;
    // Binomial sd = sqrt(0.7*0.3/10000) = 0.46 %; allow 4 sd.
    assert!(
        (frac - 0.70).abs() < 0.0184,
        "seed {seed}: read fraction {frac}"
    );
}

#[test]
fn group_reporting_merges_clones() {
    let (_, g) = run(
        "[j]\nrw=read\nnumjobs=4\nnumber_ios=5\ngroup_reporting\n",
        100,
        8,
    );
    assert_eq!(g[0].jobs.len(), 1);
    assert_eq!(g[0].jobs[0].read.ios, 20);
    assert_eq!(g[0].jobs[0].clone, None);
}

#[test]
fn same_seed_same_offsets() {
    let text = "[j]\nrw=randread\nnumber_ios=50\niodepth=4\n";
    let (a, _) = run(text, 100, 9);
    let (b, _) = run(text, 100, 9);
    let (c, _) = run(text, 100, 10);
    assert_eq!(a.log, b.log);
    assert_ne!(a.log, c.log);
}

#[test]
fn region_outside_device_is_an_input_error() {
    let jobs = parse_job_file("[j]\nrw=read\noffset=1g\nsize=4k\n", "t.fio").unwrap();
    let mut dev = FixedLatencyDevice::new(GIB, SimTime::from_us(1));
    let e = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet).unwrap_err();
    assert!(e.to_string().starts_with("t.fio:1: job `j`: offset"), "{e}");
    assert!(
        dev.log.is_empty(),
        "nothing may run before the input is known good"
    );
}

#[test]
fn region_percentages_and_size_zero_follow_fio_setup_files() {
    use crate::fio::SizeSpec::{Bytes, Percent};
    use crate::workload::runner::region;
    // fio setup_files: `size=N%` is N % of (device - offset); size 0 (or none) = to the end.
    let cap = 4_096_000_000u64; // 1 000 000 blocks of 4 KiB
    assert_eq!(
        region(Percent(60), Some(Percent(50)), 4096, cap),
        Ok((2_457_600_000, 819_200_000))
    );
    assert_eq!(
        region(Bytes(4096), Some(Bytes(0)), 4096, cap),
        Ok((4096, cap - 4096))
    );
    assert_eq!(region(Bytes(0), None, 4096, cap), Ok((0, cap)));
    // get_start_offset: 1 % of 512 000 512 B = 5 120 005, rounded up to a 4 KiB block = 1251 x 4096.
    assert_eq!(
        region(Percent(1), None, 4096, 512_000_512).map(|r| r.0),
        Ok(5_124_096)
    );
    // A size beyond the device is refused (fio fails the first IO past the end).
    assert!(region(Bytes(0), Some(Bytes(cap + 4096)), 4096, cap).is_err());
}

#[test]
fn size_zero_job_covers_the_whole_device() {
    // 1 MiB device, size=0: fio uses the whole device, 256 reads of 4 KiB.
    let jobs = parse_job_file("[j]\nrw=read\nsize=0\n", "t.fio").unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 20, SimTime::from_us(1));
    let g = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet).unwrap();
    assert_eq!(g[0].jobs[0].read.ios, 256);
}

#[test]
fn offset_increment_gives_each_clone_its_own_region() {
    // numjobs=4, offset_increment=256k, size=256k, 4 KiB sequential reads: clone k reads
    // [k x 256 KiB, (k + 1) x 256 KiB), 64 IOs each, on queue k.
    let (dev, g) = run(
        "[j]\nrw=read\nnumjobs=4\noffset_increment=256k\nsize=256k\n",
        10,
        1,
    );
    assert_eq!(
        g[0].jobs.iter().map(|j| j.read.ios).collect::<Vec<_>>(),
        [64, 64, 64, 64]
    );
    for (_, io) in &dev.log {
        let k = io.queue as u64;
        assert!(
            io.offset >= k * 262_144 && io.offset < (k + 1) * 262_144,
            "queue {k} at {}",
            io.offset
        );
    }
    // The last clone past the end of the device is an input error naming the clone.
    let jobs = parse_job_file(
        "[j]\nrw=read\nnumjobs=4\noffset_increment=512m\nsize=256m\n",
        "t.fio",
    )
    .unwrap();
    let mut dev = FixedLatencyDevice::new(GIB, SimTime::from_us(1));
    let e = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("t.fio:1: job `j`: clone 2: offset 1073741824"),
        "{e}"
    );
}

#[test]
fn bssplit_draws_sizes_by_percent_and_keeps_blocks_inside() {
    // bssplit=4k/75:64k/25 on 2000 random reads in a 1 MiB region: about 1500 of 4 KiB (binomial
    // sd sqrt(2000 x 0.75 x 0.25) = 19.4; +-6 sd accepted), the rest 64 KiB; every block
    // 4 KiB-aligned and inside [0, 1 MiB).
    let text = "[j]\nrw=randread\nbssplit=4k/75:64k/25\nsize=1m\nio_size=1g\nnumber_ios=2000\nnorandommap\n";
    let (dev, g) = run(text, 10, 5);
    let small = dev.log.iter().filter(|(_, io)| io.len == 4096).count();
    let large = dev.log.iter().filter(|(_, io)| io.len == 65_536).count();
    assert_eq!(small + large, 2000, "seed 5: only the split's sizes");
    assert!(
        (1384..=1616).contains(&small),
        "seed 5: {small} small blocks"
    );
    assert!(dev
        .log
        .iter()
        .all(|(_, io)| io.offset % 4096 == 0 && io.offset + io.len <= 1 << 20));
    assert_eq!(
        g[0].jobs[0].read.bytes,
        small as u64 * 4096 + large as u64 * 65_536
    );
    // Sequential with a split: each block starts where the previous ended (until the wrap).
    let (dev, _) = run(
        "[j]\nrw=write\nbssplit=4k/50:16k/50\nsize=64m\nnumber_ios=200\n",
        10,
        5,
    );
    let ios: Vec<_> = dev.log.iter().map(|(_, io)| (io.offset, io.len)).collect();
    assert!(
        ios.windows(2).all(|w| w[1].0 == w[0].0 + w[0].1),
        "seed 5: not contiguous"
    );
}

#[test]
fn a_run_that_passes_the_time_limit_is_an_error_not_an_overflow() {
    // 70 days per command at QD1: completions at 70, 140 and 210 days; the third is past the
    // 200-day limit, so the run stops there with an error naming the job.
    let jobs = parse_job_file("[slow]\nrw=read\nbs=4k\nnumber_ios=5\n", "t.fio").unwrap();
    let mut dev = FixedLatencyDevice::new(GIB, SimTime::from_secs(70 * 86_400));
    let e = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet).unwrap_err();
    assert!(
        e.to_string().starts_with("t.fio:1: job `slow`: the run")
            && e.to_string().contains("200 days"),
        "{e}"
    );
    assert_eq!(dev.log.len(), 3);
}
