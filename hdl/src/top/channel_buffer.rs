//! One NAND channel's share of the page buffer: the regions of its ways ([`Region`]) and
//! the NAND-side pointers that fill and drain them in data order, beside the PCIe-side port the
//! page buffer's DMA engine (`top::page_buffer`) drives.
//!
//! **Clocks.** The NAND side (everything below but the DMA port) runs on `nand_clock`, the
//! channel's sequencer clock, and reaches the regions through their port B; the DMA port is
//! the regions' port A on `pcie_clock`. No data crosses between the two inside this block: a
//! word written on one port is read on the other after the op's crossing (`nand::array`) has
//! ordered the two.
//!
//! NAND side (the channel's `NandChannel` data ports, see `nand::sequencer`): the page buffer
//! acts on an op when its way takes it from the way queue, not when it is queued, so ops may
//! wait in a way queue behind a running op of the same way. The take is registered first
//! (`st_f`/`st_d`/`st_h`, one NAND cycle later), which keeps the way queue's logic off the
//! region's address path. A program way w takes (`start_drain`) restarts w's drain pointer
//! then. A read or cache read (`start_fill`) restarts w's fill pointer only for its own first
//! data word: the way FSM takes its next op during the current op's second phase (its
//! prefetch), before that op's data beats, and a read's last words come back after its last
//! beat. So the take is held per way (`pend`, with its half), the read's own 00h command latch
//! on way w moves it to `armed` (the way may then take a further op), the read's first data
//! beat carries the restart down the read-return line, and the fill pointer restarts at word 0,
//! or at the region's upper half (`half_ptr`, the op's `start_half`: `nand::op::HALF_LSB`), at
//! the edge before that beat's word arrives. An op's first data beat comes no earlier than its
//! command latch, five address latches and tADL after its take, or tR for a read. Each
//! `rd_valid` word is written
//! at the fill pointer of the way whose data-out beat it answers. The word comes back the PHY's
//! read return (`SeqTiming::rd_return`, 11 cycles at 200 MHz) after its `rd_beat`, by when the
//! bus may carry another way's phase (the RE# postamble is shorter): every beat's tag (way,
//! status or data) runs down a delay line of that many stages beside the PHY, and the word is
//! written where the tag coming out of the line says. A word without a tag, or a tag without
//! its word, is an error (the PHY's latency is fixed). The status bytes of a
//! way (its data-out beats after a 70h command latch on that way, seen on the PHY's `we`/`cle`/
//! `dq_out`, until its next command latch) are not stored; the flag is per way, as each
//! target's status mode is its own. A program's drain pointer restarts at word 0 or the upper
//! half as a read's; the region's read port is addressed with the pointer's next value, so the
//! word a `wr_beat` consumes is on `wr_data` in that cycle (combinationally, as the bus engine
//! requires). Erase ops touch neither pointer.
//!
//! **NAND beat width.** The ONFI bus moves `bytes_per_beat` = 1, 2 or 4 bytes per core cycle
//! (`onfi.transfer_mts` 250, 500 or 1000 at 250 MHz; `HdlTiming`'s bytes per cycle), in the low
//! bytes of `rd_data` / `wr_data`. The region stays 4-byte words: a read beat's bytes are packed
//! at byte position `rpos` of the word being assembled (`rasm`), the word is written to its lane
//! on every beat (the partial word first, the whole word with the word's last beat) and the fill
//! pointer advances once per word; a program beat takes the drained word's bytes from byte
//! position `wpos` (`wr_data` = word >> 8 wpos) and the drain pointer advances once per word.
//! `rpos`/`wpos` are per channel (the bus carries one way's phase at a time), so every data
//! phase must move whole 4-byte words: bytes per phase = data cycles x bytes per beat, a
//! multiple of 4 (`Datapath::new` checks page and spare sizes). At 4 bytes per beat both
//! positions stay 0 and the block behaves as a plain word buffer.
//!
//! `err` (sticky, NAND clock) records a firmware-rule violation seen here: a NAND word beyond
//! the region, a command latch while a word is half moved (a data phase that ended inside a
//! word, counted at the beats), a program beat of a way in the cycle its drain pointer restarts
//! (an op's data before its registered take, or a program taken while the way's previous one
//! still moves data), and a read word out of step with the tags.

