//! The io wrapper of the ONFI PHY: maps [`super::OnfiPhy`]'s per-quarter values (RE#, DQS and
//! DQ have one value per quarter of a core cycle, quarter 0 first) onto DDR or serializer cells
//! and the tristate pads of one channel (ONFI 4.1 section 2: DQ[7:0], DQS_t/DQS_c, RE_t/RE_c,
//! CE#, CLE, ALE, WE#, WP#, R/B#).
//!
//! Convention, the usual vendor-neutral split: the PHY never sees a sub-cycle edge. Two
//! gearings ([`Gearing`]), chosen by the bytes per core cycle:
//! - **X1** (1 or 2 bytes per cycle): one DDR output cell per signal (ODDR: quarter 0 during
//!   the high half of `clk`, quarter 2 during the low half, both registered on the rising
//!   edge; the PHY repeats them in quarters 1 and 3) and one input cell per DQ pin (IDDR: the
//!   pin sampled in each half, both delivered on the next rising edge, each half in both of
//!   its quarters). DQS is clocked by `clk90` to centre it in the DQ byte.
//! - **X2** (4 bytes per cycle, 800 MT/s at 200 MHz): one 4:1 serializer per output and a 1:4
//!   deserializer per DQ pin, on the core clock and `clk2x` (twice it, rising with it): one
//!   quarter per half cycle of `clk2x`. DQS is serialized on `clk2x_90` to centre it.
//!
//! SDR pins (CE#, CLE, ALE, WE#, WP#) go through one output register so all pins keep their
//! relative timing. The round trip (output register + input register) is
//! `ssdlab_model::nand::phy::IO_ROUND_TRIP` cycles, which the PHY's fixed-latency read capture
//! counts. Three families, each in both gearings, with one port list per gearing
//! ([`io_verilog`]; the X2 module names end in `_x2`):
//!
//! - [`IoFamily::Generic`], `ssdlab_nand_phy_io`: behavioural cells (clock-selected muxes)
//!   for Verilator and Icarus; not for synthesis.
//! - [`IoFamily::Ecp5`], `ssdlab_nand_phy_io_ecp5`: Lattice ECP5 `ODDRX1F`/`IDDRX1F` (X1) or
//!   `ODDRX2F`/`IDDRX2F` (X2, `SCLK` the core clock, `ECLK` twice it), bidirectional pads `BB`
//!   (`T` high: high impedance). yosys `synth_ecp5` keeps them as cells; nextpnr-ecp5 packs
//!   them into the IO logic.
//! - [`IoFamily::UltraScale`], `ssdlab_nand_phy_io_xcu`: Xilinx UltraScale `ODDRE1`/`IDDRE1`
//!   in `SAME_EDGE_PIPELINED` mode (X1) or `OSERDESE3`/`ISERDESE3` with `DATA_WIDTH` 4 (X2,
//!   `CLKDIV` the core clock, `CLK` twice it), pads `IOBUF`/`OBUF`. yosys `synth_xilinx
//!   -family xcu` keeps them as black boxes (its `cells_xtra`); Vivado places them.
//!
//! The family cells are black boxes here: no simulation model of them ships with the open
//! tools, so their latency (the wrapper's round trip, `IO_ROUND_TRIP` in the generic wrapper)
//! and their bit order are taken from the vendors' cell descriptions (Lattice FPGA-TN-02035,
//! "ECP5 and ECP5-5G High-Speed I/O Interface"; AMD UG571, "UltraScale Architecture SelectIO
//! Resources") and checked by neither simulator; a board bring-up measures them (the PHY's
//! read capture counts the round trip, `PhyTiming::read_return`). What the tests check is
//! that each wrapper elaborates in its family's flow with one cell per pin and edge.

mod cells;
use cells::*;

/// Module name of the generic wrapper.
pub const GENERIC_IO_MODULE: &str = "ssdlab_nand_phy_io";

/// The FPGA families the io wrapper is written for (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoFamily {
    Generic,
    Ecp5,
    UltraScale,
}

impl IoFamily {
    /// The wrapper's module name.
    pub fn module(self) -> &'static str {
        match self {
            IoFamily::Generic => GENERIC_IO_MODULE,
            IoFamily::Ecp5 => "ssdlab_nand_phy_io_ecp5",
            IoFamily::UltraScale => "ssdlab_nand_phy_io_xcu",
        }
    }
}

/// How a wrapper's cells serialize the PHY's four quarters of a core cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gearing {
    /// DDR cells on the core clock (1 or 2 bytes per cycle): quarters 0 and 2 leave in the
    /// first and second half (the PHY repeats them in quarters 1 and 3); an input cell
    /// returns each half in both of its quarters.
    X1,
    /// 4:1 serializers with a fast clock at twice the core clock (4 bytes per cycle): one
    /// quarter per fast half cycle, quarter 0 first.
    X2,
}

impl Gearing {
    /// The gearing a PHY moving `bytes_per_cycle` bytes per core cycle needs (1, 2 or 4,
    /// `PhyTiming::new` refuses others).
    pub fn for_bytes_per_cycle(bytes_per_cycle: u32) -> Self {
        if bytes_per_cycle == 4 {
            Gearing::X2
        } else {
            Gearing::X1
        }
    }
    /// The module-name suffix: none for X1, `_x2` for X2.
    pub fn suffix(self) -> &'static str {
        match self {
            Gearing::X1 => "",
            Gearing::X2 => "_x2",
        }
    }
}

