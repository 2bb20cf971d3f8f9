//! ONFI channel sequencer (one channel, 1 to 8 ways): per-way op queues and operation FSMs, the bus
//! arbiter and the bus engine, behind a PHY-facing boundary (CE mask, CLE, ALE, write strobe,
//! 4 DQ bytes per cycle out and in, R/B# per way). The serializer/IO cells (NV-DDR3 DQS
//! generation, ODT, calibration) are out of scope: the PHY turns each `we` into a WE# pulse and
//! each data beat into bytes-per-cycle DQ transfers. Mirrors `ssdlab_model::nand::sequencer`
//! cycle for cycle (same bus-cycle sequence, same completion cycles); timing is elaborated from
//! the same `OnfiConfig`. Program/erase suspend (the way FSMs, `nand.suspend`) puts the suspend
//! and resume latches on the bus like any first phase.
//!
//! **Completion.** An op completes when the byte of its last data-out beat (a read's last page
//! beat, a program's or erase's status byte) is back through the PHY: its last phase's end
//! runs down a delay line of `SeqTiming::return_cycles` stages (the PHY's read return less the
//! RE# postamble) before `done_valid`, while the bus and the way FSM move on at the phase end.

use crate::nand::arbiter::{Arbiter, MAX_WAYS};
use crate::nand::bus_engine::BusEngine;
use crate::nand::op::OP_BITS;
use crate::nand::phy::NandPhy;
use crate::nand::timing::HdlTiming;
use crate::nand::way_fsm::WayFsm;
use crate::nand::way_queue::WayQueue;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct NandChannel {
    /// Sequencer clock (core clock, e.g. 200 MHz; see `onfi.core_clock_mhz`).
    pub clock: Signal<In, Clock>,
    /// An op is offered on `cmd_way`/`cmd_op`; taken at the clock edge when `cmd_ready`.
    pub cmd_valid: Signal<In, Bit>,
    /// Way (chip enable index, below the channel's way count) of the offered op.
    pub cmd_way: Signal<In, Bits<3>>,
    /// Packed op word (layout: `nand::op`).
    pub cmd_op: Signal<In, Bits<OP_BITS>>,
    /// Array time of the offered op (tPROG/tBERS; any value for a read), in sequencer cycles:
    /// the way FSM counts it down for program/erase suspend.
    pub cmd_array: Signal<In, Bits<32>>,
    /// The offered way's queue has room (0 for a way the channel does not have).
    pub cmd_ready: Signal<Out, Bit>,
    /// Program data for the way on `data_way`, 4 bytes, consumed on `wr_beat`.
    pub wr_data: Signal<In, Bits<32>>,
    /// Way owning the bus (selects the write-buffer stream for `wr_data`, tags read data).
    pub data_way: Signal<Out, Bits<3>>,
    /// The PHY boundary (`nand::phy::NandPhy`: CE, CLE, ALE, WE, DQ, beats, R/B#).
    pub phy: NandPhy,
    /// Read data to the controller's buffer (passed through from the PHY).
    pub rd_data: Signal<Out, Bits<32>>,
    /// `rd_data` valid.
    pub rd_valid: Signal<Out, Bit>,
    /// An op completed this cycle: the byte of its last data-out beat (read data or status) is
    /// back through the PHY.
    pub done_valid: Signal<Out, Bit>,
    /// Way of the completed op (ops of one way complete in order).
    pub done_way: Signal<Out, Bits<3>>,
    /// An op completes at the coming clock edge (`done_valid` rises there): the push of a
    /// completion into a clock crossing, which then starts at the edge the op completes.
    pub done_next: Signal<Out, Bit>,
    /// Way of the op completing at the coming edge.
    pub done_next_way: Signal<Out, Bits<3>>,
    /// Bit w: way w takes a read or cache read from its queue at the coming edge (the page
    /// buffer restarts the way's fill pointer for that read's first data word; the take can
    /// come during the way's previous op's data out, the way FSM's prefetch).
    pub start_fill: Signal<Out, Bits<MAX_WAYS>>,
    /// Bit w: way w takes a program from its queue at the coming edge (drain pointer restart).
    pub start_drain: Signal<Out, Bits<MAX_WAYS>>,
    /// Bit w: the op way w takes has its data in the region's upper half (op word bit 68).
    pub start_half: Signal<Out, Bits<MAX_WAYS>>,
    queues: Vec<WayQueue>,
    ways: Vec<WayFsm>,
    arbiter: Arbiter,
    engine: BusEngine,
    /// Way granted last, one-hot, with way 0's bit stored inverted so that the reset state
    /// (all flip-flops 0) means "way 0 last", as in the model.
    last_x: DFF<Bits<MAX_WAYS>>,
    /// Completions coming back through the PHY, valid and way per stage: stage 0 takes the last
    /// phase's end, the last stage drives `done_valid`/`done_way` (`SeqTiming::return_cycles`
    /// + 1 stages).
    ret_v: Vec<DFF<Bit>>,
    ret_w: Vec<DFF<Bits<3>>>,
    /// The bus grant, registered: computed one cycle ahead from the ways' next-cycle requests,
    /// the next round-robin pointer and the engine's next busy state, so it equals the
    /// combinational grant of the same cycle (cycle-exact) but starts at flip-flops.
    grant_r: DFF<Bit>,
    /// The granted way, one-hot.
    g_r: DFF<Bits<MAX_WAYS>>,
    psec_r: DFF<Bit>,
    /// The way on the bus, one-hot (the engine's `way`, for the ways' phase ends).
    own: DFF<Bits<MAX_WAYS>>,
    /// The granted way, encoded from the one-hot flip-flops.
    pick_q: Signal<Local, Bits<3>>,
    /// The ways' next-cycle requests gathered into vectors: entry i + 1 holds ways 0..=i.
    acc_f: Vec<Signal<Local, Bits<MAX_WAYS>>>,
    acc_s: Vec<Signal<Local, Bits<MAX_WAYS>>>,
    /// `start_fill`, `start_drain`, `start_half` gathered the same way.
    acc_sf: Vec<Signal<Local, Bits<MAX_WAYS>>>,
    acc_sd: Vec<Signal<Local, Bits<MAX_WAYS>>>,
    acc_sh: Vec<Signal<Local, Bits<MAX_WAYS>>>,
    /// Per way: it takes its queue's head at the coming edge.
    takes: Vec<Signal<Local, Bit>>,
    /// Per way: the kind of its queue's head (op word bits 1:0).
    head_kind: Vec<Signal<Local, Bits<2>>>,
    k_read: Constant<Bits<2>>,
    k_prog: Constant<Bits<2>>,
    k_cache: Constant<Bits<2>>,
    /// Per way: its index, and its bit.
    wid: Vec<Constant<Bits<3>>>,
    oh: Vec<Constant<Bits<MAX_WAYS>>>,
    /// Way 0's bit (the inversion of `last_x`), and no way.
    way0: Constant<Bits<MAX_WAYS>>,
    none: Constant<Bits<MAX_WAYS>>,
    busy_next: Signal<Local, Bit>,
    grant: Signal<Local, Bit>,
    /// The R/B# bits of ways the channel lacks (its ports are 8 ways wide whatever the way
    /// count): a sink named for Verilator's `*unused*` convention, so `-Wall` accepts them.
    unused_rb: Signal<Local, Bit>,
}

