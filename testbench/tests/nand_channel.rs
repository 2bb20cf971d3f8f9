//! The NAND channel sequencer three ways — behavioural model, rust_hdl simulation (short) and
//! Verilator (longer, randomized) — on the same op streams: same bus-cycle sequence, same
//! completion cycles, legal ONFI sequences (the target models reject anything else), data
//! programmed reads back. Timing: the SM2262 preset's ONFI config (200 MHz, 4 B/cycle).

use ssdlab_hdl::nand::timing::HdlTiming;
use ssdlab_model::config::OnfiConfig;
use ssdlab_model::nand::sequencer::{run_op_list_traced, SeqOp, SeqTiming};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::{DriveConfig, SimTime};
use ssdlab_testbench::cosim::channel_bench::{
    compare_with_model, random_mix, run_bench, BenchOp, MixParams,
};
use ssdlab_testbench::cosim::channel_dut::{ChannelDut, HdlSimChannel, VerilatedChannel};

const STRIDE: u32 = 2048;

fn onfi() -> OnfiConfig {
    DriveConfig::default_drive().onfi
}

fn timing() -> (HdlTiming, SeqTiming) {
    let h = HdlTiming::new(&onfi(), STRIDE).unwrap();
    (h, h.seq)
}

fn op(
    id: u64,
    way: u8,
    kind: NandOpKind,
    planes: u8,
    page: u32,
    array_cycles: u64,
    t: &SeqTiming,
) -> SeqOp {
    let bus_bytes = if kind == NandOpKind::Erase {
        0
    } else {
        page * planes as u32
    };
    SeqOp {
        id,
        way,
        die: 0,
        kind,
        planes,
        bus_bytes,
        array_time: t.to_time(array_cycles),
        pages: 1,
    }
}

/// Runs `ops` on the model and on `dut`; asserts equal traces and completions; returns the
/// bench result's bus occupancy and cycles.
fn check_against_model(
    dut: &mut dyn ChannelDut,
    ops: &[BenchOp],
    page: usize,
    ctx: &str,
) -> (u64, u64) {
    check_with(&onfi(), dut, ops, page, ctx)
}

/// [`check_against_model`] under the ONFI timing `cfg`.
fn check_with(
    cfg: &OnfiConfig,
    dut: &mut dyn ChannelDut,
    ops: &[BenchOp],
    page: usize,
    ctx: &str,
) -> (u64, u64) {
    let t = HdlTiming::new(cfg, STRIDE).unwrap().seq;
    let list: Vec<(SimTime, SeqOp)> = ops.iter().map(|b| (b.issue, b.op)).collect();
    let (model_done, model_trace, model_busy) = run_op_list_traced(cfg, 4, 1, &list);
    let res = run_bench(dut, &t, STRIDE, page, ops, 50_000_000)
        .unwrap_or_else(|e| panic!("{ctx} on {}: {e}", dut.name()));
    let worst = compare_with_model(&res, &model_done, &model_trace, &t)
        .unwrap_or_else(|e| panic!("{ctx} on {}: {e}", dut.name()));
    println!(
        "{ctx} on {}: {} ops, {} bus events, {} cycles; worst completion difference vs model {:.4} %",
        dut.name(),
        ops.len(),
        res.trace.len(),
        res.cycles,
        worst * 100.0
    );
    assert_eq!(worst, 0.0, "{ctx}: completion cycles differ from the model");
    assert_eq!(
        res.bus_cycles, model_busy,
        "{ctx}: bus occupancy differs from the model"
    );
    (res.bus_cycles, res.cycles)
}

/// An N-page sequential cache read (31h/3Fh) of `page` bytes per page.
fn cache(id: u64, way: u8, pages: u8, page: u32, array_cycles: u64, t: &SeqTiming) -> SeqOp {
    SeqOp {
        bus_bytes: page * pages as u32,
        pages,
        ..op(id, way, NandOpKind::Read, 1, page, array_cycles, t)
    }
}

