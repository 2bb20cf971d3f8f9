//! Sequential-read benchmark of the datapath (issue #9 target: "sequential 128 KiB reads: NAND
//! buses >= 95 % busy and PCIe payload throughput within 5 % of the model's prediction"): a
//! NAND-bound drive, a bus-occupancy meter on each execution, and the steady-state window.
//!
//! **NAND-bound drive** ([`seqread_config`]): the co-simulation drive (`setup::cosim_config`)
//! with the ONFI bus at 250 MT/s = 1 byte per 250 MHz core cycle, so 8 channels x 250 MB/s =
//! 2 GB/s stay below PCIe Gen3 x4's ~3.5 GB/s of payload (at 1000 MT/s the 8 GB/s of NAND
//! buses can never be busy: the link is the bottleneck). Per 4 KiB page on a channel (tWC 25 ns
//! = 7 cycles): the read's first phase 00h + 5 address + 30h = 7 x 7 = 49 cycles, its data-out
//! phase 4 + 4096 + 7 cycles (the PHY's RE# preamble, the beats, its postamble), one turnaround
//! cycle after each phase: 4158 cycles of bus per page, so the NAND-bound payload ceiling is
//! 8 x 4096 B / (4158 x 4 ns) = 1.970 GB/s and the bus can be held (a phase on it) 4156 / 4158
//! = 99.95 % of the time. A way's own cycle is 49 + tWB and tR (8 us = 2000 cycles) + 4107 +
//! the data move to the host (~289 cycles for 4 KiB) — 4 ways ask 4 x 4158 = 16 632 bus cycles
//! per round against about 6 500 of one way's own, so a way has
//! ~10 000 cycles of slack to wait for the bus and the DMA queue: single-buffered regions do
//! not idle the bus as long as every way has its next read queued.
//!
//! **Bus occupancy** (per channel): a cycle is busy when a bus phase holds the channel — the
//! chip enable of one way is asserted on the pins (`phy$i$ce` != 0: command and address latches,
//! the holds inside a phase, data beats). The hardware executions take it from the pins as the
//! bench's NAND side reads them each cycle (`HwExec::bus_ce`); the model execution from its
//! sequencers' held-cycle counters (`ChannelSequencer::bus_cycles_until_now`), which count
//! the same phases. **Window**: with N commands at queue depth q the host keeps q commands
//! outstanding until the (N - q)-th completion; the window runs from the q-th completion (the
//! first wave, which starts every way at once, is ramp-up) to the (N - q)-th (after it the
//! queue drains): busy fraction = busy cycles in the window / window cycles. **PCIe payload
//! throughput** = payload bytes of data TLPs (MWr to host data buffers, plus MRd lengths of
//! host-to-device moves, whose CplD carry them) with their cycle in the window, / (window
//! cycles x 4 ns).

use super::exec::{run, DatapathExec, RunLimits};
use super::hw_exec::HwExec;
use super::model_exec::ModelExec;
use super::port::{Offer, Streams, Taken, TlpClass};
use super::scoreboard::{compare, Checked, Divergence};
use super::setup::{cosim_config, stimulus};
use super::sig::{DatapathDut, CHANNELS};
use crate::devices::root_complex::RootComplex;
use ssdlab_model::config::DriveConfig;
use ssdlab_model::nvme::frontend::tlp::{Cycle, TlpKind};
use std::collections::BTreeMap;

/// ONFI transfer rate of the NAND-bound drive: 1 byte per 250 MHz core cycle.
pub const SEQREAD_MTS: u32 = 250;
/// Core clock period, ns (250 MHz).
pub const CYCLE_NS: f64 = 4.0;

/// The co-simulation drive with the ONFI bus at `transfer_mts` (250, 500 or 1000).
pub fn seqread_config(transfer_mts: u32) -> DriveConfig {
    let mut cfg = cosim_config();
    cfg.onfi.transfer_mts = transfer_mts;
    cfg
}

