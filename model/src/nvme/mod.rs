//! NVMe host interface (NVM Express Base Specification 1.4): the TLP-exact front-end block
//! ([`frontend`]: doorbells, SQ fetch and arbitration, PRP data movement, completion entries,
//! MSI-X with coalescing) that the drive runs (`drive/front_end.rs`) and `ssdlab_hdl::nvme`
//! mirrors TLP for TLP. Its encodings (opcodes, status codes, register offsets) live in
//! `crate::encoding`, shared with the HDL.

pub mod frontend;
