//! Controller resources shared by all commands: the firmware CPU cores ([`cpu`]), the external
//! DRAM ([`dram`]) and the host-data buffer carved from it ([`buffer`]); the on-chip page buffer
//! between the NAND channels and the PCIe data path ([`page_buffer`], one [`channel_buffer`] per
//! channel), the model of the HDL datapath's page buffer; and the asynchronous FIFO that joins
//! the PCIe and NAND clocks ([`clock_crossing`]), two of which join each channel's sequencer to
//! the firmware port when its clock is not the PCIe clock ([`nand_crossing`]).
//! Sources: SM2262 product brief (dual-core ARM, DDR3/DDR4), Nanya DDR3 data sheet; the
//! per-command firmware cost is fitted (see presets).
//!
//! Like the PCIe link these are reservation resources: a request at simulated time `t` is served
//! from `max(t, free)`, first-come first-served in the engine's event order.

pub mod buffer;
pub mod channel_buffer;
pub mod clock_crossing;
pub mod cpu;
pub mod dram;
pub mod nand_crossing;
pub mod page_buffer;

pub use buffer::DataBuffer;
pub use cpu::FirmwareCores;
pub use dram::Dram;
pub use page_buffer::PageBuffer;
