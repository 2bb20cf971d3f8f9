//! BAR0 register map of the NVMe controller (NVM Express Base Specification 1.4, section 3.1,
//! Figure 78) and the MSI-X table placed in BAR0 (PCI Express Base 3.0, section 7.7). These
//! constants are the single source for both the behavioural front end and the rust_hdl register
//! file (`ssdlab_hdl::nvme::regfile`), so the two cannot drift apart.

/// Controller Capabilities, 64 bit.
pub const CAP: u32 = 0x00;
/// Version, 32 bit.
pub const VS: u32 = 0x08;
/// Interrupt Mask Set / Clear (pin and MSI only; MSI-X uses the table's vector mask).
pub const INTMS: u32 = 0x0C;
pub const INTMC: u32 = 0x10;
/// Controller Configuration.
pub const CC: u32 = 0x14;
/// Controller Status.
pub const CSTS: u32 = 0x1C;
/// Admin Queue Attributes.
pub const AQA: u32 = 0x24;
/// Admin Submission / Completion Queue Base Address, 64 bit each.
pub const ASQ: u32 = 0x28;
pub const ACQ: u32 = 0x30;
/// First doorbell; with CAP.DSTRD = 0 the stride is 4 bytes: SQ y tail at 0x1000 + 8y,
/// CQ y head at 0x1000 + 8y + 4 (section 3.1.25/3.1.26).
pub const DOORBELL_BASE: u32 = 0x1000;
/// MSI-X table (16 bytes per vector: address low, address high, data, vector control) in BAR0.
pub const MSIX_TABLE: u32 = 0x2000;
/// Bytes of BAR0 the front end decodes.
pub const BAR0_BYTES: u32 = 0x4000;

/// NVMe 1.4.0 in VS layout (MJR 31:16, MNR 15:8, TER 7:0).
pub const VS_1_4: u32 = 0x0001_0400;

/// CC fields (section 3.1.5).
pub const CC_EN: u32 = 1 << 0;
pub const CC_SHN_SHIFT: u32 = 14;
/// CSTS fields (section 3.1.6): RDY, CFS, SHST (00 normal, 01 occurring, 10 complete).
pub const CSTS_RDY: u32 = 1 << 0;
pub const CSTS_CFS: u32 = 1 << 1;
pub const CSTS_SHST_COMPLETE: u32 = 0b10 << 2;

/// CAP value for a controller with `mqes_entries` entries per queue: MQES (0's based), CQR = 1
/// (contiguous queues required), TO = 0x14 (10 s in 500 ms units), DSTRD = 0, CSS bit 37 (NVM
/// command set), MPSMIN = MPSMAX = 0 (4 KiB pages).
pub fn cap_value(mqes_entries: u32) -> u64 {
    assert!(
        (2..=65536).contains(&mqes_entries),
        "queue entries {mqes_entries} out of range"
    );
    let mqes = (mqes_entries - 1) as u64;
    mqes | (1 << 16) | (0x14 << 24) | (1 << 37)
}

/// Which doorbell a BAR0 offset names, with stride 0: `Some((qid, is_cq))`.
pub fn doorbell_of(offset: u32) -> Option<(u16, bool)> {
    if !(DOORBELL_BASE..MSIX_TABLE).contains(&offset) || !offset.is_multiple_of(4) {
        return None;
    }
    let idx = (offset - DOORBELL_BASE) / 4;
    Some(((idx / 2) as u16, idx % 2 == 1))
}

/// Offset of the SQ tail doorbell of queue `qid` (stride 0).
pub fn sq_doorbell(qid: u16) -> u32 {
    DOORBELL_BASE + 8 * qid as u32
}
/// Offset of the CQ head doorbell of queue `qid` (stride 0).
pub fn cq_doorbell(qid: u16) -> u32 {
    DOORBELL_BASE + 8 * qid as u32 + 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doorbells_follow_stride_zero_layout() {
        // Section 3.1.25: SQ y tail = 1000h + (2y * (4 << DSTRD)); CQ y head = 1000h + ((2y+1) * 4).
        assert_eq!(sq_doorbell(0), 0x1000);
        assert_eq!(cq_doorbell(0), 0x1004);
        assert_eq!(sq_doorbell(3), 0x1018);
        assert_eq!(cq_doorbell(8), 0x1044);
        assert_eq!(doorbell_of(0x1044), Some((8, true)));
        assert_eq!(doorbell_of(0x1002), None);
        assert_eq!(doorbell_of(0x0FFC), None);
    }

    #[test]
    fn cap_encodes_mqes_zero_based() {
        let cap = cap_value(1024);
        assert_eq!(cap & 0xFFFF, 1023);
        assert_eq!((cap >> 37) & 1, 1);
        assert_eq!((cap >> 32) & 0xF, 0, "DSTRD must be 0");
    }
}
