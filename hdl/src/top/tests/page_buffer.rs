//! rust_hdl tests of the page buffer ([`PageBuffer`]) on its own, with hand-derived
//! expectations: lane order (NAND word k = region bytes 4k..4k+3 = lane k mod 4 of row k / 4),
//! DMA offsets (row = offset / 16), beat counts and cycle latencies (device-to-host beats from
//! 2 cycles after the handshake, one per cycle; program words on `wr_data` from the cycle after
//! the way takes the program), way tagging of read data across the PHY's read return, region
//! isolation, the independence of the regions' two ports, the `err` flag, and the packing of
//! 1- and 2-byte NAND beats into the words. Both clocks rise together here (the page buffer as
//! the datapath builds it without a clock crossing).

use super::super::page_buffer::PageBuffer;
use rust_hdl::prelude::*;

/// Bytes of a region of the page buffer under test: 2 banks of 16 KiB.
const REGION: u64 = 32768;
/// Cycles from a data-out beat to its word: the PHY's read return at 200 MHz with the
/// `[onfi.pins]` defaults (pipe 4 + tDQSRE 4 + io 2 + capture 1; `SeqTiming::rd_return`).
pub(super) const RETURN: u32 = 11;

/// The block, stepped one clock cycle at a time (inputs set while the clock is low).
pub(super) struct Pb {
    pub(super) u: Box<PageBuffer>,
    cycle: u64,
    /// The read return the buffer is built for (cycles from a beat to its word).
    ret: u32,
}

/// Deterministic NAND word k of (channel, way): distinct across words and regions.
pub(super) fn word(c: usize, w: usize, k: u32) -> u32 {
    0x0100_0000 * (1 + c as u32 * 4 + w as u32) + k * 0x0001_0003
}

fn settle(u: &mut PageBuffer) {
    crate::settle(u, 64, "page buffer");
}

impl Pb {
    pub(super) fn new() -> Self {
        Self::with_beat(4)
    }

    /// A page buffer for NAND beats of `bytes` bytes.
    fn with_beat(bytes: u32) -> Self {
        Self::build(bytes, RETURN)
    }

    /// A page buffer for NAND beats of `bytes` bytes whose words come back `ret` cycles after
    /// their beats.
    fn build(bytes: u32, ret: u32) -> Self {
        // 8 channels x 4 ways, regions of 2 banks (32 KiB).
        let mut u = Box::new(PageBuffer::new(bytes, ret, 8, 4, 2));
        u.connect_all();
        Pb { u, cycle: 0, ret }
    }

    /// A data-out phase on (c, w) whose beats carry `beats`, each word `ret` cycles after its
    /// beat.
    fn read_beat_phase(&mut self, c: usize, w: usize, beats: &[u32]) {
        let ret = self.ret as usize;
        for k in 0..beats.len() + ret {
            self.idle();
            self.u.data_way[c].next = bits::<3>(w as u64);
            self.u.rd_beat[c].next = k < beats.len();
            if k >= ret {
                (self.u.rd_valid[c].next, self.u.rd_data[c].next) =
                    (true, bits::<32>(beats[k - ret] as u64));
            }
            self.clock();
        }
    }

    /// Idle inputs for the next cycle.
    pub(super) fn idle(&mut self) {
        let u = &mut self.u;
        u.clock.next = Clock { clk: false };
        u.nand_clock.next = Clock { clk: false };
        (
            u.take.next,
            u.done.next,
            u.wd_valid.next,
            u.wd_last.next,
            u.bd_ready.next,
        ) = (false, false, false, false, false);
        for c in 0..8 {
            u.start_fill[c].next = bits::<8>(0);
            u.start_drain[c].next = bits::<8>(0);
            u.start_half[c].next = bits::<8>(0);
            (u.rd_beat[c].next, u.rd_valid[c].next, u.wr_beat[c].next) = (false, false, false);
        }
    }

