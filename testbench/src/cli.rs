//! The `ssdlab` command line: argument definitions (clap) and the commands. The binary
//! (`src/bin/ssdlab.rs`) only parses arguments and maps errors to exit codes: 2 for bad input
//! (always with file, line and reason), 1 for `validate` outside its tolerance.

use crate::drive_cfg::{self, ResolvedDrive};
use crate::error::InputError;
use crate::fio::read_job_file;
use crate::output::{human, json};
use crate::progress::TermProgress;
use crate::protocol::schema::Pattern;
use crate::protocol::{self, report, run::run_protocol, seeds};
use crate::sweep::cmd::{self as sweep_cmd, SweepArgs, SweepCmd};
use crate::trace::{self, Format, ReplayOptions};
use crate::workload::device::Integrity;
use crate::workload::unwritten::{self, precondition_jobs};
use crate::workload::{drive_adapter, run_jobs, Device, GroupResult, Observer};
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
    /// `normal` (fio-like text), `json` (fio's JSON shape, ssdlab figures under "ssdlab") or
    /// `json+` (json with fio's clat_ns.bins latency histogram); `terse` is refused.
    #[arg(long, global = true, value_parser = parse_output_format, default_value = "normal")]
    pub output_format: OutputFormat,
    /// Write SVG plots into this directory.
    #[arg(long, global = true)]
    pub plot: Option<PathBuf>,
    /// Write the report (text or JSON) to this file instead of stdout, like fio's --output; the
    /// file is written only when the command succeeds.
    #[arg(long, global = true)]
    pub output: Option<PathBuf>,
    /// Read and check the inputs against the drive, then stop without running: exit 0 when
    /// the command would run, 2 with the error when it would refuse.
    #[arg(long, global = true)]
    pub check: bool,
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Normal,
    Json,
    /// fio's `json+`: JSON with the latency histogram (`clat_ns.bins`) of `run` and `replay`.
    JsonPlus,
}

/// `--output-format`: fio's names; `terse` (fio's semicolon-separated v3 line of about 130
/// fields) is not implemented and says so.
fn parse_output_format(s: &str) -> Result<OutputFormat, String> {
    match s {
        "normal" => Ok(OutputFormat::Normal),
        "json" => Ok(OutputFormat::Json),
        "json+" => Ok(OutputFormat::JsonPlus),
        "terse" => Err(
            "terse (fio's semicolon-separated format) is not supported; use normal, json or json+"
                .into(),
        ),
        _ => Err("must be normal, json or json+".into()),
    }
}

/// The fill order of `run --precondition`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PreconditionArg {
    Sequential,
    Random,
}

