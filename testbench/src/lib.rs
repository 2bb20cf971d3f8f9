//! ssdlab-testbench: workloads (fio job files, traces), protocols, co-simulation of the HDL
//! against the model, and the `ssdlab` command line.

pub mod cli;
pub mod cosim;
pub mod error;
pub mod fio;
pub mod output;
pub mod plot;
pub mod plot_qos;
pub mod presets;
pub mod progress;
pub mod protocol;
pub mod trace;
pub mod verilator;
pub mod workload;

pub use error::InputError;
