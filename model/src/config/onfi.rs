//! ONFI channel bus: NV-DDR2/NV-DDR3 transfer rate and the bus timing parameters the sequencer
//! obeys. Source: ONFI 4.1 specification, section 4 (timing parameters), NV-DDR3 timing modes.
//!
//! Both the behavioural sequencer (`model::nand::sequencer`) and the rust_hdl sequencer derive
//! their cycle counts from this struct through [`OnfiConfig::cycles_ceil`], so the two cannot
//! drift apart.

use crate::error::{check, ConfigError};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OnfiConfig {
    /// Data transfer rate on the 8-bit DQ bus, in mega-transfers per second (1 byte per transfer).
    pub transfer_mts: u32,
    /// Sequencer (controller core) clock driving the PHY boundary, in MHz.
    pub core_clock_mhz: u32,
    /// Command/address write cycle time tWC (SDR cycles for CLE/ALE latches), ns.
    pub t_wc_ns: f64,
    /// Address-to-data-loading delay tADL, ns.
    pub t_adl_ns: f64,
    /// WE# high to busy tWB, ns.
    pub t_wb_ns: f64,
    /// WE# high to RE# low (command to status/data out) tWHR, ns.
    pub t_whr_ns: f64,
    /// Change column setup tCCS, ns.
    pub t_ccs_ns: f64,
    /// Ready to data output tRR, ns.
    pub t_rr_ns: f64,
    /// Address cycles of a full row+column address (5 for large devices).
    pub addr_cycles: u32,
}

impl OnfiConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            (10..=3600).contains(&self.transfer_mts),
            "onfi.transfer_mts",
            "must be between 10 and 3600 MT/s",
        )?;
        check((25..=1000).contains(&self.core_clock_mhz), "onfi.core_clock_mhz", "must be 25..=1000 MHz")?;
        check(
            self.transfer_mts % self.core_clock_mhz == 0,
            "onfi.transfer_mts",
            "must be a whole multiple of onfi.core_clock_mhz (bytes per core cycle)",
        )?;
        for (name, v) in [
            ("onfi.t_wc_ns", self.t_wc_ns),
            ("onfi.t_adl_ns", self.t_adl_ns),
            ("onfi.t_wb_ns", self.t_wb_ns),
            ("onfi.t_whr_ns", self.t_whr_ns),
            ("onfi.t_ccs_ns", self.t_ccs_ns),
            ("onfi.t_rr_ns", self.t_rr_ns),
        ] {
            check(v.is_finite() && (0.0..10_000.0).contains(&v), name, "must be 0..10000 ns")?;
        }
        check((3..=6).contains(&self.addr_cycles), "onfi.addr_cycles", "must be 3..=6")?;
        Ok(())
    }
    /// One sequencer clock period.
    pub fn core_period(&self) -> SimTime {
        SimTime::from_ps(1_000_000 / self.core_clock_mhz as u64)
    }
    /// Bytes moved on the DQ bus per sequencer clock cycle.
    pub fn bytes_per_cycle(&self) -> u32 {
        self.transfer_mts / self.core_clock_mhz
    }
    /// A timing parameter in whole sequencer cycles, rounded up (never violates the minimum).
    pub fn cycles_ceil(&self, ns: f64) -> u32 {
        let c = ns * self.core_clock_mhz as f64 / 1000.0;
        (c - 1e-9).ceil().max(0.0) as u32
    }
    /// Sequencer cycles to move `bytes` over the DQ bus.
    pub fn data_cycles(&self, bytes: u32) -> u32 {
        bytes.div_ceil(self.bytes_per_cycle())
    }
    /// Bus throughput in bytes per second.
    pub fn bus_bytes_per_sec(&self) -> u64 {
        self.transfer_mts as u64 * 1_000_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_arithmetic() {
        let o = OnfiConfig {
            transfer_mts: 800,
            core_clock_mhz: 200,
            t_wc_ns: 25.0,
            t_adl_ns: 150.0,
            t_wb_ns: 100.0,
            t_whr_ns: 80.0,
            t_ccs_ns: 300.0,
            t_rr_ns: 20.0,
            addr_cycles: 5,
        };
        // 200 MHz = 5 ns per cycle: 25 ns = 5 cycles, 22 ns rounds up to 5, 20 ns = 4.
        assert_eq!(o.cycles_ceil(25.0), 5);
        assert_eq!(o.cycles_ceil(22.0), 5);
        assert_eq!(o.cycles_ceil(20.0), 4);
        assert_eq!(o.bytes_per_cycle(), 4);
        // A 16 KiB page + 1952 B spare at 4 B/cycle = 4584 cycles.
        assert_eq!(o.data_cycles(16384 + 1952), 4584);
        assert_eq!(o.core_period(), SimTime::from_ns(5));
    }
}
