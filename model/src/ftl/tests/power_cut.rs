//! Sudden power loss through the FTL alone: a per-die in-order executor stands in for the drive
//! (it completes ops one die at a time and reports them with `nand_done`); at a cut every op
//! left is lost, each die's head op interrupted. Hand-derived cases, then the property: random
//! workloads cut at random points (through GC, folding, wear levelling and idle work) break
//! the durability contract nowhere (`integrity.rs`). Failures name the seed; rerun one with
//! `run_power_cuts(seed, ops)`.

use super::*;
use crate::ftl::power_loss::{LostOp, MountReport};
use crate::nand::DieId;
use crate::time::SimTime;
use rand::Rng;
use std::collections::{BTreeMap, VecDeque};

/// Per-die FIFOs of sent ops.
#[derive(Default)]
struct Dies {
    q: BTreeMap<DieId, VecDeque<NandOp>>,
}

impl Dies {
    fn send(&mut self, ops: &mut Vec<NandOp>) {
        for op in ops.drain(..) {
            self.q.entry(op.addr.die).or_default().push_back(op);
        }
    }
    /// Completes up to `n` ops, choosing the die of each with `pick` among the dies whose head op
    /// may start (an erase the FTL holds, `Ftl::erase_may_start`, holds back its die).
    fn run(&mut self, f: &mut Ftl, n: usize, mut pick: impl FnMut(usize) -> usize) {
        for _ in 0..n {
            let busy: Vec<DieId> = self
                .q
                .iter()
                .filter(|(_, q)| q.front().is_some_and(|op| f.erase_may_start(op)))
                .map(|(d, _)| *d)
                .collect();
            if busy.is_empty() {
                return;
            }
            let d = busy[pick(busy.len())];
            let op = self.q.get_mut(&d).unwrap().pop_front().unwrap();
            f.nand_done(&op);
        }
    }
    fn drain(&mut self, f: &mut Ftl) {
        self.run(f, usize::MAX, |_| 0);
        assert!(
            self.q.values().all(|q| q.is_empty()),
            "a held erase never released"
        );
    }
    /// Power fails: every op left is lost, each die's head op running (if `interrupt`) unless
    /// it is an erase still held (it never started).
    fn cut(&mut self, f: &Ftl, interrupt: bool) -> Vec<LostOp> {
        let mut lost = Vec::new();
        for q in self.q.values_mut() {
            for (i, op) in q.drain(..).enumerate() {
                lost.push(LostOp {
                    op,
                    interrupted: interrupt && i == 0 && f.erase_may_start(&op),
                });
            }
        }
        lost
    }
}

/// `small_cfg` with TLC host blocks only (no SLC cache) and the journal on.
fn journal_cfg() -> DriveConfig {
    let mut c = small_cfg();
    c.ftl.slc_cache.enabled = false;
    c.ftl.persistence.enabled = true;
    c.ftl.persistence.checkpoint_journal_mib = 1;
    c.validate().unwrap();
    c
}

fn tracked(cfg: &DriveConfig) -> Ftl {
    let mut f = ftl(cfg);
    f.track_durability(true);
    f
}

fn cut(f: &mut Ftl, dies: &mut Dies, plp: bool) -> (MountReport, Vec<NandOp>) {
    let lost = dies.cut(f, true);
    let mut mount = Vec::new();
    let r = f.power_loss(&lost, plp, &mut mount);
    (r, mount)
}

#[test]
fn a_flushed_write_survives_and_a_buffered_overwrite_rolls_back() {
    let mut f = tracked(&journal_cfg());
    let (mut dies, mut ops) = (Dies::default(), Vec::new());
    f.host_write(0, 5, &mut ops);
    f.flush(&mut ops);
    dies.send(&mut ops);
    dies.drain(&mut f);
    let flushed = f.lookup(0).unwrap();
    // Overwritten, acknowledged, staged in the write buffer (one unit of a 24-unit program unit).
    f.host_write(0, 1, &mut ops);
    assert!(ops.is_empty() && f.lookup(0) != Some(flushed));
    let (r, _) = cut(&mut f, &mut dies, false);
    assert_eq!((r.buffered_units_lost, r.units_rolled_back), (1, 1));
    assert_eq!(f.lookup(0), Some(flushed), "the flushed version is back");
    assert_eq!(
        f.stats().integrity_violations,
        0,
        "{:?}",
        f.integrity_failure()
    );
    let mut ops = Vec::new();
    f.host_read(0, 5, &mut ops);
    assert_eq!(f.stats().integrity_violations, 0);
}

