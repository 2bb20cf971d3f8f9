//! The page buffer's DMA port takes one read data move at a time (`read_port.rs`): a read's
//! completion entry goes up after its own data, not after the data of reads behind it.

use super::super::*;
use super::{flat_cfg, run_all, wire};

/// Two unmapped 128 KiB reads submitted together: both are served from DRAM (zeroes) at once,
/// the second's DRAM read 20.48 us (128 KiB at 6.4 GB/s) after the first's, well before the
/// first's move ends. A 128 KiB move is 512 MWr of 256 B payload + 24 B header and framing =
/// 143 360 B on the link (36.40 us at 3.938 GB/s), after its PRP list (PRP2: 31 entries) is
/// read from the host, an 800 ns round trip. One move at a time, the port takes the second
/// read's move when the first's ends: its list read, then its data, follow the first read's
/// CQE (40 B) and MSI-X (28 B), so the second completes at least 36.40 + 0.80 us after the
/// first (plus the list's bytes, the port's 20 ns start and the ACKs coming the other way:
/// under 2 us). Booked on the link at once, both moves went up before the first read's CQE, and
/// the two completed within a microsecond of each other.
#[test]
fn a_read_completes_after_its_own_data_not_the_next_reads() {
    let mut d = Drive::new(&flat_cfg(), 1).unwrap();
    for queue in [0, 1] {
        d.submit(HostIo {
            op: IoOp::Read,
            offset: queue as u64 * (1 << 20),
            len: 128 << 10,
            queue,
        })
        .unwrap();
    }
    let mut done = run_all(&mut d);
    assert_eq!(done.len(), 2);
    done.sort_by_key(|c| c.completed);
    let gap = done[1].completed - done[0].completed;
    let move_up = wire(512 * 280) + SimTime::from_ns(800);
    assert!(
        gap >= move_up && gap <= move_up + SimTime::from_us(2),
        "second read {gap} after the first; a list read and a move up is {move_up}"
    );
    assert_eq!(d.stats().read.bytes, 2 * (128 << 10));
}
