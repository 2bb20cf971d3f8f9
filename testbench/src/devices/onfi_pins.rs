//! Pin-level NAND target (plain Rust, like rust-hdl-sim's SDRAM chip model): samples the ONFI
//! 4.x pins of one channel every quarter core cycle (the PHY's per-quarter values: up to 4 DQS
//! or RE# edges per cycle at 800 MT/s on a 200 MHz core clock), decodes WE# rising edges into
//! command and
//! address latches and DQS / RE# edges into data bytes (NV-DDR2/NV-DDR3), and checks the pin
//! timing a controller PHY must meet against the NAND's own `[onfi]` / `[onfi.pins]` values in
//! nanoseconds: tWC, tWP, tWH, tCLS, tCLH, tALS, tALH, tADL, tWPRE, tWPST, tWHR, tCCS, tRR,
//! tRPRE, tRPST (ONFI 4.1 sections 4.16-4.17). A violation records the parameter and the
//! quarter cycle; the tests fail on any.
//!
//! The decoded bus cycles go to one beat-level [`NandTarget`] per way (CE#), which keeps the
//! command decoding, the page registers, the flash array and R/B#; it is built with its bus
//! waits at 0 (its cycle checks assume the sequencer's beat boundary; here the pins are checked
//! in ns instead) and keeps tWB and tRCBSY. Data out: the byte of each RE# edge is driven on DQ
//! with a DQS edge `4 * ceil(tDQSRE / period)` quarter cycles later (the latest tDQSRE allows, in
//! whole core cycles: the PHY captures at that fixed latency). A read burst is RE# low
//! (tRPRE), one byte per RE# edge, RE# low again for the postamble (tRPST) and RE# high, which
//! is not a data edge: a rising edge after RE# was low for more than 4 quarter cycles ends it (data
//! edges are at most a cycle apart, the postamble is at least a cycle).
//!
//! Files: this one holds the pins, the state and the latch decoding; `onfi_pins/data.rs` the
//! DQS data-in and RE# data-out bursts; `bench.rs` and `dut.rs` run the PHY against it.

pub mod bench;
pub mod channel;
mod data;
pub mod dut;

use super::nand_target::NandTarget;
use ssdlab_hdl::nand::arbiter::MAX_WAYS;
use ssdlab_model::config::OnfiConfig;
use ssdlab_model::encoding::onfi::CHANGE_COL_2;
use ssdlab_model::nand::sequencer::SeqTiming;
use std::collections::VecDeque;

/// The pins the controller drives, in one quarter core cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostPins {
    /// CE# per way (bit i = way i), active low.
    pub ce_n: u8,
    pub cle: bool,
    pub ale: bool,
    pub we_n: bool,
    /// RE_t (idle high).
    pub re: bool,
    /// DQS_t and whether the controller drives it.
    pub dqs: bool,
    pub dqs_oe: bool,
    pub dq: u8,
    pub dq_oe: bool,
}

impl Default for HostPins {
    fn default() -> Self {
        HostPins {
            ce_n: 0xFF,
            cle: false,
            ale: false,
            we_n: true,
            re: true,
            dqs: false,
            dqs_oe: false,
            dq: 0,
            dq_oe: false,
        }
    }
}

/// The pins the target drives, in one quarter core cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TargetPins {
    /// R/B# per way, 1 = ready.
    pub rb_n: u8,
    pub dq: u8,
    pub dqs: bool,
}

/// One timing or protocol violation: the ONFI parameter (or rule), the quarter cycle, the
/// detail.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub param: &'static str,
    pub quarter: u64,
    pub what: String,
}

/// A decoded bus cycle, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusCycle {
    Command(u8),
    Address(u8),
}

/// What the pins did for one phase, in quarter cycles, for the per-phase counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinPhase {
    /// CLE high for this many quarter cycles.
    Cle(u64),
    /// ALE high (across back-to-back address latches) and its WE# pulses.
    Ale { quarters: u64, latches: u32 },
    /// DQS driven (preamble, edges, postamble) and its data edges.
    DataIn { quarters: u64, edges: u32 },
    /// RE# away from idle (preamble, edges, postamble) and its data edges.
    DataOut { quarters: u64, edges: u32 },
}