    /// Settles the inputs set since `idle`, then clocks.
    pub(super) fn clock(&mut self) {
        settle(&mut self.u);
        // Both clocks rise together: the page buffer on one clock, as without a crossing.
        self.u.clock.next = Clock { clk: true };
        self.u.nand_clock.next = Clock { clk: true };
        settle(&mut self.u);
        self.cycle += 1;
    }

    /// `err` after three idle cycles: a NAND-side error crosses to the PCIe clock through a
    /// NAND-clock register and two synchronizer flip-flops.
    pub(super) fn err_after_sync(&mut self) -> bool {
        for _ in 0..3 {
            self.idle();
            self.clock();
        }
        self.settled().err.val()
    }

    fn settled(&mut self) -> &PageBuffer {
        settle(&mut self.u);
        &self.u
    }

    pub(super) fn op(&mut self, c: usize, w: usize, kind: u64) {
        self.op_in(c, w, kind, false);
    }

    /// Way (c, w) takes an op of `kind` (0 read, 1 program, 2 erase, 3 cache read) from its
    /// queue, its data in the region's upper half when `half`.
    pub(super) fn op_in(&mut self, c: usize, w: usize, kind: u64, half: bool) {
        self.idle();
        let bit = bits::<8>(1 << w);
        if matches!(kind, 0 | 3) {
            self.u.start_fill[c].next = bit;
        }
        if kind == 1 {
            self.u.start_drain[c].next = bit;
        }
        if half {
            self.u.start_half[c].next = bit;
        }
        self.clock();
        if matches!(kind, 0 | 3) {
            self.latch_00(c, w);
        }
    }

    /// The 00h command latch of a read's first phase on (c, w): it arms the fill pointer's
    /// restart for the read's first data word (the way took the read a cycle or more before).
    pub(super) fn latch_00(&mut self, c: usize, w: usize) {
        self.idle();
        self.clock();
        self.idle();
        (self.u.cmd_we[c].next, self.u.cmd_byte[c].next) = (true, bits::<8>(0));
        self.u.data_way[c].next = bits::<3>(w as u64);
        self.clock();
        self.u.cmd_we[c].next = false;
    }

    /// A data-out phase of `n` words on channel `c` for way `w`, each word `ret` cycles after
    /// its beat; the cycles after the last beat carry the last words while the bus already
    /// shows way `next` (worst case: the next phase's way is on `data_way` as they arrive).
    fn read_phase(&mut self, c: usize, w: usize, n: u32, next: usize) {
        for k in 0..n + self.ret {
            self.idle();
            self.u.data_way[c].next = bits::<3>(if k < n { w } else { next } as u64);
            self.u.rd_beat[c].next = k < n;
            if k >= self.ret {
                (self.u.rd_valid[c].next, self.u.rd_data[c].next) =
                    (true, bits::<32>(word(c, w, k - self.ret) as u64));
            }
            self.clock();
        }
    }

    pub(super) fn take(&mut self, c: usize, w: usize, to_host: bool, offset: u64, len: u64) {
        self.idle();
        let u = &mut self.u;
        (u.take.next, u.channel.next, u.way.next, u.to_host.next) =
            (true, bits::<4>(c as u64), bits::<3>(w as u64), to_host);
        (u.offset.next, u.len.next) = (bits::<32>(offset), bits::<32>(len));
        self.clock();
    }

    pub(super) fn done(&mut self) {
        self.idle();
        self.u.done.next = true;
        self.clock();
    }

    /// Reads beats with `bd_ready` high until `n` were taken; returns (cycle, beat) of each.
    pub(super) fn read_beats(&mut self, n: usize) -> Vec<(u64, u128)> {
        let mut got = Vec::new();
        for _ in 0..n + 8 {
            self.idle();
            self.u.bd_ready.next = true;
            let cycle = self.cycle;
            let o = self.settled();
            if o.bd_valid.val() {
                got.push((cycle, o.bd_data.val().to_u128()));
            }
            self.clock();
            if got.len() == n {
                break;
            }
        }
        got
    }
}

