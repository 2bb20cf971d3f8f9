//! Submission-queue arbiter of the fetch engine (NVM Express Base Specification 1.4, section
//! 4.13), mirroring `ssdlab_model::nvme::frontend::{arbiter::RoundRobin, wrr::WeightedRoundRobin}`
//! decision for decision:
//! - round robin (4.13.1, arbitration burst 1): the lowest ready queue above the one served
//!   last, else the lowest ready queue at or below it;
//! - weighted round robin with urgent priority class (4.13.2), an elaboration option: the admin
//!   SQ strictly first, then urgent SQs round robin, then high/medium/low SQs, each class round
//!   robin inside and served while it has credit (its weight, 1..=255 commands per round); when
//!   no class with credit has a ready SQ, every credit refills (the model's simplification of
//!   the spec's credit scheme). An SQ's class is its Create I/O SQ CDW11.QPRIO (00b urgent,
//!   01b high, 10b medium, 11b low), given on `qc_*`.
//!
//! `found`/`pick` are combinational from `ready` and the state; the state advances in a cycle
//! with `take` and `found` (the fetch engine arbitrates).

use rust_hdl::prelude::*;

/// Arbitration method chosen at elaboration (CC.AMS: 000b round robin, 001b WRR + urgent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arbitration {
    RoundRobin,
    /// Weights of the high, medium and low classes (Feature 01h HPW/MPW/LPW + 1), each ≥ 1.
    Weighted([u8; 3]),
}

#[derive(LogicBlock)]
pub struct SqArbiter {
    /// Front-end clock, 250 MHz.
    pub clock: Signal<In, Clock>,
    /// Bit q: SQ q (0 = admin) exists and has an unfetched entry.
    pub ready: Signal<In, Bits<9>>,
    /// The fetch engine can take a command this cycle: commit `pick` if `found`.
    pub take: Signal<In, Bit>,
    /// Queue configuration strobe (Create I/O SQ records the class of `qc_qid`).
    pub qc_valid: Signal<In, Bit>,
    /// Configuration names an SQ.
    pub qc_sq: Signal<In, Bit>,
    /// Queue identifier 1..=8.
    pub qc_qid: Signal<In, Bits<4>>,
    /// QPRIO of the SQ (00b urgent, 01b high, 10b medium, 11b low).
    pub qc_prio: Signal<In, Bits<2>>,
    /// Some SQ is ready.
    pub found: Signal<Out, Bit>,
    /// The SQ to fetch from next (valid with `found`).
    pub pick: Signal<Out, Bits<4>>,
    last: DFF<Bits<4>>,
    prio: [DFF<Bits<2>>; 9],
    wlast: [DFF<Bits<4>>; 4],
    credit: [DFF<Bits<8>>; 3],
    rr_found: Signal<Local, Bit>,
    rr_pick: Signal<Local, Bits<4>>,
    qr: [Signal<Local, Bit>; 9],
    wfound: [Signal<Local, Bit>; 4],
    wpick: [Signal<Local, Bits<4>>; 4],
    wcls: Signal<Local, Bits<2>>,
    wcls_on: Signal<Local, Bit>,
    refill: Signal<Local, Bit>,
    wpk: Signal<Local, Bits<4>>,
    wany: Signal<Local, Bit>,
    fnd: Signal<Local, Bit>,
    pk: Signal<Local, Bits<4>>,
    kq: [Constant<Bits<4>>; 9],
    kbit: [Constant<Bits<9>>; 9],
    kc: [Constant<Bits<2>>; 4],
    weight: [Constant<Bits<8>>; 3],
    zero9: Constant<Bits<9>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    wrr_on: Constant<Bit>,
}

