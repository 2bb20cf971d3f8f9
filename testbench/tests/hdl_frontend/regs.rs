//! Completer-side tests of the register file inside the front end: completions echo the
//! request's requester ID, tag, TC and attributes (PCI Express Base 3.0, 2.2.9; PG213 CC
//! descriptor), and requests the controller does not implement are answered as 2.3.1 says
//! (non-posted: Unsupported Request completion without data; posted: dropped).

use super::{ACQ_BASE, ASQ_BASE};
use ssdlab_hdl::pcie::tlp::{CcDesc, CqReq, ReqDesc, CPL_SC, CPL_UR, REQ_MRD, REQ_MWR};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_testbench::devices::frontend_bench::HdlBench;

fn rd(offset: u64, dwords: u16, tag: u8) -> CqReq {
    CqReq::bar0(ReqDesc {
        addr: offset,
        dwords,
        req_type: REQ_MRD,
        tag,
    })
}
fn wr(offset: u64) -> CqReq {
    CqReq::bar0(ReqDesc {
        addr: offset,
        dwords: 1,
        req_type: REQ_MWR,
        tag: 0,
    })
}

#[test]
fn completions_echo_the_request_and_other_bars_functions_are_unsupported() {
    let mut h = HdlBench::new(&DriveConfig::default_drive());
    let mut t = 0;
    let mut send = |h: &mut HdlBench, r: CqReq, payload: &[u128]| {
        t = h.rc.completer_request(t, r, payload) + 8;
    };
    // VS from requester 03:02.0 (ID 0310h), tag 5Ah, TC 5, attributes 011b (relaxed ordering +
    // no snoop).
    send(
        &mut h,
        CqReq {
            rid: 0x0310,
            tc: 5,
            attr: 0b011,
            ..rd(VS as u64, 1, 0x5A)
        },
        &[],
    );
    // CAP as one 8-byte read, tag 07h.
    send(&mut h, rd(CAP as u64, 2, 0x07), &[]);
    // CSTS on function 1 and on BAR 2 of function 0: not implemented → UR, no data.
    send(
        &mut h,
        CqReq {
            func: 1,
            rid: 0x0400,
            ..rd(CSTS as u64, 1, 0x11)
        },
        &[],
    );
    send(
        &mut h,
        CqReq {
            bar: 2,
            ..rd(CAP as u64, 2, 0x12)
        },
        &[],
    );
    // A 4-dword read of CAP: registers take natural-size accesses only → Completer Abort.
    send(&mut h, rd(CAP as u64, 4, 0x13), &[]);
    // FetchAdd (type 0100b, one payload beat) to CC: AtomicOps unsupported → UR, byte count 4,
    // lower address 0 (not a memory read).
    send(
        &mut h,
        CqReq {
            desc: ReqDesc {
                req_type: 0b0100,
                ..wr(CC as u64).desc
            },
            ..wr(CC as u64)
        },
        &[1],
    );
    // Admin queue registers on BAR0, then CC.EN through BAR 2, through function 1, with a
    // translated address (AT = 10b) and at 4000h + CC in a 32 KiB aperture: all dropped.
    send(&mut h, wr(AQA as u64), &[(3 << 16) | 3]);
    send(&mut h, wr(ASQ as u64), &[ASQ_BASE as u128]);
    send(&mut h, wr(ACQ as u64), &[ACQ_BASE as u128]);
    send(
        &mut h,
        CqReq {
            bar: 2,
            ..wr(CC as u64)
        },
        &[CC_EN as u128],
    );
    send(
        &mut h,
        CqReq {
            func: 1,
            ..wr(CC as u64)
        },
        &[CC_EN as u128],
    );
    send(
        &mut h,
        CqReq {
            at: 0b10,
            ..wr(CC as u64)
        },
        &[CC_EN as u128],
    );
    send(
        &mut h,
        CqReq {
            aperture: 15,
            ..wr(0x4000 + CC as u64)
        },
        &[CC_EN as u128],
    );
    // VS aliased at 4000h + 8 in that aperture reads 0; CSTS still 0 (no RDY, no CFS).
    send(
        &mut h,
        CqReq {
            aperture: 15,
            ..rd(0x4000 + VS as u64, 1, 0x20)
        },
        &[],
    );
    send(&mut h, rd(CSTS as u64, 1, 0x21), &[]);
    // The real enable on BAR0 still works afterwards: RDY.
    send(&mut h, wr(CC as u64), &[CC_EN as u128]);
    send(&mut h, rd(CSTS as u64, 1, 0x22), &[]);
    h.run_until(t + 10);
    assert!(h.rc.idle(), "every completer beat was taken");
    let sc = |lower_addr: u8, byte_count: u16, dwords: u16, tag: u8| CcDesc {
        lower_addr,
        byte_count,
        dwords,
        status: CPL_SC,
        rid: 0,
        tag,
        tc: 0,
        attr: 0,
    };
    let ur = |lower_addr: u8, byte_count: u16, tag: u8| CcDesc {
        status: CPL_UR,
        dwords: 0,
        ..sc(lower_addr, byte_count, 0, tag)
    };
    let want: Vec<(CcDesc, Option<u64>)> = vec![
        (
            CcDesc {
                rid: 0x0310,
                tc: 5,
                attr: 0b011,
                ..sc(0x08, 4, 1, 0x5A)
            },
            Some(0x0001_0400),
        ),
        (sc(0x00, 8, 2, 0x07), Some(0x20_1401_03FF)),
        (
            CcDesc {
                rid: 0x0400,
                ..ur(0x1C, 4, 0x11)
            },
            None,
        ),
        (ur(0x00, 8, 0x12), None),
        (
            CcDesc {
                status: 0b100,
                ..ur(0x00, 16, 0x13)
            },
            None,
        ),
        (ur(0x00, 4, 0x00), None),
        (sc(0x08, 4, 1, 0x20), Some(0)),
        (sc(0x1C, 4, 1, 0x21), Some(0)),
        (sc(0x1C, 4, 1, 0x22), Some(CSTS_RDY as u64)),
    ];
    assert_eq!(h.rc.cc_log, want);
    assert!(h.uut.rdy.val(), "CSTS.RDY after the BAR0 enable");
}
