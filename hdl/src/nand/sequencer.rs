//! ONFI channel sequencer (one channel, 4 ways): per-way op queues and operation FSMs, the bus
//! arbiter and the bus engine, behind a PHY-facing boundary (CE mask, CLE, ALE, write strobe,
//! 4 DQ bytes per cycle out and in, R/B# per way). The serializer/IO cells (NV-DDR3 DQS
//! generation, ODT, calibration) are out of scope: the PHY turns each `we` into a WE# pulse and
//! each data beat into bytes-per-cycle DQ transfers. Mirrors `ssdlab_model::nand::sequencer`
//! cycle for cycle (same bus-cycle sequence, same completion cycles); timing is elaborated from
//! the same `OnfiConfig`. Program/erase suspend (the way FSMs, `nand.suspend`) puts the suspend
//! and resume latches on the bus like any first phase.

use crate::nand::arbiter::Arbiter;
use crate::nand::bus_engine::BusEngine;
use crate::nand::op::OP_BITS;
use crate::nand::phy::NandPhy;
use crate::nand::timing::HdlTiming;
use crate::nand::way_fsm::WayFsm;
use crate::nand::way_queue::WayQueue;
use rust_hdl::prelude::*;

/// Ways (chip enables) per channel.
pub const WAYS: usize = 4;

#[derive(LogicBlock)]
pub struct NandChannel {
    /// Sequencer clock (core clock, e.g. 200 MHz; see `onfi.core_clock_mhz`).
    pub clock: Signal<In, Clock>,
    /// An op is offered on `cmd_way`/`cmd_op`; taken at the clock edge when `cmd_ready`.
    pub cmd_valid: Signal<In, Bit>,
    /// Way (chip enable index) of the offered op.
    pub cmd_way: Signal<In, Bits<2>>,
    /// Packed op word (layout: `nand::op`).
    pub cmd_op: Signal<In, Bits<OP_BITS>>,
    /// Array time of the offered op (tPROG/tBERS; any value for a read), in sequencer cycles:
    /// the way FSM counts it down for program/erase suspend.
    pub cmd_array: Signal<In, Bits<32>>,
    /// The offered way's queue has room.
    pub cmd_ready: Signal<Out, Bit>,
    /// Program data for the way on `data_way`, 4 bytes, consumed on `wr_beat`.
    pub wr_data: Signal<In, Bits<32>>,
    /// Way owning the bus (selects the write-buffer stream for `wr_data`, tags read data).
    pub data_way: Signal<Out, Bits<2>>,
    /// The PHY boundary (`nand::phy::NandPhy`: CE, CLE, ALE, WE, DQ, beats, R/B#).
    pub phy: NandPhy,
    /// Read data to the controller's buffer (passed through from the PHY).
    pub rd_data: Signal<Out, Bits<32>>,
    /// `rd_data` valid.
    pub rd_valid: Signal<Out, Bit>,
    /// An op completed this cycle (reads: last data beat requested; program/erase: status read).
    pub done_valid: Signal<Out, Bit>,
    /// Way of the completed op (ops of one way complete in order).
    pub done_way: Signal<Out, Bits<2>>,
    queues: [WayQueue; WAYS],
    ways: [WayFsm; WAYS],
    arbiter: Arbiter,
    engine: BusEngine,
    /// Way granted last, one-hot; way 0's bit is stored inverted (`nlast0`) so that the
    /// reset state (all flip-flops 0) means "way 0 last", as in the model.
    nlast0: DFF<Bit>,
    last1: DFF<Bit>,
    last2: DFF<Bit>,
    last3: DFF<Bit>,
    done_r: DFF<Bit>,
    done_way_r: DFF<Bits<2>>,
    /// The bus grant, registered: computed one cycle ahead from the ways' next-cycle requests,
    /// the next round-robin pointer and the engine's next busy state, so it equals the
    /// combinational grant of the same cycle (cycle-exact) but starts at flip-flops.
    grant_r: DFF<Bit>,
    g0_r: DFF<Bit>,
    g1_r: DFF<Bit>,
    g2_r: DFF<Bit>,
    g3_r: DFF<Bit>,
    psec_r: DFF<Bit>,
    /// The way on the bus, one-hot (the engine's `way`, for the ways' phase ends).
    own0: DFF<Bit>,
    own1: DFF<Bit>,
    own2: DFF<Bit>,
    own3: DFF<Bit>,
    /// The granted way, encoded from the one-hot flip-flops.
    pick_q: Signal<Local, Bits<2>>,
    w0: Constant<Bits<2>>,
    w1: Constant<Bits<2>>,
    w2: Constant<Bits<2>>,
    w3: Constant<Bits<2>>,
    busy_next: Signal<Local, Bit>,
    grant: Signal<Local, Bit>,
}

impl NandChannel {
    pub fn new(t: &HdlTiming) -> Self {
        crate::elab::with_defaults!(NandChannel {
            ways: array_init::array_init(|_| WayFsm::new(t)),
            engine: BusEngine::new(t),
            w0: Constant::new(bits::<2>(0)),
            w1: Constant::new(bits::<2>(1)),
            w2: Constant::new(bits::<2>(2)),
            w3: Constant::new(bits::<2>(3)),
        } defaults {
            clock, cmd_valid, cmd_way, cmd_op, cmd_array, cmd_ready, wr_data, data_way, phy, rd_data, rd_valid, done_valid,
            done_way, arbiter, nlast0, last1, last2, last3, done_r, done_way_r, grant_r, g0_r, g1_r, g2_r, g3_r,
            psec_r, pick_q, busy_next, grant, own0, own1, own2, own3,
        } arrays {
            queues,
        })
    }
}

