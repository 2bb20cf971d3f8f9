//! Bus arbiter of one channel (combinational): among the ways requesting the bus, first-phase
//! requests (command/address/data in: they start array work) win over second-phase ones (data
//! out, status); within a class the first way after the last granted one, round-robin. The
//! behavioural model (`ssdlab_model::nand::sequencer`, `arbitrate`) implements the same policy.
//! The priority chain is written out for each value of `last` because
//! rust_hdl kernels cannot read back a local they assign in the same pass.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
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
    /// Way granted last (round-robin pointer).
    pub last: Signal<In, Bits<2>>,
    /// Some way requests.
    pub valid: Signal<Out, Bit>,
    /// Way to grant.
    pub pick: Signal<Out, Bits<2>>,
    /// The granted request is a second phase.
    pub pick_second: Signal<Out, Bit>,
    w0: Constant<Bits<2>>,
    w1: Constant<Bits<2>>,
    w2: Constant<Bits<2>>,
    w3: Constant<Bits<2>>,
}

impl Default for Arbiter {
    fn default() -> Self {
        Arbiter {
            rf0: Default::default(),
            rf1: Default::default(),
            rf2: Default::default(),
            rf3: Default::default(),
            rs0: Default::default(),
            rs1: Default::default(),
            rs2: Default::default(),
            rs3: Default::default(),
            last: Default::default(),
            valid: Default::default(),
            pick: Default::default(),
            pick_second: Default::default(),
            w0: Constant::new(bits::<2>(0)),
            w1: Constant::new(bits::<2>(1)),
            w2: Constant::new(bits::<2>(2)),
            w3: Constant::new(bits::<2>(3)),
        }
    }
}

impl Logic for Arbiter {
    #[hdl_gen]
    fn update(&mut self) {
        self.valid.next = false;
        self.pick.next = self.w0.val();
        self.pick_second.next = false;
        if self.last.val() == self.w0.val() {
            if self.rf1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = false;
            } else if self.rf2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = false;
            } else if self.rf3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = false;
            } else if self.rf0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = false;
            } else if self.rs1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = true;
            } else if self.rs2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = true;
            } else if self.rs3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = true;
            } else if self.rs0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = true;
            }
        }
        if self.last.val() == self.w1.val() {
            if self.rf2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = false;
            } else if self.rf3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = false;
            } else if self.rf0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = false;
            } else if self.rf1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = false;
            } else if self.rs2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = true;
            } else if self.rs3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = true;
            } else if self.rs0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = true;
            } else if self.rs1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = true;
            }
        }
        if self.last.val() == self.w2.val() {
            if self.rf3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = false;
            } else if self.rf0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = false;
            } else if self.rf1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = false;
            } else if self.rf2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = false;
            } else if self.rs3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = true;
            } else if self.rs0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = true;
            } else if self.rs1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = true;
            } else if self.rs2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = true;
            }
        }
        if self.last.val() == self.w3.val() {
            if self.rf0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = false;
            } else if self.rf1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = false;
            } else if self.rf2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = false;
            } else if self.rf3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = false;
            } else if self.rs0.val() {
                self.valid.next = true;
                self.pick.next = self.w0.val();
                self.pick_second.next = true;
            } else if self.rs1.val() {
                self.valid.next = true;
                self.pick.next = self.w1.val();
                self.pick_second.next = true;
            } else if self.rs2.val() {
                self.valid.next = true;
                self.pick.next = self.w2.val();
                self.pick_second.next = true;
            } else if self.rs3.val() {
                self.valid.next = true;
                self.pick.next = self.w3.val();
                self.pick_second.next = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbiter_is_synthesizable() {
        let mut uut = Arbiter::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("ssdlab_arbiter", &vlog).unwrap();
    }
}
