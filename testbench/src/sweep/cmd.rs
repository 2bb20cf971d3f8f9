//! The `sweep`, `sweep merge` and `report` commands: arguments to a plan, the run, the files.

use super::grid::{Grid, Shard};
use super::point::Workload;
use super::{bottleneck_line, default_memory_budget, execute, output, plan};
use crate::cli::{DriveArgs, OpenDevice};
use crate::error::InputError;
use crate::fio::read_job_file;
use crate::protocol;
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// A swept key and its values, `--grid geometry.channels=4,8` (repeatable; values parsed by
    /// the key's type).
    #[arg(long = "grid", value_name = "KEY=V1,V2,...")]
    pub grid: Vec<String>,
    /// Pair the lists element by element instead of taking their product.
    #[arg(long)]
    pub zip: bool,
    /// A sweep TOML giving the workload, drive and grid (instead of --grid / --job / --protocol).
    #[arg(long, conflicts_with_all = ["grid", "job", "protocol"])]
    pub spec: Option<String>,
    /// The fio job file run at every point.
    #[arg(long, conflicts_with = "protocol")]
    pub job: Option<String>,
    /// The protocol (built-in name or TOML file) run at every point.
    #[arg(long)]
    pub protocol: Option<String>,
    /// Points run at once, each on its own thread and drive, within the memory budget.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Host memory the running drives may hold, MB [default: 80 % of MemAvailable].
    #[arg(long)]
    pub mem_budget_mb: Option<u64>,
    /// Run only the points whose index is I modulo N (for cluster job arrays).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Run every point at --seed itself instead of a seed derived per point, so that points
    /// differ only by their config (one-at-a-time sensitivity against a base point).
    #[arg(long)]
    pub common_seed: bool,
    /// Skip the points whose results are already in the output directory.
    #[arg(long)]
    pub resume: bool,
    #[command(flatten)]
    pub drive: DriveArgs,
}

#[derive(Subcommand, Debug)]
pub enum SweepCmd {
    /// Join shard output directories into --output (same grid; a point at most once).
    Merge {
        /// The shards' output directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
}

fn output_dir(output: Option<&Path>) -> Result<&Path, InputError> {
    output.ok_or_else(|| InputError::file("--output", "a sweep needs --output DIR for its results"))
}

/// The sweep's workload, grid and every point's drive, checked before anything runs (what
/// `sweep --check` stops after).
pub fn plan_sweep(a: &SweepArgs, seed: u64) -> Result<super::Plan, InputError> {
    if a.jobs == 0 {
        return Err(InputError::file("--jobs", "must be at least 1"));
    }
    let (grid, job, proto, drive) = match &a.spec {
        Some(path) => {
            let s = super::spec::load(path)?;
            let drive = DriveArgs {
                preset: s.preset,
                config: s.config,
                set: [s.set, a.drive.set.clone()].concat(),
            };
            (s.grid, s.job, s.protocol, drive)
        }
        None => (
            Grid::from_args(&a.grid, a.zip)?,
            a.job.clone(),
            a.protocol.clone(),
            a.drive.clone(),
        ),
    };
    let workload = match (job, proto) {
        (Some(file), None) => Workload::Jobs {
            jobs: read_job_file(&file)?,
            file,
        },
        (None, Some(p)) => Workload::Protocol(Box::new(protocol::resolve(&p)?)),
        _ => {
            return Err(InputError::file(
                "sweep",
                "give --job FILE or --protocol NAME (or --spec)",
            ))
        }
    };
    plan(grid, workload, &drive, seed, a.common_seed, a.shard)
}

/// `ssdlab sweep ...`: exit 0, or 1 when a point failed at run time.
pub fn sweep(
    a: &SweepArgs,
    seed: u64,
    output: Option<&Path>,
    open: OpenDevice,
    out: &mut dyn Write,
) -> Result<i32, InputError> {
    let dir = output_dir(output)?;
    let plan = plan_sweep(a, seed)?;
    let before = match output::read_manifest(dir)? {
        Some(m) if !a.resume => {
            let _ = m;
            return Err(InputError::file(
                &dir.display().to_string(),
                "holds a sweep already; give --resume to continue it or another --output",
            ));
        }
        Some(m) if m != plan.manifest => {
            return Err(InputError::file(
                &dir.display().to_string(),
                "holds a different sweep (grid, workload, drive or seed); cannot resume it",
            ))
        }
        Some(_) => output::read_rows(dir)?,
        None => Default::default(),
    };
    output::write_manifest(dir, &plan.manifest)?;
    let budget = a
        .mem_budget_mb
        .map_or_else(default_memory_budget, |mb| mb.saturating_mul(1 << 20));
    let rows = execute(&plan, dir, a.jobs, budget, &before, open)?;
    output::finish(dir, &plan.manifest.grid, &rows)?;
    let io = |e: std::io::Error| InputError::file("<stdout>", format!("cannot write: {e}"));
    if let Some((_, rd)) = plan.points.first() {
        writeln!(
            out,
            "sweep: {} over {} ({} points); first point {}",
            plan.manifest.workload,
            plan.manifest.grid.keys.join(", "),
            plan.points.len(),
            crate::drive_cfg::summary_line(&rd.cfg)
        )
        .map_err(io)?;
    }
    let mut failed = 0;
    for (p, _) in &plan.points {
        if let Some(r) = rows.get(&p.index) {
            failed += usize::from(r["status"] != "ok");
            writeln!(out, "{}", bottleneck_line(r)).map_err(io)?;
        }
    }
    writeln!(
        out,
        "results: {}, {}",
        dir.join(output::CSV).display(),
        dir.join(output::ROWS).display()
    )
    .map_err(io)?;
    if failed > 0 {
        eprintln!("sweep: {failed} point(s) failed at run time (see their rows)");
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// `ssdlab sweep merge DIR... --output DIR`.
pub fn merge(
    dirs: &[PathBuf],
    output: Option<&Path>,
    out: &mut dyn Write,
) -> Result<i32, InputError> {
    let dir = output_dir(output)?;
    let n = output::merge(dirs, dir)?;
    writeln!(
        out,
        "merged {n} points from {} directories into {}",
        dirs.len(),
        dir.display()
    )
    .map_err(|e| InputError::file("<stdout>", format!("cannot write: {e}")))?;
    Ok(0)
}

/// `ssdlab report DIR [--output FILE]`: writes the HTML (default DIR/report.html).
pub fn report(dir: &Path, output: Option<&Path>, out: &mut dyn Write) -> Result<i32, InputError> {
    let html = super::report::render(dir)?;
    let path = output.map_or_else(|| dir.join("report.html"), Path::to_path_buf);
    std::fs::write(&path, html)
        .map_err(|e| InputError::file(&path.display().to_string(), format!("cannot write: {e}")))?;
    writeln!(out, "report: {}", path.display())
        .map_err(|e| InputError::file("<stdout>", format!("cannot write: {e}")))?;
    Ok(0)
}