impl Logic for NandChannel {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, nlast0, last1, last2, last3, done_r, done_way_r, grant_r, g0_r, g1_r,
            g2_r, g3_r, psec_r, own0, own1, own2, own3
        );
        self.engine.clock.next = self.clock.val();
        NandPhy::link(&mut self.phy, &mut self.engine.phy);
        self.cmd_ready.next = false;
        for i in 0..WAYS {
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
        }
        // Arbitrate for the next cycle: next requests, next pointer, engine busy next cycle
        // (busy and not in its last cycle, or starting now).
        self.arbiter.rf0.next = self.ways[0].req_f_next.val();
        self.arbiter.rf1.next = self.ways[1].req_f_next.val();
        self.arbiter.rf2.next = self.ways[2].req_f_next.val();
        self.arbiter.rf3.next = self.ways[3].req_f_next.val();
        self.arbiter.rs0.next = self.ways[0].req_s_next.val();
        self.arbiter.rs1.next = self.ways[1].req_s_next.val();
        self.arbiter.rs2.next = self.ways[2].req_s_next.val();
        self.arbiter.rs3.next = self.ways[3].req_s_next.val();
        self.pick_q.next = self.w0.val();
        if self.g1_r.q.val() {
            self.pick_q.next = self.w1.val();
        }
        if self.g2_r.q.val() {
            self.pick_q.next = self.w2.val();
        }
        if self.g3_r.q.val() {
            self.pick_q.next = self.w3.val();
        }
        // Next round-robin pointer: the way granted now, else unchanged.
        self.nlast0.d.next = self.nlast0.q.val();
        self.last1.d.next = self.last1.q.val();
        self.last2.d.next = self.last2.q.val();
        self.last3.d.next = self.last3.q.val();
        if self.grant_r.q.val() {
            self.nlast0.d.next = !self.g0_r.q.val();
            self.last1.d.next = self.g1_r.q.val();
            self.last2.d.next = self.g2_r.q.val();
            self.last3.d.next = self.g3_r.q.val();
        }
        self.arbiter.last0.next = !self.nlast0.d.val();
        self.arbiter.last1.next = self.last1.d.val();
        self.arbiter.last2.next = self.last2.d.val();
        self.arbiter.last3.next = self.last3.d.val();
        self.busy_next.next =
            (self.engine.busy.val() & !self.engine.phase_end.val()) | self.grant_r.q.val();
        self.grant_r.d.next = self.arbiter.valid.val() & !self.busy_next.val();
        self.g0_r.d.next = self.arbiter.g0.val();
        self.g1_r.d.next = self.arbiter.g1.val();
        self.g2_r.d.next = self.arbiter.g2.val();
        self.g3_r.d.next = self.arbiter.g3.val();
        self.psec_r.d.next = self.arbiter.pick_second.val();
        // Grant when the engine is idle: the phase starts next cycle (1 turnaround cycle).
        self.grant.next = self.grant_r.q.val();
        self.engine.start.next = self.grant.val();
        self.engine.start_way.next = self.pick_q.val();
        self.engine.start_second.next = self.psec_r.q.val();
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
        for i in 0..WAYS {
            if self.pick_q.val().index() == i {
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
        }
        // Phase end per way: the engine's way, one-hot (loaded with it at each grant).
        self.own0.d.next =
            (self.own0.q.val() & !self.grant.val()) | (self.grant.val() & self.g0_r.q.val());
        self.own1.d.next =
            (self.own1.q.val() & !self.grant.val()) | (self.grant.val() & self.g1_r.q.val());
        self.own2.d.next =
            (self.own2.q.val() & !self.grant.val()) | (self.grant.val() & self.g2_r.q.val());
        self.own3.d.next =
            (self.own3.q.val() & !self.grant.val()) | (self.grant.val() & self.g3_r.q.val());
        self.ways[0].phase_end.next = self.engine.phase_end.val() & self.own0.q.val();
        self.ways[1].phase_end.next = self.engine.phase_end.val() & self.own1.q.val();
        self.ways[2].phase_end.next = self.engine.phase_end.val() & self.own2.q.val();
        self.ways[3].phase_end.next = self.engine.phase_end.val() & self.own3.q.val();
        self.ways[0].grant.next = self.grant.val() & self.g0_r.q.val();
        self.ways[1].grant.next = self.grant.val() & self.g1_r.q.val();
        self.ways[2].grant.next = self.grant.val() & self.g2_r.q.val();
        self.ways[3].grant.next = self.grant.val() & self.g3_r.q.val();
        self.engine.wr_data.next = self.wr_data.val();
        self.data_way.next = self.engine.way.val();
        self.rd_data.next = self.engine.rd_data.val();
        self.rd_valid.next = self.engine.rd_valid.val();
        // An op completes with its last phase: a second phase that is not a cache step with 31h/3Fh.
        self.done_r.d.next = self.engine.phase_end.val()
            & self.engine.phase_second.val()
            & !self.engine.phase_more.val();
        self.done_way_r.d.next = self.engine.way.val();
        self.done_valid.next = self.done_r.q.val();
        self.done_way.next = self.done_way_r.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::DriveConfig;

    #[test]
    fn nand_channel_is_synthesizable() {
        let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10).unwrap();
        let vlog = crate::verilog_of(NandChannel::new(&t));
        yosys_validate("ssdlab_nand_channel", &vlog).unwrap();
    }
}
