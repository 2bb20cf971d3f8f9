//! The `ssdlab` command line: argument definitions (clap) and the commands. The binary
//! (`src/bin/ssdlab.rs`) only parses arguments and maps errors to exit codes: 2 for bad input
//! (always with file, line and reason), 1 for `validate` outside its tolerance.

use crate::error::InputError;
use crate::fio::read_job_file;
use crate::output::{human, json};
use crate::progress::TermProgress;
use crate::protocol::{self, report, run::run_protocol, seeds};
use crate::trace::{self, Format, ReplayOptions};
use crate::workload::{run_jobs, Device, GroupResult, Observer};
use crate::{plot, presets};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::json;
use ssdlab_model::{DriveConfig, SeedTree};
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "ssdlab",
    version,
    about = "Cycle-approximate NVMe SSD model: fio job files, protocols and traces on modelled drives"
)]
pub struct Cli {
    /// Root seed of every random choice (same seed, same output).
    #[arg(long, global = true, default_value_t = 1)]
    pub seed: u64,
    /// `normal` (fio-like text) or `json` (fio's JSON shape, ssdlab figures under "ssdlab").
    #[arg(long, global = true, value_enum, default_value_t = OutputFormat::Normal)]
    pub output_format: OutputFormat,
    /// Write SVG plots into this directory.
    #[arg(long, global = true)]
    pub plot: Option<PathBuf>,
    /// Write the report (text or JSON) to this file instead of stdout, like fio's --output; the
    /// file is written only when the command succeeds.
    #[arg(long, global = true)]
    pub output: Option<PathBuf>,
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Normal,
    Json,
}

#[derive(Args, Debug, Clone)]
pub struct DriveArgs {
    /// A built-in drive preset (see `ssdlab presets`) [default: sm2262-512g].
    #[arg(long, conflicts_with = "config")]
    pub preset: Option<String>,
    /// A drive config file (TOML, the presets' schema; unknown fields are errors), instead of a preset.
    #[arg(long)]
    pub config: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Run a fio job file on a modelled drive.
    Run {
        /// The fio job file (`[global]` and job sections; see docs/fio.md).
        job: String,
        #[command(flatten)]
        drive: DriveArgs,
    },
    /// Run a test protocol (built-in name or TOML file) and print results beside published figures.
    Protocol {
        /// A built-in protocol name (see `ssdlab protocols`) or a protocol TOML file.
        name: String,
        #[command(flatten)]
        drive: DriveArgs,
    },
    /// List the built-in protocols.
    Protocols,
    /// List the built-in drive presets.
    Presets,
    /// Replay a block trace (MSR Cambridge CSV or blkparse text) at its own timestamps.
    Replay {
        /// The trace file (MSR Cambridge CSV or blkparse text output).
        trace: String,
        /// Trace format; guessed from the first line when absent.
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Speed-up of the trace's clock (2 = twice as fast).
        #[arg(long, default_value_t = 1.0)]
        speed: f64,
        /// Wrap offsets beyond the drive's capacity instead of failing.
        #[arg(long)]
        wrap: bool,
        #[command(flatten)]
        drive: DriveArgs,
    },
    /// Run a protocol (default ssdfans) and compare each figure with the published one; exit 0 only
    /// when every figure is within the tolerance, 1 otherwise.
    Validate {
        /// The protocol: a built-in name or a TOML file.
        #[arg(long, default_value = "ssdfans")]
        protocol: String,
        /// Largest accepted error of a figure against the published one, in percent (±).
        #[arg(long, default_value_t = 10.0)]
        tolerance_pct: f64,
        /// Run at this many consecutive root seeds (--seed, --seed + 1, ...), each a whole
        /// independent run, and report every figure's spread; passes only if every figure is
        /// inside the tolerance at every seed.
        #[arg(long, default_value_t = 1)]
        seeds: u32,
        /// With --seeds: runs at once, each on its own thread and drive [default: the CPUs].
        #[arg(long)]
        jobs: Option<u32>,
        #[command(flatten)]
        drive: DriveArgs,
    },
}

/// Makes the device a command runs on (the model's drive; tests may pass another).
/// Sync: `validate --seeds` opens one drive per run from worker threads.
pub type OpenDevice<'a> =
    &'a (dyn Fn(&DriveConfig, u64) -> Result<Box<dyn Device>, InputError> + Sync);

fn drive_config(d: &DriveArgs) -> Result<(String, DriveConfig), InputError> {
    match (&d.preset, &d.config) {
        (_, Some(path)) => Ok((path.clone(), presets::load_file(path)?)),
        (Some(name), None) => Ok((name.clone(), presets::load(name)?)),
        (None, None) => Ok((
            presets::DEFAULT_PRESET.to_string(),
            presets::load(presets::DEFAULT_PRESET)?,
        )),
    }
}

