//! NVMe host interface (NVM Express Base Specification 1.4): submission/completion queue pairs,
//! doorbells, command fetch, PRP data movement, completion entries and interrupts ([`queues`]),
//! plus the TLP-exact front-end block mirrored by `ssdlab_hdl::nvme` ([`frontend`]).
//!
//! Sizes used by the drive's transfers over the PCIe link (spec section in brackets):
//! a submission queue entry is 64 B [4.2], a completion queue entry 16 B [4.6], a doorbell write
//! 4 B [3.1.24/25], an MSI-X message 4 B (PCIe 3.0 §6.8.2). Data moves by PRP [4.3]: the drive
//! reads write data from / writes read data to host memory; for transfers over two memory pages
//! (4 KiB) it first reads the PRP list (8 B per entry).

pub mod frontend;
pub mod queues;

pub use queues::{IrqDecision, NvmeQueues, QueueSnapshot};

/// Submission queue entry size, bytes.
pub const SQE_BYTES: u64 = 64;
/// Completion queue entry size, bytes.
pub const CQE_BYTES: u64 = 16;
/// Doorbell register write, bytes.
pub const DOORBELL_BYTES: u64 = 4;
/// MSI-X interrupt message (a posted 4 B memory write), bytes.
pub const MSIX_BYTES: u64 = 4;
/// Host memory page size assumed for PRPs (CC.MPS = 0 → 4 KiB).
pub const PRP_PAGE_BYTES: u64 = 4096;

/// Bytes of PRP list the drive must fetch for a transfer of `len` bytes starting page-aligned:
/// PRP1 and PRP2 in the command cover up to two pages; beyond that PRP2 points to a list of
/// 8 B entries, one per remaining page (NVMe 1.4 §4.3).
pub fn prp_list_bytes(len: u64) -> u64 {
    let pages = len.div_ceil(PRP_PAGE_BYTES);
    if pages <= 2 {
        0
    } else {
        (pages - 1) * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prp_list_sizes() {
        // 4 KiB and 8 KiB fit PRP1/PRP2; 128 KiB = 32 pages: PRP1 + a list of 31 entries × 8 B.
        assert_eq!(prp_list_bytes(4096), 0);
        assert_eq!(prp_list_bytes(8192), 0);
        assert_eq!(prp_list_bytes(128 * 1024), 31 * 8);
    }
}
