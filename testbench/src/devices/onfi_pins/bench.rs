//! Bench of the ONFI PHY at the pins: bus-engine-like beat stimulus (the beat port as
//! `hdl::nand::bus_engine` drives it: CE mask for the whole phase, CLE/ALE held for each
//! tWC-long latch window with the strobe in its first cycle, HOLD waits, data beats) into the
//! PHY (`ssdlab_hdl::nand::phy::OnfiPhy`, rust_hdl or Verilated: [`PhyDut`]), its
//! per-quarter pins into the [`OnfiPinTarget`] four quarter cycles per core cycle, the
//! target's DQ back through the io wrapper's round trip
//! (`IO_ROUND_TRIP`, modelled as a delay on the way in), and R/B# back to the stimulus, which
//! waits for it like a way FSM (2-flop synchronizer, then tRR).

use super::dut::{PhyDut, PhyIn};
use super::OnfiPinTarget;
use ssdlab_model::nand::phy::IO_ROUND_TRIP;
use ssdlab_model::nand::sequencer::SeqTiming;
use std::collections::VecDeque;

/// The beat port in one core cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beat {
    pub ce: u8,
    pub cle: bool,
    pub ale: bool,
    pub we: bool,
    pub dq: u32,
    pub wr: bool,
    pub rd: bool,
}

/// One step of the stimulus.
#[derive(Clone, Debug)]
pub enum Step {
    Beats(Vec<Beat>),
    /// `t_wb` cycles (the way FSM's Twb: R/B# is not looked at before), then until R/B# of
    /// the way is ready through a 2-flop synchronizer, then `t_rr` cycles.
    WaitReady {
        way: u8,
        t_wb: u32,
        t_rr: u32,
    },
}

/// Builds the beats of bus-engine phases for one way with the sequencer's counts.
pub struct Phases {
    pub t: SeqTiming,
    pub way: u8,
}

impl Phases {
    fn ce(&self) -> u8 {
        1 << self.way
    }
    /// A command latch: `latch` cycles of CLE, the strobe in the first.
    pub fn cmd(&self, b: u8) -> Vec<Beat> {
        (0..self.t.latch)
            .map(|i| Beat {
                ce: self.ce(),
                cle: true,
                we: i == 0,
                dq: b as u32,
                ..Default::default()
            })
            .collect()
    }
    /// Address latches, one `latch`-cycle window per byte, ALE held across them.
    pub fn addr(&self, bytes: &[u8]) -> Vec<Beat> {
        bytes
            .iter()
            .flat_map(|&b| (0..self.t.latch).map(move |i| (b, i)))
            .map(|(b, i)| Beat {
                ce: self.ce(),
                ale: true,
                we: i == 0,
                dq: b as u32,
                ..Default::default()
            })
            .collect()
    }
    /// A HOLD segment (tADL, tWHR, tCCS) with CE held.
    pub fn hold(&self, cycles: u32) -> Vec<Beat> {
        vec![
            Beat {
                ce: self.ce(),
                ..Default::default()
            };
            cycles as usize
        ]
    }
    /// Data in: `bytes` in beats of `bytes_per_cycle` (byte 0 in 7:0).
    pub fn data_in(&self, bytes: &[u8]) -> Vec<Beat> {
        bytes
            .chunks(self.t.bytes_per_cycle as usize)
            .map(|c| Beat {
                ce: self.ce(),
                wr: true,
                dq: c
                    .iter()
                    .enumerate()
                    .fold(0, |a, (i, &b)| a | (b as u32) << (8 * i)),
                ..Default::default()
            })
            .collect()
    }
    /// Data out of `bytes`: read beats.
    pub fn data_out(&self, bytes: u32) -> Vec<Beat> {
        (0..bytes.div_ceil(self.t.bytes_per_cycle))
            .map(|_| Beat {
                ce: self.ce(),
                rd: true,
                ..Default::default()
            })
            .collect()
    }
}

/// The PHY against the pin-level target.
pub struct PhyBench<D: PhyDut> {
    pub phy: D,
    pub target: OnfiPinTarget,
    pub cycle: u64,
    rb: u8,
    /// R/B# as the PHY passes it to the beat port, last cycle.
    beat_rb: u8,
    /// Target DQ quarters (quarter k in bits 8k+7:8k) on their way back through the io wrapper.
    back: VecDeque<u32>,
    /// Bytes the PHY returned on `beat_dq_in`, and the cycles of its valid beats.
    pub read: Vec<u8>,
    pub read_valid_cycles: Vec<u64>,
    /// Cycles of the read beats offered.
    pub rd_cycles: Vec<u64>,
    bpc: usize,
}

impl<D: PhyDut> PhyBench<D> {
    pub fn new(phy: D, target: OnfiPinTarget, bytes_per_cycle: u32) -> Self {
        PhyBench {
            phy,
            target,
            cycle: 0,
            rb: 0xFF,
            beat_rb: 0xFF,
            back: (0..IO_ROUND_TRIP).map(|_| 0).collect(),
            read: Vec::new(),
            read_valid_cycles: Vec::new(),
            rd_cycles: Vec::new(),
            bpc: bytes_per_cycle as usize,
        }
    }

    /// One core cycle with `b` on the beat port.
    pub fn cycle(&mut self, b: Beat) {
        let dq_in = self.back.pop_front().unwrap_or_default();
        let u = self.phy.eval(&PhyIn {
            beat: b,
            rb_n: self.rb,
            dq_in,
        });
        if b.rd {
            self.rd_cycles.push(self.cycle);
        }
        if u.beat_dq_in_valid {
            let w = u.beat_dq_in;
            self.read
                .extend((0..self.bpc).map(|i| (w >> (8 * i)) as u8));
            self.read_valid_cycles.push(self.cycle);
        }
        self.beat_rb = u.beat_rb;
        let (back, rb) = self.target.step_cycle(&u);
        self.back.push_back(back);
        self.rb = rb;
        self.phy.tick();
        self.cycle += 1;
    }

    /// Runs `steps`, then `tail` idle cycles; a wait longer than `max_wait` cycles panics.
    pub fn run(&mut self, steps: &[Step], tail: u32, max_wait: u64) {
        for s in steps {
            match s {
                Step::Beats(v) => v.iter().for_each(|&b| self.cycle(b)),
                Step::WaitReady { way, t_wb, t_rr } => {
                    (0..*t_wb).for_each(|_| self.cycle(Beat::default()));
                    let start = self.cycle;
                    // R/B# through two flip-flops, as the way FSM samples it.
                    let mut sync = [false; 2];
                    while !sync[1] {
                        assert!(self.cycle - start < max_wait, "R/B# never ready");
                        let ready = self.beat_rb & (1 << way) != 0;
                        sync = [ready, sync[0]];
                        self.cycle(Beat::default());
                    }
                    (0..*t_rr).for_each(|_| self.cycle(Beat::default()));
                }
            }
        }
        (0..tail).for_each(|_| self.cycle(Beat::default()));
    }
}
