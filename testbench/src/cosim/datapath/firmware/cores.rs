//! The firmware's CPU time (`controller.cpu_*`): a fetched NVM Read or Write waits for its work
//! on the core that frees first before the firmware acts on it, charged by the drive's own
//! model (`ctrl::cpu::FirmwareCores`) as the drive charges it (`drive::host::on_fetched`): the
//! command's cost (`cpu_ns_per_cmd`, `cpu_ns_per_unit` per 4 KiB unit, `cpu_ns_per_write_cmd`
//! more for a write) from the cycle it is fetched; with `controller.read_lookup_on_demand` a
//! read's per-unit work is charged after its FTL call, where the drive charges it
//! (`drive::prefetch`): the units the read-ahead window does not hold, on the core that frees
//! first (the read's page reads and data wait for it), then each prefetch's units (its read
//! waits for them) ([`Cores::lookups`]). The firmware acts at the first clock edge at or after
//! the work's end. Admin
//! commands cost nothing here (the drive has none in its runs). Both executions of a
//! co-simulation share the firmware, so this time moves neither against the other.

use crate::cosim::datapath::jobs::UNIT;
use ssdlab_model::config::ControllerConfig;
use ssdlab_model::ctrl::cpu::FirmwareCores;
use ssdlab_model::encoding::nvme::opc;
use ssdlab_model::nvme::frontend::entry::Sqe;
use ssdlab_model::nvme::frontend::tlp::{cycle_at_or_after, edge_time, Cycle};
use ssdlab_model::time::SimTime;
use std::collections::BTreeMap;

/// A command whose firmware work has not ended.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    /// When its work ends.
    end: SimTime,
    sqid: u16,
    sqe: Sqe,
}

/// The cores and the commands waiting on them.
#[derive(Clone, Debug)]
pub struct Cores {
    cores: FirmwareCores,
    on_demand: bool,
    /// By (the cycle the firmware may act, arrival order).
    waiting: BTreeMap<(Cycle, u64), Waiting>,
    arrivals: u64,
}

impl Cores {
    pub fn new(cfg: &ControllerConfig) -> Self {
        Cores {
            cores: FirmwareCores::new(cfg),
            on_demand: cfg.read_lookup_on_demand,
            waiting: BTreeMap::new(),
            arrivals: 0,
        }
    }

    /// Command `sqe` of queue `sqid` fetched in cycle `now`: returned when the firmware may act
    /// on it at once (no work, or work that ends in this cycle), else kept until [`Self::due`].
    pub fn arrive(&mut self, now: Cycle, sqid: u16, sqe: Sqe) -> Option<(u16, Sqe)> {
        let units = ((sqe.cdw12 & 0xFFFF) as u64 + 1).div_ceil(UNIT as u64 / 512);
        let (cmd_units, write) = match sqe.opc {
            _ if sqid == 0 => return Some((sqid, sqe)),
            opc::NVM_WRITE => (units, true),
            opc::NVM_READ if self.on_demand => (0, false),
            opc::NVM_READ => (units, false),
            _ => return Some((sqid, sqe)),
        };
        let end = self.cores.process_cmd(edge_time(now), cmd_units, write);
        self.wait(now, Waiting { end, sqid, sqe })
    }

    /// With `controller.read_lookup_on_demand`: the mapping work of `units` 4 KiB units queued
    /// in cycle `now` on the core that frees first; returns the first cycle at or after its
    /// end. Without it (the work was charged with the command) or with no units: `now`.
    pub fn lookups(&mut self, now: Cycle, units: u64) -> Cycle {
        if !self.on_demand || units == 0 {
            return now;
        }
        cycle_at_or_after(self.cores.process_units(edge_time(now), units))
    }

    /// Queues `w` unless it is due at `now` (then returns its command).
    fn wait(&mut self, now: Cycle, w: Waiting) -> Option<(u16, Sqe)> {
        let at = cycle_at_or_after(w.end);
        if at <= now {
            return Some((w.sqid, w.sqe));
        }
        assert!(
            self.waiting.len() < super::QUEUE_BOUND,
            "commands waiting for the cores bounded"
        );
        self.waiting.insert((at, self.arrivals), w);
        self.arrivals += 1;
        None
    }

    /// The next command whose work has ended by cycle `now`, in the order the work ended (then
    /// arrival); `None` when none has.
    pub fn pop_due(&mut self, now: Cycle) -> Option<(u16, Sqe)> {
        let e = self.waiting.first_entry().filter(|e| e.key().0 <= now)?;
        let w = e.remove();
        Some((w.sqid, w.sqe))
    }

