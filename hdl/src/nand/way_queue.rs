//! Per-way operation queue: a 4-entry ring buffer of packed op words between the channel's
//! command port and the way FSM (ops of one way run in order). Written with plain registers (no
//! RAM) so the generated Verilog is our own and lint-clean; a pop only moves the 2-bit read
//! pointer (a shift register's pop would enable every slot flip-flop, a long high-fanout path).
//! First-word fall-through: `data_out` is the head while `empty` is low; `pop` removes it at
//! the clock edge. Beside each op word it holds the op's array cycles (a second lane), and it
//! counts the plain reads (op kind 0) at its head for program/erase suspend.

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
    /// Array time of the op on `data_in`, in sequencer cycles.
    pub arr_in: Signal<In, Bits<32>>,
    /// Array time of the head op, in sequencer cycles.
    pub arr_out: Signal<Out, Bits<32>>,
    /// Plain reads (kind 0) in a row from the head, 0..=4 entries.
    pub lead_reads: Signal<Out, Bits<3>>,
    slots: [DFF<Bits<OP_BITS>>; WAY_QUEUE_DEPTH],
    arr_slots: [DFF<Bits<32>>; WAY_QUEUE_DEPTH],
    /// Entry `rd_ptr + k` holds a plain read (k = 0..3).
    h0: Signal<Local, Bit>,
    h1: Signal<Local, Bit>,
    h2: Signal<Local, Bit>,
    h3: Signal<Local, Bit>,
    p1: Signal<Local, Bits<2>>,
    p2: Signal<Local, Bits<2>>,
    p3: Signal<Local, Bits<2>>,
    two2: Constant<Bits<2>>,
    three2: Constant<Bits<2>>,
    k_read: Constant<Bits<2>>,
    c2: Constant<Bits<3>>,
    c3: Constant<Bits<3>>,
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
            two2: Constant::new(bits::<2>(2)),
            three2: Constant::new(bits::<2>(3)),
            k_read: Constant::new(bits::<2>(0)),
            c2: Constant::new(bits::<3>(2)),
            c3: Constant::new(bits::<3>(3)),
        } defaults {
            clock, push, data_in, pop, data_out, empty, full, count, rd_ptr, wr_ptr, do_pop, do_push,
            arr_in, arr_out, lead_reads, h0, h1, h2, h3, p1, p2, p3,
        } arrays {
            slots, arr_slots,
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
            self.arr_slots[i].clock.next = self.clock.val();
            self.arr_slots[i].d.next = self.arr_slots[i].q.val();
        }
        self.empty.next = self.count.q.val() == self.zero3.val();
        self.full.next = self.count.q.val() == self.depth.val();
        self.data_out.next = self.slots[0].q.val();
        self.arr_out.next = self.arr_slots[0].q.val();
        self.p1.next = self.rd_ptr.q.val() + self.one2.val();
        self.p2.next = self.rd_ptr.q.val() + self.two2.val();
        self.p3.next = self.rd_ptr.q.val() + self.three2.val();
        self.h0.next = false;
        self.h1.next = false;
        self.h2.next = false;
        self.h3.next = false;
        for i in 0..WAY_QUEUE_DEPTH {
            if self.rd_ptr.q.val().index() == i {
                self.data_out.next = self.slots[i].q.val();
                self.arr_out.next = self.arr_slots[i].q.val();
                self.h0.next = self.slots[i].q.val().get_bits::<2>(0) == self.k_read.val();
            }
            if self.p1.val().index() == i {
                self.h1.next = self.slots[i].q.val().get_bits::<2>(0) == self.k_read.val();
            }
            if self.p2.val().index() == i {
                self.h2.next = self.slots[i].q.val().get_bits::<2>(0) == self.k_read.val();
            }
            if self.p3.val().index() == i {
                self.h3.next = self.slots[i].q.val().get_bits::<2>(0) == self.k_read.val();
            }
        }
        // Count the leading reads among the `count` valid entries.
        self.lead_reads.next = self.zero3.val();
        if self.h0.val() & (self.count.q.val() != self.zero3.val()) {
            self.lead_reads.next = self.one3.val();
            if self.h1.val() & (self.count.q.val() > self.one3.val()) {
                self.lead_reads.next = self.c2.val();
                if self.h2.val() & (self.count.q.val() > self.c2.val()) {
                    self.lead_reads.next = self.c3.val();
                    if self.h3.val() & (self.count.q.val() > self.c3.val()) {
                        self.lead_reads.next = self.depth.val();
                    }
                }
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
                    self.arr_slots[i].d.next = self.arr_in.val();
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
