//! rust_hdl tests of the NAND array: synthesizability, and its clock crossing against the model
//! (`ssdlab_model::ctrl::nand_crossing::NandCrossing`) with the PCIe clock at 250 MHz and the
//! sequencer clock at sm2262-512g's 200 MHz, both starting at time 0 (every fifth PCIe edge
//! coincides with a sequencer edge; both clocks then rise in one settle, so each side samples
//! the other's pre-edge values, the model's "strictly after").
//!
//! The crossing run offers ops on the PCIe side and records the sequencer cycle each enters
//! its way queue (the channel's `cmd_ready` with the FIFO's head offered) and the PCIe cycle of each completion (`done_valid`). The same
//! ops are then run on an array without a crossing, clocked by the sequencer clock alone, each
//! offered in the cycle the crossing run took it in: its completions give the sequencer edges
//! the crossing run's completions were pushed at. Checked: every op is taken at
//! `NandCrossing::op_seen`, every completion is seen at `NandCrossing::completion_seen`, and the
//! two runs take and complete the same ops in the same sequencer cycles.

use super::*;
use crate::nand::op::{pack_op, HdlOp};
use ssdlab_model::ctrl::nand_crossing::NandCrossing;
use ssdlab_model::nand::NandOpKind;
use ssdlab_model::{DriveConfig, SimTime};

const PCIE_PS: u64 = 4_000;

#[test]
fn nand_array_is_synthesizable() {
    let t = HdlTiming::new(&DriveConfig::default_drive().onfi, 1 << 10).unwrap();
    let vlog = crate::verilog_of(NandArray::new(&t, 8, 4, true));
    crate::test_support::yosys_validate("ssdlab_nand_array", &vlog).unwrap();
}

/// A one-channel, two-way array between a host that offers ops and two NAND targets that are
/// always ready and answer every data-out beat a cycle later with E0h (status: ready, pass).
struct Bench {
    u: Box<NandArray>,
    cross: bool,
    nand_ps: u64,
    /// The next rising edge of each clock, ps (the first ones at one period: the edges at time
    /// 0 only load the reset state).
    next_pcie: u64,
    next_nand: u64,
    /// The previous sequencer cycle's data-out beat.
    rd_beat: bool,
}

/// What a run saw, per op in offer order: (cycle taken on the command port, sequencer cycle
/// it entered its way queue), and the completions: (way, cycle), PCIe cycles with a crossing.
#[derive(Debug, Default)]
struct Seen {
    taken: Vec<u64>,
    entered: Vec<u64>,
    done: Vec<(u8, u64)>,
}

impl Bench {
    fn new(cross: bool) -> Self {
        let onfi = DriveConfig::default_drive().onfi;
        let t = HdlTiming::new(&onfi, 1 << 10).unwrap();
        let mut u = Box::new(NandArray::new(&t, 1, 2, cross));
        u.connect_all();
        u.phy[0].rb.next = bits::<8>(0xFF);
        u.phy[0].dq_in.next = bits::<32>(0xE0);
        crate::settle(&mut *u, 64, "nand array");
        Bench {
            u,
            cross,
            nand_ps: onfi.core_period().as_ps(),
            next_pcie: PCIE_PS,
            next_nand: onfi.core_period().as_ps(),
            rd_beat: false,
        }
    }

    /// The cycle of the command port's clock that its next rising edge ends (cycle k runs
    /// from edge k to edge k + 1, at k periods).
    fn host_cycle(&self) -> u64 {
        if self.cross {
            self.next_pcie / PCIE_PS - 1
        } else {
            self.next_nand / self.nand_ps - 1
        }
    }

    /// Advances to the next rising edge of either clock (both at coincident edges), with the
    /// inputs set so far; returns which clocks rose (PCIe, sequencer).
    fn edge(&mut self, seen: &mut Seen) -> (bool, bool) {
        let t = self.next_pcie.min(self.next_nand);
        let pcie = self.cross && self.next_pcie == t;
        let nand = self.next_nand == t;
        crate::settle(&mut *self.u, 64, "nand array");
        // Before the edge: what the ending cycles show.
        if nand && self.u.c_valid[0].val() && self.u.channels[0].cmd_ready.val() {
            seen.entered.push(t / self.nand_ps - 1);
        }
        let done_clock = if self.cross { pcie } else { nand };
        if done_clock && self.u.done_valid[0].val() {
            let period = if self.cross { PCIE_PS } else { self.nand_ps };
            seen.done
                .push((self.u.done_way[0].val().index() as u8, t / period - 1));
        }
        let beat = self.u.phy[0].rd_beat.val();
        self.u.pcie_clock.next = Clock { clk: pcie };
        self.u.clock.next = Clock { clk: nand };
        crate::settle(&mut *self.u, 64, "nand array");
        self.u.pcie_clock.next = Clock { clk: false };
        self.u.clock.next = Clock { clk: false };
        if nand {
            // The targets answer the data-out beat of the cycle that ended, one cycle later.
            self.u.phy[0].dq_in_valid.next = self.rd_beat;
            self.rd_beat = beat;
            self.next_nand += self.nand_ps;
        }
        if self.next_pcie == t {
            self.next_pcie += PCIE_PS;
        }
        (pcie, nand)
    }

