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
//! `clk90` (the core clock shifted by 90 degrees, from the family's PLL). Per family the cells
//! are black boxes with the same two-bit interface: Lattice ECP5 `ODDRX1F` / `IDDRX1F`, Xilinx
//! UltraScale `ODDRE1` / `IDDRE1` (`SRVAL`/`IS_C_INVERTED` left at their defaults). Only the
//! generic, Verilog-simulatable wrapper below is written here; the family ones differ in the
//! cell instances only.

/// Module name of the generic wrapper.
pub const GENERIC_IO_MODULE: &str = "ssdlab_nand_phy_io";

/// The generic DDR io wrapper (behavioural Verilog for Verilator/Icarus, not for synthesis:
/// its DDR output is a clock-selected mux).
pub fn generic_io_verilog() -> &'static str {
    GENERIC_IO
}

const GENERIC_IO: &str = r#"// Generic io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): per-edge values in,
// ONFI pins out. Behavioural DDR cells for simulation only.
module ssdlab_nand_phy_io (
    input  wire       clk,        // core clock
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
);
    reg       re_r, re_f, dqs_r, dqs_f, dqs_en, dq_en;
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
endmodule
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_io_lints_clean_when_verilator_is_present() {
        let v = generic_io_verilog();
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
        std::fs::write(&path, v).unwrap();
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
}
