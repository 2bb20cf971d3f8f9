//! Power model parameters: controller, DRAM and link power in active and idle states.
//! Sources: typical M.2 NVMe data sheets (2-7 W active, tens of mW to ~1 W idle); fitted.

use crate::error::{check, ConfigError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PowerConfig {
    /// Controller (cores, PHYs) power while commands are outstanding, W.
    pub controller_active_w: f64,
    /// Controller power when idle (PS0 idle, no APST), W.
    pub controller_idle_w: f64,
    /// DRAM power active / idle, W.
    pub dram_active_w: f64,
    pub dram_idle_w: f64,
    /// PCIe link power active (L0 transferring) / idle (L0 idle or L1), W.
    pub link_active_w: f64,
    pub link_idle_w: f64,
    /// ONFI I/O energy per byte moved over a channel bus, pJ.
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
