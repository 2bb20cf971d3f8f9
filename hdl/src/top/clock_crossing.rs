//! Asynchronous FIFO between two clock domains ([`ClockCrossingFifo`]): the crossing the
//! datapath needs between the PCIe user clock (250 MHz, Xilinx PG213) and the NAND sequencer
//! clock (`onfi.core_clock_mhz`). Its behavioural model, edge for edge, is
//! `ssdlab_model::ctrl::clock_crossing` (the design, after Cummings, SNUG 2002, is described
//! there); `tests` below checks this block against it with the two clocks at their real ratio.
//!
//! `D` = 2^`A` slots of `W` bits in flip-flops written by the write clock ([`CrossingFifo4`],
//! [`CrossingFifo8`]); `P` = `A` + 1-bit pointers (`A` address bits and a wrap bit) counted in
//! binary, each with its gray code in a register of its own domain, and each gray register
//! sampled by two flip-flops of the other domain (`SYNC_STAGES`). `empty` compares the read
//! pointer with the synchronized write pointer, `full` the write pointer with the synchronized
//! read pointer (top two bits inverted: the writer is a whole lap ahead). Both flags start at
//! flip-flops of their own domain, so no combinational path crosses; the read side's `data_out` reads a slot the writer filled at
//! least two read edges before the reader can see it (the slot multiplexer is the one path from
//! write-domain flip-flops, and it is static while it is read).
//!
//! Instantiated by the NAND array (`nand::array`, "Clocks"): two per channel when the sequencer
//! clock is not the PCIe clock.

use rust_hdl::prelude::*;

/// A FIFO of 4 words of `W` bits (2 address bits, 3-bit pointers).
pub type CrossingFifo4<const W: usize> = ClockCrossingFifo<W, 4, 2, 3>;
/// A FIFO of 8 words of `W` bits (3 address bits, 4-bit pointers).
pub type CrossingFifo8<const W: usize> = ClockCrossingFifo<W, 8, 3, 4>;

/// `D` words of `W` bits; `D` = 2^`A`, pointers of `P` = `A` + 1 bits (checked at
/// construction: rust-hdl widths cannot be computed from one another).
#[derive(LogicBlock)]
pub struct ClockCrossingFifo<const W: usize, const D: usize, const A: usize, const P: usize> {
    /// Write-domain clock.
    pub write_clock: Signal<In, Clock>,
    /// Append `data_in` at the write clock's rising edge (ignored while `full`).
    pub push: Signal<In, Bit>,
    /// Word to append.
    pub data_in: Signal<In, Bits<W>>,
    /// Every slot holds a word as far as the writer knows (a pop frees its slot for the writer
    /// two write edges later).
    pub full: Signal<Out, Bit>,
    /// Read-domain clock.
    pub read_clock: Signal<In, Clock>,
    /// Remove the oldest word at the read clock's rising edge (ignored while `empty`).
    pub pop: Signal<In, Bit>,
    /// The oldest word, valid while `empty` is low.
    pub data_out: Signal<Out, Bits<W>>,
    /// No word as far as the reader knows (a push reaches the reader two read edges later).
    pub empty: Signal<Out, Bit>,
    slots: [DFF<Bits<W>>; D],
    /// Write pointer in binary and gray code; the read pointer's gray code, synchronized.
    wbin: DFF<Bits<P>>,
    wgray: DFF<Bits<P>>,
    rq1: DFF<Bits<P>>,
    rq2: DFF<Bits<P>>,
    /// Read pointer in binary and gray code; the write pointer's gray code, synchronized.
    rbin: DFF<Bits<P>>,
    rgray: DFF<Bits<P>>,
    wq1: DFF<Bits<P>>,
    wq2: DFF<Bits<P>>,
    is_full: Signal<Local, Bit>,
    is_empty: Signal<Local, Bit>,
    wnext: Signal<Local, Bits<P>>,
    rnext: Signal<Local, Bits<P>>,
    one: Constant<Bits<P>>,
    /// The pointers' top two bits: set in the XOR that makes "a lap ahead" an equality.
    lap: Constant<Bits<P>>,
}

impl<const W: usize, const D: usize, const A: usize, const P: usize> Default
    for ClockCrossingFifo<W, D, A, P>
{
    fn default() -> Self {
        assert!(
            A >= 1 && D == 1 << A && P == A + 1,
            "crossing FIFO of {D} words needs {D} = 2^A and P = A + 1 (A {A}, P {P})"
        );
        crate::elab::with_defaults!(ClockCrossingFifo {
            one: Constant::new(bits::<P>(1)),
            lap: Constant::new(bits::<P>(0b11 << (P - 2))),
        } defaults {
            write_clock, push, data_in, full, read_clock, pop, data_out, empty, wbin, wgray, rq1,
            rq2, rbin, rgray, wq1, wq2, is_full, is_empty, wnext, rnext,
        } arrays {
            slots,
        })
    }
}

impl<const W: usize, const D: usize, const A: usize, const P: usize> Logic
    for ClockCrossingFifo<W, D, A, P>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Write domain.
        dff_setup!(self, write_clock, wbin, wgray, rq1, rq2);
        for i in 0..D {
            self.slots[i].clock.next = self.write_clock.val();
            self.slots[i].d.next = self.slots[i].q.val();
        }
        self.rq1.d.next = self.rgray.q.val();
        self.rq2.d.next = self.rq1.q.val();
        self.is_full.next = self.wgray.q.val() == (self.rq2.q.val() ^ self.lap.val());
        self.full.next = self.is_full.val();
        self.wnext.next = self.wbin.q.val() + self.one.val();
        if self.push.val() & !self.is_full.val() {
            for i in 0..D {
                if self.wbin.q.val().get_bits::<A>(0).index() == i {
                    self.slots[i].d.next = self.data_in.val();
                }
            }
            self.wbin.d.next = self.wnext.val();
            self.wgray.d.next = self.wnext.val() ^ (self.wnext.val() >> 1);
        }
        // Read domain.
        dff_setup!(self, read_clock, rbin, rgray, wq1, wq2);
        self.wq1.d.next = self.wgray.q.val();
        self.wq2.d.next = self.wq1.q.val();
        self.is_empty.next = self.rgray.q.val() == self.wq2.q.val();
        self.empty.next = self.is_empty.val();
        self.data_out.next = self.slots[0].q.val();
        for i in 0..D {
            if self.rbin.q.val().get_bits::<A>(0).index() == i {
                self.data_out.next = self.slots[i].q.val();
            }
        }
        self.rnext.next = self.rbin.q.val() + self.one.val();
        if self.pop.val() & !self.is_empty.val() {
            self.rbin.d.next = self.rnext.val();
            self.rgray.d.next = self.rnext.val() ^ (self.rnext.val() >> 1);
        }
    }
}

#[cfg(test)]
mod tests;
