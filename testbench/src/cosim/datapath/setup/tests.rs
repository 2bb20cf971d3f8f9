//! Behavioural-execution tests of the co-simulation. Expected values are derived by hand from
//! the geometry (`cosim_config`: 8 channels x 4 ways, 4 KiB pages, 1000 MT/s = 4 B/cycle at
//! 250 MHz, tR 8 us = 2000 cycles, tPROG 40 us = 10 000 cycles), the PCIe settings of the
//! default preset (MPS 256, MRRS 512) and documented rules (ARCHITECTURE.md: dies numbered
//! channel-first, host program units round-robin over dies; map cache: `line = lpn / 8`).

use super::*;
use crate::cosim::datapath::firmware::STAGE_FLUSH_CYCLES;
use crate::cosim::datapath::port::{NandRec, Streams, TlpClass};
use crate::cosim::datapath::sim::IoFigures;
use crate::workload::device::Op;
use crate::workload::testdev::FixedLatencyDevice;
use crate::workload::Quiet;
use ssdlab_hdl::nand::op::{kind_code, unpack_op, KIND_ERASE, KIND_PROGRAM, KIND_READ};
use ssdlab_model::nvme::frontend::tlp::TlpKind;
use std::collections::BTreeMap;

fn lim(seed: u64) -> RunLimits {
    RunLimits {
        submit_until: u64::MAX,
        max_cycles: 20_000_000,
        seed,
    }
}

/// Per (channel, way), the page-buffer rule: an op is issued no earlier than the previous op's
/// completion, except a read behind a read and a program behind a program (each in its own
/// half of the region), and never more than two ops in flight.
fn one_op_per_way(s: &Streams, seed: u64) {
    let mut last: BTreeMap<(u8, u8), (&NandRec, Option<&NandRec>)> = BTreeMap::new();
    for r in &s.nand {
        let key = (r.channel, r.way);
        if let Some(&(p, pp)) = last.get(&key) {
            let pair = |k| kind_code(r.op) == k && kind_code(p.op) == k;
            let halves = pair(KIND_READ) || pair(KIND_PROGRAM);
            assert!(
                r.issue >= p.done || halves,
                "seed {seed}: way {key:?} op at {} before the previous op's done {}",
                r.issue,
                p.done
            );
            if let Some(pp) = pp {
                assert!(
                    r.issue >= pp.done,
                    "seed {seed}: way {key:?}: a third op in flight at {}",
                    r.issue
                );
            }
        }
        let prev = last.get(&key).map(|x| x.0);
        last.insert(key, (r, prev));
    }
}

/// Ops of kind `k` issued while the previous op of their way, also of kind `k`, was not done
/// (queued behind it in the way queue).
fn queued_behind(s: &Streams, k: u128) -> usize {
    let mut queued = 0;
    for (i, r) in s.nand.iter().enumerate() {
        let prev = s.nand[..i]
            .iter()
            .rev()
            .find(|p| (p.channel, p.way) == (r.channel, r.way));
        queued += prev
            .is_some_and(|p| kind_code(r.op) == k && kind_code(p.op) == k && r.issue < p.done)
            as usize;
    }
    queued
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
            (kind_code(r.op), unpack_op(r.op).data_cycles),
            (KIND_PROGRAM, 1024),
            "4096 B at 4 B/cycle"
        );
        assert_eq!(unpack_op(r.op).row % 32, 0, "first page of a block");
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
            (kind_code(r.op), unpack_op(r.op).data_cycles),
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

/// A write-only run of `writes` commands relocated (reads) and erased, completed every write
/// with success and kept the page-buffer rule.
fn writes_ran_gc(s: &Streams, writes: usize, seed: u64) {
    let erases = s
        .nand
        .iter()
        .filter(|r| kind_code(r.op) == KIND_ERASE)
        .count();
    let reads = s
        .nand
        .iter()
        .filter(|r| kind_code(r.op) == KIND_READ)
        .count();
    assert!(
        erases > 0 && reads > 0,
        "seed {seed}: GC erased {erases} blocks after {reads} relocation reads"
    );
    assert_eq!(s.cpl.len(), writes, "seed {seed}");
    assert!(s.cpl.iter().all(|c| c.status == 0), "seed {seed}");
    one_op_per_way(s, seed);
}

