//! NVMe host interface parameters. Source: NVM Express Base Specification 1.3/1.4, section 4.

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

/// `[nvme]`: the host interface the controller exposes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NvmeConfig {
    /// I/O submission/completion queue pairs the controller supports.
    /// Unit: queue pairs. Range: 1..=511 (the front end's BAR0 holds the doorbells and MSI-X
    /// vectors of 512 queue pairs, the admin pair among them). Moves: no figure unless a job
    /// uses more queues.
    pub io_queues: u32,
    /// Entries per I/O queue (the controller's MQES + 1).
    /// Unit: entries. Range: 2..=65536. Moves: the deepest queue depth a job can reach.
    pub queue_entries: u32,
    /// Interrupt coalescing: raise an interrupt after this many completions (Feature 08h THR).
    /// Unit: completions. Range: 1..=255. Moves: completion latency at high queue depth.
    pub irq_coalesce_count: u32,
    /// ... or after this time since the first uncoalesced completion (Feature 08h TIME).
    /// Unit: us. Range: 0..=25500. Moves: completion latency at low queue depth.
    pub irq_coalesce_time_us: f64,
}

/// Longest aggregation time Feature 08h can express: 255 × 100 µs.
pub const MAX_COALESCE_TIME_US: f64 = 25_500.0;

impl NvmeConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            (1..=511).contains(&self.io_queues),
            "nvme.io_queues",
            "must be 1..=511 (doorbells and MSI-X vectors of BAR0)",
        )?;
        check(
            (2..=65536).contains(&self.queue_entries),
            "nvme.queue_entries",
            "must be 2..=65536",
        )?;
        // Set Features 08h (Interrupt Coalescing): THR is an 8-bit field, TIME is 8 bits in
        // 100 µs units (at most 25.5 ms). The HDL's completion path holds thresholds 1..=255.
        check(
            (1..=255).contains(&self.irq_coalesce_count),
            "nvme.irq_coalesce_count",
            "must be 1..=255 (Feature 08h aggregation threshold)",
        )?;
        check(
            self.irq_coalesce_time_us.is_finite()
                && (0.0..=MAX_COALESCE_TIME_US).contains(&self.irq_coalesce_time_us),
            "nvme.irq_coalesce_time_us",
            "must be 0..=25500 (Feature 08h aggregation time: 255 x 100 us)",
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::DriveConfig;

    /// Feature 08h bounds: threshold 1..=255, time 0..=25 500 µs; the error names the field.
    #[test]
    fn coalescing_outside_feature_08h_is_rejected() {
        let mut c = DriveConfig::default_drive();
        c.nvme.irq_coalesce_time_us = 25_500.0;
        c.nvme.irq_coalesce_count = 255;
        assert!(c.nvme.validate().is_ok());
        c.nvme.irq_coalesce_time_us = 25_600.0;
        assert!(c
            .nvme
            .validate()
            .unwrap_err()
            .to_string()
            .contains("nvme.irq_coalesce_time_us"));
        c.nvme.irq_coalesce_time_us = 0.0;
        c.nvme.irq_coalesce_count = 256;
        assert!(c
            .nvme
            .validate()
            .unwrap_err()
            .to_string()
            .contains("nvme.irq_coalesce_count"));
    }
}

#[cfg(test)]
mod queue_tests {
    use crate::config::DriveConfig;
    use crate::drive::Drive;

    /// BAR0 doorbells run from 0x1000 to the MSI-X table at 0x2000, 8 B per queue pair: 512
    /// pairs, the admin pair and 511 I/O pairs; a drive with all of them builds.
    #[test]
    fn io_queues_stop_at_the_doorbell_space() {
        let mut c = DriveConfig::default_drive();
        c.geometry.blocks_per_plane = 128;
        c.ftl.gc_threshold_free_blocks = 4;
        c.ftl.over_provisioning_pct = 15.0;
        c.nvme.io_queues = 511;
        if let Err(e) = Drive::new(&c, 1) {
            panic!("511 I/O queue pairs refused: {e}");
        }
        c.nvme.io_queues = 512;
        let e = c.nvme.validate().unwrap_err().to_string();
        assert!(e.contains("nvme.io_queues"), "{e}");
    }
}
