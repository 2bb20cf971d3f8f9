//! Bus arbiter of one channel (combinational): among the ways requesting the bus, first-phase
//! requests (command/address/data in: they start array work) win over second-phase ones (data
//! out, status); within a class the first way after the last granted one, round-robin. The
//! behavioural model (`ssdlab_model::nand::sequencer`, `arbitrate`) implements the same policy.
//!
//! Written on [`MAX_WAYS`]-bit request vectors, bit i = way i (a channel of fewer ways leaves
//! the upper bits 0), as the classic two-pass round-robin: the requests above the last granted
//! way are searched first, then all of them, each search keeping the lowest requesting way. Every
//! "below way i" term is a prefix OR (`pre_*[i]` = OR of bits 0..i), plain logic that synthesis
//! balances into a tree (carry-chain arithmetic such as `x & (!x + 1)` put a ripple adder on the
//! channel's grant path and cost it ~10 % Fmax on ECP5), so the grant is one-hot and the policy
//! does not depend on the way count.

use rust_hdl::prelude::*;

/// The most ways a channel has (chip enables per channel; `geometry.ways_per_channel`).
pub const MAX_WAYS: usize = 8;
// The kernel indexes the prefixes' last entry as the literal 8 (rust-hdl evaluates index
// expressions by name in the generated Verilog and knows no constants).
const _: () = assert!(MAX_WAYS == 8);

#[derive(LogicBlock)]
pub struct Arbiter {
    /// Bit i: way i requests its first phase.
    pub rf: Signal<In, Bits<MAX_WAYS>>,
    /// Bit i: way i requests its second phase.
    pub rs: Signal<In, Bits<MAX_WAYS>>,
    /// The way granted last, one-hot (the round-robin pointer; exactly one bit set).
    pub last: Signal<In, Bits<MAX_WAYS>>,
    /// Some way requests.
    pub valid: Signal<Out, Bit>,
    /// One-hot: the way that wins (0 when none requests).
    pub grant: Signal<Out, Bits<MAX_WAYS>>,
    /// The granted request is a second phase.
    pub pick_second: Signal<Out, Bit>,
    /// The requests of the winning class.
    req: Signal<Local, Bits<MAX_WAYS>>,
    /// Entry i: some way below i was granted last (way i is above the pointer).
    pre_last: [Signal<Local, Bit>; MAX_WAYS + 1],
    /// Entry i: some way below i requests.
    pre_req: [Signal<Local, Bit>; MAX_WAYS + 1],
    /// Entry i: some way below i and above the pointer requests.
    pre_above: [Signal<Local, Bit>; MAX_WAYS + 1],
    /// Entry i: the grant among ways below i.
    acc: [Signal<Local, Bits<MAX_WAYS>>; MAX_WAYS + 1],
    /// `pre_last[8]`, which decides nothing (no way is above way 7, the last way way 7's
    /// last-grant bit could put above the pointer): a sink named for Verilator's `*unused*`
    /// convention, so that `-Wall` does not flag the always-computed prefix.
    unused_pre_last: Signal<Local, Bit>,
    /// Way i's bit.
    oh: [Constant<Bits<MAX_WAYS>>; MAX_WAYS],
    zero: Constant<Bits<MAX_WAYS>>,
}

impl Default for Arbiter {
    fn default() -> Self {
        crate::elab::with_defaults!(Arbiter {
            oh: std::array::from_fn(|i| Constant::new(bits::<MAX_WAYS>(1 << i))),
            zero: Constant::new(bits::<MAX_WAYS>(0)),
        } defaults {
            rf, rs, last, valid, grant, pick_second, req, unused_pre_last,
        } arrays {
            pre_last, pre_req, pre_above, acc,
        })
    }
}

impl Logic for Arbiter {
    #[hdl_gen]
    fn update(&mut self) {
        self.req.next = self.rs.val();
        self.pick_second.next = true;
        if self.rf.val() != self.zero.val() {
            self.req.next = self.rf.val();
            self.pick_second.next = false;
        }
        if self.req.val() == self.zero.val() {
            self.pick_second.next = false;
        }
        self.pre_last[0].next = false;
        self.pre_req[0].next = false;
        self.pre_above[0].next = false;
        for i in 0..MAX_WAYS {
            self.pre_last[i + 1].next = self.pre_last[i].val() | self.last.val().get_bit(i);
            self.pre_req[i + 1].next = self.pre_req[i].val() | self.req.val().get_bit(i);
            self.pre_above[i + 1].next =
                self.pre_above[i].val() | (self.req.val().get_bit(i) & self.pre_last[i].val());
        }
        // Way i wins: the lowest requesting way above the pointer, else the lowest requesting.
        self.acc[0].next = self.zero.val();
        for i in 0..MAX_WAYS {
            self.acc[i + 1].next = self.acc[i].val();
            if self.pre_above[8].val() {
                if self.req.val().get_bit(i) & self.pre_last[i].val() & !self.pre_above[i].val() {
                    self.acc[i + 1].next = self.acc[i].val() | self.oh[i].val();
                }
            } else if self.req.val().get_bit(i) & !self.pre_req[i].val() {
                self.acc[i + 1].next = self.acc[i].val() | self.oh[i].val();
            }
        }
        self.valid.next = self.pre_req[8].val();
        self.unused_pre_last.next = self.pre_last[8].val();
        self.grant.next = self.acc[8].val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbiter_is_synthesizable() {
        let vlog = crate::verilog_of(Arbiter::default());
        crate::test_support::yosys_validate("ssdlab_arbiter", &vlog).unwrap();
    }

    /// The grant of one evaluation, by rust_hdl's simulation of the kernel.
    fn grant(rf: u64, rs: u64, last: usize) -> (bool, u64, bool) {
        let mut a = Arbiter::default();
        a.connect_all();
        a.rf.next = bits(rf);
        a.rs.next = bits(rs);
        a.last.next = bits(1 << last);
        crate::settle(&mut a, 16, "arbiter");
        (
            a.valid.val(),
            a.grant.val().index() as u64,
            a.pick_second.val(),
        )
    }

    #[test]
    fn first_phases_win_then_the_way_after_the_last_grant() {
        // Hand cases of the policy: none; a lone second phase; a first phase beats it.
        assert_eq!(grant(0, 0, 0), (false, 0, false));
        assert_eq!(grant(0, 0b100, 2), (true, 0b100, true));
        assert_eq!(grant(0b10, 0b100, 2), (true, 0b10, false));
        // Ways 1, 3 and 6 request; after way 3 comes 6, after 6 wraps to 1, after 0 comes 1.
        assert_eq!(grant(0b100_1010, 0, 3).1, 0b100_0000);
        assert_eq!(grant(0b100_1010, 0, 6).1, 0b10);
        assert_eq!(grant(0b100_1010, 0, 0).1, 0b10);
        // The last granted way itself goes last; way 7 wraps to way 0.
        assert_eq!(grant(0b1000, 0, 3).1, 0b1000);
        assert_eq!(grant(0b1000_0001, 0, 7).1, 0b1);
    }
}