impl SqArbiter {
    pub fn new(arb: Arbitration) -> Self {
        let (on, w) = match arb {
            Arbitration::RoundRobin => (false, [1u8; 3]),
            Arbitration::Weighted(w) => {
                assert!(
                    w.iter().all(|x| *x >= 1),
                    "WRR weights must be at least 1: {w:?}"
                );
                (true, w)
            }
        };
        crate::elab::with_defaults!(SqArbiter {
            kq: std::array::from_fn(|i| Constant::new(bits::<4>(i as u64))),
            kbit: std::array::from_fn(|i| Constant::new(bits::<9>(1 << i))),
            kc: std::array::from_fn(|i| Constant::new(bits::<2>(i as u64))),
            weight: std::array::from_fn(|i| Constant::new(bits::<8>(w[i] as u64))),
            zero9: Constant::new(bits::<9>(0)),
            zero8: Constant::new(bits::<8>(0)),
            one8: Constant::new(bits::<8>(1)),
            wrr_on: Constant::new(on),
        } defaults {
            clock, ready, take, qc_valid, qc_sq, qc_qid, qc_prio, found, pick, last, rr_found, rr_pick, wcls,
            wcls_on, refill, wpk, wany, fnd, pk,
        } arrays {
            prio, wlast, credit, qr, wfound, wpick,
        })
    }
}

impl Logic for SqArbiter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last);
        for i in 0..9 {
            self.prio[i].clock.next = self.clock.val();
            self.prio[i].d.next = self.prio[i].q.val();
            self.qr[i].next = (self.ready.val() & self.kbit[i].val()) != self.zero9.val();
        }
        for c in 0..4 {
            self.wlast[c].clock.next = self.clock.val();
            self.wlast[c].d.next = self.wlast[c].q.val();
        }
        for c in 0..3 {
            self.credit[c].clock.next = self.clock.val();
            self.credit[c].d.next = self.credit[c].q.val();
        }
        // Round robin over all 9 queues. Scan 8..1 at or below `last`, then queue 0, then 8..1
        // above `last`: the last assignment wins, so the lowest queue above `last` is preferred.
        self.rr_found.next = false;
        self.rr_pick.next = self.kq[0].val();
        for j in 0..8 {
            if self.qr[8 - j].val() & (self.kq[8 - j].val() <= self.last.q.val()) {
                self.rr_found.next = true;
                self.rr_pick.next = self.kq[8 - j].val();
            }
        }
        if self.qr[0].val() {
            self.rr_found.next = true;
            self.rr_pick.next = self.kq[0].val();
        }
        for j in 0..8 {
            if self.qr[8 - j].val() & (self.kq[8 - j].val() > self.last.q.val()) {
                self.rr_found.next = true;
                self.rr_pick.next = self.kq[8 - j].val();
            }
        }
        // Per class (urgent, high, medium, low): round robin over I/O SQs 1..=8 of that class.
        for c in 0..4 {
            self.wfound[c].next = false;
            self.wpick[c].next = self.kq[0].val();
            for j in 0..8 {
                if self.qr[8 - j].val()
                    & (self.prio[8 - j].q.val() == self.kc[c].val())
                    & (self.kq[8 - j].val() <= self.wlast[c].q.val())
                {
                    self.wfound[c].next = true;
                    self.wpick[c].next = self.kq[8 - j].val();
                }
            }
            for j in 0..8 {
                if self.qr[8 - j].val()
                    & (self.prio[8 - j].q.val() == self.kc[c].val())
                    & (self.kq[8 - j].val() > self.wlast[c].q.val())
                {
                    self.wfound[c].next = true;
                    self.wpick[c].next = self.kq[8 - j].val();
                }
            }
        }
        // WRR decision: admin, urgent, then the first of high/medium/low with credit and a
        // ready SQ, else (credits refill) the first of them with a ready SQ.
        self.wcls.next = self.kc[0].val();
        self.wcls_on.next = false;
        self.refill.next = false;
        self.wany.next = true;
        self.wpk.next = self.kq[0].val();
        if self.qr[0].val() {
            self.wpk.next = self.kq[0].val();
        } else if self.wfound[0].val() {
            self.wpk.next = self.wpick[0].val();
        } else if self.wfound[1].val() & (self.credit[0].q.val() != self.zero8.val()) {
            self.wpk.next = self.wpick[1].val();
            self.wcls_on.next = true;
            self.wcls.next = self.kc[0].val();
        } else if self.wfound[2].val() & (self.credit[1].q.val() != self.zero8.val()) {
            self.wpk.next = self.wpick[2].val();
            self.wcls_on.next = true;
            self.wcls.next = self.kc[1].val();
        } else if self.wfound[3].val() & (self.credit[2].q.val() != self.zero8.val()) {
            self.wpk.next = self.wpick[3].val();
            self.wcls_on.next = true;
            self.wcls.next = self.kc[2].val();
        } else if self.wfound[1].val() {
            self.wpk.next = self.wpick[1].val();
            self.wcls_on.next = true;
            self.refill.next = true;
            self.wcls.next = self.kc[0].val();
        } else if self.wfound[2].val() {
            self.wpk.next = self.wpick[2].val();
            self.wcls_on.next = true;
            self.refill.next = true;
            self.wcls.next = self.kc[1].val();
        } else if self.wfound[3].val() {
            self.wpk.next = self.wpick[3].val();
            self.wcls_on.next = true;
            self.refill.next = true;
            self.wcls.next = self.kc[2].val();
        } else {
            self.wany.next = false;
        }
        self.fnd.next = self.rr_found.val();
        self.pk.next = self.rr_pick.val();
        if self.wrr_on.val() {
            self.fnd.next = self.wany.val();
            self.pk.next = self.wpk.val();
        }
        self.found.next = self.fnd.val();
        self.pick.next = self.pk.val();
        if self.take.val() & self.fnd.val() {
            self.last.d.next = self.pk.val();
            if self.wrr_on.val() & !self.qr[0].val() & !self.wcls_on.val() {
                self.wlast[0].d.next = self.wpk.val();
            }
            if self.wrr_on.val() & self.wcls_on.val() {
                for c in 0..3 {
                    if self.refill.val() {
                        self.credit[c].d.next = self.weight[c].val();
                    }
                    if self.wcls.val() == self.kc[c].val() {
                        self.wlast[c + 1].d.next = self.wpk.val();
                        if self.refill.val() {
                            self.credit[c].d.next = self.weight[c].val() - self.one8.val();
                        } else {
                            self.credit[c].d.next = self.credit[c].q.val() - self.one8.val();
                        }
                    }
                }
            }
        }
        // Class of a created SQ.
        if self.qc_valid.val() & self.qc_sq.val() {
            for i in 1..9 {
                if self.qc_qid.val() == self.kq[i].val() {
                    self.prio[i].d.next = self.qc_prio.val();
                }
            }
        }
    }
}

