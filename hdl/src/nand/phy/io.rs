//! The io wrapper of the ONFI PHY: maps [`super::OnfiPhy`]'s per-edge values (`*_rise` = the
//! first half of a core cycle, `*_fall` = the second) onto DDR output and input cells and the
//! tristate pads of one channel (ONFI 4.1 section 2: DQ[7:0], DQS_t/DQS_c, RE_t/RE_c, CE#,
//! CLE, ALE, WE#, WP#, R/B#).
//!
//! Convention, the usual vendor-neutral split: the PHY never sees a half cycle; each DDR
//! signal has one output cell (ODDR: `d_rise` during the high half of `clk`, `d_fall` during
//! the low half, both registered on the rising edge) and DQ one input cell (IDDR: the pin
//! sampled in each half, both delivered on the next rising edge). SDR pins (CE#, CLE, ALE,
//! WE#, WP#) go through one output register so all pins keep their relative timing. The
//! round trip (output register + input register) is `ssdlab_model::nand::phy::IO_ROUND_TRIP`
//! cycles, which the PHY's fixed-latency read capture counts.
//!
//! Data input needs DQS centred in each DQ byte: the wrapper clocks the DQS output cell with
//! `clk90` (the core clock shifted by 90 degrees, from the family's PLL). Three wrappers with
//! one port list ([`io_verilog`]):
//!
//! - [`IoFamily::Generic`], `ssdlab_nand_phy_io`: behavioural DDR cells (a clock-selected mux)
//!   for Verilator and Icarus, the one the pin-level tests run; not for synthesis.
//! - [`IoFamily::Ecp5`], `ssdlab_nand_phy_io_ecp5`: Lattice ECP5 `ODDRX1F` (`D0` the first
//!   half, `D1` the second) and `IDDRX1F` (`Q0` the sample at the rising edge, the second half
//!   of the previous cycle; `Q1` at the falling edge, the first half), bidirectional pads `BB`
//!   (`T` high: high impedance). yosys `synth_ecp5` keeps them as cells; nextpnr-ecp5 packs them
//!   into the IO logic.
//! - [`IoFamily::UltraScale`], `ssdlab_nand_phy_io_xcu`: Xilinx UltraScale `ODDRE1` (`D1` the
//!   first half, `D2` the second) and `IDDRE1` in `SAME_EDGE_PIPELINED` mode (`Q1` the half
//!   sampled at the rising edge, `Q2` the one at the falling edge, both delivered on one rising
//!   edge), pads `IOBUF`/`OBUF`. yosys `synth_xilinx -family xcu` keeps them as
//!   black boxes (its `cells_xtra`); Vivado places them.
//!
//! The family cells are black boxes here: no simulation model of them ships with the open
//! tools, so their latency (the wrapper's round trip, `IO_ROUND_TRIP` in the generic wrapper)
//! and the IDDR half order are taken from the vendors' cell descriptions (Lattice FPGA-TN-02035,
//! "ECP5 and ECP5-5G High-Speed I/O Interface"; AMD UG571, "UltraScale Architecture SelectIO
//! Resources") and checked by neither simulator; a board bring-up measures them (the PHY's
//! read capture counts the round trip, `PhyTiming::read_return`). What the tests check is
//! that each wrapper elaborates in its family's flow with one cell per pin and edge.

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

/// The ports every wrapper has (between `module NAME (` and `);`).
const IO_PORTS: &str = r#"    input  wire       clk,        // core clock
    input  wire       clk90,      // core clock shifted by 90 degrees (DQS centring)
    // PHY side (OnfiPhy ports)
    input  wire [3:0] ce_n,
    input  wire       cle,
    input  wire       ale,
    input  wire       we_n,
    input  wire       wp_n,
    input  wire       re_rise,
    input  wire       re_fall,
    input  wire       dqs_rise,
    input  wire       dqs_fall,
    input  wire       dqs_oe,
    input  wire [7:0] dq_rise,
    input  wire [7:0] dq_fall,
    input  wire       dq_oe,
    output reg  [3:0] rb_n,
    output reg  [7:0] dq_in_rise,
    output reg  [7:0] dq_in_fall,
    // pins
    output reg  [3:0] pin_ce_n,
    output reg        pin_cle,
    output reg        pin_ale,
    output reg        pin_we_n,
    output reg        pin_wp_n,
    output wire       pin_re_t,
    output wire       pin_re_c,
    inout  wire       pin_dqs_t,
    inout  wire       pin_dqs_c,
    inout  wire [7:0] pin_dq,
    input  wire [3:0] pin_rb_n