#[derive(Args, Debug, Clone)]
pub struct DriveArgs {
    /// A built-in drive preset (see `ssdlab presets`) [default: sm2262-512g].
    #[arg(long, conflicts_with = "config")]
    pub preset: Option<String>,
    /// A drive config file (TOML, the presets' schema; unknown fields are errors), instead of a
    /// preset. It may start with `base = "PRESET"` (or a path) and give only the keys it changes.
    #[arg(long)]
    pub config: Option<String>,
    /// Override one config key, `--set geometry.channels=4` (dotted keys of the config schema,
    /// as `ssdlab presets show` prints them; repeatable; applied after the file, in order).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Run a fio job file on a modelled drive.
    Run {
        /// The fio job file (`[global]` and job sections; see docs/fio.md).
        job: String,
        /// Fill the jobs' regions first, untimed (as a protocol's functional precondition
        /// step), so that reads hit written data: `sequential` (128 KiB in order) or `random`
        /// (every 4 KiB unit once, in a seeded random order).
        #[arg(long, value_enum)]
        precondition: Option<PreconditionArg>,
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
    /// List the built-in drive presets, or print one resolved (`presets show NAME --set ...`).
    Presets {
        #[command(subcommand)]
        action: Option<PresetsCmd>,
    },
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
    /// Run a job file or protocol at every point of a grid over config keys; results (CSV,
    /// JSON lines) go to --output DIR. `sweep merge DIR... --output DIR` joins shards.
    #[command(args_conflicts_with_subcommands = true)]
    Sweep {
        #[command(subcommand)]
        action: Option<SweepCmd>,
        #[command(flatten)]
        args: Box<SweepArgs>,
    },
    /// Write one self-contained HTML report over a sweep's output directory (DIR/report.html,
    /// or --output FILE).
    Report {
        /// The sweep's output directory.
        dir: PathBuf,
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
        /// A protocol to run at the same seeds and print after the validation, not judged
        /// (text output only) [default: the protocol's `compare` key]; `none` runs none.
        #[arg(long, value_name = "NAME|FILE|none")]
        compare: Option<String>,
        #[command(flatten)]
        drive: DriveArgs,
    },
}

#[derive(Subcommand, Debug)]
pub enum PresetsCmd {
    /// Print a preset (or `--config` file) as fully resolved TOML; keys given by a file or
    /// `--set`, and keys derived from them, are marked in place of their inherited comments.
    Show {
        /// A built-in preset name (omit with --config).
        name: Option<String>,
        /// A drive config file to resolve instead of a preset.
        #[arg(long, conflicts_with = "name")]
        config: Option<String>,
        /// Override one config key (repeatable), as for `run`.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
}

/// Makes the device a command runs on (the model's drive; tests may pass another).
/// Sync: `validate --seeds` opens one drive per run from worker threads.
pub type OpenDevice<'a> =
    &'a (dyn Fn(&DriveConfig, u64) -> Result<Box<dyn Device>, InputError> + Sync);

/// The resolved drive of a command: preset or file, `base` chain, `--set`, derived keys;
/// checked against the host's memory (an error names the file or preset).
pub fn drive_config(d: &DriveArgs) -> Result<ResolvedDrive, InputError> {
    let rd = drive_cfg::resolve(d.preset.as_deref(), d.config.as_deref(), &d.set)?;
    drive_adapter::check_memory(&rd.cfg, &rd.label, drive_adapter::memory_limit()?)?;
    Ok(rd)
}

fn io_err(e: std::io::Error) -> InputError {
    InputError::file("<stdout>", format!("cannot write: {e}"))
}

/// Runs a parsed command line; returns the exit code for a successful run (0, or 1 for a failed
/// validation). Bad input is an `Err` (exit code 2).
pub fn execute(cli: &Cli, open: OpenDevice, out: &mut dyn Write) -> Result<i32, InputError> {
    if cli.check {
        crate::check::check_inputs(cli, open)?;
        return Ok(0);
    }
    if let Some(dir) = &cli.plot {
        crate::check::check_plot_dir(dir)?;
    }
    let seeds = SeedTree::new(cli.seed);
    let mut progress = TermProgress::new();
    let code = match &cli.cmd {
        Cmd::Presets { action: None } => {
            write!(out, "{}", presets::listing()?).map_err(io_err)?;
            0
        }
        Cmd::Presets {
            action: Some(PresetsCmd::Show { name, config, set }),
        } => {
            let r = drive_cfg::resolve(name.as_deref(), config.as_deref(), set)?;
            let mut command = format!("ssdlab presets show {}", r.label);
            for s in set {
                command.push_str(&format!(" --set {s}"));
            }
            write!(out, "{}", drive_cfg::show::render(&r, &command)).map_err(io_err)?;
            0
        }
        Cmd::Protocols => {
            for (name, file, _) in protocol::BUILTINS {
                let p = protocol::resolve(name)?;
                writeln!(out, "{name:<20} {} ({file})", p.description).map_err(io_err)?;
            }
            0
        }
        Cmd::Run {
            job,
            precondition,
            drive,
        } => {
            let jobs = read_job_file(job)?;
            let rd = drive_config(drive)?;
            let mut dev = open(&rd.cfg, cli.seed)?;
            if let Some(p) = precondition {
                progress.set_label(&format!("{job}: precondition"));
                let pattern = match p {
                    PreconditionArg::Sequential => Pattern::Sequential,
                    PreconditionArg::Random => Pattern::Random,
                };
                precondition_jobs(dev.as_mut(), &jobs, pattern, &seeds, &mut progress)?;
            }
            progress.set_label(job);
            let groups = run_jobs(dev.as_mut(), &jobs, job, &seeds, &mut progress)?;
            progress.finish();
            write_logs(&groups)?;
            warn_unwritten(&groups, job);
            let verdict = dev.integrity();
            warn_verify(&jobs, &verdict);
            let mut meta = drive_cfg::provenance_json(&rd);
            meta["seed"] = json!(cli.seed);
            meta["job_file"] = json!(job);
            print_groups(cli, out, &rd, &groups, &verdict, meta)?;
            plots(cli, |dir| {
                plot::plot_run(dir, job, &plot_meta(&rd, cli.seed), &groups)
            })?;
            integrity_code(&verdict, cli.seed)
        }
        Cmd::Replay {
            trace: path,
            format,
            speed,
            wrap,
            drive,
        } => {
            crate::check::check_speed(*speed)?;
            let ios = trace::load(path, *format)?;
            let rd = drive_config(drive)?;
            let mut dev = open(&rd.cfg, cli.seed)?;
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
            warn_unwritten(&groups, path);
            let verdict = dev.integrity();
            let mut meta = drive_cfg::provenance_json(&rd);
            meta["seed"] = json!(cli.seed);
            meta["trace"] = json!(path);
            print_groups(cli, out, &rd, &groups, &verdict, meta)?;
            plots(cli, |dir| {
                plot::plot_run(dir, path, &plot_meta(&rd, cli.seed), &groups)
            })?;
            integrity_code(&verdict, cli.seed)
        }
        Cmd::Sweep {
            action: Some(SweepCmd::Merge { dirs }),
            ..
        } => sweep_cmd::merge(dirs, cli.output.as_deref(), out)?,
        Cmd::Sweep { action: None, args } => {
            progress.finish();
            sweep_cmd::sweep(args, cli.seed, cli.output.as_deref(), open, out)?
        }
        Cmd::Report { dir } => sweep_cmd::report(dir, cli.output.as_deref(), out)?,
        Cmd::Protocol { name, drive } => {
            run_protocol_cmd(cli, open, out, name, drive, None, &mut progress)?
        }
        Cmd::Validate {
            protocol,
            tolerance_pct,
            seeds: n,
            jobs,
            compare,
            drive,
        } => {
            crate::check::check_validate_args(*tolerance_pct, *n, *jobs)?;
            let code = if *n == 1 {
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
            };
            let compare = protocol::compare_of(protocol, compare.as_deref())?;
            if let (Some(c), OutputFormat::Normal) = (compare, cli.output_format) {
                validate_compare(cli, open, out, &c, drive, *n, *jobs)?;
            }
            code
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
    let rd = drive_config(drive)?;
    let (preset, cfg) = (&rd.label, &rd.cfg);
    let jobs = seed_jobs(jobs, n);
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
    let runs = seeds::run_seeds(&p, cfg, open, cli.seed, n, jobs, &done)?;
    match cli.output_format {
        OutputFormat::Normal => write!(
            out,
            "{}\n{}",
            drive_cfg::summary_line(cfg),
            seeds::table(&p, preset, &runs, tol)
        ),
        OutputFormat::Json | OutputFormat::JsonPlus => {
            let mut doc = seeds::json(&p, preset, &runs, tol);
            doc["ssdlab"] = drive_cfg::provenance_json(&rd);
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).expect("JSON values serialize")
            )
        }
    }
    .map_err(io_err)?;
    let mut lost = 0;
    for r in &runs {
        lost = lost.max(integrity_code(&r.integrity, r.seed));
        plots(cli, |dir| {
            plot::plot_protocol(
                &dir.join(format!("seed-{}", r.seed)),
                &p.name,
                &plot_meta(&rd, r.seed),
                &p.steps,
                &r.steps,
            )
        })?;
    }
    Ok(if seeds::all_pass(&runs, tol) { lost } else { 1 })
}

/// Seeds run at once: `--jobs`, else one per CPU, never more than the seeds.
fn seed_jobs(jobs: Option<u32>, seeds: u32) -> u32 {
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get() as u32);
    jobs.unwrap_or(cpus).min(seeds)
}

/// `validate`'s comparison protocol at the same seeds, printed after the validation with no
/// tolerance; its figures never change the exit code.
fn validate_compare(
    cli: &Cli,
    open: OpenDevice,
    out: &mut dyn Write,
    name: &str,
    drive: &DriveArgs,
    n: u32,
    jobs: Option<u32>,
) -> Result<(), InputError> {
    let p = protocol::resolve(name)?;
    let rd = drive_config(drive)?;
    let jobs = seed_jobs(jobs, n);
    eprintln!("validate: beside it, not judged: {} at {n} seeds", p.name);
    let done = |r: &seeds::SeedRun| eprintln!("{} seed {}: {:.1} s wall", p.name, r.seed, r.wall_s);
    let runs = seeds::run_seeds(&p, &rd.cfg, open, cli.seed, n, jobs, &done)?;
    write!(out, "{}", seeds::compare_table(&p, &runs)).map_err(io_err)
}

/// Exit code of a run by its integrity verdict: 1 (with the first violation on stderr) when the
/// drive served a lost or stale unit, else 0. The report is printed either way.
fn integrity_code(v: &Integrity, seed: u64) -> i32 {
    if v.violations == 0 {
        return 0;
    }
    eprintln!(
        "ssdlab: integrity violation: {}; {} violations in {} units read (seed {seed})",
        v.first.as_deref().unwrap_or("(no description)"),
        v.violations,
        v.checked
    );
    1
}

/// The integrity line of text reports.
fn integrity_line(v: &Integrity) -> String {
    format!(
        "  ssdlab: integrity: {} units read checked, {} violations\n",
        v.checked, v.violations
    )
}

/// The never-written-read warning of a run or replay, on stderr.
/// Writes the fio log files of a run (`write_bw_log`, ...), relative to the current
/// directory as fio writes them.
fn write_logs(groups: &[GroupResult]) -> Result<(), InputError> {
    for (name, text) in groups.iter().flat_map(|g| &g.logs) {
        std::fs::write(name, text)
            .map_err(|e| InputError::file(name, format!("cannot write the log: {e}")))?;
    }
    Ok(())
}

/// fio's verify failure line, when a job verifies and the drive's checker found a mismatch
/// (the run then exits 1, as fio's does).
fn warn_verify(jobs: &[crate::fio::JobSpec], v: &Integrity) {
    if let Some(j) = jobs.iter().find(|j| j.verify.is_some()) {
        if v.violations > 0 {
            eprintln!(
                "ssdlab: verify: job `{}`: verify={} failed: err=84 (EILSEQ, fio's verify error): {}",
                j.name,
                j.verify.as_deref().unwrap_or_default(),
                v.first.as_deref().unwrap_or("(no description)")
            );
        }
    }
}

fn warn_unwritten(groups: &[GroupResult], what: &str) {
    if let Some(w) = unwritten::warning(groups, what) {
        eprintln!("{w}");
    }
}

fn print_groups(
    cli: &Cli,
    out: &mut dyn Write,
    rd: &ResolvedDrive,
    groups: &[GroupResult],
    verdict: &Integrity,
    mut meta: serde_json::Value,
) -> Result<(), InputError> {
    meta["integrity"] = verdict.json();
    match cli.output_format {
        OutputFormat::Normal => write!(
            out,
            "{}\n{}{}",
            drive_cfg::summary_line(&rd.cfg),
            human::summary(groups),
            integrity_line(verdict)
        ),
        OutputFormat::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json::document(groups, meta))
                .expect("JSON values serialize")
        ),
        OutputFormat::JsonPlus => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json::document_plus(groups, meta))
                .expect("JSON values serialize")
        ),
    }
    .map_err(io_err)
}

