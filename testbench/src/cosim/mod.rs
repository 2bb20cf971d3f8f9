//! Co-simulation of HDL blocks against the behavioural model (device models, the NAND target
//! among them, are in `crate::devices`): cycle-level DUT wrappers (rust_hdl simulation and Verilator) and benches.

pub mod channel_bench;
pub mod channel_dut;
pub mod clock_crossing;
pub mod datapath;
pub mod knob;