/// A sequential read job: `ios` reads of `bs_kib` KiB at queue depth `iodepth` over the first
/// `size_mib` MiB (preconditioned sequentially by the stimulus).
pub fn seqread_job(bs_kib: u32, iodepth: u32, ios: u64, size_mib: u32) -> String {
    format!(
        "[seqread]\nrw=read\nbs={bs_kib}k\niodepth={iodepth}\nsize={size_mib}m\nnumber_ios={ios}\n"
    )
}

/// Busy intervals `[start, end)` of each channel's bus, in cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BusLog {
    pub busy: Vec<Vec<(Cycle, Cycle)>>,
}

impl BusLog {
    pub fn new(channels: usize) -> Self {
        BusLog {
            busy: vec![Vec::new(); channels],
        }
    }

    /// Cycle `c` (increasing from call to call) is busy on channel `ch`.
    pub fn mark(&mut self, ch: usize, c: Cycle) {
        let v = &mut self.busy[ch];
        match v.last_mut() {
            Some(last) if last.1 == c => last.1 = c + 1,
            Some(last) => {
                assert!(
                    last.1 < c,
                    "bus log of channel {ch}: cycle {c} marked out of order"
                );
                v.push((c, c + 1));
            }
            None => v.push((c, c + 1)),
        }
    }

    /// Busy cycles of channel `ch` in `[from, to)`.
    pub fn busy_cycles(&self, ch: usize, from: Cycle, to: Cycle) -> u64 {
        self.busy[ch]
            .iter()
            .map(|&(s, e)| e.min(to).saturating_sub(s.max(from)))
            .sum()
    }
}

/// An execution whose NAND bus occupancy can be read cycle by cycle.
pub trait BusProbe: DatapathExec {
    /// Busy channels (bit ch) in the cycle just run; `held` carries per-channel state between
    /// calls (the model's held-cycle counters).
    fn bus_mask(&mut self, held: &mut [u64; CHANNELS]) -> u16;
}

impl BusProbe for ModelExec {
    fn bus_mask(&mut self, held: &mut [u64; CHANNELS]) -> u16 {
        let mut m = 0;
        for (ch, h) in held.iter_mut().enumerate() {
            let now = self.bus_cycles(ch);
            debug_assert!(
                now <= *h + 1,
                "channel {ch}: more than one held cycle per cycle"
            );
            if now > *h {
                m |= 1 << ch;
            }
            *h = now;
        }
        m
    }
}

impl<D: DatapathDut> BusProbe for HwExec<D> {
    /// The CE pins as the bench's NAND side read them in the cycle (`HwExec::bus_ce`).
    fn bus_mask(&mut self, _held: &mut [u64; CHANNELS]) -> u16 {
        self.bus_ce
    }
}

/// An execution with a bus meter around it.
pub struct Metered<'a, X: BusProbe> {
    pub x: &'a mut X,
    pub log: BusLog,
    held: [u64; CHANNELS],
}

impl<'a, X: BusProbe> Metered<'a, X> {
    pub fn new(x: &'a mut X) -> Self {
        Metered {
            x,
            log: BusLog::new(CHANNELS),
            held: [0; CHANNELS],
        }
    }
}

impl<X: BusProbe> DatapathExec for Metered<'_, X> {
    fn name(&self) -> &'static str {
        self.x.name()
    }
    fn rc(&mut self) -> &mut RootComplex {
        self.x.rc()
    }
    fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32) {
        self.x.mmio_write(cycle, offset, value)
    }
    fn cycle(&mut self, c: Cycle, offer: &Offer, ev: &mut Vec<super::port::HwEvent>) -> Taken {
        let t = self.x.cycle(c, offer, ev);
        let mask = self.x.bus_mask(&mut self.held);
        for ch in 0..CHANNELS {
            if mask >> ch & 1 != 0 {
                self.log.mark(ch, c);
            }
        }
        t
    }
    fn error(&self) -> Option<String> {
        self.x.error()
    }
}

/// Runs `job` (preconditioned) on `x` with a bus meter; every command of the job is issued.
pub fn run_metered<X: BusProbe>(
    x: &mut X,
    cfg: &DriveConfig,
    job: &str,
    seed: u64,
    max_cycles: Cycle,
) -> Result<(Streams, BusLog), String> {
    let (mut fw, mut host) = stimulus(cfg, job, seed, true)?;
    let mut m = Metered::new(x);
    let lim = RunLimits {
        submit_until: u64::MAX,
        max_cycles,
        seed,
    };
    let s = run(&mut m, &mut fw, &mut host, lim)?;
    Ok((s, m.log))
}

