//! Co-simulation of HDL blocks against the behavioural model: device models (NAND target),
//! cycle-level DUT wrappers (rust_hdl simulation and Verilator) and benches.

pub mod channel_bench;
pub mod channel_dut;
pub mod datapath;
pub mod nand_target;