use super::region::{Region, BANK_BYTES};
use super::ROW_BITS;
use crate::nand::arbiter::MAX_WAYS;
use rust_hdl::prelude::*;

/// Word pointer width: ROW_BITS + 2 word bits plus an overflow bit.
pub const PTR_BITS: usize = ROW_BITS + 3;

#[derive(LogicBlock)]
pub struct ChannelBuffer {
    /// NAND sequencer clock: the NAND side and the regions' port B.
    pub nand_clock: Signal<In, Clock>,
    /// PCIe user clock: the DMA port (the regions' port A).
    pub pcie_clock: Signal<In, Clock>,
    /// Bit w: way w takes a read or cache read from its way queue at the coming edge
    /// (`NandChannel::start_fill`).
    pub start_fill: Signal<In, Bits<MAX_WAYS>>,
    /// Bit w: way w takes a program from its way queue at the coming edge.
    pub start_drain: Signal<In, Bits<MAX_WAYS>>,
    /// Bit w: the op way w takes has its data in the region's upper half (op word bit 68).
    pub start_half: Signal<In, Bits<MAX_WAYS>>,
    /// Way owning the channel's bus (`NandChannel::data_way`).
    pub data_way: Signal<In, Bits<3>>,
    /// A command latch starts this cycle (`phy.we & phy.cle`).
    pub cmd_we: Signal<In, Bit>,
    /// The command byte (`phy.dq_out` bits 7:0) with `cmd_we`.
    pub cmd_byte: Signal<In, Bits<8>>,
    /// The PHY reads one data-out beat this cycle (`phy.rd_beat`).
    pub rd_beat: Signal<In, Bit>,
    /// A read word arrives (`NandChannel::rd_valid`).
    pub rd_valid: Signal<In, Bit>,
    /// The read beat: `bytes_per_beat` bytes (1, 2 or 4) in the low bytes, first byte in bits 7:0.
    pub rd_data: Signal<In, Bits<32>>,
    /// The PHY sends one program data beat this cycle (`phy.wr_beat`).
    pub wr_beat: Signal<In, Bit>,
    /// Program beat for the way on `data_way`: its `bytes_per_beat` bytes in the low bytes
    /// (first in bits 7:0; the word's later bytes above them); valid whenever a program drains.
    pub wr_data: Signal<Out, Bits<32>>,
    /// Way of the DMA transfer.
    pub dma_way: Signal<In, Bits<3>>,
    /// A host-to-device beat is written this PCIe cycle into way `dma_way`'s region.
    pub dma_we: Signal<In, Bit>,
    /// Row (16-byte units) of the beat.
    pub dma_wrow: Signal<In, Bits<ROW_BITS>>,
    /// Lanes (dwords) of the beat to write, bit l = bytes 4l..4l+3.
    pub dma_lanes: Signal<In, Bits<4>>,
    /// The beat, 16 bytes, byte 0 in bits 7:0.
    pub dma_wdata: Signal<In, Bits<128>>,
    /// Row (16-byte units) to read at this clock edge.
    pub dma_rrow: Signal<In, Bits<ROW_BITS>>,
    /// Way `dma_way`'s region row read at the previous edge, 16 bytes.
    pub dma_rdata: Signal<Out, Bits<128>>,
    /// Sticky: a firmware-rule violation on one of this channel's regions (NAND clock).
    pub err: Signal<Out, Bit>,
    regions: Vec<Region>,
    /// `start_fill`, `start_drain`, `start_half` one NAND cycle later (module doc): bit w of
    /// `st_d` restarts way w's drain pointer, at word 0 or at `half_ptr`; bit w of `st_f` makes
    /// way w's next data-out beat the first of a read (`pend`).
    st_f: DFF<Bits<MAX_WAYS>>,
    st_d: DFF<Bits<MAX_WAYS>>,
    st_h: DFF<Bits<MAX_WAYS>>,
    /// Bit w: way w took a read whose first data-out beat has not come yet, and (`pend_h`) the
    /// read's data goes to the upper half. The way FSM takes its next op while the current one
    /// still moves data (its prefetch), so the take only arms the restart: `armed` bit w is set
    /// by the read's own first command latch (00h) on way w, after every beat of the op before.
    pend: DFF<Bits<MAX_WAYS>>,
    pend_h: DFF<Bits<MAX_WAYS>>,
    /// Bit w: the 00h latch of way w's taken read came (moving `pend` here, so the way may take
    /// its next read before this one's first beat); `armed_h`, that read's half.
    armed: DFF<Bits<MAX_WAYS>>,
    armed_h: DFF<Bits<MAX_WAYS>>,
    /// The `pend` bit a 00h command latch moves to `armed`.
    arm_set: Signal<Local, Bits<MAX_WAYS>>,
    /// This cycle's beat is the first of its way's armed read (`armed`), and that read's half.
    beat_first: Signal<Local, Bit>,
    beat_half: Signal<Local, Bit>,
    beat_pend: Signal<Local, Bit>,
    /// The `armed` bit the first beat clears.
    pend_clr: Signal<Local, Bits<MAX_WAYS>>,
    /// The tag of the word arriving at the next cycle: the first of a read, its half, its way.
    pre_f: Signal<Local, Bit>,
    pre_h: Signal<Local, Bit>,
    pre_w: Signal<Local, Bits<3>>,
    fill: Vec<DFF<Bits<PTR_BITS>>>,
    drain: Vec<DFF<Bits<PTR_BITS>>>,
    /// The read-return delay line, one stage per cycle of `SeqTiming::rd_return`: per stage,
    /// a beat was read, its way, and whether it was a status byte (not stored).
    tag_v: Vec<DFF<Bit>>,
    tag_w: Vec<DFF<Bits<3>>>,
    tag_s: Vec<DFF<Bit>>,
    /// Per stage: the beat is the first of a read, and the read's half (one stage fewer than
    /// the line: only the word arriving next cycle needs them, `pre_f` and `pre_h`).
    tag_f: Vec<DFF<Bit>>,
    tag_h: Vec<DFF<Bit>>,
    /// The tag of the word arriving this cycle (the line's last stage).
    rv_t: Signal<Local, Bit>,
    rw_t: Signal<Local, Bits<3>>,
    rs_t: Signal<Local, Bit>,
    /// This cycle's beat reads a status byte (its way's `st70`).
    beat_stat: Signal<Local, Bit>,
    /// Byte position in the word of the next data-out beat, counted at the beats (0..3).
    rbpos: DFF<Bits<2>>,
    /// Per way: the last command latched on that way was 70h (read status), so its data-out
    /// beats are status until its next command latch. Per way because a target's status mode
    /// is its own: a status poll of one way between another way's read confirm (30h) and that
    /// read's data out leaves the read's target in read mode.
    st70: Vec<DFF<Bit>>,
    err_r: DFF<Bit>,
    /// Byte position in the word of the next NAND read byte (0..3).
    rpos: DFF<Bits<2>>,
    /// The read word assembled so far (bytes below `rpos`).
    rasm: DFF<Bits<32>>,
    /// Byte position in the drained word of the next program byte (0..3).
    wpos: DFF<Bits<2>>,
    /// A stored read beat arrives this cycle (not a status byte).
    fill_beat: Signal<Local, Bit>,
    /// The read beat completes its word (`rpos` at the word's last beat).
    rword_end: Signal<Local, Bit>,
    /// The program beat completes its word.
    wword_end: Signal<Local, Bit>,
    fill_now: Vec<Signal<Local, Bit>>,
    /// The read word with this beat's bytes packed in.
    rword: Signal<Local, Bits<32>>,
    wsel: Signal<Local, Bits<128>>,
    wlane: Signal<Local, Bits<2>>,
    /// The drained word (lane `wlane` of `wsel`).
    wword: Signal<Local, Bits<32>>,
    one_ptr: Constant<Bits<PTR_BITS>>,
    zero_ptr: Constant<Bits<PTR_BITS>>,
    /// Words per region: a pointer at or past it is outside the region.
    end_ptr: Constant<Bits<PTR_BITS>>,
    /// First word of the region's upper half (half the region's banks x 4096 words).
    half_ptr: Constant<Bits<PTR_BITS>>,
    lane: [Constant<Bits<2>>; 4],
    lane_oh: [Constant<Bits<4>>; 4],
    /// Per way: its bit; no way.
    way_oh: Vec<Constant<Bits<MAX_WAYS>>>,
    no_way: Constant<Bits<MAX_WAYS>>,
    zero4: Constant<Bits<4>>,
    c70: Constant<Bits<8>>,
    c00: Constant<Bits<8>>,
    /// Bytes per beat mod 4 (the byte-position step; 0 at 4 bytes per beat).
    bstep: Constant<Bits<2>>,
    /// Byte position of a word's last beat: 4 - bytes per beat.
    blast: Constant<Bits<2>>,
    /// Per byte position p: the beat's bytes placed at p (mask of bytes p .. p + bytes per beat).
    rmask: [Constant<Bits<32>>; 4],
    /// Per byte position p: the assembled bytes kept (the complement of `rmask[p]`).
    rkeep: [Constant<Bits<32>>; 4],
    /// Per byte position p: 8 p, the bit shift of byte p.
    sh8: [Constant<Bits<5>>; 4],
}

