//! yosys `stat` output → resource counts per family (the cell libraries of `synth_xilinx
//! -family xcu` and `synth_ice40`). A cell type that is neither counted nor known to be
//! uncounted (IO buffers, carry chains, wide muxes) is an error naming it, so that a new kind of
//! resource (a DSP, an SPRAM) cannot slip past the report unseen.

/// A synthesis target of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Xilinx UltraScale (`synth_xilinx -family xcu`): the KCU105's xcku040.
    Xcu,
    /// Lattice iCE40 (`synth_ice40 -abc9`).
    Ice40,
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 2] = [Family::Xcu, Family::Ice40];

    /// Name in file names (`<block>.<name>.stat`) and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Family::Xcu => "xcu",
            Family::Ice40 => "ice40",
        }
    }

    /// The family called `name`, if any.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Resources of one block on one family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// LUTs: xcu LUT1-6 + INV + LUTs used as memory; iCE40 SB_LUT4.
    pub lut: u64,
    /// The share of `lut` used as distributed RAM or shift register (xcu only).
    pub lutram: u64,
    /// Flip-flops (xcu FD*, iCE40 SB_DFF*).
    pub ff: u64,
    /// Block RAM: xcu in RAMB18 units (RAMB36E2 = 2), iCE40 SB_RAM40_4K.
    pub bram: u64,
}

/// LUTs taken by a distributed-RAM or shift-register primitive (UG574, "Distributed RAM" and
/// "Shift Registers": a SLICEM has 8 LUTs; RAM64M8 / RAM32M16 / RAM256X1D / RAM512X1S fill it).
fn xcu_lutram_luts(cell: &str) -> Option<u64> {
    Some(match cell {
        "RAM32X1S" | "RAM64X1S" | "SRL16E" | "SRLC16E" | "SRLC32E" => 1,
        "RAM32X1D" | "RAM64X1D" | "RAM128X1S" => 2,
        "RAM32M" | "RAM64M" | "RAM128X1D" | "RAM256X1S" => 4,
        "RAM32M16" | "RAM64M8" | "RAM256X1D" | "RAM512X1S" => 8,
        _ => return None,
    })
}

/// Cells that are real but outside LUT/FF/BRAM (IO buffers yosys inserts at the top's ports,
/// clock buffers, carry chains and the slice's wide-function muxes, constant drivers).
const UNCOUNTED: [&str; 17] = [
    "BUFG", "BUFGCE", "IBUF", "OBUF", "OBUFT", "IOBUF", "CARRY4", "CARRY8", "MUXF7", "MUXF8",
    "MUXF9", "GND", "VCC", "SB_CARRY", "SB_IO", "SB_GB", "SB_GB_IO",
];

/// Adds `n` cells of type `cell` to `c`; Err names a cell type this report has no rule for.
fn add_cell(family: Family, c: &mut Counts, cell: &str, n: u64) -> Result<(), String> {
    match family {
        Family::Xcu => {
            if matches!(
                cell,
                "LUT1" | "LUT2" | "LUT3" | "LUT4" | "LUT5" | "LUT6" | "INV"
            ) {
                c.lut += n;
            } else if let Some(k) = xcu_lutram_luts(cell) {
                c.lut += k * n;
                c.lutram += k * n;
            } else if matches!(cell, "FDRE" | "FDSE" | "FDCE" | "FDPE") {
                c.ff += n;
            } else if cell == "RAMB18E2" {
                c.bram += n;
            } else if cell == "RAMB36E2" {
                c.bram += 2 * n;
            } else if !UNCOUNTED.contains(&cell) {
                return Err(format!("cell type {cell} has no xcu counting rule"));
            }
        }
        Family::Ice40 => {
            if cell == "SB_LUT4" {
                c.lut += n;
            } else if cell.starts_with("SB_DFF") {
                c.ff += n;
            } else if cell.starts_with("SB_RAM40_4K") {
                c.bram += n;
            } else if !UNCOUNTED.contains(&cell) {
                return Err(format!("cell type {cell} has no ice40 counting rule"));
            }
        }
    }
    Ok(())
}

/// Counts of one flattened yosys `stat` (one `=== top ===` module). Err: not a stat of one
/// module, no cell list, or a cell type without a rule.
pub fn parse_stat(family: Family, text: &str) -> Result<Counts, String> {
    let modules = text
        .lines()
        .filter(|l| l.trim_start().starts_with("=== "))
        .count();
    if modules != 1 {
        return Err(format!(
            "expected the stat of one flattened module, found {modules} modules"
        ));
    }
    let mut c = Counts::default();
    let mut in_cells = false;
    for line in text.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if line.trim_start().starts_with("Number of cells:") {
            in_cells = true;
            continue;
        }
        if !in_cells {
            continue;
        }
        match t.as_slice() {
            [cell, n] => {
                let n: u64 = n
                    .parse()
                    .map_err(|_| format!("bad cell count in `{}`", line.trim()))?;
                add_cell(family, &mut c, cell, n)?;
            }
            [] => {}
            _ => break,
        }
    }
    if !in_cells {
        return Err("no `Number of cells:` list".to_string());
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    const XCU: &str = "
=== top ===

   Number of wires:               1408
   Number of cells:               2432
     BUFG                            1
     CARRY4                          8
     FDRE                          837
     FDSE                            3
     IBUF                          111
     INV                             2
     LUT1                            6
     LUT6                          395
     MUXF7                         141
     RAM256X1S                       1
     RAM64M8                        23
     RAMB18E2                        5
     RAMB36E2                        2
";

    #[test]
    fn xcu_counts_luts_with_lut_memory_and_brams_in_ramb18_units() {
        let c = parse_stat(Family::Xcu, XCU).unwrap();
        // LUTRAM: 1 x 4 + 23 x 8 = 188; LUT: 2 + 6 + 395 + 188 = 591; FF 837 + 3; BRAM 5 + 2 x 2.
        assert_eq!(
            c,
            Counts {
                lut: 591,
                lutram: 188,
                ff: 840,
                bram: 9
            }
        );
    }

    #[test]
    fn ice40_counts_lut4_dff_variants_and_ebr() {
        let s = "=== top ===\n   Number of cells: 9\n     SB_CARRY 30\n     SB_DFF 304\n     SB_DFFESR 5\n     SB_LUT4 1795\n     SB_RAM40_4K 30\n";
        assert_eq!(
            parse_stat(Family::Ice40, s).unwrap(),
            Counts {
                lut: 1795,
                lutram: 0,
                ff: 309,
                bram: 30
            }
        );
    }

    #[test]
    fn unknown_cells_and_unflattened_stats_are_errors() {
        let dsp = "=== top ===\n   Number of cells: 1\n     DSP48E2 1\n";
        assert_eq!(
            parse_stat(Family::Xcu, dsp).unwrap_err(),
            "cell type DSP48E2 has no xcu counting rule"
        );
        let two = "=== top ===\n Number of cells: 1\n LUT1 1\n=== sub ===\n Number of cells: 1\n LUT1 1\n";
        assert!(parse_stat(Family::Xcu, two)
            .unwrap_err()
            .contains("found 2 modules"));
        assert!(parse_stat(Family::Xcu, "=== top ===\n")
            .unwrap_err()
            .contains("no `Number of cells:`"));
    }
}
