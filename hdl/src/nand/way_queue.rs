//! Per-way operation queue: a 4-entry ring buffer of packed op words between the channel's
//! command port and the way FSM (ops of one way run in order). Written with plain registers (no
//! RAM) so the generated Verilog is our own and lint-clean; a pop only moves the 2-bit read
//! pointer (a shift register's pop would enable every slot flip-flop, a long high-fanout path).
//! First-word fall-through: `data_out` is the head while `empty` is low; `pop` removes it at
//! the clock edge. Beside each op word it holds the op's array cycles (a second lane), and it
//! counts the plain reads (op kind 0) at its head for program/erase suspend. The kinds are kept
//! as a 4-bit mask aligned with the head (bit k: entry k from the head is a plain read), shifted
//! on a pop and set on a push; the count is its trailing ones (one LUT per bit), and the
//! not-empty flag is a flip-flop too, so the way FSM's pop decision starts at flip-flops rather
//! than behind a pointer-selected count of the slots' kinds. Both give, every cycle, the values
//! the contents give.

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
    /// `lead_reads` is not 0 (a plain read heads the queue).
    pub lead_any: Signal<Out, Bit>,
    slots: [DFF<Bits<OP_BITS>>; WAY_QUEUE_DEPTH],
    arr_slots: [DFF<Bits<32>>; WAY_QUEUE_DEPTH],
    /// Bit k: entry k from the head is a valid plain read.
    rmask: DFF<Bits<4>>,
    /// `count` is not 0; `count` is 1.
    nz: DFF<Bit>,
    one_left: DFF<Bit>,
    /// A pushed plain read: its bit, at `count` (no pop) or `count - 1` (pop).
    ext: Signal<Local, Bit>,
    /// Next `rmask` and `count` without a pop (`_n`) and with one (`_p`).
    m_n: Signal<Local, Bits<4>>,
    m_p: Signal<Local, Bits<4>>,
    cnt_n: Signal<Local, Bits<3>>,
    cnt_p: Signal<Local, Bits<3>>,
    /// One-hot mask bits 0..3.
    b0: Constant<Bits<4>>,
    b1: Constant<Bits<4>>,
    b2: Constant<Bits<4>>,
    b3: Constant<Bits<4>>,
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
            b0: Constant::new(bits::<4>(1)),
            b1: Constant::new(bits::<4>(2)),
            b2: Constant::new(bits::<4>(4)),
            b3: Constant::new(bits::<4>(8)),
            k_read: Constant::new(bits::<2>(0)),
            c2: Constant::new(bits::<3>(2)),
            c3: Constant::new(bits::<3>(3)),
        } defaults {
            clock, push, data_in, pop, data_out, empty, full, count, rd_ptr, wr_ptr, do_pop, do_push,
            arr_in, arr_out, lead_reads, lead_any, rmask, nz, one_left, ext, m_n, m_p, cnt_n, cnt_p,
        } arrays {
            slots, arr_slots,
        })
    }
}

impl Logic for WayQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, rd_ptr, wr_ptr, rmask, nz, one_left);
        for i in 0..WAY_QUEUE_DEPTH {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].d.next = self.slots[i].q.val();
            self.arr_slots[i].clock.next = self.clock.val();
            self.arr_slots[i].d.next = self.arr_slots[i].q.val();
        }
        self.empty.next = !self.nz.q.val();
        self.full.next = self.count.q.val() == self.depth.val();
        self.data_out.next = self.slots[0].q.val();
        self.arr_out.next = self.arr_slots[0].q.val();
        for i in 0..WAY_QUEUE_DEPTH {
            if self.rd_ptr.q.val().index() == i {
                self.data_out.next = self.slots[i].q.val();
                self.arr_out.next = self.arr_slots[i].q.val();
            }
        }
        // Leading plain reads: the mask's trailing ones.
        self.lead_any.next = self.rmask.q.val().get_bit(0);
        self.lead_reads.next = self.zero3.val();
        if self.rmask.q.val().get_bit(0) {
            self.lead_reads.next = self.one3.val();
            if self.rmask.q.val().get_bit(1) {
                self.lead_reads.next = self.c2.val();
                if self.rmask.q.val().get_bit(2) {
                    self.lead_reads.next = self.c3.val();
                    if self.rmask.q.val().get_bit(3) {
                        self.lead_reads.next = self.depth.val();
                    }
                }
            }
        }
        self.do_pop.next = self.pop.val() & self.nz.q.val();
        self.do_push.next = self.push.val() & (self.count.q.val() != self.depth.val());
        self.ext.next =
            self.do_push.val() & (self.data_in.val().get_bits::<2>(0) == self.k_read.val());
        // Next mask and count without and with a pop, both from flip-flops and the push side;
        // the pop, which comes late from the way FSM, only selects.
        self.m_n.next = self.rmask.q.val();
        self.m_p.next = self.rmask.q.val() >> 1;
        self.cnt_n.next = self.count.q.val();
        self.cnt_p.next = self.count.q.val() - self.one3.val();
        if self.do_push.val() {
            self.cnt_n.next = self.count.q.val() + self.one3.val();
            self.cnt_p.next = self.count.q.val();
        }
        if self.ext.val() & (self.count.q.val() == self.zero3.val()) {
            self.m_n.next = self.rmask.q.val() | self.b0.val();
        }
        if self.ext.val() & (self.count.q.val() == self.one3.val()) {
            self.m_n.next = self.rmask.q.val() | self.b1.val();
            self.m_p.next = (self.rmask.q.val() >> 1) | self.b0.val();
        }
        if self.ext.val() & (self.count.q.val() == self.c2.val()) {
            self.m_n.next = self.rmask.q.val() | self.b2.val();
            self.m_p.next = (self.rmask.q.val() >> 1) | self.b1.val();
        }
        if self.ext.val() & (self.count.q.val() == self.c3.val()) {
            self.m_n.next = self.rmask.q.val() | self.b3.val();
            self.m_p.next = (self.rmask.q.val() >> 1) | self.b2.val();
        }
        self.rmask.d.next = self.m_n.val();
        self.count.d.next = self.cnt_n.val();
        self.one_left.d.next = self.cnt_n.val() == self.one3.val();
        self.nz.d.next = self.nz.q.val() | self.do_push.val();
        if self.do_pop.val() {
            self.rmask.d.next = self.m_p.val();
            self.count.d.next = self.cnt_p.val();
            self.one_left.d.next = self.cnt_p.val() == self.one3.val();
            self.nz.d.next = self.do_push.val() | !self.one_left.q.val();
        }
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn way_queue_is_synthesizable() {
        let vlog = crate::verilog_of(WayQueue::default());
        crate::test_support::yosys_validate("ssdlab_way_queue", &vlog).unwrap();
    }
}