#[test]
fn random_writes_past_the_free_pool_run_gc_deterministically() {
    // 24 of 32 blocks per die hold data after the precondition (OP 25 %): 8 free. GC starts below
    // 3 free blocks, i.e. after 5 blocks x 32 pages = 160 writes per die = 5120 writes in all;
    // 6000 random writes must relocate and erase.
    let job = "[w]\nrw=randwrite\nbs=4k\niodepth=8\nnumber_ios=6000\n";
    let cfg = cosim_config();
    let a = run_model(&cfg, job, lim(9), true).expect("runs");
    writes_ran_gc(&a, 6000, 9);
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

/// With 8 KiB pages (a program unit of 2 units, 8 KiB, fits the 8 KiB half of the 16 KiB
/// region) writes fill open units in the region. 24 of 32 blocks per die hold data after the
/// precondition: GC starts below 3 free blocks, after 5 blocks x 32 pages x 2 units = 320 writes
/// per die, 10 240 in all, so 12 000 random writes relocate and erase. Relocation ops use the
/// whole region, so no unit opens on a way that runs or has queued one (with such a unit open,
/// the relocation would wait for its half and its program behind the relocation: the run
/// hangs at 10 304 completions). Every write completes; no way ever has a third op in flight.
/// GC with 2-unit pages is slow: up to 200 M cycles.
#[test]
fn open_units_give_way_to_relocation() {
    let mut cfg = cosim_config();
    cfg.geometry.page_bytes = 8192;
    let job = "[w]\nrw=randwrite\nbs=4k\niodepth=8\nnumber_ios=12000\n";
    let a = run_model(
        &cfg,
        job,
        RunLimits {
            max_cycles: 200_000_000,
            ..lim(9)
        },
        true,
    )
    .expect("runs");
    writes_ran_gc(&a, 12_000, 9);
}

/// Random reads over many dies finish out of order (tR 2000 + data out 1024 cycles each, dies
/// queue differently). The firmware moves each read's 4 KiB to the host once its NAND op is
/// done, in the order the ops finished: the DMA engine never idles while a finished read waits
/// for an earlier command's read on a slower die. A unit is 16 MWr of MPS 256 B; the k-th unit
/// to leave belongs to the k-th read to finish and starts within a quarter of a tR (500 cycles:
/// firmware reaction and DMA setup, far below the 2000-cycle wait for another die) of the later
/// of that read's completion and the previous unit's last TLP.
#[test]
fn reads_leave_for_the_host_in_the_order_their_dies_finish() {
    let seed = 3;
    let job = "[r]\nrw=randread\nbs=4k\niodepth=16\nsize=4m\nnumber_ios=256\n";
    let s = run_model(&cosim_config(), job, lim(seed), true).expect("runs");
    let mut done: Vec<u64> = s
        .nand
        .iter()
        .filter(|r| kind_code(r.op) == KIND_READ)
        .map(|r| r.done)
        .collect();
    done.sort_unstable();
    let cycles: Vec<u64> = s
        .tlps
        .iter()
        .filter(|t| matches!(t.0, TlpClass::Data(_)) && t.1.kind == TlpKind::MemWrite)
        .map(|t| t.1.cycle)
        .collect();
    assert_eq!(
        cycles.len(),
        16 * done.len(),
        "seed {seed}: 16 MWr per read"
    );
    let mut late = 0;
    for (k, unit) in cycles.chunks(16).enumerate() {
        let prev_end = if k == 0 { 0 } else { cycles[16 * k - 1] };
        let free = done[k].max(prev_end);
        assert!(unit[0] >= done[k], "seed {seed}: unit {k} before its read");
        late += (unit[0] - free > 500) as usize;
    }
    assert_eq!(
        late, 0,
        "seed {seed}: units waiting for a slower die's read"
    );
    // 16 reads over 32 ways: some way gets a second read while its first runs, and queues it
    // (the other half of its region) rather than waiting for the first read's data to leave.
    assert!(
        queued_behind(&s, KIND_READ) > 0,
        "seed {seed}: no read queued behind another"
    );
    one_op_per_way(&s, seed);
}

/// Sequential 4 KiB writes, 2 clones at QD 32, over the 32 ways (one unit per program, tPROG
/// 400 us, far longer than 32 writes take to arrive): a
/// write completes once its data is in its way's region, so the host's next writes reach ways
/// whose program still runs. Their data moves into the other half of the region and their
/// program is queued behind the running one (issued before it is done) instead of waiting for
/// it; never a third.
#[test]
fn a_program_fills_the_other_half_while_its_way_programs() {
    let seed = 5;
    let job = "[w]\nrw=write\nbs=4k\niodepth=32\nnumjobs=2\nnumber_ios=256\n";
    let mut cfg = cosim_config();
    (cfg.nand.slc.t_prog_us, cfg.nand.tlc.t_prog_us) = (400.0, 400.0);
    let s = run_model(&cfg, job, lim(seed), false).expect("runs");
    assert_eq!(s.cpl.len(), 512, "seed {seed}: every write completed");
    assert!(
        queued_behind(&s, KIND_PROGRAM) > 0,
        "seed {seed}: no program queued behind another"
    );
    one_op_per_way(&s, seed);
}

/// sm2262-512g's SLC program unit holds 8 units: 2 planes x 4 of a 16 384 + 2208 B page.
/// Eight sequential 4 KiB writes at QD1 (no firmware time): each moves into the half of its
/// way's region reserved for the open unit as it comes and completes once there, sooner than
/// the 5000 cycles after which staged units are padded; the eighth fills the unit, whose
/// program is the run's only one (no padding): 2 planes of 4 x 4648 / 4 = 4648 beats, issued
/// after the seventh write completed (at QD1 the eighth is sent after that).
#[test]
fn writes_complete_in_the_open_unit_and_fill_one_program() {
    let cfg = without_firmware_time(preset_config("sm2262-512g").expect("preset"));
    let job = "[w]\nrw=write\nbs=4k\niodepth=1\nnumber_ios=8\n";
    let s = run_model(&cfg, job, lim(1), false).expect("runs");
    let io: Vec<_> = s.cpl.iter().filter(|c| c.sqid == 1).collect();
    assert_eq!(io.len(), 8);
    for c in &io {
        assert!(
            c.status == 0 && c.cycle - c.submitted < STAGE_FLUSH_CYCLES,
            "{c:?}"
        );
    }
    let progs: Vec<_> = s
        .nand
        .iter()
        .filter(|r| kind_code(r.op) == KIND_PROGRAM)
        .collect();
    assert_eq!(progs.len(), 1, "one program, not padded: {progs:?}");
    let o = unpack_op(progs[0].op);
    assert_eq!((o.planes, o.data_cycles), (2, 4648));
    assert!(progs[0].issue > io[6].cycle, "{progs:?} {io:?}");
}

/// The host reuses a command slot as soon as its completion arrives (fio keeps `iodepth`
/// commands outstanding whatever order they complete in): the next command in a freed slot is
/// submitted when the 16-byte CQE MWr has reached host memory (header beat + one payload beat:
/// 2 cycles), plus a cycle per other completion of that cycle (one submission per clone per
/// cycle); 8 cycles bound it. Reads complete out of order here.
#[test]
fn a_completed_command_slot_is_reused_at_once() {
    let seed = 4;
    let job = "[r]\nrw=randread\nbs=4k\niodepth=16\nsize=4m\nnumber_ios=256\n";
    let s = run_model(&cosim_config(), job, lim(seed), true).expect("runs");
    let out_of_order = s.cpl.windows(2).any(|w| w[1].submitted < w[0].submitted);
    assert!(out_of_order, "seed {seed}: reads complete out of order");
    let mut reused = 0;
    for (i, c) in s.cpl.iter().enumerate() {
        let next = s.cpl[i + 1..]
            .iter()
            .filter(|n| (n.sqid, n.cid) == (c.sqid, c.cid))
            .map(|n| n.submitted)
            .min();
        if let Some(t) = next {
            assert!(
                t >= c.cycle && t - c.cycle <= 8,
                "seed {seed}: cid {} completed at {} and was reused at {t}",
                c.cid,
                c.cycle
            );
            reused += 1;
        }
    }
    assert_eq!(
        reused,
        256 - 16,
        "seed {seed}: every slot but the last 16 reused"
    );
}

/// fio's `time_based` with `runtime=100us` (25 000 cycles at 4 ns): 4 clones submit without a
/// command count until 25 000 cycles after the job's first command, and not after it.
#[test]
fn a_time_based_job_of_clones_submits_until_its_runtime() {
    let seed = 6;
    let job =
        "[r]\nrw=randread\nbs=4k\niodepth=4\nnumjobs=4\nsize=4m\ntime_based=1\nruntime=100us\n";
    let s = run_model(&cosim_config(), job, lim(seed), true).expect("runs");
    let first = s
        .cpl
        .iter()
        .map(|c| c.submitted)
        .min()
        .expect("commands ran");
    let last = s
        .cpl
        .iter()
        .map(|c| c.submitted)
        .max()
        .expect("commands ran");
    assert!(
        last < first + 25_000,
        "seed {seed}: submitted at {last}, first {first}"
    );
    assert!(
        last >= first + 20_000,
        "seed {seed}: still submitting near the runtime's end (last at {last}, first {first})"
    );
    assert!(s.cpl.iter().all(|c| c.status == 0), "seed {seed}");
}

/// fio's `ramp_time=60us` (15 000 cycles) before `runtime=40us` (10 000): submissions stop
/// 25 000 cycles after the first command, as without the ramp at `runtime=100us`, and the
/// host's figures count only completions from 15 000 cycles after the first submission on.
#[test]
fn a_ramp_adds_to_the_runtime_and_is_not_counted() {
    let seed = 6;
    let job = "[r]\nrw=randread\nbs=4k\niodepth=4\nnumjobs=4\nsize=4m\ntime_based=1\nruntime=40us\nramp_time=60us\n";
    let s = run_model(&cosim_config(), job, lim(seed), true).expect("runs");
    let io: Vec<_> = s.cpl.iter().filter(|c| c.sqid != 0).collect();
    let sub = |f: fn(u64, u64) -> u64| io.iter().map(|c| c.submitted).reduce(f);
    let (first, last) = (sub(u64::min).expect("ran"), sub(u64::max).expect("ran"));
    assert!(
        (first + 20_000..first + 25_000).contains(&last),
        "seed {seed}: last submission at {last}, first {first}"
    );
    let f = IoFigures::of(&s.cpl, 15_000);
    let late = io.iter().filter(|c| c.cycle >= first + 15_000).count();
    assert!(
        late > 0 && late < io.len(),
        "seed {seed}: {late} of {}",
        io.len()
    );
    assert_eq!(f.ios, late, "seed {seed}");
    let end = io.iter().map(|c| c.cycle).max().expect("ran");
    assert_eq!(f.span_cycles, end - (first + 15_000), "seed {seed}");
}

/// The host's commands of `job` run on the model blocks (seed `seed`).
fn host_commands(job: &str, seed: u64) -> Vec<(u16, Op, u64)> {
    let cfg = cosim_config();
    let (mut fw, mut host) = stimulus(&cfg, job, seed, true).expect("stimulus");
    let mut x = ModelExec::new(&cfg).expect("model");
    run(&mut x, &mut fw, &mut host, lim(seed)).expect("runs");
    host.commands
}

/// fio's random map (its default, `norandommap=0`): a random job touches every block of its
/// region once before any twice. 64 random 4 KiB reads over 256 KiB = 64 units read each
/// unit exactly once (uniform draws with replacement would repeat about 23 of them).
#[test]
fn a_random_pass_reads_each_unit_of_its_region_once() {
    let job = "[r]\nrw=randread\nbs=4k\niodepth=8\nsize=256k\nnumber_ios=64\n";
    let mut lpns: Vec<u64> = host_commands(job, 3).iter().map(|c| c.2).collect();
    assert_eq!(lpns.len(), 64);
    lpns.sort_unstable();
    assert_eq!(lpns, (0..64).collect::<Vec<u64>>());
}

/// Each clone issues the commands `ssdlab run`'s runner issues for the same job file and seed
/// (`run_jobs` on a fixed-latency device of the same capacity: clone k on its queue k there,
/// on I/O queue k + 1 here): a random 70/30 mix of 8 KiB commands, 3 clones.
#[test]
fn clones_issue_the_runners_command_sequence() {
    let job = "[m]\nrw=randrw\nrwmixread=70\nbs=8k\niodepth=4\nnumjobs=3\nsize=1m\nnumber_ios=40\n";
    let seed = 9;
    let got = host_commands(job, seed);
    let cap = Ftl::new(&cosim_config(), &SeedTree::new(seed))
        .expect("ftl")
        .logical_units()
        * 4096;
    let mut dev = FixedLatencyDevice::new(cap, ssdlab_model::SimTime::from_us(10));
    let jobs = parse_job_file(job, "t.fio").expect("parses");
    crate::workload::run_jobs(&mut dev, &jobs, "t", &SeedTree::new(seed), &mut Quiet)
        .expect("runs");
    for k in 0..3u16 {
        let mine: Vec<(Op, u64)> = got
            .iter()
            .filter(|c| c.0 == k + 1)
            .map(|c| (c.1, c.2))
            .collect();
        let runner: Vec<(Op, u64)> = dev
            .log
            .iter()
            .filter(|(_, io)| io.queue == k)
            .map(|(_, io)| (io.op, io.offset / 4096))
            .collect();
        assert_eq!(mine.len(), 40, "clone {k}");
        assert!(mine.iter().any(|c| c.0 == Op::Write), "clone {k}: a mix");
        assert_eq!(mine, runner, "clone {k}");
    }
}

/// sm2262-512g without firmware time: 8 sequential 4 KiB writes at QD8. The host's 8 SQEs are
/// fetched one by one, all before the first write completes, so writes 2..=8 reach the
/// firmware while the DMA port moves write 1's unit (a host read round trip alone is 200
/// cycles). Write 2's move waits at the head of the DMA queue (offered, so never changed);
/// write 3's queues behind it, write 4's joins it as its PRP2 (slots 2 and 3 of plane 0: next
/// to each other in the open unit's half), and so on: moves of 1, 1, 2, 2 and 2 units, each
/// pair from two commands' host pages. A move's 512 B reads leave back to back and the next
/// move's only after its completions, so a gap above 100 cycles separates two moves.
#[test]
fn writes_queued_behind_a_busy_dma_port_move_in_pairs() {
    let cfg = without_firmware_time(preset_config("sm2262-512g").expect("preset"));
    let job = "[w]\nrw=write\nbs=4k\niodepth=8\nnumber_ios=8\n";
    let s = run_model(&cfg, job, lim(1), false).expect("runs");
    let first_done = s.cpl.iter().filter(|c| c.sqid == 1).map(|c| c.cycle).min();
    let fetches: Vec<u64> = s
        .tlps
        .iter()
        .filter(|t| t.0 == TlpClass::Fetch)
        .map(|t| t.1.cycle)
        .collect();
    assert!(fetches.iter().all(|&f| Some(f) < first_done), "{fetches:?}");
    let mut moves: Vec<Vec<u32>> = Vec::new();
    let mut last = 0;
    for t in &s.tlps {
        let TlpClass::Data(page) = t.0 else { continue };
        if moves.is_empty() || t.1.cycle > last + 100 {
            moves.push(Vec::new());
        }
        let m = moves.last_mut().expect("pushed");
        if m.last() != Some(&page) {
            m.push(page);
        }
        last = t.1.cycle;
    }
    let units: Vec<usize> = moves.iter().map(Vec::len).collect();
    assert_eq!(units, [1, 1, 2, 2, 2], "{moves:?}");
    for m in moves.iter().filter(|m| m.len() == 2) {
        assert_ne!(m[1], m[0] + 1, "a pair of host pages apart: {moves:?}");
    }
    assert_eq!(s.cpl.iter().filter(|c| c.sqid == 1).count(), 8);
}

/// The preset as `ssdlab run --preset NAME` resolves it (derived keys too) is the preset file's
/// own config, so the co-simulation's preset is the drive `ssdlab run` reports on; a `--set`
/// changes the key named. The co-simulation keeps a preset's read-ahead but for one that runs
/// through the prefetch engine (e12-960g's issue cost per unit), which it turns off; a
/// read-ahead override there is refused naming it, and one that turns the engine off runs.
#[test]
fn a_preset_with_overrides_is_the_resolved_preset() {
    for (name, _, _) in ssdlab_model::config::BUILTIN_PRESETS {
        let (file, text) = ssdlab_model::config::builtin_preset(name).expect("built in");
        let mut want = DriveConfig::from_toml_str(text, file).expect("parses");
        assert_eq!(
            shipped_config_with(name, &[]).expect("resolves"),
            want,
            "{name}"
        );
        let f = &mut want.ftl;
        if f.read_ahead_issue_ns_per_unit > 0.0 || f.read_ahead_inflight_kib > 0 {
            (f.read_ahead_kib, f.read_ahead_inflight_kib) = (0, 0);
            (f.read_ahead_queue_kib, f.read_ahead_issue_ns_per_unit) = (0, 0.0);
        }
        assert_eq!(preset_config(name).expect("resolves"), want, "{name}");
    }
    assert_eq!(
        preset_config("sm2262-512g").unwrap().ftl.read_ahead_kib,
        512
    );
    assert_eq!(preset_config("e12-960g").unwrap().ftl.read_ahead_kib, 0);
    let off = ["ftl.slc_cache.enabled=false".to_string()];
    let cfg = preset_config_with("sm2262-512g", &off).expect("resolves");
    assert!(!cfg.ftl.slc_cache.enabled);
    let ra = ["ftl.read_ahead_kib=64".to_string()];
    let cfg = preset_config_with("sm2262-512g", &ra).expect("resolves");
    assert_eq!(cfg.ftl.read_ahead_kib, 64);
    let ra = ["ftl.read_ahead_kib=1024".to_string()];
    let e = preset_config_with("e12-960g", &ra).expect_err("refused");
    assert!(
        e.contains("ftl.read_ahead_kib=1024") && e.contains("ftl.read_ahead_issue_ns_per_unit"),
        "{e}"
    );
    let free = [
        "ftl.read_ahead_issue_ns_per_unit=0".to_string(),
        "ftl.read_ahead_queue_kib=0".to_string(),
    ];
    let cfg = preset_config_with("e12-960g", &free).expect("no engine: runs");
    assert_eq!(cfg.ftl.read_ahead_kib, 2048);
    let e =
        preset_config_with("sm2262-512g", &["ftl.no_such_key=1".to_string()]).expect_err("refused");
    assert!(e.contains("no_such_key"), "{e}");
}

/// GC on a TLC-native drive (3 bits per cell, 8 word lines: 24 pages per block): 24 of 32
/// blocks per die hold data after the precondition, GC starts below 3 free blocks, after 5
/// blocks x 24 pages = 120 writes per die, 3840 in all, so 5000 random writes relocate and
/// erase. Every program, the host's and GC's alike, is one-shot: 3 pages,
/// 1024 data cycles per page (4096 B at 4 B per cycle).
#[test]
fn gc_on_a_tlc_native_drive_programs_one_shot() {
    let mut cfg = cosim_config();
    (cfg.geometry.bits_per_cell, cfg.geometry.wordlines_per_block) = (3, 8);
    let job = "[w]\nrw=randwrite\nbs=4k\niodepth=8\nnumber_ios=5000\n";
    let s = run_model(&cfg, job, lim(11), true).expect("runs");
    writes_ran_gc(&s, 5000, 11);
    let programs: Vec<u128> = s
        .nand
        .iter()
        .map(|r| r.op)
        .filter(|&op| kind_code(op) == KIND_PROGRAM)
        .collect();
    assert!(programs.len() > 5000 / 3, "{} programs", programs.len());
    for op in programs {
        assert_eq!(unpack_op(op).pages, 3, "{op:#x}");
        assert_eq!(unpack_op(op).data_cycles, 1024, "{op:#x}");
    }
}
