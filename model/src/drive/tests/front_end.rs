//! The drive's host path through the NVMe front end, counted TLP by TLP on the link (PCI Express
//! 3.0 request/completion rules, NVMe 1.4 PRPs and MDTS): an IO over 128 KiB split into
//! commands, a trim as a Dataset Management command, and interrupt coalescing.

use super::*;
use crate::pcie::Dir;

fn submit(d: &mut Drive, op: IoOp, offset: u64, len: u64) -> IoId {
    d.submit(HostIo {
        op,
        offset,
        len,
        queue: 0,
    })
    .unwrap()
}

fn tlps(d: &Drive, dir: Dir) -> u64 {
    d.host.link.stats(dir).tlps
}

/// 1 MiB write = 8 commands of 128 KiB (MDTS 5 x 4 KiB pages). Upstream: per command 1 fetch
/// MRd, 1 PRP list MRd (31 entries, 248 B <= MRRS), 128 KiB / MRRS 512 = 256 data MRd, 1 CQE
/// MWr, 1 MSI-X MWr: 8 x 260 = 2080. Downstream: per command 1 SQ doorbell, the 64 B entry
/// and the 248 B list in one completion each (<= MPS 256), 128 KiB / 256 = 512 data
/// completions: 8 x 515 = 4120, plus one CQ head doorbell per interrupt that found entries.
#[test]
fn a_1_mib_write_is_eight_commands_and_one_completion() {
    let mut d = Drive::new(&flat_cfg(), 1).unwrap();
    let id = submit(&mut d, IoOp::Write, 0, 1 << 20);
    let done = run_all(&mut d);
    assert_eq!(done.len(), 1);
    assert_eq!((done[0].id, done[0].len), (id, 1 << 20));
    assert_eq!((d.stats().write.ops, d.stats().write.bytes), (1, 1 << 20));
    assert_eq!(tlps(&d, Dir::Up), 2080);
    let cq_doorbells = tlps(&d, Dir::Down) - 4120;
    assert!((1..=8).contains(&cq_doorbells), "{cq_doorbells}");
    // The split is at 128 KiB-aligned offsets: a 256 KiB read from 64 KiB is 3 commands (64,
    // 128 and 64 KiB): 3 fetches, data MWr of at most MPS (256 KiB / 256 = 1024), 3 CQEs and 3
    // MSI-X, plus the PRP list reads of its data moves (MRd, no payload). Payload upstream:
    // 256 KiB of data, 3 x 16 B of entries, 3 x 4 B of messages.
    let (before, bytes) = (tlps(&d, Dir::Up), d.host.link.stats(Dir::Up).payload_bytes);
    submit(&mut d, IoOp::Read, 64 << 10, 256 << 10);
    let done = run_all(&mut d);
    assert_eq!((done.len(), done[0].len), (1, 256 << 10));
    assert!(tlps(&d, Dir::Up) - before >= 3 + 1024 + 3 + 3);
    let payload = d.host.link.stats(Dir::Up).payload_bytes - bytes;
    assert_eq!(payload, (256 << 10) + 3 * 16 + 3 * 4);
}

/// A trim is one Dataset Management command whose 16 B range is read from host memory:
/// upstream the fetch MRd, the range MRd, the CQE and the MSI-X; downstream the doorbell, the
/// entry, the range's completion and the CQ head doorbell.
#[test]
fn a_trim_is_a_dataset_management_command() {
    let mut d = Drive::new(&flat_cfg(), 1).unwrap();
    d.functional_write(0, 1 << 20).unwrap();
    let (up, down) = (tlps(&d, Dir::Up), tlps(&d, Dir::Down));
    submit(&mut d, IoOp::Trim, 0, 1 << 20);
    let done = run_all(&mut d);
    assert_eq!((done.len(), d.stats().trim.ops), (1, 1));
    assert_eq!(tlps(&d, Dir::Up) - up, 4);
    assert_eq!(tlps(&d, Dir::Down) - down, 4);
}

/// Aggregation threshold 4 (Feature 08h): four writes on one queue complete at one instant,
/// when the one MSI-X their fourth completion raised reached the host.
#[test]
fn coalesced_completions_share_one_interrupt() {
    let mut cfg = flat_cfg();
    cfg.nvme.irq_coalesce_count = 4;
    cfg.nvme.irq_coalesce_time_us = 1000.0;
    let mut d = Drive::new(&cfg, 1).unwrap();
    for i in 0..4 {
        submit(&mut d, IoOp::Write, i << 20, 4096);
    }
    let done = run_all(&mut d);
    assert_eq!(done.len(), 4);
    assert!(
        done.iter().all(|c| c.completed == done[0].completed),
        "{done:?}"
    );
    // Upstream: 4 fetches, 4 x 8 data MRd, 4 CQEs and a single MSI-X.
    assert_eq!(tlps(&d, Dir::Up), 4 + 32 + 4 + 1);
}
