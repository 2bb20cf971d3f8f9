//! The PG156 AXI4-Stream sideband of the front end's PCIe streams (128-bit interface,
//! Dword-aligned, straddle off): `tkeep`/`tuser` of RQ beats
//! and `tkeep` of CC beats against values derived by hand, and the `discontinue` bits of the CQ
//! and RC sidebands (a discontinued request is dropped, a discontinued SQ fetch hands on no
//! command). The root-complex model also checks every RQ and CC beat of every bench against
//! the same rules (`root_complex::rq_sideband`).

use super::{init, run_both, sq_base, Act};
use ssdlab_hdl::pcie::tlp::{CqReq, ReqDesc, REQ_MRD, REQ_MWR};
use ssdlab_model::config::DriveConfig;
use ssdlab_model::encoding::nvme::opc;
use ssdlab_model::encoding::nvme_regs::*;
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_testbench::devices::frontend_bench::HdlBench;

/// Every RQ TLP of (type, dwords) `kind` in `h`'s log has the beats `want`; at least one does.
fn all_of(h: &HdlBench, kind: (u8, u16), want: &[(u8, u64)]) {
    let tlps: Vec<_> =
        h.rc.rq_side_log
            .iter()
            .filter(|t| (t.0, t.1) == kind)
            .collect();
    assert!(!tlps.is_empty(), "no RQ TLP of (type, dwords) {kind:?}");
    for t in tlps {
        assert_eq!(t.2, want, "RQ (tkeep, tuser) of a {kind:?} TLP");
    }
}

/// Driver init (admin commands fetched, completed with CQEs and MSI-X), then a 1-dword read of
/// VS and a 2-dword read of CAP. By hand from PG156 (tkeep one bit per dword; tuser first_be
/// `[3:0]`, last_be `[7:4]`, last_be 0000b for a 1-dword request, both only in the first beat):
/// - SQ fetch, MRd of 64 B = 16 dwords, descriptor only: tkeep 1111b, tuser FFh;
/// - CQE, MWr of 16 B = 4 dwords: descriptor 1111b / FFh, one payload beat 1111b / 0;
/// - MSI-X message, MWr of 4 B = 1 dword: descriptor 1111b / 0Fh, payload 0001b / 0;
/// - CC for VS: descriptor (3 dwords) 0111b, data 0001b; for CAP: 0111b, 0011b.
#[test]
fn rq_and_cc_beats_carry_pg156_tkeep_and_byte_enables() {
    let (mut h, _) = run_both(&init(1, 8), 1200);
    all_of(&h, (REQ_MRD, 16), &[(0xF, 0xFF)]);
    all_of(&h, (REQ_MWR, 4), &[(0xF, 0xFF), (0xF, 0)]);
    all_of(&h, (REQ_MWR, 1), &[(0xF, 0x0F), (0x1, 0)]);
    assert!(h.rc.cc_keep_log.is_empty(), "no register read yet");
    let t = h.cycle;
    h.rc.mmio_read(t, VS, 1);
    h.rc.mmio_read(t + 20, CAP, 2);
    h.run_until(t + 60);
    assert_eq!(h.rc.cc_keep_log, vec![0x7, 0x1, 0x7, 0x3]);
    assert_eq!(h.rc.mmio_reads.len(), 2);
}

fn bar0(addr: u32, dwords: u16, req_type: u8) -> CqReq {
    CqReq::bar0(ReqDesc {
        addr: addr as u64,
        dwords,
        req_type,
        tag: 0,
    })
}

/// A CQ request whose last beat carries discontinue (PG156 `m_axis_cq_tuser[41]`) is dropped:
/// a discontinued write of AQA leaves it 0, a discontinued read gets no completion; the same
/// requests without discontinue then work.
#[test]
fn discontinued_completer_requests_are_dropped() {
    let mut h = HdlBench::new(&DriveConfig::default_drive());
    let aqa = 0x0007_0007u128;
    let mut t =
        h.rc.completer_request_side(0, bar0(AQA, 1, REQ_MWR), &[aqa], true) + 10;
    t = h.rc.completer_request(t, bar0(AQA, 1, REQ_MRD), &[]) + 20;
    t =
        h.rc.completer_request_side(t, bar0(VS, 1, REQ_MRD), &[], true) + 20;
    t = h.rc.completer_request(t, bar0(AQA, 1, REQ_MWR), &[aqa]) + 10;
    t = h.rc.completer_request(t, bar0(AQA, 1, REQ_MRD), &[]) + 20;
    h.run_until(t);
    assert_eq!(h.rc.mmio_reads, vec![0, aqa as u64]);
    assert_eq!(
        h.rc.cc_log.len(),
        2,
        "the discontinued read is not completed"
    );
}

/// An SQ fetch whose completion ends with discontinue (PG156 `m_axis_rc_tuser[42]`) hands on
/// no command and posts no rejection; its tag is freed, so the next command on the queue is
/// fetched and handed on.
#[test]
fn a_discontinued_sq_fetch_hands_on_no_command() {
    let mut h = HdlBench::new(&DriveConfig::default_drive());
    let acts = init(1, 8);
    let run = |h: &mut HdlBench, acts: &[(u64, Act)]| {
        for (t, a) in acts {
            h.run_until(*t);
            match a {
                Act::Mmio(off, val) => {
                    h.rc.mmio_write(*t, *off, *val);
                }
                Act::Put(addr, bytes) => h.rc.put(*addr, bytes),
            }
        }
    };
    run(&mut h, &acts);
    h.run_until(1200);
    let handed0 = h.handed.len();
    for (slot, cid) in [(0u64, 7u16), (1, 8)] {
        let s = Sqe::new(opc::NVM_FLUSH, cid, 1, 0, 0);
        h.rc.put(sq_base(1) + 64 * slot, &s.encode());
    }
    // The fetch of slot 0 is the next read: its completion is discontinued.
    h.rc.rc_discontinue_next = true;
    run(&mut h, &[(1200, Act::Mmio(sq_doorbell(1), 1))]);
    h.run_until(1500);
    assert!(!h.rc.rc_discontinue_next, "the fetch was read");
    assert_eq!(
        h.handed.len(),
        handed0,
        "no command from the discontinued fetch"
    );
    run(&mut h, &[(1500, Act::Mmio(sq_doorbell(1), 2))]);
    h.run_until(1800);
    let q1: Vec<u16> = h.handed[handed0..]
        .iter()
        .filter(|x| x.1 == 1)
        .map(|x| x.2.cid)
        .collect();
    assert_eq!(q1, vec![8]);
}
