// Xilinx UltraScale io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): the ports of the
// generic wrapper, the DDR pins on ODDRE1 / IDDRE1 cells and IOBUF / OBUF pads. D1 leaves in
// the first half of a core cycle (C high), D2 in the second; IDDRE1 in SAME_EDGE_PIPELINED
// mode delivers on one rising edge of C the pin at a rising edge (Q1) and at the falling edge
// after it (Q2). Latency and half order follow AMD UG571; the cells are black boxes to the
// open tools (yosys synth_xilinx keeps them), so they are checked at bring-up (io.rs).
module ssdlab_nand_phy_io_xcu (
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
    wire       re_t_o, re_c_o, dqs_t_o, dqs_c_o;
    wire [7:0] dq_o, dq_i, q1, q2;
    // SDR pins: one output register each, as in the generic wrapper.
    always @(posedge clk) begin
        pin_ce_n <= ce_n; pin_cle <= cle; pin_ale <= ale; pin_we_n <= we_n; pin_wp_n <= wp_n;
        dq_en <= dq_oe;
        rb_n <= pin_rb_n;
        dq_in_rise <= q2;
        dq_in_fall <= q1;
    end
    always @(posedge clk90) dqs_en <= dqs_oe;
    ODDRE1 re_t_cell (.C(clk), .SR(1'b0), .D1(re_rise), .D2(re_fall), .Q(re_t_o));
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
endmodule
