//! The erase barrier's bookkeeping (`erase_order.rs`) on hand-made op sequences: an erase may
//! start once every data or journal program sent before it has completed, whatever comes
//! after it, in any completion order.

use crate::ftl::erase_order::EraseOrder;
use crate::ftl::{NandOp, NandOpKind, OpPurpose};
use crate::nand::{CellMode, DieId, PhysPage};

fn op(kind: NandOpKind, purpose: OpPurpose, channel: u16, block: u32) -> NandOp {
    NandOp {
        kind,
        mode: CellMode::Tlc,
        addr: PhysPage {
            die: DieId {
                channel,
                way: 0,
                die: 0,
            },
            plane: 0,
            block,
            page: 0,
        },
        planes: 2,
        bus_bytes: 0,
        purpose,
        after: None,
    }
}

#[test]
fn an_erase_waits_for_the_programs_sent_before_it_and_no_others() {
    use NandOpKind::{Erase, Program};
    let mut o = EraseOrder::new(true);
    let host = op(Program, OpPurpose::HostWrite, 1, 7); // die 1
    let journal = op(Program, OpPurpose::Journal, 0, 40); // die 0
    let map = op(Program, OpPurpose::MapWrite, 0, 41); // translation page: not waited for
    let erase = op(Erase, OpPurpose::Erase, 0, 3);
    let later = op(Program, OpPurpose::GcWrite, 1, 9);
    o.sent(&[host, journal, map]);
    o.erase_sent(erase.addr);
    o.sent(&[later]);
    assert!(!o.may_start(&erase), "two earlier programs pending");
    o.done(&journal);
    assert!(!o.may_start(&erase), "the host program on die 1 is pending");
    o.done(&host);
    assert!(
        o.may_start(&erase),
        "only a later program and a map write are pending"
    );
    o.done(&erase);
    assert!(!o.any_erase());
    // An erase the FTL did not send as a relocation erase never waits.
    assert!(o.may_start(&op(Erase, OpPurpose::Erase, 1, 5)));
}

#[test]
fn two_erases_of_one_block_wait_in_send_order_and_off_nothing_waits() {
    use NandOpKind::{Erase, Program};
    let mut o = EraseOrder::new(true);
    let p1 = op(Program, OpPurpose::HostWrite, 1, 7);
    let erase = op(Erase, OpPurpose::Erase, 0, 3);
    let p2 = op(Program, OpPurpose::GcWrite, 0, 3); // into the erased block, reused
    o.sent(&[p1]);
    o.erase_sent(erase.addr);
    o.sent(&[p2]);
    o.erase_sent(erase.addr);
    assert!(!o.may_start(&erase), "the first erase waits for p1");
    o.done(&p1);
    assert!(
        o.may_start(&erase),
        "the first erase may start (p2 is later)"
    );
    o.done(&erase);
    assert!(!o.may_start(&erase), "the second erase waits for p2");
    o.done(&p2);
    assert!(o.may_start(&erase));
    let mut off = EraseOrder::new(false);
    off.sent(&[p1]);
    off.erase_sent(erase.addr);
    assert!(off.may_start(&erase) && !off.any_erase());
}
