//! Firmware CPU cores: every host command costs `cpu_ns_per_cmd` plus `cpu_ns_per_unit` per
//! 4 KiB unit on one core (command parsing, FTL lookup bookkeeping, completion). With C cores the
//! controller cannot exceed C / (cmd + unit cost) commands per second, which is what caps
//! small-block IOPS in real controllers (SM2262: two ARM cores). Write commands cost
//! `cpu_ns_per_write_cmd` more (write-buffer allocation and program scheduling), which is why
//! controllers' random-write IOPS specs sit below their random-read specs.

use crate::config::ControllerConfig;
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct FirmwareCores {
    free_at: Vec<SimTime>,
    per_cmd: SimTime,
    per_unit: SimTime,
    per_write_cmd: SimTime,
    busy: SimTime,
    /// Per core: busy time since the last `reset_stats`.
    core_busy: Vec<SimTime>,
    commands: u64,
}

impl FirmwareCores {
    pub fn new(cfg: &ControllerConfig) -> Self {
        assert!(cfg.cpu_cores >= 1, "validated config");
        FirmwareCores {
            free_at: vec![SimTime::ZERO; cfg.cpu_cores as usize],
            per_cmd: SimTime::from_ns_f64(cfg.cpu_ns_per_cmd),
            per_unit: SimTime::from_ns_f64(cfg.cpu_ns_per_unit),
            per_write_cmd: SimTime::from_ns_f64(cfg.cpu_ns_per_write_cmd),
            busy: SimTime::ZERO,
            core_busy: vec![SimTime::ZERO; cfg.cpu_cores as usize],
            commands: 0,
        }
    }
    /// Firmware time of one command of `units` 4 KiB units.
    pub fn cost(&self, units: u64) -> SimTime {
        self.per_cmd + self.per_unit * units
    }
    /// Runs a command of `units` units on the core that frees first (lowest index on ties);
    /// returns when its processing ends.
    #[inline]
    pub fn process(&mut self, now: SimTime, units: u64) -> SimTime {
        self.process_cmd(now, units, false)
    }
    /// As [`Self::process`]; a write command costs `cpu_ns_per_write_cmd` more.
    #[inline]
    pub fn process_cmd(&mut self, now: SimTime, units: u64, write: bool) -> SimTime {
        let cost = self.cost(units)
            + if write {
                self.per_write_cmd
            } else {
                SimTime::ZERO
            };
        self.commands += 1;
        self.occupy(now, cost)
    }
    /// Runs `units` units of per-unit work alone (no command cost; not counted as a command) on
    /// the core that frees first; returns when it ends (`now` when there is none).
    pub fn process_units(&mut self, now: SimTime, units: u64) -> SimTime {
        if units == 0 {
            return now;
        }
        self.occupy(now, self.per_unit * units)
    }
    /// Runs `cost` of work on the core that frees first (lowest index on ties); returns when it ends.
    fn occupy(&mut self, now: SimTime, cost: SimTime) -> SimTime {
        let (core, _) = self
            .free_at
            .iter()
            .enumerate()
            .min_by_key(|(i, t)| (**t, *i))
            .expect("at least one core");
        let end = now.max(self.free_at[core]) + cost;
        self.free_at[core] = end;
        self.busy += cost;
        self.core_busy[core] += cost;
        end
    }
    /// Summed busy time of all cores.
    pub fn busy(&self) -> SimTime {
        self.busy
    }
    /// Busy time of each core, in core order.
    pub fn core_busy(&self) -> &[SimTime] {
        &self.core_busy
    }
    pub fn commands(&self) -> u64 {
        self.commands
    }
    pub fn reset_stats(&mut self) {
        self.busy = SimTime::ZERO;
        self.core_busy.iter_mut().for_each(|b| *b = SimTime::ZERO);
        self.commands = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ControllerConfig, DriveConfig};

    /// The hand arithmetic below uses 2 cores, 4000 ns/cmd + 200 ns/unit (pinned here so that
    /// calibrating the default preset does not change these checks).
    fn ctrl() -> ControllerConfig {
        let mut c = DriveConfig::default_drive().controller;
        c.cpu_cores = 2;
        c.cpu_ns_per_cmd = 4000.0;
        c.cpu_ns_per_unit = 200.0;
        c
    }

    #[test]
    fn per_command_cost_caps_iops() {
        // 2 cores, 4000 ns/cmd + 200 ns/unit. 1000 single-unit commands arriving
        // at t = 0 keep both cores busy: 500 × 4.2 us = 2.1 ms, i.e. 2 / 4.2 us = 476_190 IOPS.
        let mut c = FirmwareCores::new(&ctrl());
        let mut last = SimTime::ZERO;
        for _ in 0..1000 {
            last = last.max(c.process(SimTime::ZERO, 1));
        }
        assert_eq!(last, SimTime::from_us(2100));
        assert_eq!(c.busy(), SimTime::from_us(4200));
    }

    #[test]
    fn write_commands_cost_more() {
        // 4000 + 1 × 200 + 2000 = 6200 ns for a 4 KiB write; a read of the same size 4200 ns.
        let mut cfg = ctrl();
        cfg.cpu_ns_per_write_cmd = 2000.0;
        let mut c = FirmwareCores::new(&cfg);
        assert_eq!(
            c.process_cmd(SimTime::ZERO, 1, true),
            SimTime::from_ns(6_200)
        );
        assert_eq!(
            c.process_cmd(SimTime::ZERO, 1, false),
            SimTime::from_ns(4_200)
        );
    }

    #[test]
    fn an_idle_core_starts_at_once() {
        let mut c = FirmwareCores::new(&ctrl());
        // 32 units: 4000 + 32 × 200 = 10_400 ns.
        assert_eq!(
            c.process(SimTime::from_us(7), 32),
            SimTime::from_us(7) + SimTime::from_ns(10_400)
        );
        // The second core is still idle.
        assert_eq!(
            c.process(SimTime::from_us(7), 1),
            SimTime::from_us(7) + SimTime::from_ns(4_200)
        );
    }

    #[test]
    fn unit_work_alone_has_no_command_cost_and_shares_the_cores() {
        let mut c = FirmwareCores::new(&ctrl());
        // A command of 0 units (4 us) on core 0; 8 units alone (1.6 us) on idle core 1, then
        // 8 more behind it on core 1 (frees at 3.2 us, before core 0 at 4 us).
        assert_eq!(c.process(SimTime::ZERO, 0), SimTime::from_ns(4_000));
        assert_eq!(c.process_units(SimTime::ZERO, 8), SimTime::from_ns(1_600));
        assert_eq!(c.process_units(SimTime::ZERO, 8), SimTime::from_ns(3_200));
        assert_eq!(
            c.process_units(SimTime::from_us(9), 0),
            SimTime::from_us(9),
            "no work, no wait"
        );
        assert_eq!((c.busy(), c.commands()), (SimTime::from_ns(7_200), 1));
    }
}
