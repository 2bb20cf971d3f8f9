//! Randomized op mixes for the NAND channel bench: reads, 2-4-page sequential cache reads
//! (ONFI 4.1 section 5.6), programs to fresh pages (one-shot TLC programs of 3 pages per plane
//! optionally) and erases over the bench's four ways, from
//! one seed, with issue times paced by the behavioural sequencer
//! (`ssdlab_model::nand::sequencer::ChannelSequencer`) so the HDL's 4-deep way queues never
//! overflow.

use super::{BenchOp, WAYS};
use rand::Rng;
use ssdlab_model::nand::sequencer::{ChannelSequencer, SeqOp, SeqTiming};
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::rng::SeedTree;
use ssdlab_model::SimTime;

/// Parameters of a randomized op mix.
#[derive(Clone, Copy, Debug)]
pub struct MixParams {
    pub ops: usize,
    pub page_bytes: u32,
    /// Array times in cycles: read, program, erase ranges.
    pub t_read: (u64, u64),
    pub t_prog: (u64, u64),
    pub t_erase: (u64, u64),
    /// Mean gap between issues, cycles.
    pub mean_gap: u64,
    /// About a third of the plain reads move half a page per plane, from column 0 or from the
    /// middle of the page (drawn from a stream of their own, so a mix without them is unchanged).
    pub partial_reads: bool,
    /// About half of the programs are one-shot TLC programs: 3 pages per plane at 3 fresh
    /// consecutive rows (drawn from a stream of their own, so a mix without them is unchanged).
    pub one_shot: bool,
}

/// A random mix of reads, sequential cache reads of 2-4 pages (about 20 % of the ops), programs
/// and erases over 4 ways, 1-2 planes, from `seed`. Programs go
/// to fresh pages (a superblock of two blocks per way, pages in order), erases reset a
/// superblock. Issue times keep at most 3 ops waiting per way (the HDL way queue holds 4):
/// op k of a way issues no earlier than the model's completion of that way's op k-4.
pub fn random_mix(
    seed: u64,
    p: &MixParams,
    t: &SeqTiming,
    onfi: &ssdlab_model::config::OnfiConfig,
    stride: u32,
) -> Vec<BenchOp> {
    let mut rng = SeedTree::new(seed).stream("nand_channel_mix", 0);
    let mut col_rng = SeedTree::new(seed).stream("nand_channel_mix_column", 0);
    let mut os_rng = SeedTree::new(seed).stream("nand_channel_mix_one_shot", 0);
    let mut seq = ChannelSequencer::new(onfi, WAYS as u8, 1);
    let mut done = Vec::new();
    let mut per_way: Vec<Vec<u64>> = vec![Vec::new(); WAYS];
    let mut next_page = [[0u32; 4]; WAYS];
    let mut out = Vec::with_capacity(p.ops);
    let mut now = SimTime::ZERO;
    let cyc = |c: u64| t.to_time(c);
    for id in 0..p.ops as u64 {
        let way = rng.gen_range(0..WAYS) as u8;
        let mut planes: u8 = rng.gen_range(1..=2);
        let sb = rng.gen_range(0..4usize);
        let base_block = 2 * sb as u32;
        let roll = rng.gen_range(0..100);
        let np = &mut next_page[way as usize][sb];
        let mut pages: u8 = 1;
        let (kind, page, array) = if roll < 10 {
            *np = 0;
            planes = 2;
            (
                NandOpKind::Erase,
                0,
                rng.gen_range(p.t_erase.0..=p.t_erase.1),
            )
        } else if roll < 45 && *np < stride {
            if p.one_shot && *np + 3 <= stride && os_rng.gen_bool(0.5) {
                pages = 3;
            }
            *np += pages as u32;
            (
                NandOpKind::Program,
                *np - pages as u32,
                rng.gen_range(p.t_prog.0..=p.t_prog.1),
            )
        } else if roll < 65 {
            // Sequential cache read (31h/3Fh) of 2-4 pages within the block, programmed or not.
            pages = rng.gen_range(2..=4);
            planes = 1;
            let first = rng
                .gen_range(0..(*np).max(1) + 1)
                .min(stride - pages as u32);
            (
                NandOpKind::Read,
                first,
                rng.gen_range(p.t_read.0..=p.t_read.1),
            )
        } else {
            (
                NandOpKind::Read,
                rng.gen_range(0..(*np).max(1) + 1),
                rng.gen_range(p.t_read.0..=p.t_read.1),
            )
        };
        let partial = p.partial_reads
            && kind == NandOpKind::Read
            && pages == 1
            && col_rng.gen_range(0..3) == 0;
        let half = p.page_bytes / 2;
        let column = if partial && col_rng.gen_bool(0.5) {
            half
        } else {
            0
        };
        let bus_bytes = if kind == NandOpKind::Erase {
            0
        } else if partial {
            half * planes as u32
        } else {
            p.page_bytes * planes as u32 * pages as u32
        };
        let op = SeqOp {
            id,
            way,
            die: 0,
            kind,
            planes,
            bus_bytes,
            array_time: cyc(array),
            pages,
        };
        let mut issue = now + cyc(rng.gen_range(0..=2 * p.mean_gap));
        let hist = &per_way[way as usize];
        if hist.len() >= 4 {
            let wait_for = hist[hist.len() - 4];
            loop {
                if let Some(c) = done
                    .iter()
                    .find(|c: &&ssdlab_model::nand::sequencer::SeqCompletion| c.id == wait_for)
                {
                    issue = issue.max(c.completed);
                    break;
                }
                let e = seq
                    .next_event_time()
                    .expect("an outstanding op has a next event");
                seq.advance(e, &mut done);
                issue = issue.max(e);
            }
        }
        now = issue;
        seq.advance(now, &mut done);
        seq.enqueue(now, op);
        per_way[way as usize].push(id);
        out.push(BenchOp {
            issue: now,
            op,
            row: base_block * stride + page,
            column: column as u16,
        });
    }
    out
}