/// The clock ports of an X1 wrapper.
const X1_CLOCKS: &str = r#"    input  wire        clk,        // core clock
    input  wire        clk90,      // core clock shifted by 90 degrees (DQS centring)
"#;

/// The clock ports of an X2 wrapper.
const X2_CLOCKS: &str = r#"    input  wire        clk,        // core clock
    input  wire        clk2x,      // twice the core clock, rising with it
    input  wire        clk2x_90,   // clk2x shifted by 90 degrees (DQS centring)
"#;

/// The ports every wrapper has after its clocks (between `module NAME (` and `);`).
const IO_PORTS: &str = r#"    // PHY side (OnfiPhy ports; RE#, DQS, DQ per quarter of a core cycle)
    input  wire [7:0]  ce_n,
    input  wire        cle,
    input  wire        ale,
    input  wire        we_n,
    input  wire        wp_n,
    input  wire [3:0]  re,
    input  wire [3:0]  dqs,
    input  wire        dqs_oe,
    input  wire [31:0] dq,
    input  wire        dq_oe,
    output reg  [7:0]  rb_n,
    output reg  [31:0] dq_in,
    // pins
    output reg  [7:0]  pin_ce_n,
    output reg         pin_cle,
    output reg         pin_ale,
    output reg         pin_we_n,
    output reg         pin_wp_n,
    output wire        pin_re_t,
    output wire        pin_re_c,
    inout  wire        pin_dqs_t,
    inout  wire        pin_dqs_c,
    inout  wire [7:0]  pin_dq,
    input  wire [7:0]  pin_rb_n
"#;

/// The io wrapper of `family` with `gearing` (module doc): its header comment, `module`, the
/// clock ports, [`IO_PORTS`] and the family's cells.
pub fn io_verilog(family: IoFamily, gearing: Gearing) -> String {
    let (head, body) = match (family, gearing) {
        (IoFamily::Generic, Gearing::X1) => (GENERIC_HEAD, GENERIC_X1.to_owned()),
        (IoFamily::Generic, Gearing::X2) => (GENERIC_HEAD, GENERIC_X2.to_owned()),
        (IoFamily::Ecp5, Gearing::X1) => (
            ECP5_HEAD,
            format!("{ECP5_WIRES}{}{ECP5_X1_CELLS}", family_registers(X1_DQ_IN)),
        ),
        (IoFamily::Ecp5, Gearing::X2) => (
            ECP5_HEAD,
            format!("{ECP5_WIRES}{}{ECP5_X2_CELLS}", family_registers(X2_DQ_IN)),
        ),
        (IoFamily::UltraScale, Gearing::X1) => (
            XCU_HEAD,
            format!(
                "{XCU_WIRES}{}{}",
                family_registers(X1_DQ_IN),
                XCU_X1_CELLS.replace("XCU_PADS", XCU_PADS)
            ),
        ),
        (IoFamily::UltraScale, Gearing::X2) => (
            XCU_HEAD,
            format!(
                "{XCU_WIRES}{}{}",
                family_registers(X2_DQ_IN),
                XCU_X2_CELLS.replace("XCU_PADS", XCU_PADS)
            ),
        ),
    };
    let clocks = match gearing {
        Gearing::X1 => X1_CLOCKS,
        Gearing::X2 => X2_CLOCKS,
    };
    format!(
        "{head}module {}{} (\n{clocks}{IO_PORTS});\n{body}endmodule\n",
        family.module(),
        gearing.suffix()
    )
}

/// The io wrappers of every family for a PHY moving `bytes_per_cycle` bytes per core cycle
/// (its gearing), as `make verilog` writes them beside the blocks: (file stem, Verilog), the
/// stem the module name without `ssdlab_` (`nand_phy_io_xcu_x2`).
pub fn io_files(bytes_per_cycle: u32) -> Vec<(String, String)> {
    let gearing = Gearing::for_bytes_per_cycle(bytes_per_cycle);
    [IoFamily::Generic, IoFamily::Ecp5, IoFamily::UltraScale]
        .into_iter()
        .map(|f| {
            let module = format!("{}{}", f.module(), gearing.suffix());
            let stem = module.trim_start_matches("ssdlab_").to_string();
            (stem, io_verilog(f, gearing))
        })
        .collect()
}

/// The DQ input word of the X1 family wrappers from the input cells' halves `h0` (first) and
/// `h1` (second): each half in both of its quarters.
const X1_DQ_IN: &str = "{h1, h1, h0, h0}";
/// The DQ input word of the X2 family wrappers from the input cells' quarters.
const X2_DQ_IN: &str = "{h3, h2, h1, h0}";

/// The registers both family wrappers share: the SDR pins (one output register each, as in
/// the generic wrapper), the DQ and DQS output enables, R/B#, and the DQ input word `dq_in_word`
/// from the input cells' outputs, wired to `h0`.. by the family's cells.
fn family_registers(dq_in_word: &str) -> String {
    format!(
        r#"    // SDR pins: one output register each, as in the generic wrapper.
    always @(posedge clk) begin
        pin_ce_n <= ce_n; pin_cle <= cle; pin_ale <= ale; pin_we_n <= we_n; pin_wp_n <= wp_n;
        dq_en <= dq_oe;
        rb_n <= pin_rb_n;
        dq_in <= {dq_in_word};
    end
"#
    )
}

#[cfg(test)]
mod tests;
