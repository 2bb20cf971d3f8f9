//! NAND cell timing and energy per operation (SLC mode and native TLC mode).
//! Sources: Micron B16A/B17A public summaries, ONFI 4.1; energies are fitted (see presets).

use super::suspend::SuspendConfig;
use crate::error::{check, ConfigError};
use crate::time::SimTime;
use serde::{Deserialize, Serialize};

/// `[nand.slc]` / `[nand.tlc]`: array times and energies of one cell mode. TLC reads differ
/// by page type (LSB/CSB/MSB); SLC gives one value three times.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CellTiming {
    /// Page read array time (tR) of an LSB page.
    /// Unit: us. Range: (0, 1e6). Moves: random reads (die-bound), QD1 read latency.
    pub t_read_lsb_us: f64,
    /// Page read array time (tR) of a CSB page.
    /// Unit: us. Range: (0, 1e6). Moves: random reads (die-bound), QD1 read latency.
    pub t_read_csb_us: f64,
    /// Page read array time (tR) of an MSB page.
    /// Unit: us. Range: (0, 1e6). Moves: random reads (die-bound), QD1 read latency.
    pub t_read_msb_us: f64,
    /// Program time (tPROG) of one program operation (one-shot TLC programs all three pages).
    /// Unit: us. Range: (0, 1e6). Moves: fresh writes (SLC), steady-state writes (TLC, with WA).
    pub t_prog_us: f64,
    /// Block erase time (tBERS).
    /// Unit: ms. Range: (0, 1e6). Moves: steady-state writes a little (erases share the dies).
    pub t_erase_ms: f64,
    /// Energy of one page read, per plane.
    /// Unit: uJ. Range: >= 0. Moves: energy and average power of reads.
    pub read_energy_uj: f64,
    /// Energy of one program operation, per plane.
    /// Unit: uJ. Range: >= 0. Moves: energy and average power of writes.
    pub prog_energy_uj: f64,
    /// Energy of one block erase, per plane.
    /// Unit: uJ. Range: >= 0. Moves: energy of steady-state writes.
    pub erase_energy_uj: f64,
}

impl CellTiming {
    fn validate(&self, prefix: &str) -> Result<(), ConfigError> {
        let f = |name: &str| format!("{prefix}.{name}");
        for (name, v) in [
            ("t_read_lsb_us", self.t_read_lsb_us),
            ("t_read_csb_us", self.t_read_csb_us),
            ("t_read_msb_us", self.t_read_msb_us),
            ("t_prog_us", self.t_prog_us),
            ("t_erase_ms", self.t_erase_ms),
        ] {
            check(
                v.is_finite() && v > 0.0 && v < 1e6,
                &f(name),
                "must be a positive time below 1 s",
            )?;
        }
        for (name, v) in [
            ("read_energy_uj", self.read_energy_uj),
            ("prog_energy_uj", self.prog_energy_uj),
            ("erase_energy_uj", self.erase_energy_uj),
        ] {
            check(
                v.is_finite() && v >= 0.0,
                &f(name),
                "must be a non-negative energy",
            )?;
        }
        Ok(())
    }
    /// tR of page type `page_type` (0 = LSB, 1 = CSB, 2 = MSB).
    pub fn t_read(&self, page_type: u32) -> SimTime {
        SimTime::from_us_f64(match page_type {
            0 => self.t_read_lsb_us,
            1 => self.t_read_csb_us,
            _ => self.t_read_msb_us,
        })
    }
    pub fn t_prog(&self) -> SimTime {
        SimTime::from_us_f64(self.t_prog_us)
    }
    pub fn t_erase(&self) -> SimTime {
        SimTime::from_ms_f64(self.t_erase_ms)
    }
}

/// `[nand]`: the dies' two cell modes and their features.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NandConfig {
    /// Timing of blocks used in SLC mode (the SLC cache).
    pub slc: CellTiming,
    /// Timing of blocks in the native mode (TLC).
    pub tlc: CellTiming,
    /// Cache read (31h/3Fh) supported: the next page's tR overlaps the current page's data out.
    /// Moves: sequential reads.
    pub cache_read: bool,
    /// Program/erase cycles the native mode is rated for (wear reports against it).
    /// Unit: P/E cycles. Range: >= 1. Moves: no figure; wear reports only.
    pub endurance_pe_cycles: u32,
    /// Program/erase suspend for reads (`[nand.suspend]`); off when absent.
    #[serde(default)]
    pub suspend: SuspendConfig,
}

impl NandConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.slc.validate("nand.slc")?;
        self.tlc.validate("nand.tlc")?;
        self.suspend.validate()?;
        check(
            self.endurance_pe_cycles > 0,
            "nand.endurance_pe_cycles",
            "must be positive",
        )?;
        Ok(())
    }
}