impl NandChannel {
    /// A channel of `ways` ways (chip enables, 1..=[`MAX_WAYS`]; `geometry.ways_per_channel`).
    pub fn new(t: &HdlTiming, ways: usize) -> Self {
        assert!(
            (1..=MAX_WAYS).contains(&ways),
            "a channel has 1..={MAX_WAYS} ways, got {ways}"
        );
        crate::elab::with_defaults!(NandChannel {
            queues: (0..ways).map(|_| WayQueue::default()).collect(),
            ways: (0..ways).map(|_| WayFsm::new(t)).collect(),
            engine: BusEngine::new(t),
            acc_f: (0..=ways).map(|_| Signal::default()).collect(),
            acc_s: (0..=ways).map(|_| Signal::default()).collect(),
            acc_sf: (0..=ways).map(|_| Signal::default()).collect(),
            acc_sd: (0..=ways).map(|_| Signal::default()).collect(),
            acc_sh: (0..=ways).map(|_| Signal::default()).collect(),
            takes: (0..ways).map(|_| Signal::default()).collect(),
            head_kind: (0..ways).map(|_| Signal::default()).collect(),
            k_read: Constant::new(bits::<2>(0)),
            k_prog: Constant::new(bits::<2>(1)),
            k_cache: Constant::new(bits::<2>(3)),
            ret_v: (0..=t.seq.return_cycles()).map(|_| DFF::default()).collect(),
            ret_w: (0..=t.seq.return_cycles()).map(|_| DFF::default()).collect(),
            wid: (0..ways).map(|w| Constant::new(bits::<3>(w as u64))).collect(),
            oh: (0..ways).map(|w| Constant::new(bits::<MAX_WAYS>(1 << w))).collect(),
            way0: Constant::new(bits::<MAX_WAYS>(1)),
            none: Constant::new(bits::<MAX_WAYS>(0)),
        } defaults {
            clock, cmd_valid, cmd_way, cmd_op, cmd_array, cmd_ready, wr_data, data_way, phy, rd_data, rd_valid, done_valid,
            done_way, done_next, done_next_way, start_fill, start_drain, start_half, arbiter, last_x, grant_r, g_r, psec_r, own, pick_q, busy_next, grant, unused_rb,
        })
    }