/// Generated Verilog of the block (top module `top`).
pub fn export_verilog(arb: Arbitration) -> String {
    crate::verilog_of(SqArbiter::new(arb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcie::rq_mux::simulate_settle;

    #[test]
    fn sq_arbiter_is_synthesizable() {
        crate::test_support::yosys_validate(
            "ssdlab_sq_arbiter",
            &export_verilog(Arbitration::Weighted([3, 2, 1])),
        )
        .unwrap();
    }

    /// Weights 3/2/1, SQ1 high, SQ2 medium, SQ3 low, SQ4 urgent (ready for the first two
    /// picks only), admin ready at pick 9: by hand, 4 4 | 1 1 1 2 2 3 | 0 | 1 1 1 2 2 3.
    #[test]
    fn weighted_round_robin_by_hand() {
        let mut uut = SqArbiter::new(Arbitration::Weighted([3, 2, 1]));
        uut.connect_all();
        let clock = |uut: &mut SqArbiter, clk: bool| {
            uut.clock.next = Clock { clk };
            simulate_settle(uut);
        };
        for (q, p) in [(1u64, 1u64), (2, 2), (3, 3), (4, 0)] {
            uut.qc_valid.next = true;
            uut.qc_sq.next = true;
            uut.qc_qid.next = bits::<4>(q);
            uut.qc_prio.next = bits::<2>(p);
            clock(&mut uut, false);
            clock(&mut uut, true);
        }
        uut.qc_valid.next = false;
        let mut got = Vec::new();
        for i in 0..15 {
            let mut r = 0b0_0000_1110u64;
            if i < 2 {
                r |= 1 << 4;
            }
            if i == 8 {
                r |= 1;
            }
            uut.ready.next = bits::<9>(r);
            uut.take.next = true;
            clock(&mut uut, false);
            assert!(uut.found.val());
            got.push(uut.pick.val().to_u64());
            clock(&mut uut, true);
        }
        assert_eq!(got, vec![4, 4, 1, 1, 1, 2, 2, 3, 0, 1, 1, 1, 2, 2, 3]);
    }
}
