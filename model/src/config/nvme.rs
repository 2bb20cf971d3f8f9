//! NVMe host interface parameters. Source: NVM Express Base Specification 1.3/1.4, section 4.

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NvmeConfig {
    /// I/O submission/completion queue pairs the controller supports.
    pub io_queues: u32,
    /// Entries per I/O queue (the controller's MQES + 1).
    pub queue_entries: u32,
    /// Interrupt coalescing: raise an interrupt after this many completions ...
    pub irq_coalesce_count: u32,
    /// ... or after this time since the first uncoalesced completion, in microseconds.
    pub irq_coalesce_time_us: f64,
}

impl NvmeConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check((1..=65535).contains(&self.io_queues), "nvme.io_queues", "must be 1..=65535")?;
        check((2..=65536).contains(&self.queue_entries), "nvme.queue_entries", "must be 2..=65536")?;
        check(self.irq_coalesce_count >= 1, "nvme.irq_coalesce_count", "must be at least 1")?;
        check(
            self.irq_coalesce_time_us.is_finite() && self.irq_coalesce_time_us >= 0.0,
            "nvme.irq_coalesce_time_us",
            "must be non-negative",
        )?;
        Ok(())
    }
}
