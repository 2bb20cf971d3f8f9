//! The channel's bus arbiter (`ChannelSequencer::arbitrate`): when the bus is free, first-phase
//! requests before second-phase ones, round-robin after the last grant within each; the grant
//! puts the phase on the bus, counts its cycles and records its trace. The HDL's `nand::arbiter`
//! and the channel's registered grant do the same.

use super::*;

impl ChannelSequencer {
    /// Grants the bus at cycle `c`: first-phase requests (commands that start array work)
    /// before second-phase ones (data out, status), round-robin after the last grant within each.
    pub(super) fn arbitrate(&mut self, c: u64) {
        let n = self.units.len();
        // Two passes (first phases, then second), each over the units from the one after the
        // last grant, wrapping by a comparison rather than a division per step.
        let start = self.last_grant;
        debug_assert!(start < n, "the last grant is a unit");
        let mut i = start;
        for k in 0..2 * n {
            if k == n {
                i = start;
            }
            i = if i + 1 == n { 0 } else { i + 1 };
            let UnitState::Request { phase, since } = self.units[i].state else {
                continue;
            };
            if since > c || phase.is_first() != (k < n) {
                continue;
            }
            let t = &self.timing;
            let unit = &mut self.units[i];
            let (q, started) = unit.current.as_mut().expect("a requesting unit has an op");
            if phase == Phase::First {
                *started = c;
            }
            let op = q.op;
            let len = t.phase_cycles(&op, phase);
            unit.state = UnitState::OnBus {
                phase,
                end: c + len,
            };
            self.bus_free_at = c + len + BUS_GAP_CYCLES;
            self.last_grant = i;
            self.bus_cycles_granted += len;
            self.data_cycles_granted += t.phase_data_cycles(&op, phase);
            if let Some(tr) = self.trace.as_mut() {
                let cmds = self.suspend.commands;
                match phase {
                    Phase::Suspend | Phase::Resume => tr.push(BusEvent {
                        cycle: c,
                        way: op.way,
                        kind: BusKind::Cmd(if phase == Phase::Suspend {
                            cmds.suspend
                        } else {
                            cmds.resume
                        }),
                    }),
                    _ => t.trace_phase(&op, phase, c, tr),
                }
            }
            return;
        }
    }
}