    /// The first cycle a waiting command's work ends (`Cycle::MAX`: none waits).
    pub fn next(&self) -> Cycle {
        self.waiting.keys().next().map_or(Cycle::MAX, |k| k.0)
    }

    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqe(opc: u8, blocks: u32) -> Sqe {
        Sqe {
            opc,
            psdt: 0,
            cid: 0,
            nsid: 1,
            prp1: 0,
            prp2: 0,
            cdw10: 0,
            cdw11: 0,
            cdw12: blocks - 1,
        }
    }

    /// The default drive's controller with these costs (ns) on `cores` cores.
    fn controller(
        cores: u32,
        cmd: f64,
        unit: f64,
        write: f64,
        on_demand: bool,
    ) -> ControllerConfig {
        let mut c = ssdlab_model::config::DriveConfig::default_drive().controller;
        (c.cpu_cores, c.cpu_ns_per_cmd, c.cpu_ns_per_unit) = (cores, cmd, unit);
        (c.cpu_ns_per_write_cmd, c.read_lookup_on_demand) = (write, on_demand);
        c
    }

    /// Two cores, 2 us per command, 1 us per 4 KiB unit, 2 us more per write: at 250 MHz
    /// (4 ns per cycle) a 4 KiB read fetched at cycle 0 is acted on at 3 us = cycle 750, a 4 KiB
    /// write at 5 us = 1250 on the other core, a third command waits for the first core: it
    /// starts at 3 us, a 8 KiB read ends at 3 + 2 + 2 = 7 us = cycle 1750.
    #[test]
    fn commands_wait_for_the_core_that_frees_first() {
        let cfg = controller(2, 2000.0, 1000.0, 2000.0, false);
        let mut c = Cores::new(&cfg);
        assert!(c.arrive(0, 1, sqe(opc::NVM_READ, 8)).is_none());
        assert!(c.arrive(0, 1, sqe(opc::NVM_WRITE, 8)).is_none());
        assert!(c.arrive(0, 1, sqe(opc::NVM_READ, 16)).is_none());
        assert_eq!(c.arrive(0, 0, sqe(0x06, 1)).map(|a| a.0), Some(0), "admin");
        assert_eq!(c.next(), 750);
        assert!(c.pop_due(749).is_none());
        let mut ends: Vec<(Cycle, u8)> = Vec::new();
        for at in [750, 1250, 1750] {
            while let Some((_, s)) = c.pop_due(at) {
                ends.push((at, s.opc));
            }
        }
        assert_eq!(
            ends,
            [
                (750, opc::NVM_READ),
                (1250, opc::NVM_WRITE),
                (1750, opc::NVM_READ)
            ]
        );
        assert!(c.is_empty());
    }

    /// With on-demand lookups a 16 KiB read is acted on after its 2 us command cost (cycle
    /// 500, where its FTL call runs); its lookups, charged then, end on the one core 4 x 1 us
    /// later, at 6 us = cycle 1500, and a second charge of 2 units at cycle 500 queues behind
    /// them: 8 us = cycle 2000. Up front (not on demand) the units cost with the command.
    #[test]
    fn an_on_demand_read_runs_its_lookups_after_its_command_cost() {
        let cfg = controller(1, 2000.0, 1000.0, 0.0, true);
        let mut c = Cores::new(&cfg);
        assert!(c.arrive(0, 1, sqe(opc::NVM_READ, 32)).is_none());
        assert_eq!(c.next(), 500);
        assert!(c.pop_due(499).is_none());
        assert!(c.pop_due(500).is_some());
        assert!(c.is_empty());
        assert_eq!(c.lookups(500, 4), 1500);
        assert_eq!(c.lookups(500, 2), 2000);
        assert_eq!(c.lookups(500, 0), 500, "no units, no wait");
        let mut up_front = Cores::new(&controller(1, 2000.0, 1000.0, 0.0, false));
        assert!(up_front.arrive(0, 1, sqe(opc::NVM_READ, 32)).is_none());
        assert_eq!(up_front.next(), 1500, "2 us + 4 x 1 us");
        assert_eq!(up_front.lookups(1500, 4), 1500);
    }

    /// No cost: the command is the firmware's at once, as without cores.
    #[test]
    fn free_work_passes_commands_through() {
        let cfg = controller(2, 0.0, 0.0, 0.0, false);
        let mut c = Cores::new(&cfg);
        assert!(c.arrive(7, 1, sqe(opc::NVM_WRITE, 256)).is_some());
        assert!(c.is_empty());
    }
}
