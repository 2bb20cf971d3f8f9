//! The four TLP streams of the front end, in the style of the AXI-streaming hard blocks
//! (Xilinx PG213 "UltraScale+ PCIe": completer request CQ, completer completion CC, requester
//! request RQ, requester completion RC): 128-bit `tdata` at 250 MHz (4 GB/s per direction,
//! above Gen3x4's 3.94 GB/s), `tvalid`/`tready`/`tlast`. Every TLP is one descriptor beat then
//! `ceil(bytes / 16)` payload beats with payload dword 0 in bits 31:0 of the first payload beat
//! (PG213's RC and CC pack payload into the descriptor beat after its 3 dwords; this interface
//! does not: a documented simplification that costs one beat per completion). The streams'
//! `tkeep`/`tuser` sidebands (PG156 layout) are described at the front end's ports
//! (`nvme::frontend`) and in `pcie::rq_mux`.
//!
//! Request descriptor (CQ and RQ), after PG213 Table 3-9/3-13:
//! `[63:2]` address (dword), `[74:64]` dword count, `[78:75]` request type (0000b MRd,
//! 0001b MWr), `[103:96]` tag. Completion descriptor (RC and CC): `[11:0]` lower address,
//! `[28:16]` byte count, `[42:32]` dword count, `[45:43]` completion status, `[71:64]` tag.
//! These helpers pack and unpack them for test benches and the root-complex model.

/// Request type field values.
pub const REQ_MRD: u8 = 0b0000;
pub const REQ_MWR: u8 = 0b0001;

/// A request descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReqDesc {
    pub addr: u64,
    pub dwords: u16,
    pub req_type: u8,
    pub tag: u8,
}

impl ReqDesc {
    pub fn pack(&self) -> u128 {
        assert!(
            self.addr & 3 == 0,
            "request address {:#x} not dword aligned",
            self.addr
        );
        assert!(
            self.dwords >= 1 && self.dwords <= 1024,
            "dword count {}",
            self.dwords
        );
        (self.addr as u128)
            | (((self.dwords & 0x7FF) as u128) << 64)
            | (((self.req_type & 0xF) as u128) << 75)
            | ((self.tag as u128) << 96)
    }
    pub fn unpack(w: u128) -> ReqDesc {
        ReqDesc {
            addr: (w as u64) & !3,
            dwords: ((w >> 64) & 0x7FF) as u16,
            req_type: ((w >> 75) & 0xF) as u8,
            tag: (w >> 96) as u8,
        }
    }
    /// Bytes the request names (a dword count of 0 would mean 1024 dwords; never generated).
    pub fn bytes(&self) -> u32 {
        4 * self.dwords as u32
    }
}

/// Completion status values (PCI Express Base 3.0, 2.2.9): successful, unsupported request.
pub const CPL_SC: u8 = 0b000;
pub const CPL_UR: u8 = 0b001;

/// The fields a completer request carries beyond [`ReqDesc`] (PG213 CQ descriptor): address
/// type `[1:0]`, requester ID `[95:80]`, target function `[111:104]`, BAR ID `[114:112]`, BAR
/// aperture (log2 bytes) `[120:115]`, TC `[123:121]`, attributes `[126:124]`. Bits 79 and 127
/// are reserved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CqReq {
    pub desc: ReqDesc,
    pub at: u8,
    pub rid: u16,
    pub func: u8,
    pub bar: u8,
    pub aperture: u8,
    pub tc: u8,
    pub attr: u8,
}

impl CqReq {
    /// A request from the root port (requester ID 0000h, tag `tag`) to BAR0 (16 KiB) of
    /// function 0, TC 0, no attributes.
    pub fn bar0(desc: ReqDesc) -> CqReq {
        CqReq {
            desc,
            at: 0,
            rid: 0,
            func: 0,
            bar: 0,
            aperture: 14,
            tc: 0,
            attr: 0,
        }
    }
    pub fn pack(&self) -> u128 {
        assert!(
            self.at < 4 && self.bar < 8 && self.aperture < 64 && self.tc < 8 && self.attr < 8,
            "field out of range: {self:?}"
        );
        self.desc.pack()
            | self.at as u128
            | ((self.rid as u128) << 80)
            | ((self.func as u128) << 104)
            | ((self.bar as u128) << 112)
            | ((self.aperture as u128) << 115)
            | ((self.tc as u128) << 121)
            | ((self.attr as u128) << 124)
    }
}

/// A completer completion descriptor (CC stream, PG213) as the root complex decodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcDesc {
    pub lower_addr: u8,
    pub byte_count: u16,
    pub dwords: u16,
    pub status: u8,
    pub rid: u16,
    pub tag: u8,
    pub tc: u8,
    pub attr: u8,
}

impl CcDesc {
    pub fn unpack(w: u128) -> CcDesc {
        CcDesc {
            lower_addr: (w & 0x7F) as u8,
            byte_count: ((w >> 16) & 0x1FFF) as u16,
            dwords: ((w >> 32) & 0x7FF) as u16,
            status: ((w >> 43) & 0x7) as u8,
            rid: (w >> 48) as u16,
            tag: (w >> 64) as u8,
            tc: ((w >> 89) & 7) as u8,
            attr: ((w >> 92) & 7) as u8,
        }
    }
}

/// A completion descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CplDesc {
    pub lower_addr: u16,
    pub byte_count: u16,
    pub dwords: u16,
    pub status: u8,
    pub tag: u8,
}

impl CplDesc {
    pub fn pack(&self) -> u128 {
        ((self.lower_addr & 0xFFF) as u128)
            | (((self.byte_count & 0x1FFF) as u128) << 16)
            | (((self.dwords & 0x7FF) as u128) << 32)
            | (((self.status & 0x7) as u128) << 43)
            | ((self.tag as u128) << 64)
    }
    pub fn unpack(w: u128) -> CplDesc {
        CplDesc {
            lower_addr: (w & 0xFFF) as u16,
            byte_count: ((w >> 16) & 0x1FFF) as u16,
            dwords: ((w >> 32) & 0x7FF) as u16,
            status: ((w >> 43) & 0x7) as u8,
            tag: (w >> 64) as u8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_descriptor_fields_sit_where_pg213_puts_them() {
        let d = ReqDesc {
            addr: 0x1_2345_6780,
            dwords: 16,
            req_type: REQ_MRD,
            tag: 3,
        };
        let w = d.pack();
        assert_eq!((w >> 64) & 0x7FF, 16);
        assert_eq!((w >> 96) & 0xFF, 3);
        assert_eq!(w as u64, 0x1_2345_6780);
        assert_eq!(ReqDesc::unpack(w), d);
        let w = ReqDesc {
            addr: 0x1000,
            dwords: 1,
            req_type: REQ_MWR,
            tag: 0,
        }
        .pack();
        assert_eq!((w >> 75) & 0xF, 1);
    }

    #[test]
    fn completion_descriptor_roundtrips() {
        let c = CplDesc {
            lower_addr: 0x40,
            byte_count: 64,
            dwords: 16,
            status: 0,
            tag: 2,
        };
        assert_eq!(CplDesc::unpack(c.pack()), c);
        assert_eq!((c.pack() >> 64) & 0xFF, 2);
    }
}