impl ChannelBuffer {
    /// A channel buffer of `ways` regions (1..=8) of `banks` banks each (`top::region`), for a
    /// NAND bus of `bytes_per_beat` bytes per core cycle (1, 2 or 4) whose read words come back
    /// `read_return` cycles (1 or more) after their beats.
    pub fn new(bytes_per_beat: u32, read_return: u32, ways: usize, banks: usize) -> Self {
        assert!(
            matches!(bytes_per_beat, 1 | 2 | 4),
            "bytes per NAND beat must be 1, 2 or 4, got {bytes_per_beat}"
        );
        assert!(
            (1..=MAX_WAYS).contains(&ways),
            "a channel has 1..={MAX_WAYS} ways, got {ways}"
        );
        assert!(read_return >= 1, "a read word comes back after its beat");
        let field = (1u64 << (8 * bytes_per_beat)) - 1;
        let mask = |p: usize| (field << (8 * p)) & 0xFFFF_FFFF;
        crate::elab::with_defaults!(ChannelBuffer {
            regions: (0..ways).map(|_| Region::new(banks)).collect(),
            fill: crate::elab::vec_of(ways),
            drain: crate::elab::vec_of(ways),
            st70: crate::elab::vec_of(ways),
            tag_v: crate::elab::vec_of(read_return as usize),
            tag_w: crate::elab::vec_of(read_return as usize),
            tag_s: crate::elab::vec_of(read_return as usize),
            tag_f: crate::elab::vec_of(read_return as usize - 1),
            tag_h: crate::elab::vec_of(read_return as usize - 1),
            way_oh: (0..MAX_WAYS).map(|w| Constant::new(bits::<MAX_WAYS>(1 << w))).collect(),
            no_way: Constant::new(bits::<MAX_WAYS>(0)),
            fill_now: crate::elab::vec_of(ways),
            one_ptr: Constant::new(bits::<PTR_BITS>(1)),
            zero_ptr: Constant::new(bits::<PTR_BITS>(0)),
            end_ptr: Constant::new(bits::<PTR_BITS>((banks as u64 * BANK_BYTES) / 4)),
            half_ptr: Constant::new(bits::<PTR_BITS>((banks as u64 * BANK_BYTES) / 8)),
            lane: array_init::array_init(|l| Constant::new(bits::<2>(l as u64))),
            lane_oh: array_init::array_init(|l| Constant::new(bits::<4>(1 << l))),
            zero4: Constant::new(bits::<4>(0)),
            c70: Constant::new(bits::<8>(0x70)),
            c00: Constant::new(bits::<8>(0x00)),
            bstep: Constant::new(bits::<2>(bytes_per_beat as u64 % 4)),
            blast: Constant::new(bits::<2>(4 - bytes_per_beat as u64)),
            rmask: array_init::array_init(|p| Constant::new(bits::<32>(mask(p)))),
            rkeep: array_init::array_init(|p| Constant::new(bits::<32>(!mask(p) & 0xFFFF_FFFF))),
            sh8: array_init::array_init(|p| Constant::new(bits::<5>(8 * p as u64))),
        } defaults {
            nand_clock, pcie_clock, start_fill, start_drain, start_half, data_way, cmd_we, cmd_byte, rd_beat, rd_valid, rd_data,
            wr_beat, wr_data, dma_way, dma_we, dma_wrow, dma_lanes, dma_wdata, dma_rrow, dma_rdata, err,
            st_f, st_d, st_h, pend, pend_h, armed, armed_h, arm_set, beat_first, beat_half, beat_pend, pend_clr, pre_f, pre_h,
            pre_w, rv_t, rw_t, rs_t, beat_stat, rbpos, err_r, rpos, rasm, wpos, fill_beat,
            rword_end,
            wword_end, rword, wsel,
            wlane, wword,
        })
    }
}

