//! The `ssdlab` command line. Exit codes: 0 success, 1 `validate` outside its tolerance,
//! 2 bad input (a message naming the file, line and reason) or bad arguments.

use clap::Parser;
use ssdlab_testbench::cli::{execute, Cli};
use ssdlab_testbench::workload::drive_adapter::open_drive;
use ssdlab_testbench::workload::Device;
use ssdlab_testbench::InputError;

fn main() {
    let cli = Cli::parse();
    let open =
        |cfg: &ssdlab_model::DriveConfig, seed: u64| -> Result<Box<dyn Device>, InputError> {
            Ok(Box::new(open_drive(cfg, seed, &cfg.name)?))
        };
    // With --output the report is kept in memory and written only after a successful run, so
    // bad input never leaves a partial or empty report file behind.
    let mut buffer: Vec<u8> = Vec::new();
    let stdout = std::io::stdout();
    let result = match &cli.output {
        Some(_) if !cli.output_is_own() => execute(&cli, &open, &mut buffer),
        _ => execute(&cli, &open, &mut stdout.lock()),
    };
    let result = result.and_then(|code| match &cli.output {
        Some(path) if !cli.output_is_own() => {
            std::fs::write(path, &buffer).map(|_| code).map_err(|e| {
                InputError::file(&path.display().to_string(), format!("cannot write: {e}"))
            })
        }
        _ => Ok(code),
    });
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!(
                "ssdlab: error: {}",
                ssdlab_testbench::error::for_terminal(&e.to_string())
            );
            eprintln!("ssdlab: (seed {})", cli.seed);
            std::process::exit(2);
        }
    }
}