"#;

/// The io wrapper of `family` (module doc): its header comment, `module`, [`IO_PORTS`] and
/// the family's cells.
pub fn io_verilog(family: IoFamily) -> String {
    let (head, body) = match family {
        IoFamily::Generic => (GENERIC_HEAD, GENERIC_BODY.to_owned()),
        IoFamily::Ecp5 => (
            ECP5_HEAD,
            format!("{ECP5_WIRES}{}{ECP5_CELLS}", family_registers("q1", "q0")),
        ),
        IoFamily::UltraScale => (
            XCU_HEAD,
            format!("{XCU_WIRES}{}{XCU_CELLS}", family_registers("q2", "q1")),
        ),
    };
    format!(
        "{head}module {} (\n{IO_PORTS});\n{body}endmodule\n",
        family.module()
    )
}

/// The registers both family wrappers share: the SDR pins (one output register each, as in
/// the generic wrapper), the DQ and DQS output enables, R/B#, and the DQ input halves from the
/// IDDR outputs `first_half` and `second_half` (which output holds which half is the family's).
fn family_registers(first_half: &str, second_half: &str) -> String {
    format!(
        r#"    // SDR pins: one output register each, as in the generic wrapper.
    always @(posedge clk) begin
        pin_ce_n <= ce_n; pin_cle <= cle; pin_ale <= ale; pin_we_n <= we_n; pin_wp_n <= wp_n;
        dq_en <= dq_oe;
        rb_n <= pin_rb_n;
        dq_in_rise <= {first_half};
        dq_in_fall <= {second_half};
    end
    always @(posedge clk90) dqs_en <= dqs_oe;
"#
    )
}

const GENERIC_HEAD: &str = r#"// Generic io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): per-edge values in,
// ONFI pins out. Behavioural DDR cells for simulation only.
"#;

/// Behavioural DDR cells (not for synthesis: the DDR output is a clock-selected mux).
const GENERIC_BODY: &str = r#"    reg       re_r, re_f, dqs_r, dqs_f, dqs_en, dq_en;
    reg [7:0] dq_r, dq_f, dq_s;
    always @(posedge clk) begin
        pin_ce_n <= ce_n; pin_cle <= cle; pin_ale <= ale; pin_we_n <= we_n; pin_wp_n <= wp_n;
        re_r <= re_rise; re_f <= re_fall; dq_r <= dq_rise; dq_f <= dq_fall; dq_en <= dq_oe;
        rb_n <= pin_rb_n;
    end
    always @(posedge clk90) begin
        dqs_r <= dqs_rise; dqs_f <= dqs_fall; dqs_en <= dqs_oe;
    end
    wire dqs_o = clk90 ? dqs_r : dqs_f;
    assign pin_re_t = clk ? re_r : re_f;
    assign pin_re_c = ~pin_re_t;
    assign pin_dqs_t = dqs_en ? dqs_o : 1'bz;
    assign pin_dqs_c = dqs_en ? ~dqs_o : 1'bz;
    assign pin_dq = dq_en ? (clk ? dq_r : dq_f) : 8'bz;
    // DQ in: the first half sampled at its end (falling edge), both halves delivered together.
    always @(negedge clk) dq_s <= pin_dq;
    always @(posedge clk) begin
        dq_in_rise <= dq_s;
        dq_in_fall <= pin_dq;
    end
"#;

const ECP5_HEAD: &str = r#"// Lattice ECP5 io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): the ports of the generic
// wrapper, the DDR pins on ODDRX1F / IDDRX1F cells and BB pads. D0 leaves in the first half of
// a core cycle (clock high), D1 in the second; IDDRX1F delivers on SCLK's rising edge Q0, the
// pin at that rising edge (the second half of the cycle before), and Q1, the pin at the falling
// edge before it (the first half). Latency and half order follow Lattice FPGA-TN-02035; no
// open simulator models the cells, so they are checked at bring-up (io.rs).
"#;

const ECP5_WIRES: &str = r#"    reg        dqs_en = 1'b0, dq_en = 1'b0;
    wire       dqs_t_o, dqs_c_o;
    wire [7:0] dq_o, dq_i, q0, q1;
