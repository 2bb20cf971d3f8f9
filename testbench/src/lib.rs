//! ssdlab-testbench: workloads (fio job files, traces), protocols, co-simulation of the HDL
//! against the model, and the `ssdlab` command line.

pub mod error;
pub mod fio;
pub mod output;
pub mod presets;
pub mod cosim;
pub mod verilator;
pub mod workload;

pub use error::InputError;
