//! Data bursts at the pins of the pin-level target (ONFI 4.1 section 4.17, NV-DDR2/NV-DDR3):
//! data in latches DQ on every DQS edge the controller drives, after a DQS-low preamble
//! (tWPRE, first edge no sooner than tADL after the last address latch) and before a DQS-low
//! postamble (tWPST); data out answers every RE# edge after a RE#-low preamble (tRPRE, RE#
//! falling no sooner than tWHR / tCCS after the last command and tRR after R/B#) with a byte
//! and a DQS edge tDQSRE later, until RE# returns high after its postamble (tRPST).

use super::{OnfiPinTarget, PinPhase};
use crate::devices::onfi_pins::HostPins;

/// Data-in burst state.
#[derive(Clone, Copy, Debug, Default)]
pub struct DataIn {
    /// Quarter cycle DQS started to be driven (preamble start), while driven.
    since: Option<u64>,
    edges: u32,
    last_edge: u64,
    way: Option<usize>,
}

/// Data-out burst state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Out {
    #[default]
    Idle,
    /// RE# low before the first edge.
    Pre,
    /// Edges; RE# low after the last one is the postamble.
    Burst,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct DataOut {
    state: Out,
    start: u64,
    last: u64,
    edges: u32,
    way: Option<usize>,
}

impl OnfiPinTarget {
    /// DQS edges driven by the controller: preamble, data bytes, postamble.
    pub(super) fn data_in_edges(&mut self, p: &HostPins) {
        let q = self.prev;
        let pins = self.onfi.pins.clone();
        if p.dqs_oe && !q.dqs_oe {
            self.din = DataIn {
                since: Some(self.h),
                ..Default::default()
            };
            if p.dqs {
                self.violate("tWPRE", "DQS preamble starts high".into());
            }
        } else if p.dqs_oe && q.dqs_oe && p.dqs != q.dqs {
            let since = self.din.since.unwrap_or(self.h);
            if self.din.edges == 0 {
                self.at_least("tWPRE", self.h - since, pins.t_wpre_ns);
                self.din.way = self.selected(p, "data in");
                if let Some(a) = self.din.way.and_then(|w| self.last_addr[w]) {
                    self.at_least("tADL", self.h - a, self.onfi.t_adl_ns);
                }
            }
            if !p.dq_oe {
                self.violate("DQ", "DQS edge with DQ not driven".into());
            }
            self.bytes_in.push(p.dq);
            if let Some(w) = self.din.way {
                let n = self.cycle();
                self.ways[w].data_in(n, &[p.dq]);
            }
            self.din.edges += 1;
            self.din.last_edge = self.h;
        } else if !p.dqs_oe && q.dqs_oe {
            if self.din.edges > 0 {
                self.at_least("tWPST", self.h - self.din.last_edge, pins.t_wpst_ns);
            }
            if q.dqs {
                self.violate("tWPST", "DQS released high (no postamble)".into());
            }
            let since = self.din.since.unwrap_or(self.h);
            self.phases.push(PinPhase::DataIn {
                quarters: self.h - since,
                edges: self.din.edges,
            });
            self.din.since = None;
        }
    }

    /// RE# edges: preamble, one byte per edge, postamble, return high.
    pub(super) fn data_out_edges(&mut self, p: &HostPins) {
        let q = self.prev;
        let pins = self.onfi.pins.clone();
        let (fell, rose) = (q.re && !p.re, !q.re && p.re);
        match self.dout.state {
            Out::Idle if fell => {
                self.dout = DataOut {
                    state: Out::Pre,
                    start: self.h,
                    ..Default::default()
                };
                self.dout.way = self.selected(p, "RE# low");
                if let Some(w) = self.dout.way {
                    self.check_re_fall(w);
                }
            }
            Out::Pre if rose => {
                self.at_least("tRPRE", self.h - self.dout.start, pins.t_rpre_ns);
                self.dout.state = Out::Burst;
                self.out_byte();
            }
            Out::Burst if rose && self.h - self.dout.last > 4 => {
                self.at_least("tRPST", self.h - self.dout.last, pins.t_rpst_ns);
                self.end_out();
            }
            Out::Burst if fell || rose => self.out_byte(),
            Out::Burst if p.re && self.h - self.dout.last > 4 => {
                self.violate("tRPST", "RE# ended high with no postamble".into());
                self.end_out();
            }
            _ => {}
        }
    }

    fn end_out(&mut self) {
        self.phases.push(PinPhase::DataOut {
            quarters: self.h - self.dout.start,
            edges: self.dout.edges,
        });
        self.dout.state = Out::Idle;
    }

    /// The byte of one RE# edge, driven with its DQS edge tDQSRE (in whole cycles) later.
    fn out_byte(&mut self) {
        let Some(w) = self.dout.way else {
            return;
        };
        let n = self.cycle();
        let b = self.ways[w].data_out(n, 1)[0];
        self.dout.edges += 1;
        self.dout.last = self.h;
        self.bytes_out.push(b);
        let delay = 4 * self.onfi.cycles_ceil(self.onfi.pins.t_dqsre_ns) as u64;
        let dqs = self.dout.edges % 2 == 1;
        self.out_q.push_back((self.h + delay, b, dqs));
    }
}
