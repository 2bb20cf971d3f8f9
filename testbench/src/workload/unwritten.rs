//! Reads of LBAs the drive holds no data for. A real drive answers a read of a never-written or
//! trimmed LBA from its mapping table alone (zeroes, NVMe Deallocated Logical Block behaviour),
//! without a NAND read, and so does the model's FTL: a random read of a fresh drive measures
//! the firmware and the link, not the flash. This module counts that share of a run's reads
//! (the device's `Extras::unwritten_read_units`), words the warning `run` and `replay` print
//! above [`WARN_SHARE`], and fills the jobs' regions first for `run --precondition`, as a
//! protocol's functional precondition step does.

use super::runner::{check_jobs, clone_region, Observer};
use super::{Device, GroupResult};
use crate::error::InputError;
use crate::fio::{JobSpec, SizeSpec};
use crate::protocol::run::functional_fill;
use crate::protocol::schema::Pattern;
use ssdlab_model::SeedTree;

/// Above this share of read units on never-written or trimmed LBAs, `run` and `replay` warn.
pub const WARN_SHARE: f64 = 0.01;

/// Block size of a sequential precondition (fio's default for sequential writes is the job's
/// `bs`; any size fills the region the same way: 128 KiB keeps the call count low).
const SEQ_FILL_BS: u64 = 128 << 10;
/// Block size of a random precondition: the FTL's 4 KiB mapping unit, so that the physical
/// layout is scattered at the finest grain (every unit once, in a seeded random order).
const RANDOM_FILL_BS: u64 = 4096;

/// (unwritten, read) 4 KiB units over all groups; `None` when the device tracked no reads.
pub fn unwritten_units(groups: &[GroupResult]) -> Option<(u64, u64)> {
    let unwritten = groups.iter().map(|g| g.extras.unwritten_read_units).sum();
    let read: u64 = groups.iter().map(|g| g.extras.read_units).sum();
    (read > 0).then_some((unwritten, read))
}

/// The warning for a run whose reads hit never-written or trimmed LBAs more than
/// [`WARN_SHARE`] of the time; `what` names the job file or trace.
pub fn warning(groups: &[GroupResult], what: &str) -> Option<String> {
    let (unwritten, read) = unwritten_units(groups)?;
    let share = unwritten as f64 / read as f64;
    (share > WARN_SHARE).then(|| {
        format!(
            "warning: {what}: {:.1} % of the 4 KiB units read ({unwritten} of {read}) were never \
             written or were trimmed; the drive answers them without reading NAND, so read \
             figures do not measure the flash (fill the region first: `run --precondition \
             sequential|random`, or a protocol's precondition step)",
            share * 100.0
        )
    })
}

/// The union of the regions of every clone of every job, as sorted, disjoint (start, len).
fn job_regions(jobs: &[JobSpec], cap: u64) -> Vec<(u64, u64)> {
    let mut spans: Vec<(u64, u64)> = jobs
        .iter()
        .flat_map(|j| (0..j.numjobs).map(move |k| (j, k)))
        .filter_map(|(j, k)| clone_region(j, k, cap).ok())
        .map(|(s, l)| (s, s + l))
        .collect();
    spans.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (s, e) in spans {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged.into_iter().map(|(s, e)| (s, e - s)).collect()
}

/// Fills the jobs' regions (every clone's; overlaps once) untimed, once, in `pattern` order,
/// then clears the device's statistics window. Checks the jobs against the device first, so a
/// bad region is the same error as without preconditioning and nothing is written.
pub fn precondition_jobs(
    dev: &mut dyn Device,
    jobs: &[JobSpec],
    pattern: Pattern,
    seeds: &SeedTree,
    obs: &mut dyn Observer,
) -> Result<(), InputError> {
    check_jobs(dev, jobs)?;
    let cap = dev.capacity_bytes();
    for (i, (start, len)) in job_regions(jobs, cap).into_iter().enumerate() {
        let bs = match pattern {
            Pattern::Sequential if len >= SEQ_FILL_BS => SEQ_FILL_BS,
            Pattern::Sequential | Pattern::Random | Pattern::Uniform => RANDOM_FILL_BS,
        };
        if len < bs {
            // Under one 4 KiB unit: the units it touches.
            dev.functional_write(start, len);
            continue;
        }
        functional_fill(
            dev,
            pattern,
            bs,
            SizeSpec::Bytes(start),
            Some(SizeSpec::Bytes(len)),
            seeds,
            i as u32,
            obs,
        );
    }
    dev.reset_stats();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fio::parse_job_file;

    #[test]
    fn regions_of_clones_merge() {
        // Job a: [0, 1 MiB) and clone 1 at [1 MiB, 2 MiB) (offset_increment); job b inside a's
        // first clone; job c apart at [8 MiB, 8 MiB + 64 KiB).
        let jobs = parse_job_file(
            "[a]\nrw=read\nsize=1m\nnumjobs=2\noffset_increment=1m\n\
             [b]\nrw=read\noffset=256k\nsize=256k\n[c]\nrw=read\noffset=8m\nsize=64k\n",
            "t",
        )
        .unwrap();
        assert_eq!(
            job_regions(&jobs, 1 << 30),
            vec![(0, 2 << 20), (8 << 20, 64 << 10)]
        );
    }

    #[test]
    fn warning_only_above_one_percent() {
        let mut g = crate::workload::testdev::run_on_fixed("[r]\nrw=randread\nsize=64k\n", 10);
        g[0].extras.read_units = 1000;
        g[0].extras.unwritten_read_units = 10; // exactly 1 %: no warning
        assert_eq!(warning(&g, "j.fio"), None);
        g[0].extras.unwritten_read_units = 11;
        let w = warning(&g, "j.fio").unwrap();
        assert!(
            w.starts_with("warning: j.fio: 1.1 % of the 4 KiB units read (11 of 1000)"),
            "{w}"
        );
        g[0].extras.read_units = 0;
        assert_eq!(unwritten_units(&g), None);
    }
}