/// A short directed stream: program, read back (1 and 2 planes, and by cache reads over
/// programmed and erased pages), erase, read erased, status on every way; small pages
/// (64 B = 16 cycles) and array times so rust_hdl's simulation is quick.
fn directed_ops(t: &SeqTiming) -> Vec<BenchOp> {
    let p = 64;
    let b = |issue: u64, o: SeqOp, row: u32| BenchOp::at_cycle(t, issue, o, row);
    vec![
        b(0, op(0, 0, NandOpKind::Program, 2, p, 400, t), 0x0005),
        b(0, op(1, 1, NandOpKind::Program, 1, p, 300, t), 0x0003),
        b(10, op(2, 2, NandOpKind::Read, 1, p, 120, t), 0x0009),
        b(10, op(3, 0, NandOpKind::Read, 2, p, 150, t), 0x0005),
        b(20, op(4, 1, NandOpKind::Read, 1, p, 100, t), 0x0003),
        b(30, op(5, 3, NandOpKind::Erase, 2, p, 500, t), 0x0000),
        b(40, op(6, 0, NandOpKind::Erase, 2, p, 300, t), 0x0000),
        b(
            40,
            op(7, 0, NandOpKind::Read, 1, p, 100, t),
            STRIDE + 0x0005,
        ),
        b(50, cache(8, 1, 3, p, 90, t), 0x0002),
        b(60, cache(9, 2, 2, p, 30, t), 0x0009),
        b(70, cache(10, 3, 4, p, 60, t), 0x0000),
        b(80, op(11, 1, NandOpKind::Program, 1, p, 200, t), 0x0004),
        b(90, cache(12, 1, 2, p, 40, t), 0x0003),
    ]
}

#[test]
fn rust_hdl_sim_matches_model_on_directed_ops() {
    let (h, t) = timing();
    let ops = directed_ops(&t);
    let mut dut = HdlSimChannel::new(&h);
    check_against_model(&mut dut, &ops, 64, "directed");
}

#[test]
fn verilator_matches_model_on_directed_ops() {
    let (h, t) = timing();
    let ops = directed_ops(&t);
    let mut dut = VerilatedChannel::new(&h).expect("verilator build");
    check_against_model(&mut dut, &ops, 64, "directed");
}

/// The 8-channel array: ops dispatched to channel 5 run exactly as on a lone channel (same
/// trace and completions as the model) while the other 7 channels stay idle.
#[test]
fn array_dispatches_to_its_channel() {
    let (h, t) = timing();
    let ops = directed_ops(&t);
    let mut dut = VerilatedChannel::new_in_array(&h, 5).expect("verilator build");
    check_against_model(&mut dut, &ops, 64, "array channel 5");
    assert!(dut.others_idle());
}

fn random_mixes(seeds: &[u64], ops: usize, partial_reads: bool) {
    random_mixes_with(seeds, ops, partial_reads, false)
}

fn random_mixes_with(seeds: &[u64], ops: usize, partial_reads: bool, one_shot: bool) {
    let (h, t) = timing();
    for &seed in seeds {
        let p = MixParams {
            ops,
            page_bytes: 512,
            t_read: (200, 1200),
            t_prog: (1000, 4000),
            t_erase: (2000, 8000),
            mean_gap: 150,
            partial_reads,
            one_shot,
        };
        let ops = random_mix(seed, &p, &t, &onfi(), STRIDE);
        // A fresh DUT per seed: the channel has no reset port.
        let mut dut = VerilatedChannel::new(&h).expect("verilator build");
        check_against_model(&mut dut, &ops, 512, &format!("random mix seed {seed:#x}"));
    }
}

#[test]
fn verilator_matches_model_on_random_mixes() {
    random_mixes(&[0x5EC0_0001, 0x5EC0_0002], 300, false);
}

/// Reads of half a page per plane from column 0 or 256 of the 512-byte pages (the column in
/// the op word's `[59:44]`, out on the column address cycles of 00h-30h and 06h-E0h): the
/// target returns the bytes from that column, and the data, trace and completions match.
#[test]
fn verilator_matches_model_on_random_mixes_with_column_reads() {
    random_mixes(&[0x5EC0_0C01], 300, true);
}

/// One-shot TLC programs (3 pages per plane, 80h-data-11h per plane, 1Ah after a page's last
/// plane, 10h after the last page's) among the mix: the target programs every page at the 10h,
/// and the reads of those rows return each page's own data.
#[test]
fn verilator_matches_model_on_random_mixes_with_one_shot_programs() {
    random_mixes_with(&[0x5EC0_0501], 300, false, true);
}

