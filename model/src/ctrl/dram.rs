//! Controller DRAM (e.g. DDR3-1600 x32 on the SM2262 board): a bandwidth-limited channel with a
//! fixed random-access latency. Host data is staged through it (NAND → DRAM → PCIe for reads,
//! PCIe → DRAM → NAND for writes) and mapping-table lookups read it.

use crate::config::ControllerConfig;
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Dram {
    bytes_per_sec: u64,
    latency: SimTime,
    free_at: SimTime,
    busy: SimTime,
    bytes: u64,
}

impl Dram {
    pub fn new(cfg: &ControllerConfig) -> Self {
        assert!(cfg.dram_bandwidth_mb_per_s > 0, "validated config");
        Dram {
            bytes_per_sec: cfg.dram_bandwidth_mb_per_s as u64 * 1_000_000,
            latency: SimTime::from_ns_f64(cfg.dram_latency_ns),
            free_at: SimTime::ZERO,
            busy: SimTime::ZERO,
            bytes: 0,
        }
    }
    /// Moves `bytes` through DRAM starting no earlier than `now`; returns when the data is
    /// available (bandwidth-limited burst, then the access latency).
    #[inline]
    pub fn access(&mut self, now: SimTime, bytes: u64) -> SimTime {
        let start = now.max(self.free_at);
        let dur = crate::engine::transfer_time(bytes, self.bytes_per_sec);
        self.free_at = start + dur;
        self.busy += dur;
        self.bytes += bytes;
        self.free_at + self.latency
    }
    pub fn busy(&self) -> SimTime {
        self.busy
    }
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    pub fn reset_stats(&mut self) {
        self.busy = SimTime::ZERO;
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    #[test]
    fn bandwidth_then_latency() {
        // 6400 MB/s: 4096 B take 640 ns; + 60 ns latency = 700 ns. A second 4 KiB queues behind.
        let mut d = Dram::new(&DriveConfig::default_drive().controller);
        assert_eq!(d.access(SimTime::ZERO, 4096), SimTime::from_ns(700));
        assert_eq!(d.access(SimTime::ZERO, 4096), SimTime::from_ns(1_340));
        assert_eq!(d.busy(), SimTime::from_ns(1_280));
    }
}
