//! ONFI channel bus: NV-DDR2/NV-DDR3 transfer rate and the bus timing parameters the sequencer
//! obeys. Source: ONFI 4.1 specification, section 4 (timing parameters), NV-DDR3 timing modes.
//!
//! Both the behavioural sequencer (`model::nand::sequencer`) and the rust_hdl sequencer derive
//! their cycle counts from this struct through [`OnfiConfig::cycles_ceil`], so the two cannot
//! drift apart.

use crate::error::{check, ConfigError};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

pub use super::onfi_pins::OnfiPinTiming;

/// `[onfi]`: the channel bus's rate and the ONFI timing parameters the sequencer obeys.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OnfiConfig {
    /// Data transfer rate on the 8-bit DQ bus (1 byte per transfer); a whole multiple of
    /// `core_clock_mhz`. Unit: MT/s. Range: 10..=3600. Moves: sequential reads, bus occupancy.
    pub transfer_mts: u32,
    /// Sequencer (controller core) clock driving the PHY boundary.
    /// Unit: MHz. Range: 25..=1000. Moves: rounding of every ONFI time to whole cycles.
    pub core_clock_mhz: u32,
    /// Command/address write cycle time tWC (SDR cycles for CLE/ALE latches).
    /// Unit: ns. Range: [0, 10000). Moves: command overhead per NAND op.
    pub t_wc_ns: f64,
    /// Address-to-data-loading delay tADL.
    /// Unit: ns. Range: [0, 10000). Moves: bus time per program.
    pub t_adl_ns: f64,
    /// WE# high to busy tWB.
    /// Unit: ns. Range: [0, 10000). Moves: command overhead per NAND op.
    pub t_wb_ns: f64,
    /// WE# high to RE# low (command to status/data out) tWHR.
    /// Unit: ns. Range: [0, 10000). Moves: status polls and data-out start.
    pub t_whr_ns: f64,
    /// Change column setup tCCS.
    /// Unit: ns. Range: [0, 10000). Moves: bus time per partial-page read.
    pub t_ccs_ns: f64,
    /// Ready to data output tRR.
    /// Unit: ns. Range: [0, 10000). Moves: data-out start after a read.
    pub t_rr_ns: f64,
    /// Address cycles of a full row+column address (5 for large devices).
    /// Unit: cycles. Range: 3..=6. Moves: command overhead per NAND op.
    pub addr_cycles: u32,
    /// Cache read busy tRCBSY: after 31h/3Fh the target is busy (R/B# low) for this long
    /// beyond the end of any array read still in progress (moving the data register into the
    /// cache register). Source: Micron MT29F NAND datasheets (AC characteristics, tRCBSY: 3 us
    /// typical, at most tR); ONFI 4.1 section 5.6 (Read Cache Sequential/End). 3 when absent.
    /// Unit: us. Range: 0..=1000. Moves: sequential reads with `nand.cache_read`.
    #[serde(default = "default_t_rcbsy_us")]
    pub t_rcbsy_us: f64,
    /// `[onfi.pins]`: pin timing of the PHY (WE#, CLE/ALE, DQS, RE#); defaults when absent.
    #[serde(default, skip_serializing_if = "OnfiPinTiming::is_default")]
    pub pins: OnfiPinTiming,
}

fn default_t_rcbsy_us() -> f64 {
    3.0
}

impl OnfiConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            (10..=3600).contains(&self.transfer_mts),
            "onfi.transfer_mts",
            "must be between 10 and 3600 MT/s",
        )?;
        check(
            (25..=1000).contains(&self.core_clock_mhz),
            "onfi.core_clock_mhz",
            "must be 25..=1000 MHz",
        )?;
        check(
            self.transfer_mts.is_multiple_of(self.core_clock_mhz),
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
            check(
                v.is_finite() && (0.0..10_000.0).contains(&v),
                name,
                "must be 0..10000 ns",
            )?;
        }
        check(
            self.t_rcbsy_us.is_finite() && (0.0..=1000.0).contains(&self.t_rcbsy_us),
            "onfi.t_rcbsy_us",
            "must be 0..=1000 us",
        )?;
        check(
            (3..=6).contains(&self.addr_cycles),
            "onfi.addr_cycles",
            "must be 3..=6",
        )?;
        self.pins.validate()
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
            t_rcbsy_us: 3.0,
            pins: OnfiPinTiming::default(),
        };
        // 200 MHz = 5 ns per cycle: 25 ns = 5 cycles, 22 ns rounds up to 5, 20 ns = 4.
        assert_eq!(o.cycles_ceil(25.0), 5);
        assert_eq!(o.cycles_ceil(22.0), 5);
        assert_eq!(o.cycles_ceil(20.0), 4);
        assert_eq!(o.bytes_per_cycle(), 4);
        // A 16 KiB page + 1952 B spare at 4 B/cycle = 4584 cycles.
        assert_eq!(o.data_cycles(16384 + 1952), 4584);
        assert_eq!(o.core_period(), SimTime::from_ns(5));
        // tRCBSY 3 us = 600 cycles.
        assert_eq!(o.cycles_ceil(o.t_rcbsy_us * 1000.0), 600);
    }

    #[test]
    fn t_rcbsy_defaults_and_is_checked() {
        let toml = "transfer_mts = 800\ncore_clock_mhz = 200\nt_wc_ns = 25.0\nt_adl_ns = 150.0\nt_wb_ns = 100.0\nt_whr_ns = 80.0\nt_ccs_ns = 300.0\nt_rr_ns = 20.0\naddr_cycles = 5\n";
        let mut o: OnfiConfig = toml::from_str(toml).unwrap();
        assert_eq!(
            o.t_rcbsy_us, 3.0,
            "omitted tRCBSY defaults to the datasheet's 3 us"
        );
        o.t_rcbsy_us = -1.0;
        let e = o.validate().unwrap_err().to_string();
        assert!(e.contains("onfi.t_rcbsy_us"), "{e}");
    }
}
