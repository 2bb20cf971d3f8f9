//! NVMe front end on the PCIe transaction layer, mirroring `ssdlab_model::nvme::frontend`:
//! BAR0 register file ([`regfile`]), submission path ([`sq_fetch`]), completion path
//! ([`cq_post`]) and the composed block ([`frontend`]). The root-complex model used by the
//! test benches is plain Rust ([`root_complex`]).

#[cfg(test)]
pub(crate) mod bench;
pub mod cq_post;
pub mod frontend;
pub mod regfile;
pub mod root_complex;
#[cfg(test)]
mod tests;
pub mod sq_fetch;

/// Queue pairs the HDL front end supports: the admin pair and 8 I/O pairs (qid 0..=8).
pub const QUEUE_PAIRS: usize = 9;
