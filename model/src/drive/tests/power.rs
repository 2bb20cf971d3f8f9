//! Sudden power loss of the timed drive: cuts in the middle of a write stream (programs
//! queued and running, data in the write buffer, commands inside the drive), after a flush and
//! with power-loss protection; the durability contract is checked by the FTL's checker at the
//! mount and on every read after it.

use super::super::*;
use super::{flat_cfg, run_all};
use crate::rng::SeedTree;
use rand::Rng;

fn cfg(journal: bool) -> DriveConfig {
    let mut c = flat_cfg();
    c.ftl.persistence.enabled = journal;
    c
}

/// 512 random 16 KiB writes over the first 64 MiB, 8 queues, all submitted at t = 0.
fn submit_writes(d: &mut Drive, seed: u64) {
    let mut rng = SeedTree::new(seed).stream("power-test", 0);
    for i in 0..512u64 {
        d.submit(HostIo {
            op: IoOp::Write,
            offset: rng.gen_range(0..4096u64) * 16_384,
            len: 16_384,
            queue: (i % 8) as u16,
        })
        .unwrap();
    }
}

fn read_back(d: &mut Drive) {
    for i in 0..64u64 {
        d.submit(HostIo {
            op: IoOp::Read,
            offset: i << 20,
            len: 1 << 20,
            queue: (i % 8) as u16,
        })
        .unwrap();
    }
    run_all(d);
}

fn violations(d: &Drive) -> u64 {
    d.ftl.stats().integrity_violations
}

#[test]
fn a_cut_in_the_middle_of_a_write_stream_keeps_the_contract() {
    for journal in [false, true] {
        let mut d = Drive::new(&cfg(journal), 5).unwrap();
        submit_writes(&mut d, 5);
        let mut done = Vec::new();
        d.run_until(SimTime::from_us(1_500), &mut done).unwrap();
        let r = d.power_loss_with(false);
        assert!(r.commands_lost > 0, "{r:?}");
        assert!(
            r.nand_ops_lost > 0 && r.mount.units_rolled_back > 0,
            "{r:?}"
        );
        assert!(
            r.mount_time > SimTime::ZERO && r.mount.nand_reads() > 0,
            "{r:?}"
        );
        assert_eq!(d.outstanding(), 0);
        assert_eq!(violations(&d), 0, "{:?}", d.ftl.integrity_failure());
        read_back(&mut d);
        submit_writes(&mut d, 6);
        run_all(&mut d);
        read_back(&mut d);
        assert_eq!(violations(&d), 0, "{:?}", d.ftl.integrity_failure());
    }
}

#[test]
fn after_a_completed_flush_nothing_rolls_back() {
    let mut d = Drive::new(&cfg(true), 7).unwrap();
    submit_writes(&mut d, 7);
    run_all(&mut d);
    d.submit(HostIo {
        op: IoOp::Flush,
        offset: 0,
        len: 0,
        queue: 0,
    })
    .unwrap();
    run_all(&mut d);
    let r = d.power_loss_with(false);
    assert_eq!(
        (r.mount.units_rolled_back, r.mount.buffered_units_lost),
        (0, 0),
        "{r:?}"
    );
    assert_eq!(violations(&d), 0, "{:?}", d.ftl.integrity_failure());
}

#[test]
fn with_plp_a_cut_mid_stream_loses_no_acknowledged_write() {
    let mut d = Drive::new(&cfg(true), 9).unwrap();
    submit_writes(&mut d, 9);
    let mut done = Vec::new();
    d.run_until(SimTime::from_us(1_500), &mut done).unwrap();
    let r = d.power_loss_with(true);
    assert_eq!(r.nand_ops_lost, 0);
    assert_eq!(
        (r.mount.units_rolled_back, r.mount.buffered_units_lost),
        (0, 0),
        "{r:?}"
    );
    read_back(&mut d);
    assert_eq!(violations(&d), 0, "{:?}", d.ftl.integrity_failure());
}
