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
    /// The last two transfer sizes and their durations (a drive moves a few sizes: data units,
    /// mapping lines), which keeps the division of `transfer_time` off most accesses.
    memo: [(u64, SimTime); 2],
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
            memo: [(0, SimTime::ZERO); 2],
        }
    }
    /// Moves `bytes` through DRAM starting no earlier than `now`; returns when the data is
    /// available (bandwidth-limited burst, then the access latency).
    #[inline]
    pub fn access(&mut self, now: SimTime, bytes: u64) -> SimTime {
        let start = now.max(self.free_at);
        let dur = self.duration(bytes);
        self.free_at = start + dur;
        self.busy += dur;
        self.bytes += bytes;
        self.free_at + self.latency
    }
    /// `transfer_time(bytes)` at this DRAM's bandwidth, from the memo when it holds `bytes`.
    #[inline]
    fn duration(&mut self, bytes: u64) -> SimTime {
        if self.memo[0].0 == bytes {
            return self.memo[0].1;
        }
        if self.memo[1].0 != bytes {
            self.memo[1] = (
                bytes,
                crate::engine::transfer_time(bytes, self.bytes_per_sec),
            );
        }
        self.memo.swap(0, 1);
        self.memo[0].1
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

    #[test]
    fn sizes_alternating_past_the_memo_keep_their_durations() {
        // 6400 MB/s: 4096 B take 640 ns, 64 B 10 ns, 100 B 15.625 ns; three sizes in turn
        // overflow the two-entry memo. Each access starts when the previous one's burst ends.
        let mut d = Dram::new(&DriveConfig::default_drive().controller);
        let mut end_ps = 0u64;
        for _ in 0..3 {
            for (bytes, ps) in [(4096u64, 640_000u64), (64, 10_000), (100, 15_625)] {
                end_ps += ps;
                assert_eq!(
                    d.access(SimTime::ZERO, bytes),
                    SimTime::from_ps(end_ps + 60_000)
                );
            }
        }
        assert_eq!(d.busy(), SimTime::from_ps(end_ps));
    }
}