/// The pin-level target: one [`NandTarget`] per way behind CE#.
pub struct OnfiPinTarget {
    pub(super) onfi: OnfiConfig,
    pub(super) quarter_ns: f64,
    pub ways: Vec<NandTarget>,
    pub violations: Vec<Violation>,
    /// Every command/address latch, with its way.
    pub bus: Vec<(u8, BusCycle)>,
    /// Bytes latched on DQS edges and bytes driven for RE# edges.
    pub bytes_in: Vec<u8>,
    pub bytes_out: Vec<u8>,
    pub phases: Vec<PinPhase>,
    pub(super) h: u64,
    pub(super) prev: HostPins,
    pub(super) we_fall: u64,
    pub(super) last_we_rise: Option<u64>,
    pub(super) cle_rise: u64,
    pub(super) ale_rise: u64,
    pub(super) ale_latches: u32,
    /// Per way (target): quarter cycle of its last address latch's WE# rise (tADL), of its last
    /// command's (tWHR) and that command byte (tCCS after E0h). ONFI times these between a
    /// target's own cycles: another target's latch in between does not restart them.
    pub(super) last_addr: [Option<u64>; MAX_WAYS],
    pub(super) last_cmd: [Option<(u64, u8)>; MAX_WAYS],
    pub(super) din: data::DataIn,
    pub(super) dout: data::DataOut,
    /// Half cycle R/B# last rose, per way (tRR).
    pub(super) rb_rise: [Option<u64>; MAX_WAYS],
    pub(super) rb_prev: u8,
    pub(super) drive: TargetPins,
    pub(super) out_q: VecDeque<(u64, u8, bool)>,
}

impl OnfiPinTarget {
    /// A channel of `ways` targets with `page_bytes` pages and the NAND's timing `onfi`; row
    /// layout as [`NandTarget`] (`plane_stride`).
    pub fn new(onfi: &OnfiConfig, ways: u8, plane_stride: u32, page_bytes: usize) -> Self {
        let mut t = SeqTiming::new(onfi);
        (t.latch, t.t_adl, t.t_whr, t.t_ccs, t.t_rr, t.rb_lag) = (0, 0, 0, 0, 0, 0);
        OnfiPinTarget {
            onfi: onfi.clone(),
            quarter_ns: 250.0 / onfi.core_clock_mhz as f64,
            ways: (0..ways)
                .map(|w| NandTarget::new(t, plane_stride, w, page_bytes))
                .collect(),
            violations: Vec::new(),
            bus: Vec::new(),
            bytes_in: Vec::new(),
            bytes_out: Vec::new(),
            phases: Vec::new(),
            h: 0,
            prev: HostPins::default(),
            we_fall: 0,
            last_we_rise: None,
            cle_rise: 0,
            ale_rise: 0,
            ale_latches: 0,
            last_addr: [None; MAX_WAYS],
            last_cmd: [None; MAX_WAYS],
            din: Default::default(),
            dout: Default::default(),
            rb_rise: [None; MAX_WAYS],
            rb_prev: 0xFF,
            drive: TargetPins::default(),
            out_q: VecDeque::new(),
        }
    }

    /// The core cycle of the current quarter (the beat-level targets count cycles).
    pub(super) fn cycle(&self) -> u64 {
        self.h / 4
    }

    /// Records `param` violated unless `quarters` quarter cycles reach `min_ns`.
    pub(super) fn at_least(&mut self, param: &'static str, quarters: u64, min_ns: f64) {
        let ns = quarters as f64 * self.quarter_ns;
        if ns + 1e-9 < min_ns {
            self.violate(param, format!("{ns} ns, minimum {min_ns} ns"));
        }
    }

    pub(super) fn violate(&mut self, param: &'static str, what: String) {
        if self.violations.len() < 64 {
            self.violations.push(Violation {
                param,
                quarter: self.h,
                what,
            });
        }
    }

    /// The one way whose CE# is low, or a violation.
    pub(super) fn selected(&mut self, p: &HostPins, what: &str) -> Option<usize> {
        let low: Vec<usize> = (0..self.ways.len())
            .filter(|w| p.ce_n & (1 << w) == 0)
            .collect();
        if low.len() == 1 {
            return Some(low[0]);
        }
        self.violate("CE#", format!("{what} with CE# mask {:#x}", p.ce_n));
        None
    }

    /// One quarter cycle: the controller's pins in, the target's pins out.
    pub fn step(&mut self, p: HostPins) -> TargetPins {
        self.beat_violations_to_pins();
        self.latch_edges(&p);
        self.data_in_edges(&p);
        self.data_out_edges(&p);
        self.prev = p;
        let out = self.outputs();
        self.h += 1;
        out
    }

    /// WE#, CLE and ALE edges: latches and the SDR command/address timing.
    fn latch_edges(&mut self, p: &HostPins) {
        let o = self.onfi.pins.clone();
        let q = self.prev;
        if p.cle && !q.cle {
            self.cle_rise = self.h;
        }
        if p.ale && !q.ale {
            self.ale_rise = self.h;
            self.ale_latches = 0;
        }
        if q.cle && !p.cle {
            self.phases.push(PinPhase::Cle(self.h - self.cle_rise));
            if let Some(r) = self.last_we_rise {
                self.at_least("tCLH", self.h - r, o.t_clh_ns);
            }
        }
        if q.ale && !p.ale {
            self.phases.push(PinPhase::Ale {
                quarters: self.h - self.ale_rise,
                latches: self.ale_latches,
            });
            if let Some(r) = self.last_we_rise {
                self.at_least("tALH", self.h - r, o.t_alh_ns);
            }
        }
        if q.we_n && !p.we_n {
            if let Some(r) = self.last_we_rise {
                self.at_least("tWH", self.h - r, o.t_wh_ns);
            }
            self.we_fall = self.h;
        }
        if !q.we_n && p.we_n {
            self.at_least("tWP", self.h - self.we_fall, o.t_wp_ns);
            if let Some(r) = self.last_we_rise {
                self.at_least("tWC", self.h - r, self.onfi.t_wc_ns);
            }
            self.last_we_rise = Some(self.h);
            self.latch(p);
        }
    }

