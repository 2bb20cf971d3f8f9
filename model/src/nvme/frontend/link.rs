//! Throughput ceiling of the PCIe link behind the hard block, per direction, at TLP level:
//! every TLP costs header + payload + framing/sequence/LCRC bytes on the wire at the line rate
//! of [`PcieConfig`] (PCI Express Base 3.0, sections 2.2 and 4.2: 128b/130b). Used by the
//! front-end model for upstream requests and by the root-complex model of the test bench for
//! downstream completions, so both sides see the same ceiling.
//!
//! The drive-level link model (`model::pcie`) adds DLLP traffic; this block-level ceiling counts
//! TLP bytes only.

use super::tlp::{Cycle, CLOCK_PS};
use crate::config::PcieConfig;

/// One direction of the link: when it is next free, in picoseconds.
#[derive(Clone, Debug)]
pub struct LinkDirection {
    bytes_per_sec: u64,
    overhead_bytes: u32,
    free_ps: u64,
}

impl LinkDirection {
    pub fn new(pcie: &PcieConfig) -> Self {
        let bytes_per_sec = pcie.line_bytes_per_sec();
        assert!(bytes_per_sec > 0, "link with zero bandwidth");
        LinkDirection { bytes_per_sec, overhead_bytes: pcie.tlp_overhead_bytes, free_ps: 0 }
    }

    /// Earliest cycle ≥ `ready` at which a TLP may start; the link is then busy for its bytes.
    /// `header_bytes`: 16 for 4DW requests, 12 for completions.
    pub fn send(&mut self, ready: Cycle, header_bytes: u32, payload_bytes: u32) -> Cycle {
        // The wire serialises continuously; the header is accepted in the first clock cycle at
        // or after the moment the wire is free.
        let start_ps = (ready * CLOCK_PS).max(self.free_ps);
        let wire = (header_bytes + payload_bytes + self.overhead_bytes) as u64;
        let ps = (wire as u128 * 1_000_000_000_000u128).div_ceil(self.bytes_per_sec as u128) as u64;
        self.free_ps = start_ps + ps;
        start_ps.div_ceil(CLOCK_PS)
    }

    /// Cycle from which the link is idle again.
    pub fn free_cycle(&self) -> Cycle {
        self.free_ps.div_ceil(CLOCK_PS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DriveConfig;

    #[test]
    fn back_to_back_256b_writes_hit_the_gen3x4_ceiling() {
        let pcie = DriveConfig::default_drive().pcie;
        let mut link = LinkDirection::new(&pcie);
        // 256 B payload + 16 B header + 8 B overhead = 280 B; at 3_938_461_538 B/s that is
        // 71.094 ns per TLP. The 1000th TLP starts after 999 of them: 71.023 us = 17_755.9
        // cycles of 4 ns, so in cycle 17_756; the link is free again after 17_773.4 cycles.
        let mut last = 0;
        for _ in 0..1000 {
            last = link.send(0, 16, 256);
        }
        assert_eq!(last, 17_756);
        assert_eq!(link.free_cycle(), 17_774);
    }
}