#[test]
fn with_plp_every_acknowledged_write_survives() {
    let mut f = tracked(&journal_cfg());
    let (mut dies, mut ops) = (Dies::default(), Vec::new());
    f.host_write(0, 30, &mut ops); // one program unit sent, 6 units staged
    dies.send(&mut ops);
    let before: Vec<Option<u32>> = (0..30).map(|l| f.lookup(l)).collect();
    // The capacitors: running and queued ops finish, the buffer and journal are programmed.
    dies.drain(&mut f);
    f.flush_on_power_fail(&mut ops);
    dies.send(&mut ops);
    dies.drain(&mut f);
    let (r, _) = cut(&mut f, &mut dies, true);
    assert_eq!(
        (
            r.buffered_units_lost,
            r.program_units_lost,
            r.units_rolled_back
        ),
        (0, 0, 0)
    );
    let after: Vec<Option<u32>> = (0..30).map(|l| f.lookup(l)).collect();
    assert_eq!(after, before);
    assert_eq!(
        f.stats().integrity_violations,
        0,
        "{:?}",
        f.integrity_failure()
    );
}

#[test]
fn an_interrupted_tlc_one_shot_program_loses_its_whole_word_line() {
    // One TLC program unit = 3 pages (LSB, CSB, MSB of one word line) x 2 planes x 4 units of a
    // 16 KiB page = 24 units. The 24 units written go to die 0 as one Program op.
    let mut f = tracked(&journal_cfg());
    let (mut dies, mut ops) = (Dies::default(), Vec::new());
    f.host_write(0, 24, &mut ops);
    let progs = ops
        .iter()
        .filter(|o| o.kind == NandOpKind::Program && o.purpose == OpPurpose::HostWrite)
        .count();
    assert_eq!(progs, 1);
    dies.send(&mut ops);
    let (r, _) = cut(&mut f, &mut dies, false);
    assert_eq!((r.interrupted_programs, r.program_units_lost), (1, 24));
    assert_eq!(r.units_rolled_back, 24);
    assert!(
        (0..24).all(|l| f.lookup(l).is_none()),
        "never written before: unmapped"
    );
    assert_eq!(
        f.stats().integrity_violations,
        0,
        "{:?}",
        f.integrity_failure()
    );
}

#[test]
fn mount_reads_are_journal_pages_plus_open_block_spare_scans() {
    // 6144 sequential units = 256 TLC program units of 24, 64 per die = 8 full die-blocks of
    // 192 units per die. Journal: 8 B records, 16 KiB pages -> 2048 records a page; one record per
    // programmed unit: 6144 records = exactly 3 pages, the last written with the last program,
    // so no block was programmed after it. 96 more units: one program unit per die into a new
    // block (records 96 < 2048: no page). The mount reads the 3 journal pages (no checkpoint yet:
    // 1 MiB / 16 KiB = 64 pages make one) and scans the 4 open blocks: 24 units = 3 page rows of
    // 2 planes x 4 units, one multi-plane spare read each: 4 x 3 = 12. Total 3 + 12 = 15.
    let mut f = tracked(&journal_cfg());
    let (mut dies, mut ops) = (Dies::default(), Vec::new());
    for lpn in (0..6144 + 96).step_by(24) {
        f.host_write(lpn, 24, &mut ops);
    }
    dies.send(&mut ops);
    dies.drain(&mut f);
    let (r, mount) = cut(&mut f, &mut dies, false);
    assert_eq!(r.checkpoint_pages_read, 0);
    assert_eq!(r.journal_pages_read, 3);
    assert_eq!((r.scanned_blocks, r.spare_reads), (4, 12));
    assert_eq!(r.nand_reads(), 15);
    assert_eq!(mount.len(), 15);
    assert!(mount.iter().all(|o| o.purpose == OpPurpose::MountRead));
    assert_eq!(r.units_rolled_back, 0);
    assert_eq!(
        f.stats().integrity_violations,
        0,
        "{:?}",
        f.integrity_failure()
    );
}

#[test]
fn without_a_journal_the_mount_scans_every_block_holding_data() {
    // 6240 units as above, no persistence: 4 dies x (8 full blocks x 24 rows + 1 block x 3
    // rows) = 4 x 195 = 780 spare reads over 36 blocks.
    let mut c = journal_cfg();
    c.ftl.persistence.enabled = false;
    let mut f = tracked(&c);
    let (mut dies, mut ops) = (Dies::default(), Vec::new());
    for lpn in (0..6144 + 96).step_by(24) {
        f.host_write(lpn, 24, &mut ops);
    }
    dies.send(&mut ops);
    dies.drain(&mut f);
    let (r, _) = cut(&mut f, &mut dies, false);
    assert_eq!((r.journal_pages_read, r.checkpoint_pages_read), (0, 0));
    assert_eq!((r.scanned_blocks, r.spare_reads), (36, 780));
    assert_eq!(
        f.stats().integrity_violations,
        0,
        "{:?}",
        f.integrity_failure()
    );
}