    /// The latch at a WE# rising edge: a command (CLE) or an address (ALE) byte on DQ.
    fn latch(&mut self, p: &HostPins) {
        let o = self.onfi.pins.clone();
        if !p.dq_oe {
            self.violate("DQ", "latch with DQ not driven".into());
        }
        if !p.re {
            self.violate("RE#", "latch with RE# low".into());
        }
        let Some(w) = self.selected(p, "latch") else {
            return;
        };
        let n = self.cycle();
        match (p.cle, p.ale) {
            (true, false) => {
                self.at_least("tCLS", self.h - self.cle_rise, o.t_cls_ns);
                self.bus.push((w as u8, BusCycle::Command(p.dq)));
                self.last_cmd[w] = Some((self.h, p.dq));
                self.ways[w].command(n, p.dq);
            }
            (false, true) => {
                self.at_least("tALS", self.h - self.ale_rise, o.t_als_ns);
                self.bus.push((w as u8, BusCycle::Address(p.dq)));
                self.ale_latches += 1;
                self.last_addr[w] = Some(self.h);
                self.ways[w].address(n, p.dq);
            }
            _ => self.violate(
                "CLE/ALE",
                format!("WE# rose with CLE {} ALE {}", p.cle, p.ale),
            ),
        }
    }

    /// The earliest RE# fall after the last command: tWHR, or tCCS after E0h.
    pub(super) fn check_re_fall(&mut self, way: usize) {
        if let Some((h, cmd)) = self.last_cmd[way] {
            let (param, ns) = if cmd == CHANGE_COL_2 {
                ("tCCS", self.onfi.t_ccs_ns)
            } else {
                ("tWHR", self.onfi.t_whr_ns)
            };
            self.at_least(param, self.h - h, ns);
        }
        if let Some(r) = self.rb_rise[way] {
            self.at_least("tRR", self.h - r, self.onfi.t_rr_ns);
        }
    }

    /// R/B#, DQ and DQS the target drives this quarter, and R/B# rise times for tRR.
    fn outputs(&mut self) -> TargetPins {
        let n = self.cycle();
        // Absent ways' R/B# pins float high (the board's pull-ups).
        let mut rb = (0xFFu16 << self.ways.len()) as u8;
        for (w, t) in self.ways.iter().enumerate() {
            if t.ready(n) {
                rb |= 1 << w;
            }
        }
        for w in 0..self.ways.len() {
            if rb & !self.rb_prev & (1 << w) != 0 {
                self.rb_rise[w] = Some(self.h);
            }
        }
        self.rb_prev = rb;
        while let Some(&(h, dq, dqs)) = self.out_q.front() {
            if h > self.h {
                break;
            }
            self.out_q.pop_front();
            (self.drive.dq, self.drive.dqs) = (dq, dqs);
        }
        self.drive.rb_n = rb;
        self.drive
    }

    /// The beat-level targets' own violations (sequence rules, busy, page size) as pin ones.
    fn beat_violations_to_pins(&mut self) {
        for w in 0..self.ways.len() {
            for v in std::mem::take(&mut self.ways[w].violations) {
                self.violate("sequence", v);
            }
        }
    }

    /// One core cycle of the PHY's outputs `u` (`onfi_pins::dut::PhyOut`): its four quarters
    /// in, the target's DQ of each quarter (quarter k in bits 8k+7:8k) and R/B# after the last.
    pub fn step_cycle(&mut self, u: &dut::PhyOut) -> (u32, u8) {
        let base = HostPins {
            ce_n: u.ce_n,
            cle: u.cle,
            ale: u.ale,
            we_n: u.we_n,
            dqs_oe: u.dqs_oe,
            dq_oe: u.dq_oe,
            ..Default::default()
        };
        let mut dq = 0u32;
        let mut last = TargetPins::default();
        for k in 0..4 {
            last = self.step(HostPins {
                re: u.re >> k & 1 != 0,
                dqs: u.dqs >> k & 1 != 0,
                dq: (u.dq >> (8 * k)) as u8,
                ..base
            });
            dq |= (last.dq as u32) << (8 * k);
        }
        (dq, last.rb_n)
    }

    /// Every violation, one per line (empty when none).
    pub fn report(&mut self) -> String {
        self.beat_violations_to_pins();
        self.violations
            .iter()
            .map(|v| format!("{} at quarter cycle {}: {}", v.param, v.quarter, v.what))
            .collect::<Vec<_>>()
            .join("\n")
    }
}