/// The long tier (`make test-slow`): 20 seeds x 2000 ops.
#[test]
#[ignore]
fn verilator_matches_model_on_long_random_mixes() {
    let seeds: Vec<u64> = (1..=20).map(|k| 0x5EC0_1000 + k).collect();
    random_mixes(&seeds, 2000, false);
}

/// rust_hdl's simulator on a short random mix (small pages), the same bench as Verilator's.
#[test]
fn rust_hdl_sim_matches_model_on_short_random_mix() {
    short_rust_hdl_mix(0x5EC0_0003, false);
}

/// The same with one-shot TLC programs among the ops.
#[test]
fn rust_hdl_sim_matches_model_on_short_random_mix_with_one_shot_programs() {
    short_rust_hdl_mix(0x5EC0_0503, true);
}

fn short_rust_hdl_mix(seed: u64, one_shot: bool) {
    let (h, t) = timing();
    let p = MixParams {
        ops: 80,
        page_bytes: 64,
        t_read: (100, 300),
        t_prog: (200, 600),
        t_erase: (300, 800),
        mean_gap: 40,
        partial_reads: false,
        one_shot,
    };
    let ops = random_mix(seed, &p, &t, &onfi(), STRIDE);
    let mut dut = HdlSimChannel::new(&h);
    check_against_model(
        &mut dut,
        &ops,
        64,
        &format!("short random mix seed {seed:#x}"),
    );
}

/// Edge timing for the bus engine's registered `phase_end` lookahead: at 25 MHz (40 ns cycles)
/// every bus wait rounds up to 1 cycle (tWC 20 ns, tADL/tCCS 40 ns, tWHR/tRR 20 ns; tWB 60 ns =
/// 2 cycles, the R/B# synchronizer minimum) and a
/// 4-byte page is 1 data cycle at 4 B/cycle, so phases end on 1-cycle segments (CmdB, CmdC,
/// Data) entered from another segment or loaded directly (single-plane data out).
fn one_cycle_onfi() -> OnfiConfig {
    OnfiConfig {
        transfer_mts: 100,
        core_clock_mhz: 25,
        t_wc_ns: 20.0,
        t_adl_ns: 40.0,
        t_wb_ns: 60.0,
        t_whr_ns: 20.0,
        t_ccs_ns: 40.0,
        t_rr_ns: 20.0,
        ..onfi()
    }
}

#[test]
fn one_cycle_segments_match_model() {
    let cfg = one_cycle_onfi();
    cfg.validate().unwrap();
    let h = HdlTiming::new(&cfg, STRIDE).unwrap();
    let t = h.seq;
    assert_eq!(
        (t.latch, t.t_adl, t.t_ccs, t.t_whr),
        (1, 1, 1, 1),
        "40 ns cycles: every wait is 1 cycle"
    );
    let p = MixParams {
        ops: 60,
        page_bytes: 4,
        t_read: (5, 40),
        t_prog: (10, 60),
        t_erase: (20, 80),
        mean_gap: 6,
        partial_reads: false,
        one_shot: false,
    };
    // The second mix has one-shot programs: the page wrap on 1-cycle segments too.
    for (seed, one_shot) in [(0x5EC0_0004, false), (0x5EC0_0504, true)] {
        let p = MixParams { one_shot, ..p };
        let ops = random_mix(seed, &p, &t, &cfg, STRIDE);
        let ctx = format!("1-cycle segments seed {seed:#x}");
        let mut sim = HdlSimChannel::new(&h);
        check_with(&cfg, &mut sim, &ops, 4, &ctx);
        let mut dut = VerilatedChannel::new(&h).expect("verilator build");
        check_with(&cfg, &mut dut, &ops, 4, &ctx);
    }
}