/// Expected 16-byte beat: words 4r..4r+3 of (c, w), word 4r in bits 31:0.
pub(super) fn beat(c: usize, w: usize, r: u32) -> u128 {
    (0..4).fold(0u128, |acc, l| {
        acc | (word(c, w, 4 * r + l) as u128) << (32 * l)
    })
}

#[test]
fn nand_read_fills_region_in_lane_order_and_dma_streams_one_beat_per_cycle() {
    let mut pb = Pb::new();
    pb.op(2, 1, 0); // way 1 of channel 2 takes a read
    pb.read_phase(2, 1, 64, 0); // 64 words = 256 bytes = 16 rows
    pb.take(2, 1, true, 0, 256);
    let t_take = pb.cycle - 1;
    let got = pb.read_beats(16);
    // Handshake at cycle t, one priming cycle, first beat at t + 2, then one per cycle.
    let cycles: Vec<u64> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        cycles,
        (0..16).map(|r| t_take + 2 + r).collect::<Vec<_>>(),
        "beat cycles"
    );
    for (r, g) in got.iter().enumerate() {
        assert_eq!(
            g.1,
            beat(2, 1, r as u32),
            "row {r}: words 4r..4r+3, word 4r in bits 31:0"
        );
    }
    pb.done();
    // Offset 64 B = row 4: the first beat is words 16..19.
    pb.take(2, 1, true, 64, 32);
    let got = pb.read_beats(2);
    assert_eq!(
        (got[0].1, got[1].1),
        (beat(2, 1, 4), beat(2, 1, 5)),
        "offset 64 starts at row 4"
    );
    pb.done();
    assert!(!pb.err_after_sync(), "no error in a rule-abiding run");
}

/// A region's second bank starts at byte 16 384 = row 1024 = NAND word 4096: a read filling words
/// 4088..4103 writes both banks, and a DMA read from offset 16 368 streams row 1023 (bank 0)
/// then rows 1024-1025 (bank 1) one beat per cycle.
#[test]
fn a_read_fills_across_the_bank_boundary_and_dma_reads_across_it() {
    let mut pb = Pb::new();
    pb.op(5, 2, 0);
    pb.read_phase(5, 2, 4104, 0);
    pb.take(5, 2, true, 16368, 48);
    let t_take = pb.cycle - 1;
    let got = pb.read_beats(3);
    assert_eq!(
        got,
        vec![
            (t_take + 2, beat(5, 2, 1023)),
            (t_take + 3, beat(5, 2, 1024)),
            (t_take + 4, beat(5, 2, 1025)),
        ]
    );
    pb.done();
    // Bank 0's row 0 still holds words 0..3 (the fill of bank 1 did not write bank 0).
    pb.take(5, 2, true, 0, 16);
    assert_eq!(pb.read_beats(1)[0].1, beat(5, 2, 0));
    pb.done();
    assert!(!pb.err_after_sync());
}

/// A region of 2 banks has its upper half at byte 16 384 (row 1024). A read started with the
/// half bit fills from there, leaving the lower half's data in place: a way reads into one half
/// while the other half's data still leaves for the host. A program with the half bit drains
/// from row 1024 too: its first beat carries word 4096 (of the upper-half read).
#[test]
fn a_read_in_the_upper_half_leaves_the_lower_half_alone() {
    let mut pb = Pb::new();
    pb.op(3, 1, 0);
    pb.read_phase(3, 1, 8, 0); // words 0..7 of (3, 1) in rows 0-1
    pb.op_in(3, 1, 0, true);
    let upper: Vec<u32> = (0..8).map(|k| 0xA500_0000 + k).collect();
    pb.read_beat_phase(3, 1, &upper);
    pb.take(3, 1, true, 16384, 32);
    let got = pb.read_beats(2);
    let row = |w: &[u32]| (0..4).fold(0u128, |a, l| a | (w[l] as u128) << (32 * l));
    assert_eq!(
        (got[0].1, got[1].1),
        (row(&upper[0..4]), row(&upper[4..8])),
        "upper half: rows 1024-1025"
    );
    pb.done();
    pb.take(3, 1, true, 0, 32);
    let got = pb.read_beats(2);
    assert_eq!(
        (got[0].1, got[1].1),
        (beat(3, 1, 0), beat(3, 1, 1)),
        "lower half untouched"
    );
    pb.done();
    pb.op_in(3, 1, 1, true);
    // As from word 0 (the program test below): the word waits on wr_data from its start + 2.
    pb.idle();
    pb.clock();
    pb.idle();
    pb.u.data_way[3].next = bits::<3>(1);
    let first = pb.settled().wr_data[3].val().index() as u32;
    assert_eq!(
        first, upper[0],
        "a program in the upper half drains word 4096 first"
    );
    assert!(!pb.err_after_sync(), "no error in a rule-abiding run");
}

