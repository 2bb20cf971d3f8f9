//! The runner's part of fio's job-file language (`loops`, `bsrange`, `iodepth_batch*`,
//! `nrfiles`), against [`FixedLatencyDevice`], expected values from hand arithmetic.

use super::super::runner::{run_jobs, Quiet};
use super::super::testdev::FixedLatencyDevice;
use super::super::{GroupResult, Op};
use crate::fio::parse_job_file;
use ssdlab_model::{SeedTree, SimTime};

fn run(text: &str, lat_us: u64) -> (FixedLatencyDevice, Vec<GroupResult>) {
    let jobs = parse_job_file(text, "t.fio").unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(lat_us));
    let res = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet).unwrap();
    (dev, res)
}

#[test]
fn loops_repeat_the_pattern_after_each_pass_drains() {
    // 100 IOs per pass at QD4 and 100 us: 25 rounds = 2.5 ms a pass; 3 passes 7.5 ms, 300 IOs,
    // each pass 0, 4096, ... again.
    let (dev, g) = run("[j]\nrw=read\nbs=4k\niodepth=4\nsize=400k\nloops=3\n", 100);
    let j = &g[0].jobs[0];
    assert_eq!((j.read.ios, j.runtime), (300, SimTime::from_us(7_500)));
    assert!(dev
        .log
        .iter()
        .enumerate()
        .all(|(i, (_, io))| io.offset == (i as u64 % 100) * 4096));
    // Random: the second pass repeats the first (fio's default randrepeat reseeds per loop);
    // 5 IOs at QD2 end their pass at 300 us (3 rounds), so the next starts at 300 us.
    let (dev, _) = run(
        "[j]\nrw=randread\nbs=4k\niodepth=2\nsize=20k\nloops=2\n",
        100,
    );
    let offs: Vec<u64> = dev.log.iter().map(|(_, io)| io.offset).collect();
    assert_eq!(offs.len(), 10);
    assert_eq!(offs[..5], offs[5..]);
    assert_eq!(dev.log[5].0, SimTime::from_us(300));
}

#[test]
fn bsrange_sizes_follow_fios_draw() {
    // bsrange=4k-16k: 4k, 8k, 12k and 16k a quarter each (fio's min + max x r rounded to min).
    // 4000 IOs: 1000 each, sigma sqrt(4000 x 0.25 x 0.75) = 27.4; 4 sigma = 110.
    let (dev, _) = run(
        "[j]\nrw=randread\nbsrange=4k-16k\nnorandommap\nnumber_ios=4000\nsize=64m\n",
        10,
    );
    for size in [4096u64, 8192, 12_288, 16_384] {
        let n = dev.log.iter().filter(|(_, io)| io.len == size).count() as i64;
        assert!((n - 1000).abs() <= 110, "{size}: {n}");
    }
    assert!(dev.log.iter().all(|(_, io)| io.offset % 4096 == 0
        && io.offset + io.len <= 64 << 20
        && io.op == Op::Read));
    // Writes by the second range.
    let (dev, _) = run("[j]\nrw=write\nbsrange=4k-4k,64k-64k\nsize=1m\n", 10);
    assert!(dev.log.iter().all(|(_, io)| io.len == 65_536));
    assert_eq!(dev.log.len(), 16);
}

/// Submission times (us) of the device's commands.
fn submits_us(dev: &FixedLatencyDevice) -> Vec<u64> {
    dev.log.iter().map(|(t, _)| t.as_ps() / 1_000_000).collect()
}

#[test]
fn batch_complete_min_reaps_together_and_stamps_clat_at_the_reap() {
    // rate_iops=10000 staggers the first two IOs at 0 and 100 us; each takes 1000 us.
    let base = "[j]\nrw=read\nbs=4k\niodepth=2\nrate_iops=10000\nnumber_ios=4\nsize=1m\n";
    // Defaults: IO0 reaped at 1000 and IO2 issued then; IO1 at 1100 -> IO3; clat 1000 each.
    let (dev, g) = run(base, 1000);
    assert_eq!(submits_us(&dev), [0, 100, 1000, 1100]);
    let r = &g[0].jobs[0].read;
    assert_eq!((r.lat.max_ns(), r.ios), (1_000_000, 4));
    // iodepth_batch_complete_min=2: at 1000 one is done, fio waits for the second (1100) and
    // reaps both: IO0's clat is 1100 us; IO2 and IO3 go at 1100, done and reaped at 2100.
    let (dev, g) = run(&format!("{base}iodepth_batch_complete_min=2\n"), 1000);
    assert_eq!(submits_us(&dev), [0, 100, 1100, 1100]);
    let r = &g[0].jobs[0].read;
    assert_eq!(r.lat.max_ns(), 1_100_000);
    assert_eq!(r.lat.mean_ns(), 1_025_000.0);
    assert_eq!(g[0].jobs[0].runtime, SimTime::from_us(2_100));
    // iodepth_batch_submit changes nothing at zero host time.
    let (dev, _) = run(&format!("{base}iodepth_batch_submit=2\n"), 1000);
    assert_eq!(submits_us(&dev), [0, 100, 1000, 1100]);
}

