//! ssdlab-testbench: workloads (fio job files, traces), protocols, co-simulation of the HDL
//! against the model, and the `ssdlab` command line.

pub mod check;
pub mod cli;
pub mod cosim;
pub mod devices;
pub mod drive_cfg;
pub mod error;
pub mod fio;
pub mod input_file;
pub mod output;
pub mod plot;
pub mod plot_frame;
pub mod plot_qos;
pub mod plot_rounds;
pub mod plot_throughput;
pub mod presets;
pub mod progress;
pub mod protocol;
pub mod sweep;
pub mod trace;
pub mod utilisation;
pub mod verilator;
pub mod workload;

pub use error::InputError;