/// A way takes its next read (into the upper half) in its current read's second phase before
/// that read's first data beat (the way FSM's prefetch), and the current read's last 11 words
/// come back through the PHY after its last beat: all 16 land in the lower half (the half its
/// own 00h latch armed), and the next read's words from row 1024, because the fill pointer
/// restarts for the first word of a read, in the half taken with the read whose 00h latch
/// armed it.
#[test]
fn words_still_returning_at_the_next_take_land_with_their_read() {
    let mut pb = Pb::new();
    pb.op(2, 1, 0);
    // The way FSM's prefetch: the next read (upper half) is taken in this one's second phase,
    // before its first data beat.
    pb.idle();
    pb.u.start_fill[2].next = bits::<8>(1 << 1);
    pb.u.start_half[2].next = bits::<8>(1 << 1);
    pb.clock();
    for _ in 0..3 {
        pb.idle();
        pb.clock();
    }
    let n = 16u32;
    for k in 0..n + RETURN {
        pb.idle();
        pb.u.data_way[2].next = bits::<3>(1);
        pb.u.rd_beat[2].next = k < n;
        if k >= RETURN {
            (pb.u.rd_valid[2].next, pb.u.rd_data[2].next) =
                (true, bits::<32>(word(2, 1, k - RETURN) as u64));
        }
        pb.clock();
    }
    pb.latch_00(2, 1);
    let upper: Vec<u32> = (0..8).map(|k| 0x5A00_0000 + k).collect();
    pb.read_beat_phase(2, 1, &upper);
    pb.take(2, 1, true, 0, 64);
    let got: Vec<u128> = pb.read_beats(4).iter().map(|g| g.1).collect();
    assert_eq!(
        got,
        (0..4).map(|r| beat(2, 1, r)).collect::<Vec<_>>(),
        "lower half"
    );
    pb.done();
    pb.take(2, 1, true, 16384, 32);
    let got: Vec<u128> = pb.read_beats(2).iter().map(|g| g.1).collect();
    let row = |w: &[u32]| (0..4).fold(0u128, |a, l| a | (w[l] as u128) << (32 * l));
    assert_eq!(
        got,
        vec![row(&upper[0..4]), row(&upper[4..8])],
        "upper half"
    );
    pb.done();
    assert!(!pb.err_after_sync(), "no error in a rule-abiding run");
}

#[test]
fn back_to_back_read_phases_of_two_ways_land_in_their_regions() {
    let mut pb = Pb::new();
    pb.op(0, 3, 3); // cache read on way 3
    pb.op(0, 0, 0); // read on way 0
                    // Way 3's phase, one turnaround cycle (its last word arrives in it while the bus shows way
                    // 0), way 0's phase.
    pb.read_phase(0, 3, 8, 0);
    pb.read_phase(0, 0, 8, 3);
    for w in [3usize, 0] {
        pb.take(0, w, true, 0, 32);
        let got: Vec<u128> = pb.read_beats(2).into_iter().map(|g| g.1).collect();
        assert_eq!(
            got,
            vec![beat(0, w, 0), beat(0, w, 1)],
            "way {w}'s words in its region"
        );
        pb.done();
    }
    assert!(!pb.err_after_sync());
}

