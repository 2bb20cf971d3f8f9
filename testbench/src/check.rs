//! `--check`: every command's parse-and-validate path without running anything. The inputs
//! (job file, protocol, trace, drive config) are read and checked against the drive they
//! would run on, exactly as the command does before its first IO (a sweep: its grid, workload
//! and every point's config, as it plans them before the first point), then the command stops:
//! exit 0 when it would run, 2 (with the error) when it would refuse. The fuzz tests
//! (`tests/fuzz_inputs.rs`) drive this path in-process. The argument checks every command
//! makes before it reads anything (`--speed`, `--tolerance-pct`, `--plot DIR`) live here too.

use crate::cli::{drive_config, Cli, Cmd, OpenDevice, PresetsCmd};
use crate::drive_cfg;
use crate::error::InputError;
use crate::fio::read_job_file;
use crate::protocol;
use crate::trace::{self, ReplayOptions};
use crate::workload::runner::check_jobs;

/// Checks the inputs of `cli`'s command on the device `open` builds; nothing runs.
pub fn check_inputs(cli: &Cli, open: OpenDevice) -> Result<(), InputError> {
    match &cli.cmd {
        Cmd::Presets {
            action: Some(PresetsCmd::Show { name, config, set }),
        } => drive_cfg::resolve(name.as_deref(), config.as_deref(), set).map(|_| ()),
        Cmd::Presets { action: None } | Cmd::Protocols => Ok(()),
        Cmd::Sweep { action: None, args } => {
            crate::sweep::cmd::plan_sweep(args, cli.seed).map(|_| ())
        }
        Cmd::Sweep { .. } | Cmd::Report { .. } => Err(InputError::file(
            "--check",
            "checks run, replay, protocol, validate, sweep and presets show; sweep merge and \
             report only read",
        )),
        Cmd::Run { job, drive, .. } => {
            let jobs = read_job_file(job)?;
            let rd = drive_config(drive)?;
            let dev = open(&rd.cfg, cli.seed)?;
            check_jobs(dev.as_ref(), &jobs)
        }
        Cmd::Replay {
            trace: path,
            format,
            speed,
            wrap,
            drive,
        } => {
            check_speed(*speed)?;
            let ios = trace::load(path, *format)?;
            let rd = drive_config(drive)?;
            let dev = open(&rd.cfg, cli.seed)?;
            let opts = ReplayOptions {
                speed: *speed,
                wrap: *wrap,
            };
            trace::place(dev.as_ref(), &ios, path, opts).map(|_| ())
        }
        Cmd::Protocol { name, drive } => check_protocol(cli, open, name, drive),
        Cmd::Validate {
            protocol,
            tolerance_pct,
            seeds,
            jobs,
            compare,
            drive,
        } => {
            check_validate_args(*tolerance_pct, *seeds, *jobs)?;
            check_protocol(cli, open, protocol, drive)?;
            let compare = protocol::compare_of(protocol, compare.as_deref())?;
            compare.map_or(Ok(()), |c| check_protocol(cli, open, &c, drive))
        }
    }
}

fn check_protocol(
    cli: &Cli,
    open: OpenDevice,
    name: &str,
    drive: &crate::cli::DriveArgs,
) -> Result<(), InputError> {
    let p = protocol::resolve(name)?;
    let rd = drive_config(drive)?;
    let dev = open(&rd.cfg, cli.seed)?;
    protocol::run::check(dev.as_ref(), &p)
}

pub(crate) fn check_speed(speed: f64) -> Result<(), InputError> {
    if speed.is_finite() && speed > 0.0 {
        Ok(())
    } else {
        Err(InputError::file("--speed", "must be a positive number"))
    }
}

pub(crate) fn check_validate_args(tol: f64, n: u32, jobs: Option<u32>) -> Result<(), InputError> {
    // NaN would compare false against every error and pass everything.
    if !(tol.is_finite() && tol >= 0.0) {
        return Err(InputError::file(
            "--tolerance-pct",
            "must be a non-negative number of percent",
        ));
    }
    if n == 0 {
        return Err(InputError::file("--seeds", "must be at least 1"));
    }
    if jobs == Some(0) {
        return Err(InputError::file("--jobs", "must be at least 1"));
    }
    Ok(())
}

/// The --plot directory must be one that plots can be written into, found out before anything
/// runs (a report already on stdout followed by an error is what the exit-code contract forbids).
pub(crate) fn check_plot_dir(dir: &std::path::Path) -> Result<(), InputError> {
    let shown = dir.display().to_string();
    let fail = |r: String| InputError::file(&shown, format!("--plot: {r}"));
    if dir.exists() && !dir.is_dir() {
        return Err(fail("exists and is not a directory".into()));
    }
    std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot create the directory: {e}")))?;
    let probe = dir.join(format!(".ssdlab-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| fail(format!("cannot write into it: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}
