//! Executes a loaded protocol on a device, step by step, in file order.
//!
//! Everything that can be checked against the device (job regions, queue depths, precondition
//! regions) is checked before the first step runs, so a bad protocol never produces a partial
//! table. Functional preconditioning uses the FTL fast path (`functional_write`); timed
//! preconditioning is a fio write job at the given depth.

use super::report::{metric_value, setting_of, ReportRow};
use super::schema::{Mode, Pattern};
use super::{Protocol, Step};
use crate::error::InputError;
use crate::fio::{parse_job_file, JobSpec, SizeSpec};
use crate::workload::offsets::OffsetGen;
use crate::workload::runner::{check_jobs, job_region, region, run_jobs, Observer};
use crate::workload::{Device, Extras, GroupResult, PowerLossOutcome};
use ssdlab_model::{SeedTree, SimTime};

/// What one step did.
#[derive(Clone, Debug)]
pub struct StepOutcome {
    pub index: usize,
    pub kind: &'static str,
    pub label: String,
    pub sim_start: SimTime,
    pub sim_end: SimTime,
    pub groups: Vec<GroupResult>,
    pub report: Option<ReportRow>,
    /// Device figures of the step's last measurement window (a functional precondition: the
    /// whole step): write amplification, GC, SLC occupancy and free blocks at its end.
    pub ftl: Extras,
    /// A `power_loss` step: what the cut cost and the mount.
    pub power_loss: Option<PowerLossOutcome>,
    /// A `rounds` step: every round's figures and the steady-state verdict.
    pub rounds: Option<super::rounds::run::RoundsOutcome>,
}

fn size_text(s: SizeSpec) -> String {
    match s {
        SizeSpec::Bytes(b) => b.to_string(),
        SizeSpec::Percent(p) => format!("{p}%"),
    }
}

/// The fio job a timed precondition runs.
fn precondition_job(
    pattern: Pattern,
    bs: u64,
    offset: SizeSpec,
    size: Option<SizeSpec>,
    qd: u32,
    nj: u32,
) -> Vec<JobSpec> {
    let rw = match pattern {
        Pattern::Sequential => "write",
        Pattern::Random => "randwrite",
        Pattern::Uniform => "randwrite\nnorandommap=1",
    };
    let size = size
        .map(|s| format!("size={}\n", size_text(s)))
        .unwrap_or_default();
    let text = format!(
        "[precondition]\nrw={rw}\nbs={bs}\niodepth={qd}\nnumjobs={nj}\noffset={}\n{size}",
        size_text(offset)
    );
    parse_job_file(&text, "precondition").expect("generated precondition job is valid")
}

/// Checks every step against the device; nothing runs.
pub fn check(dev: &dyn Device, p: &Protocol) -> Result<(), InputError> {
    let cap = dev.capacity_bytes();
    // Idle steps alone must fit in the simulated-time range (timed steps are checked as they
    // run: their length depends on the device).
    let mut idle_total = dev.now();
    for (i, s) in p.steps.iter().enumerate() {
        match s {
            Step::Fio { jobs, .. } => check_jobs(dev, jobs)?,
            Step::Burst {
                jobs,
                bursts,
                label,
                ..
            } => {
                check_jobs(dev, jobs)?;
                for j in jobs {
                    let (start, len) = job_region(j, cap).expect("checked");
                    // u128: a 512 GB region times 2^32 bursts passes u64.
                    if start as u128 + len as u128 * *bursts as u128 > cap as u128 {
                        let r = format!("`{label}`: {bursts} bursts of {len} bytes from offset {start} exceed the device");
                        return Err(InputError::at(&p.file, j.line, r));
                    }
                }
            }
            Step::Precondition {
                label,
                mode,
                pattern,
                offset,
                size,
                bs,
                iodepth,
                numjobs,
                line,
                ..
            } => {
                let at = |r: String| {
                    let r = format!("step {}: `{label}`: {r}", i + 1);
                    match *line {
                        0 => InputError::file(&p.file, r),
                        l => InputError::at(&p.file, l, r),
                    }
                };
                region(*offset, *size, *bs, cap).map_err(at)?;
                if *mode == Mode::Timed {
                    let jobs = precondition_job(*pattern, *bs, *offset, *size, *iodepth, *numjobs);
                    // The generated job has no file of its own: its errors name the step.
                    check_jobs(dev, &jobs).map_err(|e| at(e.reason().to_string()))?;
                }
            }
            Step::Idle { label, duration } => {
                idle_total = idle_total.add_limited(*duration).ok_or_else(|| {
                    InputError::file(
                        &p.file,
                        format!(
                            "step {}: `{label}`: the idle steps add up to more than the model's {} days of simulated time",
                            i + 1,
                            SimTime::LIMIT_DAYS
                        ),
                    )
                })?;
            }
            Step::PowerLoss { jobs, label, .. } => {
                check_jobs(dev, jobs)?;
                if !dev.models_power_loss() {
                    let r = format!("`{label}`: this device does not model power loss");
                    return Err(InputError::file(&p.file, r));
                }
            }
            Step::Rounds(r) => {
                for c in &r.cells {
                    check_jobs(dev, &c.jobs)?;
                }
            }
            Step::Score { .. } => {}
            Step::Set { label, .. } => {
                if dev.nand_suspend().is_none() {
                    let r = format!("`{label}`: this device models no NAND suspend");
                    return Err(InputError::file(&p.file, r));
                }
            }
        }
    }
    Ok(())
}