#[test]
fn dma_write_then_program_drains_words_in_order_with_gaps() {
    let mut pb = Pb::new();
    let (c, w) = (5usize, 2usize);
    // 8 full beats + one of 2 dwords: 8 x 16 + 8 = 136 B = 34 words.
    pb.take(c, w, false, 0, 136);
    for r in 0..9u32 {
        pb.idle();
        let last = r == 8;
        (pb.u.wd_valid.next, pb.u.wd_last.next) = (true, last);
        pb.u.wd_dwords.next = bits::<3>(if last { 2 } else { 4 });
        pb.u.wd_data.next = beat(c, w, r).to_bits();
        pb.clock();
    }
    pb.done();
    pb.op(c, w, 1); // the way takes a program at cycle a
    let a = pb.cycle - 1;
    // The start is registered (cycle a + 1), the drain pointer restarts and its word is
    // read at that edge: from cycle a + 2 the first word waits on wr_data (before any beat).
    pb.idle();
    pb.clock();
    pb.idle();
    pb.u.data_way[c].next = bits::<3>(w as u64);
    assert_eq!(
        pb.settled().wr_data[c].val().to_u64() as u32,
        word(c, w, 0),
        "word 0 on wr_data at cycle a + 2 = {}",
        a + 2
    );
    pb.clock();
    // 34 program beats, a gap cycle after every 5th (words must not skip or repeat).
    let mut k = 0u32;
    let mut n = 0;
    while k < 34 {
        pb.idle();
        pb.u.data_way[c].next = bits::<3>(w as u64);
        let beat_now = n % 6 != 5;
        pb.u.wr_beat[c].next = beat_now;
        let d = pb.settled().wr_data[c].val().to_u64() as u32;
        if beat_now {
            assert_eq!(d, word(c, w, k), "program word {k}");
            k += 1;
        }
        pb.clock();
        n += 1;
    }
    assert!(!pb.err_after_sync());
}

#[test]
fn regions_are_isolated_and_rule_violations_are_flagged() {
    let mut pb = Pb::new();
    pb.op(7, 0, 0);
    pb.read_phase(7, 0, 4, 1);
    // Same words on channel 6 way 0 and channel 7 way 1 were never written: they read as 0.
    for (c, w) in [(6usize, 0usize), (7, 1)] {
        pb.take(c, w, true, 0, 16);
        assert_eq!(pb.read_beats(1)[0].1, 0, "region ({c}, {w}) untouched");
        pb.done();
    }
    assert!(!pb.err_after_sync());
    // Misaligned offset.
    pb.take(1, 1, true, 8, 16);
    pb.done();
    assert!(pb.settled().err.val(), "offset 8 is not 16-byte aligned");
    // A channel or way the buffer has no region for (8 channels x 4 ways).
    for (c, w) in [(8usize, 0usize), (0, 4)] {
        let mut pb = Pb::new();
        pb.take(c, w, true, 0, 16);
        assert!(pb.settled().err.val(), "channel {c} way {w} has no region");
    }
    // Past the region: offset 32 KiB - 16 with 32 bytes.
    let mut pb = Pb::new();
    pb.take(1, 1, false, REGION - 16, 32);
    assert!(pb.settled().err.val(), "offset + len = 32 784 > 32 768");
    // The two ports are independent: a NAND fill (row 0) and a DMA write (row 1) on one
    // region in one cycle both land (a buffer whose words come back 1 cycle after their beats).
    let mut pb = Pb::build(4, 1);
    pb.op(3, 2, 0);
    pb.take(3, 2, false, 16, 16);
    pb.idle();
    pb.u.data_way[3].next = bits::<3>(2);
    pb.u.rd_beat[3].next = true;
    pb.clock();
    pb.idle();
    (pb.u.rd_valid[3].next, pb.u.rd_data[3].next) = (true, bits::<32>(word(3, 2, 0) as u64));
    (pb.u.wd_valid.next, pb.u.wd_last.next) = (true, true);
    (pb.u.wd_dwords.next, pb.u.wd_data.next) = (bits::<3>(4), beat(1, 1, 5).to_bits());
    pb.clock();
    pb.done();
    assert!(!pb.err_after_sync());
    pb.take(3, 2, true, 0, 32);
    let got: Vec<u128> = pb.read_beats(2).into_iter().map(|(_, b)| b).collect();
    assert_eq!(got, [word(3, 2, 0) as u128, beat(1, 1, 5)]);
}

