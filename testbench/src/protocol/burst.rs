//! The `burst` step: its job run `bursts` times at offsets advancing by the job's size, idling
//! after each burst so that busy / (busy + idle) is the duty cycle.

use crate::error::InputError;
use crate::fio::{JobSpec, SizeSpec};
use crate::workload::runner::{job_region, run_jobs, Observer};
use crate::workload::{Device, GroupResult};
use ssdlab_model::{SeedTree, SimTime};

/// Runs the bursts; the groups of every burst, in order.
pub(super) fn run_bursts(
    dev: &mut dyn Device,
    jobs: &[JobSpec],
    bursts: u32,
    duty_pct: u32,
    file: &str,
    seeds: &SeedTree,
    obs: &mut dyn Observer,
) -> Result<Vec<GroupResult>, InputError> {
    let cap = dev.capacity_bytes();
    let mut groups = Vec::new();
    for k in 0..bursts as u64 {
        let shifted: Vec<JobSpec> = jobs
            .iter()
            .map(|j| {
                let (start, len) = job_region(j, cap).expect("checked");
                JobSpec {
                    offset: SizeSpec::Bytes(start + k * len),
                    size: Some(SizeSpec::Bytes(len)),
                    ..j.clone()
                }
            })
            .collect();
        let t0 = dev.now();
        let gs = run_jobs(
            dev,
            &shifted,
            file,
            &SeedTree::new(seeds.seed().wrapping_add(k)),
            obs,
        )?;
        let busy = dev.now() - t0;
        groups.extend(gs);
        // Idle so that busy / (busy + idle) = duty cycle.
        let idle = SimTime::from_ps(
            (busy.as_ps() as u128 * (100 - duty_pct) as u128 / duty_pct as u128) as u64,
        );
        let mut done = Vec::new();
        dev.idle(idle, &mut done);
        assert!(done.is_empty(), "IO completed while idling between bursts");
    }
    Ok(groups)
}
