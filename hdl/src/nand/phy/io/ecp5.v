// Lattice ECP5 io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): the ports of the generic
// wrapper, the DDR pins on ODDRX1F / IDDRX1F cells and BB pads. D0 leaves in the first half of
// a core cycle (clock high), D1 in the second; IDDRX1F delivers on SCLK's rising edge Q0, the
// pin at that rising edge (the second half of the cycle before), and Q1, the pin at the falling
// edge before it (the first half). Latency and half order follow Lattice FPGA-TN-02035; no
// open simulator models the cells, so they are checked at bring-up (io.rs).
module ssdlab_nand_phy_io_ecp5 (
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
    reg        dqs_en = 1'b0, dq_en = 1'b0;
    wire       dqs_t_o, dqs_c_o;
    wire [7:0] dq_o, dq_i, q0, q1;
    // SDR pins: one output register each, as in the generic wrapper.
    always @(posedge clk) begin
        pin_ce_n <= ce_n; pin_cle <= cle; pin_ale <= ale; pin_we_n <= we_n; pin_wp_n <= wp_n;
        dq_en <= dq_oe;
        rb_n <= pin_rb_n;
        dq_in_rise <= q1;
        dq_in_fall <= q0;
    end
    always @(posedge clk90) dqs_en <= dqs_oe;
    ODDRX1F re_t_cell (.SCLK(clk), .RST(1'b0), .D0(re_rise), .D1(re_fall), .Q(pin_re_t));
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
endmodule