    /// Offers `ops` ((way, op word), each from host cycle `at` on, in order, held until taken),
    /// then clocks until `n_done` completions were seen or `max_ps` passed.
    fn run(mut self, ops: &[(u64, u8, u128)], n_done: usize, max_ps: u64) -> Seen {
        let mut seen = Seen::default();
        let mut k = 0;
        while self.next_nand < max_ps && seen.done.len() < n_done {
            let offer = ops.get(k).filter(|o| o.0 <= self.host_cycle());
            if let Some(&(_, way, op)) = offer {
                let u = &mut self.u;
                (u.cmd_valid.next, u.cmd_channel.next) = (true, bits::<4>(0));
                (u.cmd_way.next, u.cmd_op.next) = (bits::<3>(way as u64), op.to_bits());
                crate::settle(&mut *self.u, 64, "nand array");
            } else {
                self.u.cmd_valid.next = false;
            }
            let cycle = self.host_cycle();
            let ready = self.u.cmd_ready.val();
            let (pcie, nand) = self.edge(&mut seen);
            let host_edge = if self.cross { pcie } else { nand };
            if host_edge && offer.is_some() && ready {
                seen.taken.push(cycle);
                k += 1;
            }
        }
        assert_eq!(seen.done.len(), n_done, "{seen:?}");
        seen
    }
}

fn op(kind: NandOpKind, row: u32) -> u128 {
    pack_op(&HdlOp {
        kind,
        planes: 1,
        row,
        data_cycles: if kind == NandOpKind::Erase { 0 } else { 4 },
        pages: 1,
        column: 0,
    })
}

#[test]
fn ops_and_completions_cross_as_the_model_charges() {
    let onfi = DriveConfig::default_drive().onfi;
    let x = NandCrossing::new(&onfi).expect("200 MHz is not the PCIe clock");
    let nand_ps = onfi.core_period().as_ps();
    // A burst of five ops in consecutive PCIe cycles (more than the FIFO's four entries), then
    // two more later: reads and erases on both ways.
    let (r, e) = (NandOpKind::Read, NandOpKind::Erase);
    let plan = [
        (3, 0, op(r, 1)),
        (3, 1, op(e, 2)),
        (3, 0, op(r, 3)),
        (3, 1, op(r, 4)),
        (3, 0, op(e, 5)),
        (41, 1, op(r, 6)),
        (90, 0, op(r, 7)),
    ];
    let crossed = Bench::new(true).run(&plan, plan.len(), 40_000_000);
    // Each op entered its way queue at the sequencer cycle the model computes from the PCIe
    // cycle it was taken in, one op per sequencer cycle.
    let mut prev = None;
    for (k, &taken) in crossed.taken.iter().enumerate() {
        let seen = x.op_seen(SimTime::from_ps(taken * PCIE_PS), prev);
        prev = Some(seen);
        assert_eq!(
            crossed.entered[k] * nand_ps,
            seen.as_ps(),
            "op {k} taken in PCIe cycle {taken}: {crossed:?}"
        );
    }
    assert!(
        crossed.taken[4] > crossed.taken[3] + 1,
        "the fifth op of the burst waits for FIFO room: {crossed:?}"
    );
    // The same ops on one clock, each offered in the sequencer cycle it entered above.
    let one: Vec<_> = plan
        .iter()
        .zip(&crossed.entered)
        .map(|(&(_, w, o), &c)| (c, w, o))
        .collect();
    let direct = Bench::new(false).run(&one, plan.len(), 40_000_000);
    assert_eq!(direct.entered, crossed.entered, "taken in the same cycles");
    assert_eq!(
        direct.taken, crossed.entered,
        "offered when the crossing run took them"
    );
    let seen: Vec<(u8, u64)> = direct
        .done
        .iter()
        .map(|&(w, c)| {
            let t = x.completion_seen(SimTime::from_ps(c * nand_ps));
            (w, t.as_ps() / PCIE_PS)
        })
        .collect();
    assert_eq!(crossed.done, seen, "completions at the model's PCIe cycles");
}
