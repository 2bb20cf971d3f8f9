//! Controller resources shared by all commands: the firmware CPU cores ([`cpu`]), the external
//! DRAM ([`dram`]) and the host-data buffer carved from it ([`buffer`]).
//! Sources: SM2262 product brief (dual-core ARM, DDR3/DDR4), Nanya DDR3 data sheet; the
//! per-command firmware cost is fitted (see presets).
//!
//! Like the PCIe link these are reservation resources: a request at simulated time `t` is served
//! from `max(t, free)`, first-come first-served in the engine's event order.

pub mod buffer;
pub mod cpu;
pub mod dram;

pub use buffer::DataBuffer;
pub use cpu::FirmwareCores;
pub use dram::Dram;