/// Runs the protocol; `on_step` sees each outcome as soon as its step ends.
pub fn run_protocol(
    dev: &mut dyn Device,
    p: &Protocol,
    seeds: &SeedTree,
    obs: &mut dyn Observer,
    on_step: &mut dyn FnMut(&StepOutcome, &mut dyn Observer),
) -> Result<Vec<StepOutcome>, InputError> {
    check(dev, p)?;
    let mut out: Vec<StepOutcome> = Vec::new();
    for (i, s) in p.steps.iter().enumerate() {
        let sim_start = dev.now();
        dev.reset_stats();
        obs.label(&format!("[{}/{}] {}", i + 1, p.steps.len(), step_label(s)));
        let step_seeds =
            SeedTree::new(seeds.seed() ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut power_loss = None;
        let mut rounds = None;
        let (kind, label, groups, report) = match s {
            Step::Precondition {
                label,
                mode,
                pattern,
                bs,
                passes,
                offset,
                size,
                iodepth,
                numjobs,
                ..
            } => {
                let mut groups = Vec::new();
                for pass in 0..*passes {
                    match mode {
                        Mode::Functional => functional_fill(
                            dev,
                            *pattern,
                            *bs,
                            *offset,
                            *size,
                            &step_seeds,
                            pass,
                            obs,
                        ),
                        Mode::Timed => {
                            let jobs =
                                precondition_job(*pattern, *bs, *offset, *size, *iodepth, *numjobs);
                            let pass_seeds =
                                SeedTree::new(step_seeds.seed().wrapping_add(pass as u64));
                            groups.extend(run_jobs(dev, &jobs, &p.file, &pass_seeds, obs)?);
                        }
                    }
                }
                ("precondition", label.clone(), groups, None)
            }
            Step::Fio {
                id,
                label,
                jobs,
                report,
            } => {
                let groups = run_jobs(dev, jobs, &p.file, &step_seeds, obs)?;
                let row = report.as_ref().map(|r| {
                    ReportRow::new(
                        id,
                        label,
                        &setting_of(jobs),
                        r,
                        metric_value(r.metric, &groups),
                    )
                });
                ("fio", label.clone(), groups, row)
            }
            Step::Idle { label, duration } => {
                if dev.now().add_limited(*duration).is_none() {
                    return Err(InputError::file(
                        &p.file,
                        format!(
                            "step {}: `{label}`: the run passes the model's {} days of simulated time",
                            i + 1,
                            SimTime::LIMIT_DAYS
                        ),
                    ));
                }
                let mut done = Vec::new();
                dev.idle(*duration, &mut done);
                assert!(
                    done.is_empty(),
                    "IO completed during an idle step: the previous step left IO outstanding"
                );
                ("idle", label.clone(), Vec::new(), None)
            }
            Step::Set { label, keys } => {
                let at = |r: String| InputError::file(&p.file, format!("step {}: {r}", i + 1));
                let base = dev.nand_suspend().expect("checked before the run");
                let c = super::set::apply_suspend_keys(&base, keys).map_err(at)?;
                dev.set_nand_suspend(&c);
                ("set", label.clone(), Vec::new(), None)
            }
            Step::Burst {
                id,
                label,
                jobs,
                bursts,
                duty_pct,
                report,
            } => {
                let groups = super::burst::run_bursts(
                    dev,
                    jobs,
                    *bursts,
                    *duty_pct,
                    &p.file,
                    &step_seeds,
                    obs,
                )?;
                let row = report.as_ref().map(|r| {
                    ReportRow::new(
                        id,
                        label,
                        &setting_of(jobs),
                        r,
                        metric_value(r.metric, &groups),
                    )
                });
                ("burst", label.clone(), groups, row)
            }
            Step::Score {
                id,
                label,
                of,
                published,
                source,
                note,
            } => {
                let rows: Vec<&ReportRow> = of
                    .iter()
                    .filter_map(|o| {
                        out.iter()
                            .filter_map(|s| s.report.as_ref())
                            .find(|r| r.id.as_deref() == Some(o.as_str()))
                    })
                    .collect();
                assert_eq!(
                    rows.len(),
                    of.len(),
                    "score references were checked at load"
                );
                let row =
                    ReportRow::score(id, label, &rows, *published, source.clone(), note.clone());
                ("score", label.clone(), Vec::new(), Some(row))
            }
            Step::PowerLoss {
                label,
                jobs,
                at,
                plp,
            } => {
                let (groups, o) =
                    super::power::run_power_loss(dev, jobs, *at, *plp, &p.file, &step_seeds, obs)?;
                power_loss = Some(o);
                ("power_loss", label.clone(), groups, None)
            }
            Step::Rounds(r) => {
                let o = super::rounds::run::run_rounds(dev, r, &p.file, &step_seeds, obs)?;
                let row = super::rounds::report::report_row(r, &o);
                rounds = Some(o);
                ("rounds", r.label.clone(), Vec::new(), Some(row))
            }
        };
        let o = StepOutcome {
            index: i,
            kind,
            label,
            sim_start,
            sim_end: dev.now(),
            groups,
            report,
            ftl: dev.extras(),
            power_loss,
            rounds,
        };
        on_step(&o, obs);
        out.push(o);
    }
    Ok(out)
}

/// The label of any step.
pub fn step_label(s: &Step) -> &str {
    match s {
        Step::Precondition { label, .. }
        | Step::Fio { label, .. }
        | Step::Idle { label, .. }
        | Step::Burst { label, .. }
        | Step::Score { label, .. }
        | Step::PowerLoss { label, .. }
        | Step::Set { label, .. } => label,
        Step::Rounds(r) => &r.label,
    }
}

/// Writes the region `offset`/`size` once, untimed (the FTL fast path), in `bs` blocks in
/// `pattern` order, seeded from `seeds` and `pass`; a tail under one block is written in whole
/// 4 KiB units. The region must have passed [`region`] with `bs`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn functional_fill(
    dev: &mut dyn Device,
    pattern: Pattern,
    bs: u64,
    offset: SizeSpec,
    size: Option<SizeSpec>,
    seeds: &SeedTree,
    pass: u32,
    obs: &mut dyn Observer,
) {
    let (start, len) =
        region(offset, size, bs, dev.capacity_bytes()).expect("checked before running");
    let blocks = len / bs;
    let mut gen = OffsetGen::new(
        start,
        blocks * bs,
        bs,
        pattern != Pattern::Sequential,
        pattern == Pattern::Uniform,
        seeds.stream("precondition", pass as u64),
    );
    let report_every = (1u64 << 30) / bs;
    // Offsets go to the device in batches (its batched path prefetches ahead; same state).
    let mut offsets = Vec::with_capacity(4096);
    let mut k = 0;
    while k < blocks {
        let n = (blocks - k).min(4096);
        offsets.clear();
        offsets.extend((0..n).map(|_| gen.next_offset()));
        dev.functional_write_many(&offsets, bs);
        for m in (k + 1..=k + n).filter(|m| m % report_every == 0) {
            obs.progress(dev.now(), m * bs);
        }
        k += n;
    }
    let tail = len - blocks * bs;
    if tail >= 4096 {
        dev.functional_write(start + blocks * bs, tail / 4096 * 4096);
    }
}
