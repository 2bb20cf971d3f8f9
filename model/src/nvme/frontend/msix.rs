//! MSI-X generation with interrupt coalescing (NVM Express Base Specification 1.4, section
//! 5.21.1.8 "Interrupt Coalescing": aggregation threshold and aggregation time; the admin
//! completion queue is never coalesced) and the MSI-X table (PCI Express Base 3.0, section
//! 7.7: message address, message data, vector control mask bit; a masked vector's message is
//! held pending and sent on unmask).

use super::tlp::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MsixVector {
    pub addr: u64,
    pub data: u32,
    pub masked: bool,
    pub pending: bool,
    /// Cycle from which the completion engine sees the pending (and unmasked) vector.
    pub ready_at: Cycle,
}

/// The aggregation time of `nvme` in front-end clock cycles (0: no time limit). NVMe Feature
/// 08h sets it in 100 µs units (0..=255, at most 25.5 ms); the config holds microseconds.
pub fn coalesce_time_cycles(nvme: &crate::config::NvmeConfig) -> Cycle {
    (nvme.irq_coalesce_time_us * 1e6 / super::tlp::CLOCK_PS as f64).round() as Cycle
}

/// Per-vector coalescing state.
#[derive(Clone, Debug)]
pub struct Coalescer {
    threshold: u32,
    time_cycles: Cycle,
    count: Vec<u32>,
    first: Vec<Option<Cycle>>,
}

impl Coalescer {
    pub fn new(vectors: usize, threshold: u32, time_cycles: Cycle) -> Self {
        assert!(threshold >= 1, "aggregation threshold must be at least 1");
        Coalescer {
            threshold,
            time_cycles,
            count: vec![0; vectors],
            first: vec![None; vectors],
        }
    }

    /// A completion for `vector` was posted at `cycle`; true when an interrupt fires now.
    pub fn on_completion(&mut self, vector: usize, cycle: Cycle, coalesce: bool) -> bool {
        if !coalesce || self.threshold == 1 {
            self.count[vector] = 0;
            self.first[vector] = None;
            return true;
        }
        self.count[vector] += 1;
        self.first[vector].get_or_insert(cycle);
        if self.count[vector] >= self.threshold {
            self.count[vector] = 0;
            self.first[vector] = None;
            return true;
        }
        false
    }

    /// The earliest aggregation-time deadline, with its vector (time 0 means no time limit).
    pub fn next_deadline(&self) -> Option<(Cycle, usize)> {
        if self.time_cycles == 0 {
            return None;
        }
        self.first
            .iter()
            .enumerate()
            .filter_map(|(v, f)| f.map(|c| (c + self.time_cycles, v)))
            .min()
    }

    /// The deadline of `vector` passed: its interrupt fires.
    pub fn expire(&mut self, vector: usize) {
        self.count[vector] = 0;
        self.first[vector] = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_threshold_4_fires_every_fourth() {
        let mut c = Coalescer::new(2, 4, 0);
        let fired: Vec<bool> = (0..8).map(|i| c.on_completion(1, i, true)).collect();
        assert_eq!(
            fired,
            vec![false, false, false, true, false, false, false, true]
        );
        assert!(
            c.on_completion(0, 9, false),
            "admin queue is never coalesced"
        );
        assert_eq!(c.next_deadline(), None);
    }

    #[test]
    fn time_limit_fires_after_first_completion() {
        let mut c = Coalescer::new(2, 8, 2_500);
        assert!(!c.on_completion(1, 100, true));
        assert!(!c.on_completion(1, 900, true));
        assert_eq!(c.next_deadline(), Some((2_600, 1)));
        c.expire(1);
        assert_eq!(c.next_deadline(), None);
    }
}
