//! Submission and completion queue entries (NVM Express Base Specification 1.4, section 4.2
//! Figure 105 and section 4.6 Figure 121/124): their layouts in bytes. Opcodes and status codes
//! are in [`crate::encoding::nvme`].

/// 64-byte submission queue entry.
pub const SQE_BYTES: u32 = 64;
/// 16-byte completion queue entry.
pub const CQE_BYTES: u32 = 16;

use crate::encoding::nvme::Status;

/// The fields of a submission queue entry the front end uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sqe {
    pub opc: u8,
    /// PSDT (bits 15:14 of CDW0): 00b = PRPs; SGLs are not supported.
    pub psdt: u8,
    pub cid: u16,
    pub nsid: u32,
    pub prp1: u64,
    pub prp2: u64,
    pub cdw10: u32,
    pub cdw11: u32,
    pub cdw12: u32,
}

fn dw(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}
fn qw(b: &[u8], i: usize) -> u64 {
    dw(b, i) as u64 | ((dw(b, i + 1) as u64) << 32)
}

impl Sqe {
    pub fn decode(b: &[u8; 64]) -> Sqe {
        let cdw0 = dw(b, 0);
        Sqe {
            opc: (cdw0 & 0xFF) as u8,
            psdt: ((cdw0 >> 14) & 0x3) as u8,
            cid: (cdw0 >> 16) as u16,
            nsid: dw(b, 1),
            prp1: qw(b, 6),
            prp2: qw(b, 8),
            cdw10: dw(b, 10),
            cdw11: dw(b, 11),
            cdw12: dw(b, 12),
        }
    }
    pub fn encode(&self) -> [u8; 64] {
        let mut b = [0u8; 64];
        let mut put = |i: usize, v: u32| b[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
        put(
            0,
            self.opc as u32 | ((self.psdt as u32 & 3) << 14) | ((self.cid as u32) << 16),
        );
        put(1, self.nsid);
        put(6, self.prp1 as u32);
        put(7, (self.prp1 >> 32) as u32);
        put(8, self.prp2 as u32);
        put(9, (self.prp2 >> 32) as u32);
        put(10, self.cdw10);
        put(11, self.cdw11);
        put(12, self.cdw12);
        b
    }
    /// A command with only opcode, CID, NSID and PRPs set; other dwords zero.
    pub fn new(opc: u8, cid: u16, nsid: u32, prp1: u64, prp2: u64) -> Sqe {
        Sqe {
            opc,
            psdt: 0,
            cid,
            nsid,
            prp1,
            prp2,
            cdw10: 0,
            cdw11: 0,
            cdw12: 0,
        }
    }
}

/// A completion queue entry (Figure 121).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cqe {
    pub dw0: u32,
    pub sqhd: u16,
    pub sqid: u16,
    pub cid: u16,
    pub phase: bool,
    pub status: Status,
}

impl Cqe {
    pub fn encode(&self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[0..4].copy_from_slice(&self.dw0.to_le_bytes());
        b[8..12].copy_from_slice(&(self.sqhd as u32 | ((self.sqid as u32) << 16)).to_le_bytes());
        let dw3 =
            self.cid as u32 | ((self.phase as u32) << 16) | ((self.status.field() as u32) << 17);
        b[12..16].copy_from_slice(&dw3.to_le_bytes());
        b
    }
    pub fn decode(b: &[u8]) -> Cqe {
        assert!(b.len() >= 16, "CQE needs 16 bytes, got {}", b.len());
        let dw2 = dw(b, 2);
        let dw3 = dw(b, 3);
        let field = (dw3 >> 17) as u16;
        Cqe {
            dw0: dw(b, 0),
            sqhd: dw2 as u16,
            sqid: (dw2 >> 16) as u16,
            cid: dw3 as u16,
            phase: (dw3 >> 16) & 1 == 1,
            status: Status {
                sct: ((field >> 8) & 0x7) as u8,
                sc: field as u8,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cqe_layout_matches_figure_121() {
        let c = Cqe {
            dw0: 7,
            sqhd: 5,
            sqid: 2,
            cid: 0xABCD,
            phase: true,
            status: Status::PRP_OFFSET_INVALID,
        };
        let b = c.encode();
        // DW3 = CID | P << 16 | SC 13h << 17.
        assert_eq!(
            u32::from_le_bytes([b[12], b[13], b[14], b[15]]),
            0xABCD | 1 << 16 | 0x13 << 17
        );
        assert_eq!(u32::from_le_bytes([b[8], b[9], b[10], b[11]]), 5 | 2 << 16);
        assert_eq!(Cqe::decode(&b), c);
        // Command specific SCT 1, SC 02h: status field 102h.
        assert_eq!(Status::INVALID_QSIZE.field(), 0x102);
    }

    #[test]
    fn sqe_roundtrip_places_prps_at_bytes_24_and_32() {
        let s = Sqe {
            opc: 2,
            psdt: 0,
            cid: 9,
            nsid: 1,
            prp1: 0x1234_5000,
            prp2: 0x8_0000_0000,
            cdw10: 3,
            cdw11: 0,
            cdw12: 7,
        };
        let b = s.encode();
        assert_eq!(&b[24..28], &0x1234_5000u32.to_le_bytes());
        assert_eq!(&b[36..40], &8u32.to_le_bytes());
        assert_eq!(Sqe::decode(&b), s);
    }
}