impl Logic for ChannelBuffer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, nand_clock, st_f, st_d, st_h, pend, pend_h, armed, armed_h, rbpos, err_r, rpos,
            rasm, wpos
        );
        self.st_f.d.next = self.start_fill.val();
        self.st_d.d.next = self.start_drain.val();
        self.st_h.d.next = self.start_half.val();
        self.beat_stat.next = false;
        self.beat_pend.next = false;
        self.beat_half.next = false;
        for w in 0..self.regions.len() {
            self.st70[w].clock.next = self.nand_clock.val();
            self.st70[w].d.next = self.st70[w].q.val();
            if self.cmd_we.val() & (self.data_way.val().index() == w) {
                self.st70[w].d.next = self.cmd_byte.val() == self.c70.val();
            }
            if self.data_way.val().index() == w {
                self.beat_stat.next = self.st70[w].q.val();
                self.beat_pend.next = self.armed.q.val().get_bit(w);
                self.beat_half.next = self.armed_h.q.val().get_bit(w);
            }
        }
        self.arm_set.next = self.no_way.val();
        for w in 0..self.regions.len() {
            if self.cmd_we.val()
                & (self.cmd_byte.val() == self.c00.val())
                & (self.data_way.val().index() == w)
            {
                self.arm_set.next = self.way_oh[w].val() & self.pend.q.val();
            }
        }
        // A read's first data beat: the way's armed read restarts its fill pointer when this
        // beat's word arrives (`pre_f`), after every word of the way's previous op.
        self.beat_first.next = self.rd_beat.val() & !self.beat_stat.val() & self.beat_pend.val();
        self.pend_clr.next = self.no_way.val();
        for w in 0..self.regions.len() {
            if self.beat_first.val() & (self.data_way.val().index() == w) {
                self.pend_clr.next = self.way_oh[w].val();
            }
        }
        self.pend.d.next = (self.pend.q.val() & !self.arm_set.val()) | self.st_f.q.val();
        self.pend_h.d.next =
            (self.pend_h.q.val() & !self.st_f.q.val()) | (self.st_h.q.val() & self.st_f.q.val());
        self.armed.d.next = (self.armed.q.val() & !self.pend_clr.val()) | self.arm_set.val();
        self.armed_h.d.next = (self.armed_h.q.val() & !self.arm_set.val())
            | (self.pend_h.q.val() & self.arm_set.val());
        // The read-return line: this cycle's beat in, the tag of the word arriving now out
        // (each loop's last pass wins: the last stage's).
        self.tag_v[0].d.next = self.rd_beat.val();
        self.tag_w[0].d.next = self.data_way.val();
        self.tag_s[0].d.next = self.beat_stat.val();
        // The first/half tags are needed only a cycle ahead (`pre_f`, `pre_h`), so their lines
        // are one stage shorter (none for a return of one cycle).
        for i in 0..self.tag_f.len().min(1) {
            self.tag_f[i].d.next = self.beat_first.val();
            self.tag_h[i].d.next = self.beat_half.val();
        }
        // The word arriving next cycle: this beat's (a return of one cycle), else the
        // second-last stage's (each loop's last pass wins).
        self.pre_f.next = self.beat_first.val();
        self.pre_h.next = self.beat_half.val();
        self.pre_w.next = self.data_way.val();
        for i in 1..self.tag_v.len() {
            self.tag_v[i].d.next = self.tag_v[i - 1].q.val();
            self.tag_w[i].d.next = self.tag_w[i - 1].q.val();
            self.tag_s[i].d.next = self.tag_s[i - 1].q.val();
            self.pre_w.next = self.tag_w[i - 1].q.val();
        }
        for i in 1..self.tag_f.len() {
            self.tag_f[i].d.next = self.tag_f[i - 1].q.val();
            self.tag_h[i].d.next = self.tag_h[i - 1].q.val();
        }
        for i in 0..self.tag_f.len() {
            self.tag_f[i].clock.next = self.nand_clock.val();
            self.tag_h[i].clock.next = self.nand_clock.val();
            self.pre_f.next = self.tag_f[i].q.val();
            self.pre_h.next = self.tag_h[i].q.val();
        }
        for i in 0..self.tag_v.len() {
            self.tag_v[i].clock.next = self.nand_clock.val();
            self.tag_w[i].clock.next = self.nand_clock.val();
            self.tag_s[i].clock.next = self.nand_clock.val();
            self.rv_t.next = self.tag_v[i].q.val();
            self.rw_t.next = self.tag_w[i].q.val();
            self.rs_t.next = self.tag_s[i].q.val();
        }
        if self.rd_valid.val() != self.rv_t.val() {
            self.err_r.d.next = true;
        }
        if self.rd_beat.val() & !self.beat_stat.val() {
            self.rbpos.d.next = self.rbpos.q.val() + self.bstep.val();
        }
        // Read words packed into the word at `rpos`; the (partial) word in every lane, the lane
        // enable picks one.
        self.fill_beat.next = self.rd_valid.val() & !self.rs_t.val();
        self.rword_end.next = self.rpos.q.val() == self.blast.val();
        self.wword_end.next = self.wpos.q.val() == self.blast.val();
        self.rword.next = self.rd_data.val();
        for p in 0..4 {
            if self.rpos.q.val() == self.lane[p].val() {
                self.rword.next = (self.rasm.q.val() & self.rkeep[p].val())
                    | ((self.rd_data.val() << self.sh8[p].val()) & self.rmask[p].val());
            }
        }
        if self.fill_beat.val() {
            self.rasm.d.next = self.rword.val();
            self.rpos.d.next = self.rpos.q.val() + self.bstep.val();
        }
        if self.wr_beat.val() {
            self.wpos.d.next = self.wpos.q.val() + self.bstep.val();
        }
        // (Counted at the beats: a word's last bytes may come back during the next phase.)
        if self.cmd_we.val()
            & ((self.rbpos.q.val() != self.lane[0].val())
                | (self.wpos.q.val() != self.lane[0].val()))
        {
            self.err_r.d.next = true;
        }
        self.wsel.next = self.regions[0].b_rdata.val();
        self.wlane.next = self.drain[0].q.val().get_bits::<2>(0);
        self.dma_rdata.next = self.regions[0].a_rdata.val();
        for w in 0..self.regions.len() {
            self.regions[w].nand_clock.next = self.nand_clock.val();
            self.regions[w].pcie_clock.next = self.pcie_clock.val();
            self.fill[w].clock.next = self.nand_clock.val();
            self.drain[w].clock.next = self.nand_clock.val();
            self.fill_now[w].next = self.fill_beat.val() & (self.rw_t.val().index() == w);
            // Fill pointer: +1 per word, restarted for the first word of a read the way took
            // (at the edge before that word arrives).
            self.fill[w].d.next = self.fill[w].q.val();
            if self.fill_now[w].val() & self.rword_end.val() {
                self.fill[w].d.next = self.fill[w].q.val() + self.one_ptr.val();
            }
            if self.pre_f.val() & (self.pre_w.val().index() == w) {
                self.fill[w].d.next = self.zero_ptr.val();
                if self.pre_h.val() {
                    self.fill[w].d.next = self.half_ptr.val();
                }
            }
            // Drain pointer: +1 per program beat, restarted by a program the way takes.
            self.drain[w].d.next = self.drain[w].q.val();
            if self.wr_beat.val() & self.wword_end.val() & (self.data_way.val().index() == w) {
                self.drain[w].d.next = self.drain[w].q.val() + self.one_ptr.val();
            }
            if self.st_d.q.val().get_bit(w) {
                self.drain[w].d.next = self.zero_ptr.val();
                if self.st_h.q.val().get_bit(w) {
                    self.drain[w].d.next = self.half_ptr.val();
                }
            }
            // A program beat of way w in the cycle its registered start restarts the drain
            // pointer: the op's data came before its start (module doc), or the way's previous
            // op still moves data.
            if self.st_d.q.val().get_bit(w)
                & self.wr_beat.val()
                & (self.data_way.val().index() == w)
            {
                self.err_r.d.next = true;
            }
            // Port A: the DMA beat's row (written with its lanes), else the DMA read's row.
            self.regions[w].a_row.next = self.dma_rrow.val();
            self.regions[w].a_wdata.next = self.dma_wdata.val();
            self.regions[w].a_lanes.next = self.zero4.val();
            if self.dma_we.val() {
                self.regions[w].a_row.next = self.dma_wrow.val();
                if self.dma_way.val().index() == w {
                    self.regions[w].a_lanes.next = self.dma_lanes.val();
                }
            }
            // Port B: the NAND fill (one lane), else the drain pointer's next word (prefetch;
            // a way fills and drains in different data phases).
            self.regions[w].b_row.next = self.drain[w].d.val().get_bits::<ROW_BITS>(2);
            self.regions[w].b_wdata.next = self.rword.val();
            self.regions[w].b_lanes.next = self.zero4.val();
            if self.fill_now[w].val() {
                self.regions[w].b_row.next = self.fill[w].q.val().get_bits::<ROW_BITS>(2);
                for l in 0..4 {
                    if self.fill[w].q.val().get_bits::<2>(0) == self.lane[l].val() {
                        self.regions[w].b_lanes.next = self.lane_oh[l].val();
                    }
                }
            }
            if self.data_way.val().index() == w {
                self.wsel.next = self.regions[w].b_rdata.val();
                self.wlane.next = self.drain[w].q.val().get_bits::<2>(0);
            }
            if self.dma_way.val().index() == w {
                self.dma_rdata.next = self.regions[w].a_rdata.val();
            }
            if (self.fill_now[w].val() & (self.fill[w].q.val() >= self.end_ptr.val()))
                | (self.wr_beat.val()
                    & (self.data_way.val().index() == w)
                    & (self.drain[w].q.val() >= self.end_ptr.val()))
            {
                self.err_r.d.next = true;
            }
        }
        self.wword.next = self.wsel.val().get_bits::<32>(0);
        if self.wlane.val() == self.lane[1].val() {
            self.wword.next = self.wsel.val().get_bits::<32>(32);
        } else if self.wlane.val() == self.lane[2].val() {
            self.wword.next = self.wsel.val().get_bits::<32>(64);
        } else if self.wlane.val() == self.lane[3].val() {
            self.wword.next = self.wsel.val().get_bits::<32>(96);
        }
        self.wr_data.next = self.wword.val();
        for p in 1..4 {
            if self.wpos.q.val() == self.lane[p].val() {
                self.wr_data.next = self.wword.val() >> self.sh8[p].val();
            }
        }
        self.err.next = self.err_r.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_buffer_is_synthesizable() {
        crate::test_support::yosys_validate(
            "ssdlab_top_channel_buffer",
            &crate::verilog_of(ChannelBuffer::new(4, 11, 4, 2)),
        )
        .unwrap();
        crate::test_support::yosys_validate(
            "ssdlab_top_channel_buffer_1b",
            &crate::verilog_of(ChannelBuffer::new(1, 1, 2, 5)),
        )
        .unwrap();
    }
}