/// The drive, config hash and seed a plot's subtitle names.
fn plot_meta(rd: &ResolvedDrive, seed: u64) -> plot::PlotMeta {
    plot::PlotMeta {
        drive: rd.cfg.name.clone(),
        config_hash: drive_cfg::config_hash(&rd.cfg),
        seed,
    }
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
    let rd = drive_config(drive)?;
    let preset = &rd.label;
    let mut dev = open(&rd.cfg, cli.seed)?;
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
        // A functional step takes no simulated time: nothing was busy, no bottleneck to name.
        let timed = o.sim_end > o.sim_start;
        let util = o
            .ftl
            .utilisation()
            .filter(|_| timed)
            .map_or(String::new(), |u| {
                let (name, busy) = u.bottleneck();
                format!("; bottleneck: {name} {:.1} %", busy * 100.0)
            });
        obs.note(&format!("{line}\n        {}{util}", o.ftl.ftl_summary()));
        if let Some(pl) = &o.power_loss {
            obs.note(&format!("        {}", protocol::power::summary(pl)));
        }
    };
    let steps = run_protocol(
        dev.as_mut(),
        &p,
        &SeedTree::new(cli.seed),
        progress,
        &mut on_step,
    )?;
    progress.finish();
    let verdict = dev.integrity();
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
            writeln!(out, "{}", drive_cfg::summary_line(&rd.cfg)).map_err(io_err)?;
            write!(out, "{}", report::table(&p, preset, cli.seed, &steps)).map_err(io_err)?;
            write!(out, "{}", integrity_line(&verdict).trim_start()).map_err(io_err)?;
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
        OutputFormat::Json | OutputFormat::JsonPlus => {
            let mut doc = report::json(&p, preset, cli.seed, &steps);
            doc["integrity"] = verdict.json();
            doc["ssdlab"] = drive_cfg::provenance_json(&rd);
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
        plot::plot_protocol(dir, &p.name, &plot_meta(&rd, cli.seed), &p.steps, &steps)
    })?;
    let lost = integrity_code(&verdict, cli.seed);
    Ok(if failed.is_empty() { lost } else { 1 })
}

impl Cli {
    /// Commands whose --output is a directory or a file they write themselves (not a copy of
    /// stdout).
    pub fn output_is_own(&self) -> bool {
        matches!(self.cmd, Cmd::Sweep { .. } | Cmd::Report { .. })
    }
}
