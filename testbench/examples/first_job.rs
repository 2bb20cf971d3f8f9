//! The library as a program calls it: a drive from a preset, a fio job on it, its figures.
//! `cargo run --release -p ssdlab-testbench --example first_job` (the same job as
//! `ssdlab run`; `cargo test` builds this file, so it keeps compiling against the library).

use ssdlab_model::SeedTree;
use ssdlab_testbench::fio::parse_job_file;
use ssdlab_testbench::workload::{drive_adapter::open_drive, run_jobs, Quiet};
use ssdlab_testbench::{presets, InputError};

/// 4 KiB random reads at queue depth 32 over the first GiB of the drive, 64 MiB of IO.
const JOB: &str = "[randread]\nrw=randread\nbs=4k\niodepth=32\nsize=1g\nio_size=64m\n";

fn main() -> Result<(), InputError> {
    let cfg = presets::load("sm2262-512g")?;
    let mut drive = open_drive(&cfg, 1, "sm2262-512g")?;
    let jobs = parse_job_file(JOB, "first_job.fio")?;
    let groups = run_jobs(
        &mut drive,
        &jobs,
        "first_job.fio",
        &SeedTree::new(1),
        &mut Quiet,
    )?;
    for job in groups.iter().flat_map(|g| &g.jobs) {
        let r = &job.read;
        println!(
            "{}: {:.0} IOPS, {:.1} MB/s, mean latency {:.1} us, p99 {:.1} us",
            job.name,
            r.iops(job.runtime),
            r.bw_bytes(job.runtime) / 1e6,
            r.lat.mean_ns() / 1e3,
            r.lat.percentile_ns(99.0) as f64 / 1e3,
        );
    }
    Ok(())
}
