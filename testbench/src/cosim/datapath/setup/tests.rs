//! Behavioural-execution tests of the co-simulation. Expected values are derived by hand from
//! the geometry (`cosim_config`: 8 channels x 4 ways, 4 KiB pages, 1000 MT/s = 4 B/cycle at
//! 250 MHz, tR 8 us = 2000 cycles, tPROG 40 us = 10 000 cycles), the PCIe settings of the
//! default preset (MPS 256, MRRS 512) and documented rules (ARCHITECTURE.md: dies numbered
//! channel-first, host program units round-robin over dies; map cache: `line = lpn / 8`).

use super::*;
use crate::cosim::datapath::port::{NandRec, Streams, TlpClass};
use ssdlab_hdl::nand::op::{DCYC_LSB, KIND_ERASE, KIND_PROGRAM, KIND_READ, ROW_LSB};
use ssdlab_model::nvme::frontend::tlp::TlpKind;
use std::collections::BTreeMap;

fn lim(seed: u64) -> RunLimits {
    RunLimits {
        submit_until: u64::MAX,
        max_cycles: 20_000_000,
        seed,
    }
}

fn kind(op: u128) -> u128 {
    op & 3
}
fn data_cycles(op: u128) -> u128 {
    (op >> DCYC_LSB) & 0xFFFF
}

/// Per (channel, way), every op is issued no earlier than the previous op's completion: the
/// page-buffer rule (one data op per region at a time).
fn one_op_per_way(s: &Streams, seed: u64) {
    let mut last: BTreeMap<(u8, u8), &NandRec> = BTreeMap::new();
    for r in &s.nand {
        if let Some(p) = last.insert((r.channel, r.way), r) {
            assert!(
                r.issue >= p.done,
                "seed {seed}: way ({}, {}) op at {} before the previous op's done {}",
                r.channel,
                r.way,
                r.issue,
                p.done
            );
        }
    }
}

fn data_tlps(s: &Streams) -> Vec<(TlpKind, u32)> {
    s.tlps
        .iter()
        .filter(|t| matches!(t.0, TlpClass::Data(_)))
        .map(|t| (t.1.kind, t.1.len))
        .collect()
}

#[test]
fn sequential_4k_writes_stripe_over_dies_channel_first() {
    let s = run_model(
        &cosim_config(),
        "[w]\nrw=write\nbs=4k\niodepth=1\nnumber_ios=16\n",
        lim(1),
        false,
    )
    .expect("runs");
    assert_eq!(s.cpl.len(), 16);
    assert!(
        s.cpl.iter().all(|c| (c.sqid, c.cid, c.status) == (1, 0, 0)),
        "QD1: slot 0, success"
    );
    assert_eq!(
        s.nand.len(),
        16,
        "one program per 4 KiB unit (program unit = one 4 KiB page)"
    );
    for (i, r) in s.nand.iter().enumerate() {
        assert_eq!(
            (r.channel as usize, r.way as usize),
            (i % 8, i / 8),
            "unit {i}: die {i} is channel {}, way {}",
            i % 8,
            i / 8
        );
        assert_eq!(
            (kind(r.op), data_cycles(r.op)),
            (KIND_PROGRAM, 1024),
            "4096 B at 4 B/cycle"
        );
        assert_eq!((r.op >> ROW_LSB) & 31, 0, "first page of a block");
        assert!(
            r.done - r.issue > 10_000 + 1024,
            "tPROG + data in: {} cycles",
            r.done - r.issue
        );
    }
    // lpn 0..15 on 8-entry lines: line 0 misses at lpn 0, line 1 at lpn 8; nothing evicted.
    let hits: Vec<bool> = s.map.iter().map(|m| m.dec.hit).collect();
    assert_eq!(hits, (0..16).map(|i| i % 8 != 0).collect::<Vec<_>>());
    assert!(s.map.iter().all(|m| m.dec.evict.is_none()));
    // Each write: 4096 B from host memory as MRd of MRRS 512 B = 8 requests.
    assert_eq!(data_tlps(&s), vec![(TlpKind::MemRead, 512); 16 * 8]);
    let count = |c: TlpClass| s.tlps.iter().filter(|t| t.0 == c).count();
    assert_eq!(
        (count(TlpClass::Fetch), count(TlpClass::Cqe)),
        (18, 18),
        "2 admin + 16 I/O commands"
    );
}

#[test]
fn random_reads_qd4_move_each_unit_back_in_mps_writes() {
    let seed = 5;
    let job = "[r]\nrw=randread\nbs=4k\niodepth=4\nsize=4m\nnumber_ios=64\n";
    let s = run_model(&cosim_config(), job, lim(seed), true).expect("runs");
    assert_eq!(s.cpl.len(), 64, "seed {seed}");
    assert!(s.cpl.iter().all(|c| c.status == 0), "seed {seed}");
    assert_eq!(
        s.nand.len(),
        64,
        "seed {seed}: one page read per 4 KiB unit"
    );
    for r in &s.nand {
        assert_eq!(
            (kind(r.op), data_cycles(r.op)),
            (KIND_READ, 1024),
            "seed {seed}"
        );
        assert!(
            r.done - r.issue > 2000 + 1024,
            "seed {seed}: tR + data out: {}",
            r.done - r.issue
        );
    }
    assert_eq!(s.map.len(), 64, "seed {seed}: one lookup per unit");
    // Each read: 4096 B to the host as MWr of MPS 256 B = 16 writes.
    assert_eq!(
        data_tlps(&s),
        vec![(TlpKind::MemWrite, 256); 64 * 16],
        "seed {seed}"
    );
    one_op_per_way(&s, seed);
    let peak = s
        .cpl
        .iter()
        .map(|c| c.cycle - c.submitted)
        .max()
        .expect("completions");
    assert!(
        peak > 2000 + 1024,
        "seed {seed}: a read waits at least tR + data out, got {peak}"
    );
}

#[test]
fn random_writes_past_the_free_pool_run_gc_deterministically() {
    // 24 of 32 blocks per die hold data after the precondition (OP 25 %): 8 free. GC starts below
    // 3 free blocks, i.e. after 5 blocks x 32 pages = 160 writes per die = 5120 writes in all;
    // 6000 random writes must relocate and erase.
    let job = "[w]\nrw=randwrite\nbs=4k\niodepth=8\nnumber_ios=6000\n";
    let cfg = cosim_config();
    let a = run_model(&cfg, job, lim(9), true).expect("runs");
    let erases = a.nand.iter().filter(|r| kind(r.op) == KIND_ERASE).count();
    let reads = a.nand.iter().filter(|r| kind(r.op) == KIND_READ).count();
    assert!(
        erases > 0 && reads > 0,
        "seed 9: GC erased {erases} blocks after {reads} relocation reads"
    );
    assert_eq!(a.cpl.len(), 6000);
    assert!(a.cpl.iter().all(|c| c.status == 0));
    one_op_per_way(&a, 9);
    let short = job.replace("6000", "300");
    let b = run_model(&cfg, &short, lim(9), true).expect("runs");
    assert!(
        b == run_model(&cfg, &short, lim(9), true).expect("runs"),
        "seed 9: the same seed gives identical streams"
    );
    let c = run_model(&cfg, &short, lim(10), true).expect("runs");
    assert_ne!(
        c.map, b.map,
        "seeds 9 and 10 choose different offsets, so different map decisions"
    );
}
