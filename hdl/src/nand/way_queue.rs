//! Per-way operation queue: a 4-entry ring buffer of packed op words between the channel's
//! command port and the way FSM (ops of one way run in order). Written with plain registers (no
//! RAM) so the generated Verilog is our own and lint-clean; a pop only moves the 2-bit read
//! pointer (a shift register's pop would enable every slot flip-flop, a long high-fanout path).
//! First-word fall-through: `data_out` is the head while `empty` is low; `pop` removes it at
//! the clock edge.

use crate::nand::op::OP_BITS;
use rust_hdl::prelude::*;

/// Entries per way queue.
pub const WAY_QUEUE_DEPTH: usize = 4;

#[derive(LogicBlock)]
pub struct WayQueue {
    /// Sequencer clock.
    pub clock: Signal<In, Clock>,
    /// Append `data_in` at the clock edge (ignored when `full`).
    pub push: Signal<In, Bit>,
    /// Packed op word to append.
    pub data_in: Signal<In, Bits<OP_BITS>>,
    /// Remove the head at the clock edge (ignored when `empty`).
    pub pop: Signal<In, Bit>,
    /// Head op word (valid while not `empty`).
    pub data_out: Signal<Out, Bits<OP_BITS>>,
    /// No entry.
    pub empty: Signal<Out, Bit>,
    /// All entries used: the channel deasserts its command-ready for this way.
    pub full: Signal<Out, Bit>,
    slots: [DFF<Bits<OP_BITS>>; WAY_QUEUE_DEPTH],
    count: DFF<Bits<3>>,
    rd_ptr: DFF<Bits<2>>,
    wr_ptr: DFF<Bits<2>>,
    do_pop: Signal<Local, Bit>,
    do_push: Signal<Local, Bit>,
    one2: Constant<Bits<2>>,
    one3: Constant<Bits<3>>,
    zero3: Constant<Bits<3>>,
    depth: Constant<Bits<3>>,
}

impl Default for WayQueue {
    fn default() -> Self {
        crate::elab::with_defaults!(WayQueue {
            one2: Constant::new(bits::<2>(1)),
            one3: Constant::new(bits::<3>(1)),
            zero3: Constant::new(bits::<3>(0)),
            depth: Constant::new(bits::<3>(WAY_QUEUE_DEPTH as u64)),
        } defaults {
            clock, push, data_in, pop, data_out, empty, full, count, rd_ptr, wr_ptr, do_pop, do_push,
        } arrays {
            slots,
        })
    }
}

impl Logic for WayQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, rd_ptr, wr_ptr);
        for i in 0..WAY_QUEUE_DEPTH {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].d.next = self.slots[i].q.val();
        }
        self.empty.next = self.count.q.val() == self.zero3.val();
        self.full.next = self.count.q.val() == self.depth.val();
        self.data_out.next = self.slots[0].q.val();
        for i in 0..WAY_QUEUE_DEPTH {
            if self.rd_ptr.q.val().index() == i {
                self.data_out.next = self.slots[i].q.val();
            }
        }
        self.do_pop.next = self.pop.val() & (self.count.q.val() != self.zero3.val());
        self.do_push.next = self.push.val() & (self.count.q.val() != self.depth.val());
        if self.do_pop.val() {
            self.rd_ptr.d.next = self.rd_ptr.q.val() + self.one2.val();
        }
        if self.do_push.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + self.one2.val();
            for i in 0..WAY_QUEUE_DEPTH {
                if self.wr_ptr.q.val().index() == i {
                    self.slots[i].d.next = self.data_in.val();
                }
            }
        }
        if self.do_push.val() & !self.do_pop.val() {
            self.count.d.next = self.count.q.val() + self.one3.val();
        }
        if self.do_pop.val() & !self.do_push.val() {
            self.count.d.next = self.count.q.val() - self.one3.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn way_queue_is_synthesizable() {
        let vlog = crate::verilog_of(WayQueue::default());
        yosys_validate("ssdlab_way_queue", &vlog).unwrap();
    }
}
