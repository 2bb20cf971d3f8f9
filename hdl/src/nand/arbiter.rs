//! Bus arbiter of one channel (combinational): among the ways requesting the bus, first-phase
//! requests (command/address/data in: they start array work) win over second-phase ones (data
//! out, status); within a class the first way after the last granted one, round-robin. The
//! behavioural model (`ssdlab_model::nand::sequencer`, `arbitrate`) implements the same policy.
//! Written as one-hot grant equations per way (way i wins its class when it requests and no way
//! between the last granted one and i does), which keeps the grant path shallow on FPGAs.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Arbiter {
    /// Way 0..3 requests its first phase.
    pub rf0: Signal<In, Bit>,
    pub rf1: Signal<In, Bit>,
    pub rf2: Signal<In, Bit>,
    pub rf3: Signal<In, Bit>,
    /// Way 0..3 requests its second phase.
    pub rs0: Signal<In, Bit>,
    pub rs1: Signal<In, Bit>,
    pub rs2: Signal<In, Bit>,
    pub rs3: Signal<In, Bit>,
    /// Way 0..3 was granted last (round-robin pointer, one-hot).
    pub last0: Signal<In, Bit>,
    pub last1: Signal<In, Bit>,
    pub last2: Signal<In, Bit>,
    pub last3: Signal<In, Bit>,
    /// Some way requests.
    pub valid: Signal<Out, Bit>,
    /// One-hot: way 0..3 wins.
    pub g0: Signal<Out, Bit>,
    pub g1: Signal<Out, Bit>,
    pub g2: Signal<Out, Bit>,
    pub g3: Signal<Out, Bit>,
    /// The granted request is a second phase.
    pub pick_second: Signal<Out, Bit>,
    l0: Signal<Local, Bit>,
    l1: Signal<Local, Bit>,
    l2: Signal<Local, Bit>,
    l3: Signal<Local, Bit>,
    any_f: Signal<Local, Bit>,
    any_s: Signal<Local, Bit>,
    gf0: Signal<Local, Bit>,
    gs0: Signal<Local, Bit>,
    gf1: Signal<Local, Bit>,
    gs1: Signal<Local, Bit>,
    gf2: Signal<Local, Bit>,
    gs2: Signal<Local, Bit>,
    gf3: Signal<Local, Bit>,
    gs3: Signal<Local, Bit>,
}

impl Logic for Arbiter {
    #[hdl_gen]
    fn update(&mut self) {
        self.l0.next = self.last0.val();
        self.l1.next = self.last1.val();
        self.l2.next = self.last2.val();
        self.l3.next = self.last3.val();
        self.any_f.next = self.rf0.val() | self.rf1.val() | self.rf2.val() | self.rf3.val();
        self.any_s.next = self.rs0.val() | self.rs1.val() | self.rs2.val() | self.rs3.val();
        self.gf0.next = self.rf0.val()
            & ((self.l0.val() & !self.rf1.val() & !self.rf2.val() & !self.rf3.val())
                | (self.l1.val() & !self.rf2.val() & !self.rf3.val())
                | (self.l2.val() & !self.rf3.val())
                | (self.l3.val()));
        self.gs0.next = self.rs0.val()
            & !self.any_f.val()
            & ((self.l0.val() & !self.rs1.val() & !self.rs2.val() & !self.rs3.val())
                | (self.l1.val() & !self.rs2.val() & !self.rs3.val())
                | (self.l2.val() & !self.rs3.val())
                | (self.l3.val()));
        self.g0.next = self.gf0.val() | self.gs0.val();
        self.gf1.next = self.rf1.val()
            & ((self.l0.val())
                | (self.l1.val() & !self.rf2.val() & !self.rf3.val() & !self.rf0.val())
                | (self.l2.val() & !self.rf3.val() & !self.rf0.val())
                | (self.l3.val() & !self.rf0.val()));
        self.gs1.next = self.rs1.val()
            & !self.any_f.val()
            & ((self.l0.val())
                | (self.l1.val() & !self.rs2.val() & !self.rs3.val() & !self.rs0.val())
                | (self.l2.val() & !self.rs3.val() & !self.rs0.val())
                | (self.l3.val() & !self.rs0.val()));
        self.g1.next = self.gf1.val() | self.gs1.val();
        self.gf2.next = self.rf2.val()
            & ((self.l0.val() & !self.rf1.val())
                | (self.l1.val())
                | (self.l2.val() & !self.rf3.val() & !self.rf0.val() & !self.rf1.val())
                | (self.l3.val() & !self.rf0.val() & !self.rf1.val()));
        self.gs2.next = self.rs2.val()
            & !self.any_f.val()
            & ((self.l0.val() & !self.rs1.val())
                | (self.l1.val())
                | (self.l2.val() & !self.rs3.val() & !self.rs0.val() & !self.rs1.val())
                | (self.l3.val() & !self.rs0.val() & !self.rs1.val()));
        self.g2.next = self.gf2.val() | self.gs2.val();
        self.gf3.next = self.rf3.val()
            & ((self.l0.val() & !self.rf1.val() & !self.rf2.val())
                | (self.l1.val() & !self.rf2.val())
                | (self.l2.val())
                | (self.l3.val() & !self.rf0.val() & !self.rf1.val() & !self.rf2.val()));
        self.gs3.next = self.rs3.val()
            & !self.any_f.val()
            & ((self.l0.val() & !self.rs1.val() & !self.rs2.val())
                | (self.l1.val() & !self.rs2.val())
                | (self.l2.val())
                | (self.l3.val() & !self.rs0.val() & !self.rs1.val() & !self.rs2.val()));
        self.g3.next = self.gf3.val() | self.gs3.val();
        self.valid.next = self.any_f.val() | self.any_s.val();
        self.pick_second.next = !self.any_f.val() & self.any_s.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbiter_is_synthesizable() {
        let vlog = crate::verilog_of(Arbiter::default());
        yosys_validate("ssdlab_arbiter", &vlog).unwrap();
    }
}
