//! `--check`: every command's parse-and-validate path without running anything. The inputs
//! (job file, protocol, trace, drive config) are read and checked against the drive they
//! would run on, exactly as the command does before its first IO, then the command stops:
//! exit 0 when it would run, 2 (with the error) when it would refuse. The fuzz tests
//! (`tests/fuzz_inputs.rs`) drive this path in-process.

use crate::cli::{drive_config, Cli, Cmd, OpenDevice};
use crate::error::InputError;
use crate::fio::read_job_file;
use crate::protocol;
use crate::trace::{self, ReplayOptions};
use crate::workload::runner::check_jobs;

/// Checks the inputs of `cli`'s command on the device `open` builds; nothing runs.
pub fn check_inputs(cli: &Cli, open: OpenDevice) -> Result<(), InputError> {
    match &cli.cmd {
        Cmd::Presets | Cmd::Protocols => Ok(()),
        Cmd::Run { job, drive } => {
            let jobs = read_job_file(job)?;
            let (_, cfg) = drive_config(drive)?;
            let dev = open(&cfg, cli.seed)?;
            check_jobs(dev.as_ref(), &jobs)
        }
        Cmd::Replay {
            trace: path,
            format,
            speed,
            wrap,
            drive,
        } => {
            crate::cli::check_speed(*speed)?;
            let ios = trace::load(path, *format)?;
            let (_, cfg) = drive_config(drive)?;
            let dev = open(&cfg, cli.seed)?;
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
            drive,
        } => {
            crate::cli::check_validate_args(*tolerance_pct, *seeds, *jobs)?;
            check_protocol(cli, open, protocol, drive)
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
    let (_, cfg) = drive_config(drive)?;
    let dev = open(&cfg, cli.seed)?;
    protocol::run::check(dev.as_ref(), &p)
}
