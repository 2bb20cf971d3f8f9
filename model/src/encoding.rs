//! Encodings the behavioural model and the rust_hdl blocks share, in one place so the two sides
//! cannot drift apart: NVMe opcodes and status codes ([`nvme`]), the NVMe BAR0 register map
//! ([`nvme_regs`]) and ONFI command bytes ([`onfi`]). Behavioural blocks and the HDL both import
//! them from here.

pub mod nvme;
pub mod nvme_regs;
pub mod onfi;
