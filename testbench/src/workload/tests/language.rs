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
    let (dev, g) = run(
        "[j]\nrw=read\nbs=4k\niodepth=4\nsize=400k\nloops=3\n",
        100,
    );
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
    assert!(dev
        .log
        .iter()
        .all(|(_, io)| io.offset % 4096 == 0 && io.offset + io.len <= 64 << 20 && io.op == Op::Read));
    // Writes by the second range.
    let (dev, _) = run(
        "[j]\nrw=write\nbsrange=4k-4k,64k-64k\nsize=1m\n",
        10,
    );
    assert!(dev.log.iter().all(|(_, io)| io.len == 65_536));
    assert_eq!(dev.log.len(), 16);
}
