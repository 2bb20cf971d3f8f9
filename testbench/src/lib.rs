//! ssdlab-testbench: workloads (fio job files, traces), protocols, co-simulation of the HDL
//! against the model, and the `ssdlab` command line.

pub mod cosim;
pub mod verilator;
