//! Packed words the front-end blocks assemble field by field (rust_hdl `LogicStruct`s: each
//! field assignment becomes a constant-offset part-select in Verilog, so no operand is widened
//! implicitly and `verilator -Wall` stays quiet). Layouts are those of [`super::tlp`] and of the
//! NVMe completion entry (NVM Express Base Specification 1.4, Figure 121).

use rust_hdl::prelude::*;

/// Request descriptor (RQ/CQ streams): address, dword count, request type, tag.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct ReqDescWord {
    pub addr: Bits<64>,
    pub dwords: Bits<11>,
    pub req_type: Bits<4>,
    pub pad0: Bits<17>,
    pub tag: Bits<8>,
    pub pad1: Bits<24>,
}

/// Completion descriptor (CC/RC streams).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct CplDescWord {
    pub lower_addr: Bits<12>,
    pub pad0: Bits<4>,
    pub byte_count: Bits<13>,
    pub pad1: Bits<3>,
    pub dwords: Bits<11>,
    pub status: Bits<3>,
    pub pad2: Bits<18>,
    pub tag: Bits<8>,
    pub pad3: Bits<56>,
}

/// Completer completion descriptor (CC stream, PG213 "Completer Completion Descriptor"): lower
/// address [6:0], address type [9:8], byte count [28:16], locked-read [29], dword count [42:32],
/// status [45:43], poisoned [46], requester ID [63:48], tag [71:64], completer function [79:72],
/// completer bus [87:80], completer ID enable [88], TC [91:89], attributes [94:92], force ECRC
/// [95]. Requester ID, tag, TC and attributes echo the request (PCI Express Base 3.0, 2.2.9).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct CcDescWord {
    pub lower_addr: Bits<7>,
    pub pad0: Bit,
    pub at: Bits<2>,
    pub pad1: Bits<6>,
    pub byte_count: Bits<13>,
    pub locked: Bit,
    pub pad2: Bits<2>,
    pub dwords: Bits<11>,
    pub status: Bits<3>,
    pub poisoned: Bit,
    pub pad3: Bit,
    pub rid: Bits<16>,
    pub tag: Bits<8>,
    pub cpl_fn: Bits<8>,
    pub cpl_bus: Bits<8>,
    pub cpl_id_en: Bit,
    pub tc: Bits<3>,
    pub attr: Bits<3>,
    pub ecrc: Bit,
    pub pad4: Bits<32>,
}

/// Requester request sideband `s_axis_rq_tuser[59:0]` of the 128-bit interface (PG156
/// "UltraScale Devices Gen3 Integrated Block for PCI Express", Requester Request interface
/// sideband signals; PG213, UltraScale+, has a wider `tuser` at 512 bits): first byte
/// enables `[3:0]`, last byte enables `[7:4]`, address offset `[10:8]` (address-aligned mode
/// only), discontinue `[11]`, TPH present `[12]`, TPH type `[14:13]`, TPH indirect tag
/// enable `[15]`, TPH steering tag `[23:16]`, sequence number `[27:24]`, parity `[59:28]`
/// (parity checking off in the IP: zero).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct RqUserWord {
    pub first_be: Bits<4>,
    pub last_be: Bits<4>,
    pub addr_offset: Bits<3>,
    pub discontinue: Bit,
    pub tph_present: Bit,
    pub tph_type: Bits<2>,
    pub tph_indirect: Bit,
    pub tph_st_tag: Bits<8>,
    pub seq_num: Bits<4>,
    pub parity: Bits<32>,
}

/// An 11-bit dword count as a 13-bit byte count (dwords x 4).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct ByteCount13 {
    pub zero: Bits<2>,
    pub dwords: Bits<11>,
}

/// A 16-byte completion queue entry.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct CqeWord {
    pub dw0: Bits<32>,
    pub dw1: Bits<32>,
    pub sqhd: Bits<16>,
    pub sqid: Bits<4>,
    pub pad0: Bits<12>,
    pub cid: Bits<16>,
    pub phase: Bit,
    pub status: Bits<11>,
    pub pad1: Bits<4>,
}

/// Two dwords in a payload beat (dword 0 in bits 31:0).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct DwBeat {
    pub lo: Bits<32>,
    pub hi: Bits<32>,
    pub pad: Bits<64>,
}

/// A 64-bit quantity from two dwords.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Qword {
    pub lo: Bits<32>,
    pub hi: Bits<32>,
}

/// A 16-bit entry index zero-extended to 64 bits (for address arithmetic).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Index64 {
    pub idx: Bits<16>,
    pub pad: Bits<48>,
}

/// A 12-bit queue size field zero-extended to 16 bits.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct Size16 {
    pub size: Bits<12>,
    pub pad: Bits<4>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcie::tlp::{CcDesc, CplDesc, ReqDesc};

    #[test]
    fn packed_words_match_the_descriptor_helpers() {
        let r = ReqDescWord {
            addr: bits::<64>(0x1_2345_6780),
            dwords: bits::<11>(16),
            req_type: bits::<4>(1),
            tag: bits::<8>(3),
            ..Default::default()
        };
        let w: Bits<128> = r.into();
        assert_eq!(
            ReqDesc::unpack(w.to_u128()),
            ReqDesc {
                addr: 0x1_2345_6780,
                dwords: 16,
                req_type: 1,
                tag: 3
            }
        );
        let c = CplDescWord {
            lower_addr: bits::<12>(0x40),
            byte_count: bits::<13>(64),
            dwords: bits::<11>(16),
            tag: bits::<8>(2),
            ..Default::default()
        };
        let w: Bits<128> = c.into();
        assert_eq!(
            CplDesc::unpack(w.to_u128()),
            CplDesc {
                lower_addr: 0x40,
                byte_count: 64,
                dwords: 16,
                status: 0,
                tag: 2
            }
        );
        let cc = CcDescWord {
            lower_addr: bits::<7>(0x14),
            byte_count: bits::<13>(8),
            dwords: bits::<11>(2),
            status: bits::<3>(1),
            rid: bits::<16>(0x0100),
            tag: bits::<8>(0x5A),
            tc: bits::<3>(3),
            attr: bits::<3>(6),
            ..Default::default()
        };
        let w: Bits<128> = cc.into();
        let want = CcDesc {
            lower_addr: 0x14,
            byte_count: 8,
            dwords: 2,
            status: 1,
            rid: 0x0100,
            tag: 0x5A,
            tc: 3,
            attr: 6,
        };
        assert_eq!(CcDesc::unpack(w.to_u128()), want);
        // PG213 positions by hand: TC at 91:89, attributes at 94:92, requester ID at 63:48.
        assert_eq!((w.to_u128() >> 89) & 7, 3);
        assert_eq!((w.to_u128() >> 92) & 7, 6);
        assert_eq!((w.to_u128() >> 48) & 0xFFFF, 0x0100);
        let b = ByteCount13 {
            dwords: bits::<11>(16),
            ..Default::default()
        };
        let w: Bits<13> = b.into();
        assert_eq!(w.to_u64(), 64);
        let q = CqeWord {
            cid: bits::<16>(0xABCD),
            phase: true,
            status: bits::<11>(0x13),
            ..Default::default()
        };
        let w: Bits<128> = q.into();
        assert_eq!(w.to_u128() >> 96, 0xABCD | 1 << 16 | 0x13 << 17);
    }
}