#[test]
fn status_byte_after_70h_is_not_stored() {
    // Words come back 1 cycle after their beats (the status beat below is cycled by hand).
    let mut pb = Pb::build(4, 1);
    let (c, w) = (4usize, 0usize);
    pb.op(c, w, 0);
    pb.read_phase(c, w, 8, w); // words 0..7 at rows 0, 1
                               // A program's status read on the same way: 70h latch, then one data-out beat (E0h).
    for (cmd, byte) in [(true, 0x70u64), (false, 0)] {
        pb.idle();
        (pb.u.cmd_we[c].next, pb.u.cmd_byte[c].next) = (cmd, bits::<8>(byte));
        pb.clock();
    }
    pb.idle();
    (pb.u.data_way[c].next, pb.u.rd_beat[c].next) = (bits::<3>(w as u64), true);
    pb.clock();
    pb.idle();
    (pb.u.rd_valid[c].next, pb.u.rd_data[c].next) = (true, bits::<32>(0xE0));
    pb.clock();
    pb.take(c, w, true, 0, 48);
    let got: Vec<u128> = pb.read_beats(3).into_iter().map(|g| g.1).collect();
    assert_eq!(
        got,
        vec![beat(c, w, 0), beat(c, w, 1), 0],
        "status E0h not written at word 8"
    );
    pb.done();
    // Any other command clears the status mark: the next data-out words are stored from word 8.
    pb.idle();
    (pb.u.cmd_we[c].next, pb.u.cmd_byte[c].next) = (true, bits::<8>(0x05));
    pb.clock();
    pb.read_phase(c, w, 4, w);
    pb.take(c, w, true, 32, 16);
    assert_eq!(
        pb.read_beats(1)[0].1,
        beat(c, w, 0),
        "words 8..11 = the phase's words 0..3"
    );
    assert!(!pb.err_after_sync());
}

/// Bytes 0x01..=0x20 as `bytes`-byte beats (first byte lowest).
fn byte_beats(bytes: usize) -> Vec<u32> {
    let b: Vec<u8> = (1..=32u8).collect();
    b.chunks(bytes)
        .map(|c| c.iter().rev().fold(0u32, |a, &x| a << 8 | x as u32))
        .collect()
}

#[test]
fn one_and_two_byte_nand_beats_pack_into_words_in_transfer_order() {
    // Region bytes 0..31 must be 0x01..0x20: row 0 = bytes 0x01..0x10 (byte 0 in bits 7:0).
    let row = |r: u8| {
        (1..=16u8)
            .rev()
            .fold(0u128, |a, x| a << 8 | (16 * r + x) as u128)
    };
    for bytes in [1usize, 2] {
        let mut pb = Pb::with_beat(bytes as u32);
        let beats = byte_beats(bytes);
        assert_eq!(beats.len(), 32 / bytes);
        assert_eq!(
            beats[0],
            if bytes == 1 { 0x01 } else { 0x0201 },
            "beat 0 carries bytes 1 (and 2)"
        );
        pb.op(1, 2, 0);
        pb.read_beat_phase(1, 2, &beats);
        pb.take(1, 2, true, 0, 32);
        let got: Vec<u128> = pb.read_beats(2).into_iter().map(|g| g.1).collect();
        assert_eq!(
            got,
            vec![row(0), row(1)],
            "{bytes}-byte beats: 32 bytes in transfer order"
        );
        pb.done();
        assert!(!pb.err_after_sync(), "{bytes}-byte beats: no error");
    }
}

