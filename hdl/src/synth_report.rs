//! Synthesis resource report: what `make synth` (`scripts/synth.sh`, yosys 0.23) measured per
//! exported block, in one table that is checked in (`hdl/synth-report.txt`) and compared with the
//! current build so that a size regression is seen (rust-analyzer's expect-test style: the
//! refresh path is `UPDATE_EXPECT=1`).
//!
//! Not hardware: tooling beside the blocks. Counts come from yosys `stat` after flattening:
//! - `xcu` (`synth_xilinx -family xcu`, Kintex UltraScale as on the KCU105's xcku040): LUT =
//!   LUT1-6 + INV (a LUT1 in the fabric) + the LUTs of distributed RAM / shift registers (UG574:
//!   RAM64M8 and RAM32M16 take a whole SLICEM, 8 LUTs; RAM256X1S 4; ...), i.e. Vivado's "CLB
//!   LUTs"; LUTRAM = the memory share of those; FF = FD*; BRAM in RAMB18 units (RAMB36E2 = 2).
//! - `ice40` (`synth_ice40 -abc9`): LUT = SB_LUT4, FF = SB_DFF*, BRAM = SB_RAM40_4K.
//!
//! `compare` is the regression rule; `stat`/`report` hold the parsing and the table format.

pub mod collect;
pub mod compare;
pub mod report;
pub mod stat;

pub use compare::{compare, Finding, TOLERANCE_PCT};
pub use report::{Report, Row};
pub use stat::{parse_stat, Counts, Family};

/// Capacity of the targets, for the fit and utilization lines.
pub mod devices {
    /// iCE40-HX8K: 7680 logic cells (one LUT4 + one DFF each), 32 SB_RAM40_4K (Lattice iCE40
    /// LP/HX family data sheet, device table).
    pub const HX8K_CELLS: u64 = 7680;
    /// SB_RAM40_4K blocks of an iCE40-HX8K.
    pub const HX8K_BRAM: u64 = 32;
    /// iCE40-UP5K: 5280 logic cells, 30 SB_RAM40_4K (+ 4 SPRAM, not inferred by synth_ice40;
    /// iCE40 UltraPlus family data sheet).
    pub const UP5K_CELLS: u64 = 5280;
    /// SB_RAM40_4K blocks of an iCE40-UP5K.
    pub const UP5K_BRAM: u64 = 30;
    /// xcku040 (KCU105): CLB LUTs, CLB flip-flops, RAMB18 (600 RAMB36). Quoted from AMD DS890's
    /// Kintex UltraScale table; not re-checked against the data sheet in this repository.
    pub const XCKU040_LUTS: u64 = 242_400;
    /// CLB flip-flops of an xcku040.
    pub const XCKU040_FFS: u64 = 484_800;
    /// RAMB18 sites of an xcku040 (600 RAMB36 x 2).
    pub const XCKU040_RAMB18: u64 = 1_200;
}

/// Verilog file stems of the whole datapath (`hdl/src/top.rs`, block `Datapath`): the TOTAL
/// line.
pub const TOP_STEMS: [&str; 1] = ["datapath"];

/// Is `block` the whole datapath?
pub fn is_top(block: &str) -> bool {
    TOP_STEMS.contains(&block)
}

/// Whether an iCE40 result fits a device, as a necessary condition: every LUT4 and every DFF
/// needs a logic cell (a cell holds one of each, so max(LUT, FF) cells at best) and every
/// SB_RAM40_4K an EBR. Placement (only the NAND channel is placed here) decides the rest.
pub fn ice40_fit(c: &Counts) -> String {
    let fits = |cells: u64, bram: u64| c.lut.max(c.ff) <= cells && c.bram <= bram;
    match (
        fits(devices::HX8K_CELLS, devices::HX8K_BRAM),
        fits(devices::UP5K_CELLS, devices::UP5K_BRAM),
    ) {
        (true, true) => "fits HX8K and UP5K".to_string(),
        (true, false) => "fits HX8K; exceeds UP5K".to_string(),
        (false, true) => "fits UP5K; exceeds HX8K".to_string(),
        (false, false) => format!(
            "does not fit: needs {} cells / {} EBR (HX8K {} / {}, UP5K {} / {})",
            c.lut.max(c.ff),
            c.bram,
            devices::HX8K_CELLS,
            devices::HX8K_BRAM,
            devices::UP5K_CELLS,
            devices::UP5K_BRAM
        ),
    }
}

/// Percent of `part` in `whole`, one decimal, for the utilization line.
pub fn pct(part: u64, whole: u64) -> String {
    assert!(whole > 0, "pct of an empty whole");
    let tenths = (part * 1000 + whole / 2) / whole;
    format!("{}.{} %", tenths / 10, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(lut: u64, ff: u64, bram: u64) -> Counts {
        Counts {
            lut,
            lutram: 0,
            ff,
            bram,
        }
    }

    #[test]
    fn ice40_fit_uses_the_device_tables() {
        // 7680 cells on an HX8K, 5280 on a UP5K; 32 and 30 EBR.
        assert_eq!(ice40_fit(&counts(5280, 100, 30)), "fits HX8K and UP5K");
        assert_eq!(ice40_fit(&counts(5281, 100, 0)), "fits HX8K; exceeds UP5K");
        assert_eq!(ice40_fit(&counts(100, 100, 31)), "fits HX8K; exceeds UP5K");
        assert!(
            ice40_fit(&counts(100, 7681, 0)).starts_with("does not fit: needs 7681 cells / 0 EBR")
        );
        assert!(ice40_fit(&counts(100, 100, 33)).starts_with("does not fit"));
    }

    #[test]
    fn pct_rounds_to_a_tenth() {
        // 1 of 3 = 33.33 % -> 33.3 %; 2 of 3 = 66.67 % -> 66.7 %; 24 240 of 242 400 = 10.0 %.
        assert_eq!(pct(1, 3), "33.3 %");
        assert_eq!(pct(2, 3), "66.7 %");
        assert_eq!(pct(24_240, devices::XCKU040_LUTS), "10.0 %");
    }
}