fn io_err(e: std::io::Error) -> InputError {
    InputError::file("<stdout>", format!("cannot write: {e}"))
}

/// Runs a parsed command line; returns the exit code for a successful run (0, or 1 for a failed
/// validation). Bad input is an `Err` (exit code 2).
pub fn execute(cli: &Cli, open: OpenDevice, out: &mut dyn Write) -> Result<i32, InputError> {
    let seeds = SeedTree::new(cli.seed);
    let mut progress = TermProgress::new();
    let code = match &cli.cmd {
        Cmd::Presets => {
            write!(out, "{}", presets::listing()?).map_err(io_err)?;
            0
        }
        Cmd::Protocols => {
            for (name, file, _) in protocol::BUILTINS {
                let p = protocol::resolve(name)?;
                writeln!(out, "{name:<20} {} ({file})", p.description).map_err(io_err)?;
            }
            0
        }
        Cmd::Run { job, drive } => {
            let jobs = read_job_file(job)?;
            let (preset, cfg) = drive_config(drive)?;
            let mut dev = open(&cfg, cli.seed)?;
            progress.set_label(job);
            let groups = run_jobs(dev.as_mut(), &jobs, job, &seeds, &mut progress)?;
            progress.finish();
            print_groups(
                cli,
                out,
                &groups,
                json!({"preset": preset, "seed": cli.seed, "job_file": job}),
            )?;
            plots(cli, |dir| plot::plot_run(dir, job, &groups))?;
            0
        }
        Cmd::Replay {
            trace: path,
            format,
            speed,
            wrap,
            drive,
        } => {
            if !(speed.is_finite() && *speed > 0.0) {
                return Err(InputError::file("--speed", "must be a positive number"));
            }
            let ios = trace::load(path, *format)?;
            let (preset, cfg) = drive_config(drive)?;
            let mut dev = open(&cfg, cli.seed)?;
            progress.set_label(path);
            let g = trace::replay(
                dev.as_mut(),
                &ios,
                path,
                ReplayOptions {
                    speed: *speed,
                    wrap: *wrap,
                },
                &mut progress,
            )?;
            progress.finish();
            let groups = vec![g];
            print_groups(
                cli,
                out,
                &groups,
                json!({"preset": preset, "seed": cli.seed, "trace": path}),
            )?;
            plots(cli, |dir| plot::plot_run(dir, path, &groups))?;
            0
        }
        Cmd::Protocol { name, drive } => {
            run_protocol_cmd(cli, open, out, name, drive, None, &mut progress)?;
            0
        }
        Cmd::Validate {
            protocol,
            tolerance_pct,
            seeds: n,
            jobs,
            drive,
        } => {
            // NaN would compare false against every error and pass everything.
            if !(tolerance_pct.is_finite() && *tolerance_pct >= 0.0) {
                return Err(InputError::file(
                    "--tolerance-pct",
                    "must be a non-negative number of percent",
                ));
            }
            if *n == 0 {
                return Err(InputError::file("--seeds", "must be at least 1"));
            }
            if *jobs == Some(0) {
                return Err(InputError::file("--jobs", "must be at least 1"));
            }
            if *n == 1 {
                run_protocol_cmd(
                    cli,
                    open,
                    out,
                    protocol,
                    drive,
                    Some(*tolerance_pct),
                    &mut progress,
                )?
            } else {
                progress.finish();
                validate_seeds(cli, open, out, protocol, drive, *tolerance_pct, *n, *jobs)?
            }
        }
    };
    Ok(code)
}

/// `validate --seeds N` (N > 1): the runs in parallel, then the spread table or JSON.
#[allow(clippy::too_many_arguments)]
fn validate_seeds(
    cli: &Cli,
    open: OpenDevice,
    out: &mut dyn Write,
    name: &str,
    drive: &DriveArgs,
    tol: f64,
    n: u32,
    jobs: Option<u32>,
) -> Result<i32, InputError> {
    let p = protocol::resolve(name)?;
    let (preset, cfg) = drive_config(drive)?;
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get() as u32);
    let jobs = jobs.unwrap_or(cpus).min(n);
    eprintln!("validate: {n} seeds from {}, {jobs} at a time", cli.seed);
    let done = |r: &seeds::SeedRun| {
        let rows = r.rows();
        let judged = rows.iter().filter(|x| x.published.is_some()).count();
        let inside = judged - rows.iter().filter(|x| x.outside(tol)).count();
        eprintln!(
            "seed {}: {inside} of {judged} figures within ±{tol} % ({:.1} s wall)",
            r.seed, r.wall_s
        );
    };
    let runs = seeds::run_seeds(&p, &cfg, open, cli.seed, n, jobs, &done)?;
    match cli.output_format {
        OutputFormat::Normal => write!(out, "{}", seeds::table(&p, &preset, &runs, tol)),
        OutputFormat::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&seeds::json(&p, &preset, &runs, tol))
                .expect("JSON values serialize")
        ),
    }
    .map_err(io_err)?;
    for r in &runs {
        plots(cli, |dir| {
            plot::plot_protocol(
                &dir.join(format!("seed-{}", r.seed)),
                &p.name,
                &p.steps,
                &r.steps,
            )
        })?;
    }
    Ok(if seeds::all_pass(&runs, tol) { 0 } else { 1 })
}