/// 4 dies x 2 planes x 56 blocks of 4 word lines (96 units a die-block), 25 % OP; the journal
/// (checkpoints every 64 journal pages), SLC cache and wear levelling varied by seed. The
/// journal is off (the presets' setting) for seeds 1 and 3 modulo 5: the relocation erases
/// then wait only for the programs superseding their copies (`superseded.rs`).
fn cut_cfg(seed: u64) -> DriveConfig {
    let mut c = small_cfg();
    c.geometry.blocks_per_plane = 56;
    c.geometry.wordlines_per_block = 4;
    c.ftl.over_provisioning_pct = 25.0;
    c.ftl.wear_level_delta_pe_cycles = 3 + (seed % 4) as u32;
    c.ftl.slc_cache.enabled = seed % 3 != 2;
    c.ftl.persistence.enabled = !matches!(seed % 5, 1 | 3);
    c.ftl.persistence.checkpoint_journal_mib = 1;
    c.validate().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    c
}

/// `n_ops` random writes, trims, reads, flushes and idle work with NAND ops completing at
/// random, cut by a power loss with probability 1/40 per op (with PLP for odd seeds).
pub fn run_power_cuts(seed: u64, n_ops: u64) -> Result<u32, String> {
    let cfg = cut_cfg(seed);
    let plp = seed % 2 == 1 && std::env::var_os("SSDLAB_NO_PLP").is_none();
    let mut f = tracked(&cfg);
    let n = f.logical_units();
    let mut rng = SeedTree::new(seed).stream("power-cut", 0);
    let (mut dies, mut ops) = (Dies::default(), Vec::new());
    let mut cuts = 0;
    for i in 0..n_ops {
        let lpn = rng.gen_range(0..n);
        let room = (n - lpn).min(32) as u32;
        match rng.gen_range(0..100) {
            0..=59 => {
                f.host_write(lpn, rng.gen_range(1..=room.min(16)), &mut ops);
            }
            60..=63 => f.trim(lpn, rng.gen_range(1..=room)),
            64..=84 => {
                f.host_read(lpn, rng.gen_range(1..=room), &mut ops);
            }
            85..=87 => f.flush(&mut ops),
            _ => {
                let idle = SimTime::from_us([500, 2_000, 60_000, 150_000][rng.gen_range(0..4)]);
                f.idle_work(idle, &mut ops);
            }
        }
        dies.send(&mut ops);
        let k = rng.gen_range(0..12);
        dies.run(&mut f, k, |m| rng.gen_range(0..m));
        if rng.gen_range(0..40) == 0 {
            if plp {
                dies.drain(&mut f);
                f.flush_on_power_fail(&mut ops);
                dies.send(&mut ops);
                dies.drain(&mut f);
            }
            let lost = dies.cut(&f, rng.gen_bool(0.7));
            let mut mount = Vec::new();
            let r = f.power_loss(&lost, plp, &mut mount);
            cuts += 1;
            // Without the journal a trim never reaches NAND, so with PLP too the trimmed unit
            // may come back at its old version (a roll-back the checker allows).
            let rolled_back = cfg.ftl.persistence.enabled && r.units_rolled_back != 0;
            if plp && (rolled_back || r.buffered_units_lost != 0 || r.program_units_lost != 0) {
                return Err(format!("seed {seed} op {i}: with PLP {r:?}"));
            }
        }
        if f.stats().integrity_violations != 0 {
            return Err(format!(
                "seed {seed} op {i} (after {cuts} cuts): {}",
                f.integrity_failure().unwrap_or("?")
            ));
        }
    }
    Ok(cuts)
}

#[test]
fn random_power_cuts_keep_the_durability_contract() {
    let mut cuts = 0;
    for seed in 0..300 {
        cuts += run_power_cuts(seed, 400).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(cuts > 1000, "{cuts} power cuts");
}

/// `make test-slow`: 10^4 seeds.
#[test]
#[ignore]
fn random_power_cuts_keep_the_durability_contract_slow() {
    for seed in 0..10_000 {
        run_power_cuts(1_000_000 + seed, 2_000).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Two seeds of the slow range whose cuts fall just after a relocation erase: they check the
/// erase barrier (`erase_order.rs`). Without it, seed 1000872's cut at op 1919 follows the
/// erase of block 101 (die 1), which held lpn 7771's durable seq 806, while the program of
/// its overwrite (seq 11460) was still queued on die 3: no readable version that new is left.
/// Seed 1001704's cut at op 1734 follows the erase of block 169, holding lpn 12512's durable
/// seq 9629 (a GC copy), trimmed (seq 10006) in a journal page not yet programmed: the mount
/// finds the older seq 5050 in block 133. With it, each erase starts only after those
/// programs completed.
#[test]
fn relocation_erases_wait_for_the_programs_sent_before_them() {
    for seed in [1_000_872, 1_001_704] {
        run_power_cuts(seed, 2_000).unwrap_or_else(|e| panic!("{e}"));
    }
}