"#;

const ECP5_CELLS: &str = r#"    ODDRX1F re_t_cell (.SCLK(clk), .RST(1'b0), .D0(re_rise), .D1(re_fall), .Q(pin_re_t));
    ODDRX1F re_c_cell (.SCLK(clk), .RST(1'b0), .D0(~re_rise), .D1(~re_fall), .Q(pin_re_c));
    ODDRX1F dqs_t_cell (.SCLK(clk90), .RST(1'b0), .D0(dqs_rise), .D1(dqs_fall), .Q(dqs_t_o));
    ODDRX1F dqs_c_cell (.SCLK(clk90), .RST(1'b0), .D0(~dqs_rise), .D1(~dqs_fall), .Q(dqs_c_o));
    /* verilator lint_off PINCONNECTEMPTY */
    BB dqs_t_pad (.I(dqs_t_o), .T(~dqs_en), .O(), .B(pin_dqs_t));
    BB dqs_c_pad (.I(dqs_c_o), .T(~dqs_en), .O(), .B(pin_dqs_c));
    /* verilator lint_on PINCONNECTEMPTY */
    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : dq
            ODDRX1F o_cell (.SCLK(clk), .RST(1'b0), .D0(dq_rise[i]), .D1(dq_fall[i]), .Q(dq_o[i]));
            BB pad (.I(dq_o[i]), .T(~dq_en), .O(dq_i[i]), .B(pin_dq[i]));
            IDDRX1F i_cell (.SCLK(clk), .RST(1'b0), .D(dq_i[i]), .Q0(q0[i]), .Q1(q1[i]));
        end
    endgenerate
"#;

const XCU_HEAD: &str = r#"// Xilinx UltraScale io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): the ports of the
// generic wrapper, the DDR pins on ODDRE1 / IDDRE1 cells and IOBUF / OBUF pads. D1 leaves in
// the first half of a core cycle (C high), D2 in the second; IDDRE1 in SAME_EDGE_PIPELINED
// mode delivers on one rising edge of C the pin at a rising edge (Q1) and at the falling edge
// after it (Q2). Latency and half order follow AMD UG571; the cells are black boxes to the
// open tools (yosys synth_xilinx keeps them), so they are checked at bring-up (io.rs).
"#;

const XCU_WIRES: &str = r#"    reg        dqs_en = 1'b0, dq_en = 1'b0;
    wire       re_t_o, re_c_o, dqs_t_o, dqs_c_o;
    wire [7:0] dq_o, dq_i, q1, q2;
"#;

const XCU_CELLS: &str = r#"    ODDRE1 re_t_cell (.C(clk), .SR(1'b0), .D1(re_rise), .D2(re_fall), .Q(re_t_o));
    ODDRE1 re_c_cell (.C(clk), .SR(1'b0), .D1(~re_rise), .D2(~re_fall), .Q(re_c_o));
    OBUF re_t_pad (.I(re_t_o), .O(pin_re_t));
    OBUF re_c_pad (.I(re_c_o), .O(pin_re_c));
    ODDRE1 dqs_t_cell (.C(clk90), .SR(1'b0), .D1(dqs_rise), .D2(dqs_fall), .Q(dqs_t_o));
    ODDRE1 dqs_c_cell (.C(clk90), .SR(1'b0), .D1(~dqs_rise), .D2(~dqs_fall), .Q(dqs_c_o));
    /* verilator lint_off PINCONNECTEMPTY */
    IOBUF dqs_t_pad (.I(dqs_t_o), .T(~dqs_en), .O(), .IO(pin_dqs_t));
    IOBUF dqs_c_pad (.I(dqs_c_o), .T(~dqs_en), .O(), .IO(pin_dqs_c));
    /* verilator lint_on PINCONNECTEMPTY */
    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : dq
            ODDRE1 o_cell (.C(clk), .SR(1'b0), .D1(dq_rise[i]), .D2(dq_fall[i]), .Q(dq_o[i]));
            IOBUF pad (.I(dq_o[i]), .T(~dq_en), .O(dq_i[i]), .IO(pin_dq[i]));
            IDDRE1 #(.DDR_CLK_EDGE("SAME_EDGE_PIPELINED")) i_cell (
                .C(clk), .CB(~clk), .R(1'b0), .D(dq_i[i]), .Q1(q1[i]), .Q2(q2[i]));
        end
    endgenerate
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_io_lints_clean_when_verilator_is_present() {
        let v = io_verilog(IoFamily::Generic);
        assert!(v.contains(&format!("module {GENERIC_IO_MODULE}")));
        let Ok(dir) = std::env::var("CARGO_TARGET_TMPDIR").or_else(|_| {
            std::env::temp_dir()
                .to_str()
                .map(str::to_owned)
                .ok_or(std::env::VarError::NotPresent)
        }) else {
            return;
        };
        let path = std::path::Path::new(&dir).join("ssdlab_nand_phy_io.v");
        std::fs::write(&path, &v).unwrap();
        let Ok(out) = std::process::Command::new("verilator")
            .args(["--lint-only", "-Wall"])
            .arg(&path)
            .output()
        else {
            return; // no verilator on this machine: `make lint` checks it
        };
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "verilator -Wall: {text}");
    }

    /// The cells of `family`'s wrapper after its family's yosys flow, from `stat`.
    fn cells(family: IoFamily, synth: &str) -> Option<String> {
        let dir = std::env::temp_dir().join(format!(
            "ssdlab-phy-io-{}-{}",
            family.module(),
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let (path, stat) = (dir.join("io.v"), dir.join("stat.txt"));
        std::fs::write(&path, io_verilog(family)).unwrap();
        let script = format!(
            "read_verilog {}; {synth} -top {}; tee -q -o {} stat",
            path.display(),
            family.module(),
            stat.display()
        );
        let out = std::process::Command::new("yosys")
            .args(["-q", "-p", &script])
            .output()
            .ok()?; // no yosys on this machine: `make test` installs it
        assert!(
            out.status.success(),
            "{synth}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&stat).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        Some(text)
    }

    /// The number of `cell` instances in a yosys `stat` listing.
    fn count(stat: &str, cell: &str) -> u32 {
        stat.lines()
            .find_map(|l| {
                let mut w = l.split_whitespace();
                (w.next() == Some(cell)).then(|| w.next()?.parse().ok())?
            })
            .unwrap_or(0)
    }

    /// By hand, per channel: DDR outputs RE_t, RE_c, DQS_t, DQS_c and DQ[7:0] (12 output cells),
    /// DDR inputs DQ[7:0] (8 input cells), bidirectional pads DQS_t, DQS_c and DQ[7:0] (10),
    /// and on UltraScale the output pads of RE_t and RE_c (2).
    #[test]
    fn family_wrappers_keep_one_cell_per_ddr_pin() {
        if let Some(stat) = cells(IoFamily::Ecp5, "synth_ecp5") {
            assert_eq!(count(&stat, "ODDRX1F"), 12, "{stat}");
            assert_eq!(count(&stat, "IDDRX1F"), 8, "{stat}");
            // synth_ecp5 maps each `BB` onto the IO site cell.
            assert_eq!(count(&stat, "TRELLIS_IO"), 10, "{stat}");
        }
        if let Some(stat) = cells(IoFamily::UltraScale, "synth_xilinx -family xcu -noiopad") {
            assert_eq!(count(&stat, "ODDRE1"), 12, "{stat}");
            assert_eq!(count(&stat, "IDDRE1"), 8, "{stat}");
            assert_eq!(count(&stat, "IOBUF"), 10, "{stat}");
            assert_eq!(count(&stat, "OBUF"), 2, "{stat}");
        }
    }

    #[test]
    fn every_wrapper_has_the_generic_port_list() {
        let ports = |v: &str| -> Vec<String> {
            let start = v.find("module ").unwrap();
            let end = v[start..].find(");").unwrap() + start;
            v[start..end]
                .lines()
                .skip(1)
                .map(|l| l.split("//").next().unwrap().trim().to_string())
                .filter(|l| !l.is_empty())
                .collect()
        };
        let generic = ports(&io_verilog(IoFamily::Generic));
        assert_eq!(generic.len(), 29, "{generic:?}");
        for f in [IoFamily::Ecp5, IoFamily::UltraScale] {
            let v = io_verilog(f);
            assert!(v.contains(&format!("module {} (", f.module())));
            assert_eq!(ports(&v), generic, "{f:?}");
        }
    }
}