#[test]
fn program_drains_one_and_two_byte_beats_in_transfer_order() {
    for bytes in [1usize, 2] {
        let mut pb = Pb::with_beat(bytes as u32);
        let (c, w) = (6usize, 3usize);
        // Two 16-byte beats: region bytes 0..31 = 0x01..0x20.
        pb.take(c, w, false, 0, 32);
        for r in 0..2u8 {
            pb.idle();
            (pb.u.wd_valid.next, pb.u.wd_last.next, pb.u.wd_dwords.next) =
                (true, r == 1, bits::<3>(4));
            pb.u.wd_data.next = (1..=16u8)
                .rev()
                .fold(0u128, |a, x| a << 8 | (16 * r + x) as u128)
                .to_bits();
            pb.clock();
        }
        pb.done();
        pb.op(c, w, 1);
        // The registered start restarts the drain pointer in the next cycle.
        pb.idle();
        pb.clock();
        // 32 / bytes program beats, a gap cycle after every 3rd: the low `bytes` bytes of
        // wr_data are the next bytes of the region.
        let want = byte_beats(bytes);
        let mask = if bytes == 1 { 0xFF } else { 0xFFFF };
        let (mut k, mut n) = (0usize, 0);
        while k < want.len() {
            pb.idle();
            pb.u.data_way[c].next = bits::<3>(w as u64);
            let beat_now = n % 4 != 3;
            pb.u.wr_beat[c].next = beat_now;
            let d = pb.settled().wr_data[c].val().to_u64() as u32 & mask;
            if beat_now {
                assert_eq!(d, want[k], "{bytes}-byte program beat {k}");
                k += 1;
            }
            pb.clock();
            n += 1;
        }
        assert!(!pb.err_after_sync(), "{bytes}-byte beats: no error");
    }
}

#[test]
fn a_command_latch_inside_a_word_is_flagged() {
    let mut pb = Pb::with_beat(1);
    pb.op(0, 0, 0);
    pb.read_beat_phase(0, 0, &[0x11, 0x22, 0x33]); // 3 of the word's 4 bytes
    assert!(
        !pb.err_after_sync(),
        "a word may be half assembled between beats"
    );
    pb.idle();
    (pb.u.cmd_we[0].next, pb.u.cmd_byte[0].next) = (true, bits::<8>(0x00));
    pb.clock();
    assert!(pb.err_after_sync(), "the data phase ended inside a word");
    // Read return 2: 4 beats at cycles t..t+3, bytes arriving t+2..t+5, the next phase's
    // first command latch at t+5 (after one turnaround cycle) with the word's last byte: the
    // word was whole at the beats.
    let mut pb = Pb::build(1, 2);
    pb.op(0, 1, 0);
    for k in 0..6usize {
        pb.idle();
        pb.u.data_way[0].next = bits::<3>(1);
        pb.u.rd_beat[0].next = k < 4;
        if k >= 2 {
            (pb.u.rd_valid[0].next, pb.u.rd_data[0].next) =
                (true, bits::<32>(0x11 * (k as u64 - 1)));
        }
        if k == 5 {
            (pb.u.cmd_we[0].next, pb.u.cmd_byte[0].next) = (true, bits::<8>(0x00));
        }
        pb.clock();
    }
    assert!(
        !pb.err_after_sync(),
        "the last byte and the next latch in one cycle are not an error"
    );
    pb.take(0, 1, true, 0, 16);
    assert_eq!(
        pb.read_beats(1)[0].1,
        0x4433_2211,
        "bytes 11h, 22h, 33h, 44h in word 0"
    );
}

/// The start is registered: a program beat of the way in the cycle after the program's take
/// (when its drain pointer restarts) is flagged; after a read's take it is not (a read restarts
/// only the fill pointer, for its first word).
#[test]
fn a_program_beat_before_the_registered_restart_is_flagged() {
    // A program beat of way 1 in the cycle after: flagged after a program's start (its drain
    // pointer restarts), not after a read's (a read started beside a suspended program
    // restarts only the fill pointer).
    for (kind, flagged) in [(1, true), (0, false)] {
        let mut pb = Pb::new();
        pb.op(4, 1, kind);
        pb.idle();
        (pb.u.wr_beat[4].next, pb.u.data_way[4].next) = (true, bits::<3>(1));
        pb.clock();
        assert_eq!(pb.err_after_sync(), flagged, "kind {kind}");
    }
}
