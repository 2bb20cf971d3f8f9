//! Place and route of the exported blocks with open tools (`make pnr`, `scripts/pnr.sh`):
//! each block inside a four-pin harness (`harness`), synthesized by yosys `synth_ecp5` and
//! placed and routed by nextpnr-ecp5 on a Lattice ECP5-5G LFE5UM5G-85F, and the figures of its
//! JSON reports gathered into the `pnr` section of `hdl/synth-report.txt` (`report`).

pub mod harness;
pub mod report;

pub use harness::{harness, ports, Port};
