//! The planner's region layout: moves paired into DMA runs, whole-page reads.

use super::*;
use crate::cosim::datapath::setup::preset_config;
use ssdlab_model::nand::{CellMode, DieId};

fn moves(at: &[(u32, u64, u64)]) -> Moves {
    let mut m = Moves {
        n: at.len() as u8,
        ..Moves::default()
    };
    m.at[..at.len()].copy_from_slice(at);
    m
}

/// Two planes of 18 592 B pages (4 units and their spare each), region order. Command 1's
/// units 0 and 1 at host 0x10000 and 0x11000 fill plane 0's slots 0 and 1: one 8 KiB
/// move. Command 2's unit in slot 3 (byte 12 288) ends its plane's data; command 1's next
/// unit starts plane 1 (byte 18 592, not 12 288 + 4096): two moves. Plane 1's slot 1 is
/// empty, so that unit moves alone too. Slots 2 and 3 (bytes 26 784 and 30 880) hold
/// units of commands 3 and 4 from unrelated host pages: one move, PRP1 and PRP2 their
/// pages.
#[test]
fn runs_pair_units_that_follow_each_other_in_the_region() {
    let m = moves(&[
        (0, 0x10000, 1),
        (4096, 0x11000, 1),
        (12288, 0x20000, 2),
        (18592, 0x13000, 1),
        (26784, 0x32000, 3),
        (30880, 0x40000, 4),
    ]);
    let runs: Vec<_> = m
        .runs()
        .map(|r| {
            (
                r.offset,
                r.units,
                r.host[0],
                r.prp2(),
                r.cmd[r.units as usize - 1],
            )
        })
        .collect();
    assert_eq!(
        runs,
        [
            (0, 2, 0x10000, 0x11000, 1),
            (12288, 1, 0x20000, 0, 2),
            (18592, 1, 0x13000, 0, 1),
            (26784, 2, 0x32000, 0x40000, 4),
        ]
    );
    assert_eq!(m.runs().nth(3).map(|r| r.cmd), Some([3, 4]));
}

/// A stream's read with the page cache on sm2262-512g (2 planes of 16 384 + 2208 B pages):
/// the FTL's op reads both planes' pages whole, 2 x 4 x 4648 B, for two units the host asked
/// for in plane 1's slots 1 and 2. By hand: the op reads from column 0, 18 592 / 4 = 4648
/// cycles per plane; plane 1's page follows plane 0's in the region, so the units leave from
/// 18 592 + 4096 = 22 688 and 26 784, as one 8 KiB run.
#[test]
fn a_whole_page_read_moves_only_the_hosts_units() {
    let cfg = preset_config("sm2262-512g").expect("preset");
    // A unit's share of a page and its spare: (16 384 + 2208) / 4.
    let p = Planner::new(&cfg, (16_384 + 2208) / 4);
    assert_eq!((p.unit_bus, p.units_per_page, p.planes), (4648, 4, 2));
    let die = DieId {
        channel: 3,
        way: 1,
        die: 0,
    };
    let op = NandOp {
        kind: NandOpKind::Read,
        mode: CellMode::Slc,
        addr: PhysPage {
            die,
            plane: 0,
            block: 5,
            page: 7,
        },
        planes: 2,
        bus_bytes: 2 * 4 * 4648,
        purpose: OpPurpose::HostRead,
        after: None,
    };
    let plane1 = PhysPage {
        plane: 1,
        ..op.addr
    };
    let unit = |slot, host| HostUnit {
        slot,
        host,
        cmd: 9,
        unit_pages: 1,
    };
    let mut host_of = HashMap::from([(plane1, vec![unit(1, 0x5000), unit(2, 0x9000)])]);
    let mut jobs = Vec::new();
    p.jobs(9, &[op], &mut host_of, &mut jobs).expect("planned");
    assert!(host_of.is_empty(), "the units are taken");
    let w = ssdlab_hdl::nand::op::unpack_op(jobs[0].op);
    assert_eq!(
        (w.planes, w.column, w.data_cycles, w.pages),
        (2, 0, 4648, 1)
    );
    let got: Vec<_> = jobs[0].moves.iter().collect();
    assert_eq!(got, [(22_688, 0x5000, 9), (26_784, 0x9000, 9)]);
    assert_eq!(jobs[0].moves.runs().count(), 1);
    assert_eq!(jobs[0].bytes, 2 * 4 * 4648);
}
