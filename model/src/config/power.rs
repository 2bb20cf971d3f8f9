//! Power model parameters: controller, DRAM and link power in active and idle states.
//! Sources: typical M.2 NVMe data sheets (2-7 W active, tens of mW to ~1 W idle); fitted.

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

/// `[power]`: power of the controller, DRAM and link by state, and ONFI I/O energy; NAND
/// array energies are per op in `[nand.*]`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PowerConfig {
    /// Controller (cores, PHYs) power while commands are outstanding.
    /// Unit: W. Range: 0..=50. Moves: average power, MB/s per W.
    pub controller_active_w: f64,
    /// Controller power when idle (PS0 idle, no APST).
    /// Unit: W. Range: 0..=50. Moves: average power of idle-heavy protocols.
    pub controller_idle_w: f64,
    /// DRAM power while commands are outstanding.
    /// Unit: W. Range: 0..=50. Moves: average power.
    pub dram_active_w: f64,
    /// DRAM power when idle.
    /// Unit: W. Range: 0..=50. Moves: average power of idle-heavy protocols.
    pub dram_idle_w: f64,
    /// PCIe link power while transferring (L0).
    /// Unit: W. Range: 0..=50. Moves: average power.
    pub link_active_w: f64,
    /// PCIe link power when idle (L0 idle or L1).
    /// Unit: W. Range: 0..=50. Moves: average power of idle-heavy protocols.
    pub link_idle_w: f64,
    /// ONFI I/O energy per byte moved over a channel bus.
    /// Unit: pJ/byte. Range: >= 0. Moves: energy of reads and writes.
    pub onfi_pj_per_byte: f64,
}

impl PowerConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, v) in [
            ("power.controller_active_w", self.controller_active_w),
            ("power.controller_idle_w", self.controller_idle_w),
            ("power.dram_active_w", self.dram_active_w),
            ("power.dram_idle_w", self.dram_idle_w),
            ("power.link_active_w", self.link_active_w),
            ("power.link_idle_w", self.link_idle_w),
            ("power.onfi_pj_per_byte", self.onfi_pj_per_byte),
        ] {
            check(
                v.is_finite() && (0.0..=50.0).contains(&v)
                    || name.ends_with("pj_per_byte") && v.is_finite() && v >= 0.0,
                name,
                "must be a plausible non-negative value",
            )?;
        }
        Ok(())
    }
}