/// The sequential-read figures of one execution.
#[derive(Clone, Debug, PartialEq)]
pub struct SeqFigures {
    /// Steady-state window `[start, end)`, cycles.
    pub window: (Cycle, Cycle),
    /// Per channel: busy cycles / window cycles.
    pub bus_busy: Vec<f64>,
    /// Data payload bytes in the window.
    pub payload_bytes: u64,
}

impl SeqFigures {
    /// PCIe payload throughput in the window, GB/s (10^9 bytes per second).
    pub fn gbps(&self) -> f64 {
        self.payload_bytes as f64 / ((self.window.1 - self.window.0) as f64 * CYCLE_NS)
    }
    pub fn min_busy(&self) -> f64 {
        self.bus_busy.iter().copied().fold(f64::INFINITY, f64::min)
    }
    pub fn mean_busy(&self) -> f64 {
        self.bus_busy.iter().sum::<f64>() / self.bus_busy.len().max(1) as f64
    }
}

/// The figures of a run of N commands at queue depth `qd` (see the module doc's window).
pub fn figures(s: &Streams, log: &BusLog, qd: usize) -> Result<SeqFigures, String> {
    let mut cyc: Vec<Cycle> = s.cpl.iter().map(|c| c.cycle).collect();
    cyc.sort_unstable();
    let n = cyc.len();
    if qd == 0 || n < 3 * qd {
        return Err(format!(
            "{n} completions at queue depth {qd}: the window needs at least 3 x {qd}"
        ));
    }
    let (start, end) = (cyc[qd - 1], cyc[n - qd - 1]);
    if end <= start {
        return Err(format!("empty window [{start}, {end})"));
    }
    let payload_bytes = s
        .tlps
        .iter()
        .filter(|(class, t)| {
            matches!(class, TlpClass::Data(_))
                && matches!(t.kind, TlpKind::MemWrite | TlpKind::MemRead)
                && (start..end).contains(&t.cycle)
        })
        .map(|(_, t)| t.len as u64)
        .sum();
    let bus_busy = (0..log.busy.len())
        .map(|ch| log.busy_cycles(ch, start, end) as f64 / (end - start) as f64)
        .collect();
    Ok(SeqFigures {
        window: (start, end),
        bus_busy,
        payload_bytes,
    })
}

/// Event streams compared without completion times, and the completion-latency check apart
/// (the ±2 % check is qd's area at queue depth > 1).
#[derive(Clone, Debug)]
pub struct Agreement {
    /// Event streams (TLPs, NAND ops, map decisions, completion order and status).
    pub events: Result<Checked, Divergence>,
    /// Largest relative doorbell-to-CQE latency difference over matched completions.
    pub worst_latency: f64,
}

/// Compares the streams of `got` with the reference `want`, events and latencies apart.
pub fn agreement(want: &Streams, got: &Streams, seed: u64) -> Agreement {
    let untimed = |s: &Streams| {
        let mut s = s.clone();
        s.cpl
            .iter_mut()
            .for_each(|c| (c.submitted, c.cycle) = (0, 0));
        s
    };
    let events = compare(&untimed(want), &untimed(got), seed);
    let slots = |s: &Streams| {
        let mut m: BTreeMap<(u16, u16), Vec<u64>> = BTreeMap::new();
        s.cpl.iter().for_each(|c| {
            m.entry((c.sqid, c.cid))
                .or_default()
                .push(c.cycle - c.submitted)
        });
        m
    };
    let (w, g) = (slots(want), slots(got));
    let mut worst = 0f64;
    for (k, wl) in &w {
        for (a, b) in wl.iter().zip(g.get(k).map_or(&[][..], |v| &v[..])) {
            worst = worst.max(a.abs_diff(*b) as f64 / (*a).max(1) as f64);
        }
    }
    Agreement {
        events,
        worst_latency: worst,
    }
}

#[cfg(test)]
mod tests;