#[test]
fn iodepth_low_drains_before_refilling() {
    // QD4, IOs due every 100 us, 1000 us each: IO0..3 at 0..300, done 1000..1300.
    let base = "[j]\nrw=read\nbs=4k\niodepth=4\nrate_iops=10000\nnumber_ios=8\nsize=1m\n";
    let (dev, _) = run(base, 1000);
    assert_eq!(submits_us(&dev), [0, 100, 200, 300, 1000, 1100, 1200, 1300]);
    // iodepth_low=1: reaping goes on until one is in flight (IO2 at 1200), then the queue
    // refills (IO4..6 at 1200); IO3 reaped at 1300 starts another drain to 1, reached when
    // IO4..6 complete at 2200: IO7 then.
    let (dev, g) = run(&format!("{base}iodepth_low=1\n"), 1000);
    assert_eq!(submits_us(&dev), [0, 100, 200, 300, 1200, 1200, 1200, 2200]);
    assert_eq!(g[0].jobs[0].runtime, SimTime::from_us(3_200));
}

#[test]
fn nrfiles_are_regions_served_round_robin() {
    // 64 KiB in 4 files of 16 KiB; one IO per file in turn (fio's roundrobin), each file
    // sequential from its own start: 0, 16k, 32k, 48k, 4k, 20k, ...; 16 IOs in all.
    let (dev, _) = run("[j]\nrw=write\nbs=4k\nsize=64k\nnrfiles=4\n", 10);
    let offs: Vec<u64> = dev.log.iter().map(|(_, io)| io.offset / 1024).collect();
    assert_eq!(offs[..6], [0, 16, 32, 48, 4, 20]);
    assert_eq!(offs.len(), 16);
    // filesize: the files make the region, from `offset`: 2 x 8 KiB at 1 MiB.
    let (dev, _) = run(
        "[j]\nrw=read\nbs=4k\noffset=1m\nnrfiles=2\nfilesize=8k\n",
        10,
    );
    let offs: Vec<u64> = dev.log.iter().map(|(_, io)| io.offset / 1024).collect();
    assert_eq!(offs, [1024, 1032, 1028, 1036]);
    // A named device is one file, as fio caps nrfiles at the files named.
    let (dev, _) = run(
        "[j]\nrw=read\nbs=4k\nsize=16k\nnrfiles=4\nfilename=/dev/nvme0n1\n",
        10,
    );
    let offs: Vec<u64> = dev.log.iter().map(|(_, io)| io.offset / 1024).collect();
    assert_eq!(offs, [0, 4, 8, 12]);
    // A file smaller than a block is an error naming the job.
    let jobs = parse_job_file("[j]\nbs=64k\nsize=64k\nnrfiles=2\n", "t.fio").unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(1));
    let e = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet).unwrap_err();
    assert!(
        e.to_string().contains("nrfiles 2: each file of 0 bytes"),
        "{e}"
    );
}

#[test]
fn logs_are_named_per_clone_and_hold_a_line_per_io() {
    // Two jobs, the second with 2 clones: its clones are fio's threads 2 and 3. 4 IOs each at
    // QD1 and 100 us: completions at 0.1 .. 0.4 ms (0 ms in the time column).
    let (_, g) = run(
        "[a]\nrw=read\nsize=16k\n[b]\nrw=write\nsize=16k\nnumjobs=2\nwrite_lat_log=x\nwrite_iops_log\n",
        100,
    );
    let names: Vec<&str> = g[0].logs.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "b_iops.2.log",
            "x_lat.2.log",
            "x_slat.2.log",
            "x_clat.2.log",
            "b_iops.3.log",
            "x_lat.3.log",
            "x_slat.3.log",
            "x_clat.3.log"
        ]
    );
    assert_eq!(g[0].logs[1].1, "0, 100000, 1, 4096, 0\n".repeat(4));
}

