//! One execution of the datapath behind its firmware port, and the loop that runs the shared
//! firmware and host against any execution while recording its transaction streams. Recording
//! happens here, once, from the port's handshakes and events and the root complex's TLP log, so
//! the three executions (model, rust_hdl, Verilator) are recorded identically.

use super::firmware::Firmware;
use super::host::{classify, HostDriver};
use super::port::*;
use crate::devices::root_complex::RootComplex;
use ssdlab_hdl::nand::op::{kind_code, KIND_READ};
use ssdlab_model::nvme::frontend::tlp::Cycle;
use std::collections::VecDeque;

/// The datapath, cycle by cycle, at its firmware port.
pub trait DatapathExec {
    fn name(&self) -> &'static str;
    /// The host side (memory, TLP log).
    fn rc(&mut self) -> &mut RootComplex;
    /// A host MMIO write queued at `cycle`.
    fn mmio_write(&mut self, cycle: Cycle, offset: u32, value: u32);
    /// Runs cycle `cycle` with the firmware's `offer`; returns what was taken and appends the
    /// cycle's events.
    fn cycle(&mut self, cycle: Cycle, offer: &Offer, ev: &mut Vec<HwEvent>) -> Taken;
    /// Runs ahead from cycle `from` (the previous cycle took nothing and reported nothing; the
    /// firmware offers `offer` unchanged and the host acts no earlier than `until`) through
    /// cycles in which nothing would reach the bench; returns the next cycle to run (`from`: no
    /// run-ahead). The streams must equal those of stepping every cycle.
    fn idle_until(&mut self, from: Cycle, _until: Cycle, _offer: &Offer) -> Cycle {
        from
    }
    /// A protocol or device-model violation seen so far (the run stops on it).
    fn error(&self) -> Option<String> {
        None
    }
    /// Program/erase suspends issued so far (suspend latches on the NAND buses).
    fn suspends(&self) -> u64 {
        0
    }
}

/// Limits of a run.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    /// Stop submitting new host commands at this cycle (then drain).
    pub submit_until: Cycle,
    /// Fail if the run has not drained by this cycle.
    pub max_cycles: Cycle,
    pub seed: u64,
}

/// Cycles run after the last completion so trailing TLPs (MSI-X) are recorded.
pub const TAIL_CYCLES: Cycle = 64;

/// Runs `fw` and `host` on `x` until the host is done and the firmware idle; returns the streams
/// or an error naming the cycle and the seed.
pub fn run(
    x: &mut dyn DatapathExec,
    fw: &mut Firmware,
    host: &mut HostDriver,
    lim: RunLimits,
) -> Result<Streams, String> {
    let mut s = Streams::default();
    let mut open: Vec<VecDeque<usize>> = vec![VecDeque::new(); 256];
    let mut ev = Vec::with_capacity(16);
    let mut tail: Option<Cycle> = None;
    let mut c: Cycle = 0;
    while c < lim.max_cycles {
        if c == lim.submit_until {
            host.stop();
        }
        host.step(c, x)
            .map_err(|e| format!("{} cycle {c}: host: {e} (seed {})", x.name(), lim.seed))?;
        fw.pump(c);
        let offer = fw.offer();
        ev.clear();
        let t = x.cycle(c, &offer, &mut ev);
        if t.nand {
            let n = offer.nand.expect("taken only when offered");
            open[n.channel as usize * 32 + n.way as usize].push_back(s.nand.len());
            s.nand.push(NandRec {
                channel: n.channel,
                way: n.way,
                op: n.op,
                issue: c,
                done: 0,
            });
        }
        fw.taken(t);
        for e in &ev {
            match *e {
                HwEvent::NandDone {
                    channel,
                    way,
                    overtook,
                } => {
                    let q = &mut open[channel as usize * 32 + way as usize];
                    // A read of a suspension: the first read behind the way's oldest op.
                    let at = if overtook {
                        q.iter()
                            .skip(1)
                            .position(|&i| kind_code(s.nand[i].op) == KIND_READ)
                            .map(|k| k + 1)
                    } else {
                        Some(0)
                    };
                    let i = at.and_then(|k| q.remove(k)).ok_or(format!(
                        "{} cycle {c}: NAND done on ({channel}, {way}) with no such op (overtook {overtook}, seed {})",
                        x.name(),
                        lim.seed
                    ))?;
                    s.nand[i].done = c;
                }
                HwEvent::MapDec(d) => s.map.push(MapRec { dec: d, cycle: c }),
                _ => {}
            }
            fw.event(e);
        }
        if let Some(err) = x.error() {
            return Err(format!("{} cycle {c}: {err} (seed {})", x.name(), lim.seed));
        }
        if let Some(err) = &fw.error {
            return Err(format!(
                "{} cycle {c}: firmware: {err} (seed {})",
                x.name(),
                lim.seed
            ));
        }
        match tail {
            None if host.done() && fw.idle() => tail = Some(c + TAIL_CYCLES),
            Some(end) if c >= end => {
                s.cycles = c + 1;
                s.suspends = x.suspends();
                s.cpl = host.completions.clone();
                s.tlps = x
                    .rc()
                    .seen
                    .iter()
                    .map(|t| {
                        (
                            classify(t.kind, t.addr),
                            TlpRec {
                                kind: t.kind,
                                addr: t.addr,
                                len: t.len,
                                cycle: t.cycle,
                            },
                        )
                    })
                    .collect();
                return Ok(s);
            }
            _ => {}
        }
        let quiet = t == Taken::default() && ev.is_empty();
        c += 1;
        if quiet && tail.is_none() {
            // Quiet stretch: the firmware's state is unchanged (it moves only on takes and
            // events), so only the host's next action and the run's own limits bound it.
            let stop = if c <= lim.submit_until {
                lim.submit_until
            } else {
                lim.max_cycles
            };
            let until = host
                .next_action(c, x.rc())
                .min(fw.next_action())
                .min(stop)
                .min(lim.max_cycles);
            if until > c {
                c = x.idle_until(c, until, &offer);
            }
        }
    }
    Err(format!(
        "{}: not drained after {} cycles ({} completions) (seed {})",
        x.name(),
        lim.max_cycles,
        host.completions.len(),
        lim.seed
    ))
}
