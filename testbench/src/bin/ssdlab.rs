//! The `ssdlab` command line. Exit codes: 0 success, 1 `validate` outside its tolerance,
//! 2 bad input (a message naming the file, line and reason) or bad arguments.

use clap::Parser;
use ssdlab_testbench::cli::{execute, Cli};
use ssdlab_testbench::workload::drive_adapter::open_drive;
use ssdlab_testbench::workload::Device;
use ssdlab_testbench::InputError;

fn main() {
    let cli = Cli::parse();
    let open = |cfg: &ssdlab_model::DriveConfig, seed: u64| -> Result<Box<dyn Device>, InputError> {
        Ok(Box::new(open_drive(cfg, seed, &cfg.name)?))
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match execute(&cli, &open, &mut out) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("ssdlab: error: {e}");
            eprintln!("ssdlab: (seed {})", cli.seed);
            std::process::exit(2);
        }
    }
}