#[test]
fn verify_reads_back_each_pass_in_offset_order_after_its_writes() {
    // 10 random 4 KiB writes at QD2 and 100 us (5 rounds, done at 500 us), then the 10 blocks
    // read back in offset order from 500 us: 5 rounds more, 1 ms in all.
    let (dev, g) = run(
        "[j]\nrw=randwrite\nbs=4k\nsize=40k\niodepth=2\nverify=md5\n",
        100,
    );
    let (w, r): (Vec<_>, Vec<_>) = dev.log.iter().partition(|(_, io)| io.op == Op::Write);
    assert_eq!((w.len(), r.len()), (10, 10));
    assert!(r.iter().all(|(t, _)| *t >= SimTime::from_us(500)));
    let offs: Vec<u64> = r.iter().map(|(_, io)| io.offset).collect();
    assert_eq!(offs, (0..10).map(|i| i * 4096).collect::<Vec<_>>());
    let j = &g[0].jobs[0];
    assert_eq!(
        (j.read.ios, j.write.ios, j.runtime),
        (10, 10, SimTime::from_us(1_000))
    );
    // loops=2: write, verify, write, verify; verify=0 reads nothing back.
    let (dev, _) = run(
        "[j]\nrw=write\nbs=4k\nsize=8k\nverify=crc32c\nloops=2\n",
        100,
    );
    let ops: Vec<Op> = dev.log.iter().map(|(_, io)| io.op).collect();
    use Op::{Read as R, Write as W};
    assert_eq!(ops, [W, W, R, R, W, W, R, R]);
    let (dev, _) = run("[j]\nrw=write\nbs=4k\nsize=8k\nverify=0\n", 100);
    assert_eq!(dev.log.len(), 2);
}

#[test]
fn steadystate_stops_the_job_when_the_criterion_holds() {
    // QD1 at 100 us: 10 000 IOs in every 1 s interval, deviation 0; the 3-sample window is full
    // at 3 s, so the job stops there instead of running its 60 s. The IO issued when the
    // 30 000th completed at 3 s is in flight and completes (100 us later), as in fio.
    let (_, g) = run(
        "[j]\nrw=read\nbs=4k\nsize=1m\ntime_based\nruntime=60\nsteadystate=iops:1%\nss_dur=3\n",
        100,
    );
    let j = &g[0].jobs[0];
    assert_eq!(
        (j.read.ios, j.runtime),
        (30_001, SimTime::from_us(3_000_100))
    );
    let ss = &j.extra["steadystate"];
    assert_eq!(ss["ss"], "iops:1.000000%");
    assert_eq!(
        (ss["attained"].clone(), ss["duration"].clone()),
        (1.into(), 3.into())
    );
    assert_eq!(
        ss["data"]["iops"],
        serde_json::json!([10_000, 10_000, 10_000])
    );
    // 4096 B x 10 000 per s.
    assert_eq!(ss["data"]["bw_mean"], 40_960_000);
    // ss_ramp=2: collection starts at 3 s (ramp + one interval): samples at 3, 4, 5 s.
    let (_, g) = run(
        "[j]\nrw=read\nbs=4k\nsize=1m\ntime_based\nruntime=60\nsteadystate=iops_slope:0.1%\nss_dur=3\nss_ramp=2\n",
        100,
    );
    assert_eq!(g[0].jobs[0].runtime, SimTime::from_us(5_000_100));
    let e = parse_job_file("[j]\nss_dur=2500ms\n", "t.fio")
        .unwrap_err()
        .to_string();
    assert!(e.contains("must be a multiple of ss_interval"), "{e}");
    let e = parse_job_file("[j]\nsteadystate=iops\n", "t.fio")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("t.fio:2: steadystate=iops: expected METRIC:LIMIT"),
        "{e}"
    );
}

#[test]
fn latency_target_searches_the_depth_as_fio() {
    // 100 us per IO at any depth, target 200 us, 1 ms windows: every window succeeds, so the
    // depth doubles at 1, 2 and 3 ms (1 -> 2 -> 4 -> 8 = iodepth); at 4 ms it cannot rise, so
    // the clone quiesces, resets its statistics and runs a final window at depth 8: done at
    // 5 ms with 10 rounds x 8 = 80 IOs counted over 1 ms.
    let (_, g) = run(
        "[j]\nrw=read\nbs=4k\nsize=1m\niodepth=8\ntime_based\nruntime=1\nlatency_target=200\nlatency_window=1ms\n",
        100,
    );
    let j = &g[0].jobs[0];
    assert_eq!((j.read.ios, j.runtime), (80, SimTime::from_ms(1)));
    assert_eq!(j.extra["latency_depth"], 8);
    assert_eq!(j.extra["latency_target"], 200_000);
    assert_eq!(j.extra["latency_window"], 1000);
    // A 50 us target at depth 1 (percentile 100) fails the job with fio's ETIMEDOUT message.
    let jobs = parse_job_file("[j]\nrw=read\nsize=1m\nlatency_target=50\n", "t.fio").unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
    let e = run_jobs(&mut dev, &jobs, "t.fio", &SeedTree::new(1), &mut Quiet).unwrap_err();
    assert!(
        e.to_string()
            .contains("latency of 100000 nsec exceeds specified max (50000 nsec)"),
        "{e}"
    );
}