    /// Ways (chip enables) of this channel.
    pub fn ways(&self) -> usize {
        self.ways.len()
    }
}

impl Logic for NandChannel {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last_x, grant_r, g_r, psec_r, own);
        self.engine.clock.next = self.clock.val();
        NandPhy::link(&mut self.phy, &mut self.engine.phy);
        self.cmd_ready.next = false;
        self.unused_rb.next = self.engine.rb.val() != self.none.val();
        self.acc_f[0].next = self.none.val();
        self.acc_s[0].next = self.none.val();
        self.acc_sf[0].next = self.none.val();
        self.acc_sd[0].next = self.none.val();
        self.acc_sh[0].next = self.none.val();
        for i in 0..self.ways.len() {
            self.queues[i].clock.next = self.clock.val();
            self.ways[i].clock.next = self.clock.val();
            self.queues[i].push.next = self.cmd_valid.val() & (self.cmd_way.val().index() == i);
            self.queues[i].data_in.next = self.cmd_op.val();
            self.queues[i].arr_in.next = self.cmd_array.val();
            self.ways[i].q_arr.next = self.queues[i].arr_out.val();
            self.ways[i].q_lead.next = self.queues[i].lead_reads.val();
            self.ways[i].q_lead_any.next = self.queues[i].lead_any.val();
            self.queues[i].pop.next = self.ways[i].q_pop.val();
            self.ways[i].q_valid.next = !self.queues[i].empty.val();
            self.ways[i].q_op.next = self.queues[i].data_out.val();
            self.ways[i].rb.next = self.engine.rb.val().get_bit(i);
            if self.cmd_way.val().index() == i {
                self.cmd_ready.next = !self.queues[i].full.val();
            }
            // Arbitrate for the next cycle on the ways' next requests.
            self.acc_f[i + 1].next = self.acc_f[i].val();
            if self.ways[i].req_f_next.val() {
                self.acc_f[i + 1].next = self.acc_f[i].val() | self.oh[i].val();
            }
            self.acc_s[i + 1].next = self.acc_s[i].val();
            if self.ways[i].req_s_next.val() {
                self.acc_s[i + 1].next = self.acc_s[i].val() | self.oh[i].val();
            }
            self.arbiter.rf.next = self.acc_f[i + 1].val();
            self.arbiter.rs.next = self.acc_s[i + 1].val();
            // The op the way takes at the coming edge, for the page buffer.
            self.takes[i].next = self.ways[i].q_pop.val() & !self.queues[i].empty.val();
            self.head_kind[i].next = self.queues[i].data_out.val().get_bits::<2>(0);
            self.acc_sf[i + 1].next = self.acc_sf[i].val();
            if self.takes[i].val()
                & ((self.head_kind[i].val() == self.k_read.val())
                    | (self.head_kind[i].val() == self.k_cache.val()))
            {
                self.acc_sf[i + 1].next = self.acc_sf[i].val() | self.oh[i].val();
            }
            self.acc_sd[i + 1].next = self.acc_sd[i].val();
            if self.takes[i].val() & (self.head_kind[i].val() == self.k_prog.val()) {
                self.acc_sd[i + 1].next = self.acc_sd[i].val() | self.oh[i].val();
            }
            self.acc_sh[i + 1].next = self.acc_sh[i].val();
            if self.queues[i].data_out.val().get_bit(68) {
                self.acc_sh[i + 1].next = self.acc_sh[i].val() | self.oh[i].val();
            }
            self.start_fill.next = self.acc_sf[i + 1].val();
            self.start_drain.next = self.acc_sd[i + 1].val();
            self.start_half.next = self.acc_sh[i + 1].val();
        }
        // Next cycle's arbitration: next requests (all ways: the loop's last entry), next
        // pointer, engine busy next cycle (busy and not in its last cycle, or starting now).
        // Next round-robin pointer: the way granted now, else unchanged.
        self.last_x.d.next = self.last_x.q.val();
        if self.grant_r.q.val() {
            self.last_x.d.next = self.g_r.q.val() ^ self.way0.val();
        }
        self.arbiter.last.next = self.last_x.d.val() ^ self.way0.val();
        self.busy_next.next =
            (self.engine.busy.val() & !self.engine.phase_end.val()) | self.grant_r.q.val();
        self.grant_r.d.next = self.arbiter.valid.val() & !self.busy_next.val();
        self.g_r.d.next = self.arbiter.grant.val();
        self.psec_r.d.next = self.arbiter.pick_second.val();
        // Grant when the engine is idle: the phase starts next cycle (1 turnaround cycle).
        self.grant.next = self.grant_r.q.val();
        self.engine.start.next = self.grant.val();
        self.engine.start_second.next = self.psec_r.q.val();
        self.pick_q.next = self.wid[0].val();
        self.engine.start_op.next = self.ways[0].op.val();
        self.engine.start_data.next = self.ways[0].st_data.val();
        self.engine.start_cnt.next = self.ways[0].st_cnt.val();
        self.engine.start_c1.next = self.ways[0].st_c1.val();
        self.engine.start_lastp.next = self.ways[0].st_lastp.val();
        self.engine.start_cc.next = self.ways[0].st_cc.val();
        self.engine.start_3f.next = self.ways[0].st_3f.val();
        self.engine.start_final.next = self.ways[0].st_final.val();
        self.engine.start_sus.next = self.ways[0].st_sus.val();
        self.engine.start_res.next = self.ways[0].st_res.val();
        for i in 0..self.ways.len() {
            if self.g_r.q.val().get_bit(i) {
                self.pick_q.next = self.wid[i].val();
                self.engine.start_op.next = self.ways[i].op.val();
                self.engine.start_data.next = self.ways[i].st_data.val();
                self.engine.start_cnt.next = self.ways[i].st_cnt.val();
                self.engine.start_c1.next = self.ways[i].st_c1.val();
                self.engine.start_lastp.next = self.ways[i].st_lastp.val();
                self.engine.start_cc.next = self.ways[i].st_cc.val();
                self.engine.start_3f.next = self.ways[i].st_3f.val();
                self.engine.start_final.next = self.ways[i].st_final.val();
                self.engine.start_sus.next = self.ways[i].st_sus.val();
                self.engine.start_res.next = self.ways[i].st_res.val();
            }
            // Phase end and grant per way: the engine's way, one-hot (loaded at each grant).
            self.ways[i].phase_end.next = self.engine.phase_end.val() & self.own.q.val().get_bit(i);
            self.ways[i].grant.next = self.grant.val() & self.g_r.q.val().get_bit(i);
        }
        self.engine.start_way.next = self.pick_q.val();
        self.own.d.next = self.own.q.val();
        if self.grant.val() {
            self.own.d.next = self.g_r.q.val();
        }
        self.engine.wr_data.next = self.wr_data.val();
        self.data_way.next = self.engine.way.val();
        self.rd_data.next = self.engine.rd_data.val();
        self.rd_valid.next = self.engine.rd_valid.val();
        // An op's last phase ends (a second phase that is not a cache step with 31h/3Fh); it
        // completes when the line's last stage has it. Each loop's last pass wins: the outputs
        // are the last stage's.
        self.ret_v[0].d.next = self.engine.phase_end.val()
            & self.engine.phase_second.val()
            & !self.engine.phase_more.val();
        self.ret_w[0].d.next = self.engine.way.val();
        for i in 1..self.ret_v.len() {
            self.ret_v[i].d.next = self.ret_v[i - 1].q.val();
            self.ret_w[i].d.next = self.ret_w[i - 1].q.val();
        }
        for i in 0..self.ret_v.len() {
            self.ret_v[i].clock.next = self.clock.val();
            self.ret_w[i].clock.next = self.clock.val();
            self.done_next.next = self.ret_v[i].d.val();
            self.done_next_way.next = self.ret_w[i].d.val();
            self.done_valid.next = self.ret_v[i].q.val();
            self.done_way.next = self.ret_w[i].q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::DriveConfig;

    #[test]
    fn nand_channel_is_synthesizable() {
        let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10).unwrap();
        let vlog = crate::verilog_of(NandChannel::new(&t, 4));
        crate::test_support::yosys_validate("ssdlab_nand_channel", &vlog).unwrap();
    }
}