/// Bus saturation on 4 ways of back-to-back full-page reads: each read holds the bus for
/// C = 7 latches x 5 = 35 cycles (command) and D = 3 + 18592 B / 4 + 5 = 4656 cycles (data out
/// inside the PHY's 3-cycle RE# preamble and 5-cycle postamble), plus a 1-cycle turnaround
/// after each phase; it leaves the bus for tWB + tR + tRR + R/B# through the PHY (2 cycles) and
/// the synchronizer (4) = 20 + 11200 + 4 + 6 = 11230 cycles, covered by the other 3 ways'
/// phases (3 x 4693 = 14079). 64 reads: busy = 64 x 4691 = 300224 cycles; the last read
/// ends at cycle 3 + 35 + 11230 + 64 x 4656 + 60 x 35 + 123 = 311475 (intake, way 0's
/// command and wait, then 124 phases with 123 turnaround gaps) and completes 6 cycles later,
/// when its last byte is back through the PHY (read return 11 less the postamble 5), so
/// 300224 / 311482 cycles = 96.39 %.
#[test]
fn verilator_four_way_back_to_back_reads_keep_bus_busy() {
    let (h, t) = timing();
    let page = 16384 + 2208;
    let ops: Vec<BenchOp> = (0..64u64)
        .map(|k| BenchOp {
            issue: SimTime::ZERO,
            op: op(k, (k % 4) as u8, NandOpKind::Read, 1, page, 11200, &t),
            row: (k / 4) as u32,
            column: 0,
        })
        .collect();
    // Way queues hold 4: issue the later reads as the model frees room (same as random_mix).
    let ops = space_for_queue(ops, &t);
    let mut dut = VerilatedChannel::new(&h).expect("verilator build");
    let (busy, cycles) = check_against_model(&mut dut, &ops, page as usize, "4-way reads");
    let frac = busy as f64 / cycles as f64;
    println!(
        "4-way back-to-back 18592 B reads, tR 56 us: bus busy {:.2} % ({busy} of {cycles} cycles)",
        frac * 100.0
    );
    assert_eq!(busy, 64 * (35 + 4656));
    assert_eq!(cycles, 311_475 + 6 + 1);
    assert!(frac >= 0.95, "bus busy {frac}");
}

/// Delays op k of a way until the model completed that way's op k-4 (the HDL way queue holds 4;
/// ops alternate over 4 ways, so that is op k-16 of the stream).
fn space_for_queue(ops: Vec<BenchOp>, _t: &SeqTiming) -> Vec<BenchOp> {
    let mut out: Vec<BenchOp> = Vec::with_capacity(ops.len());
    for (k, b) in ops.iter().enumerate() {
        let mut b = *b;
        if k >= 16 {
            let prev: Vec<(SimTime, SeqOp)> = out.iter().map(|x| (x.issue, x.op)).collect();
            let done = ssdlab_model::nand::sequencer::run_op_list(&onfi(), 4, 1, &prev);
            let c = done
                .iter()
                .find(|c| c.id == ops[k - 16].op.id)
                .expect("earlier op completes");
            b.issue = b
                .issue
                .max(c.completed)
                .max(out.last().map_or(SimTime::ZERO, |x| x.issue));
        }
        out.push(b);
    }
    out
}

/// Back-to-back sequential cache reads on 4 ways: two 8-page cache reads per way (18592 B
/// pages, tR 56 us = 11200 cycles, tRCBSY 3 us = 600), all issued at once. Per op the bus holds
/// 00h-addr-30h (35 cycles), the lone 31h (5), 7 x (4656 data out, its RE# preamble and
/// postamble included, + 5 for 31h/3Fh) and the last page (4656): 37323 cycles; 8 ops =
/// 298584. A way needs the bus again tR + tRCBSY = 11800 cycles after a 31h at most, while the
/// other three ways' steps take 3 x 4662 = 13986: the
/// bus saturates (the model's `four_way_back_to_back_cache_reads_keep_bus_busy` has the same
/// arithmetic).
#[test]
fn verilator_four_way_back_to_back_cache_reads_keep_bus_busy() {
    let (h, t) = timing();
    let page = 16384 + 2208;
    let ops: Vec<BenchOp> = (0..8u64)
        .map(|k| BenchOp {
            issue: SimTime::ZERO,
            op: cache(k, (k % 4) as u8, 8, page, 11200, &t),
            row: 16 * (k / 4) as u32,
            column: 0,
        })
        .collect();
    let mut dut = VerilatedChannel::new(&h).expect("verilator build");
    let (busy, cycles) = check_against_model(&mut dut, &ops, page as usize, "4-way cache reads");
    let frac = busy as f64 / cycles as f64;
    println!("4-way back-to-back 8-page cache reads, tR 56 us, tRCBSY 3 us: bus busy {:.2} % ({busy} of {cycles} cycles)", frac * 100.0);
    assert_eq!(busy, 8 * 37_323);
    assert!(frac >= 0.95, "bus busy {frac}");
}