fn print_groups(
    cli: &Cli,
    out: &mut dyn Write,
    groups: &[GroupResult],
    meta: serde_json::Value,
) -> Result<(), InputError> {
    match cli.output_format {
        OutputFormat::Normal => write!(out, "{}", human::summary(groups)),
        OutputFormat::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json::document(groups, meta))
                .expect("JSON values serialize")
        ),
    }
    .map_err(io_err)
}

fn plots(
    cli: &Cli,
    f: impl FnOnce(&std::path::Path) -> Result<Vec<PathBuf>, String>,
) -> Result<(), InputError> {
    if let Some(dir) = &cli.plot {
        let files = f(dir).map_err(|e| {
            InputError::file(
                &dir.display().to_string(),
                format!("cannot write plots: {e}"),
            )
        })?;
        for f in files {
            eprintln!("plot: {}", f.display());
        }
    }
    Ok(())
}

fn run_protocol_cmd(
    cli: &Cli,
    open: OpenDevice,
    out: &mut dyn Write,
    name: &str,
    drive: &DriveArgs,
    tolerance: Option<f64>,
    progress: &mut TermProgress,
) -> Result<i32, InputError> {
    let p = protocol::resolve(name)?;
    let (preset, cfg) = drive_config(drive)?;
    let mut dev = open(&cfg, cli.seed)?;
    let total = p.steps.len();
    let wall = std::time::Instant::now();
    // Step lines go to stderr as each step ends; the table goes to stdout at the end.
    let mut on_step = |o: &protocol::run::StepOutcome, obs: &mut dyn Observer| {
        let line = match &o.report {
            Some(r) => format!("[{:>2}/{total}] {}", o.index + 1, report::row_line(r)),
            None => format!(
                "[{:>2}/{total}] {} ({:.1} s simulated)",
                o.index + 1,
                o.label,
                (o.sim_end - o.sim_start).as_secs_f64()
            ),
        };
        obs.note(&format!("{line}\n        {}", o.ftl.ftl_summary()));
    };
    let steps = run_protocol(
        dev.as_mut(),
        &p,
        &SeedTree::new(cli.seed),
        progress,
        &mut on_step,
    )?;
    progress.finish();
    eprintln!(
        "{} steps in {:.1} s wall time",
        steps.len(),
        wall.elapsed().as_secs_f64()
    );
    let rows: Vec<&report::ReportRow> = steps.iter().filter_map(|s| s.report.as_ref()).collect();
    let failed: Vec<&&report::ReportRow> = match tolerance {
        Some(t) => rows.iter().filter(|r| r.outside(t)).collect(),
        None => Vec::new(),
    };
    match cli.output_format {
        OutputFormat::Normal => {
            write!(out, "{}", report::table(&p, &preset, cli.seed, &steps)).map_err(io_err)?;
            if let Some(t) = tolerance {
                let n = rows.iter().filter(|r| r.published.is_some()).count();
                write!(
                    out,
                    "validation: {} of {n} figures within ±{t} %",
                    n - failed.len()
                )
                .map_err(io_err)?;
                // The table rounds errors to 0.1 %; the figures outside are named with two decimals.
                let outside: Vec<String> = failed
                    .iter()
                    .map(|r| {
                        let name = r.id.as_deref().unwrap_or(&r.label);
                        r.error_pct().map_or(format!("{name} (no figure)"), |e| {
                            format!("{name} ({e:+.2} %)")
                        })
                    })
                    .collect();
                if !outside.is_empty() {
                    write!(out, "; outside: {}", outside.join(", ")).map_err(io_err)?;
                }
                writeln!(out).map_err(io_err)?;
            }
        }
        OutputFormat::Json => {
            let mut doc = report::json(&p, &preset, cli.seed, &steps);
            if let Some(t) = tolerance {
                let ids: Vec<Option<String>> = failed.iter().map(|r| r.id.clone()).collect();
                doc["validation"] =
                    json!({"tolerance_pct": t, "failed": ids, "pass": failed.is_empty()});
            }
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).expect("JSON values serialize")
            )
            .map_err(io_err)?;
        }
    }
    plots(cli, |dir| {
        plot::plot_protocol(dir, &p.name, &p.steps, &steps)
    })?;
    Ok(if failed.is_empty() { 0 } else { 1 })
}
