//! The Verilog text of the io wrappers (`super::io_verilog` assembles them): the generic
//! behavioural cells and the ECP5 and UltraScale cell instances, X1 and X2 gearing, with the
//! vendors' bit order in each family's header comment.

pub(super) const GENERIC_HEAD: &str = r#"// Generic io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): per-quarter values in,
// ONFI pins out. Behavioural DDR cells and serializers for simulation only.
"#;

/// Behavioural X1 cells (not for synthesis: the DDR output is a clock-selected mux). The PHY
/// repeats quarters 0 and 2 in 1 and 3, which the cells leave unused.
pub(super) const GENERIC_X1: &str = r#"    reg  [1:0]  re_q, dqs_q;
    reg  [15:0] dq_q;
    reg  [7:0]  dq_s;
    reg         dqs_en, dq_en;
    wire        unused_repeated_quarters = &{1'b0, re[3], re[1], dqs[3], dqs[1], dq[31:24], dq[15:8]};
    always @(posedge clk) begin
        pin_ce_n <= ce_n; pin_cle <= cle; pin_ale <= ale; pin_we_n <= we_n; pin_wp_n <= wp_n;
        re_q <= {re[2], re[0]}; dq_q <= {dq[23:16], dq[7:0]}; dq_en <= dq_oe;
        rb_n <= pin_rb_n;
    end
    always @(posedge clk90) begin
        dqs_q <= {dqs[2], dqs[0]}; dqs_en <= dqs_oe;
    end
    wire dqs_o = clk90 ? dqs_q[0] : dqs_q[1];
    assign pin_re_t = clk ? re_q[0] : re_q[1];
    assign pin_re_c = ~pin_re_t;
    assign pin_dqs_t = dqs_en ? dqs_o : 1'bz;
    assign pin_dqs_c = dqs_en ? ~dqs_o : 1'bz;
    assign pin_dq = dq_en ? (clk ? dq_q[7:0] : dq_q[15:8]) : 8'bz;
    // DQ in: the first half sampled at its end (falling edge), both halves delivered together,
    // each in both of its quarters.
    always @(negedge clk) dq_s <= pin_dq;
    always @(posedge clk) dq_in <= {pin_dq, pin_dq, dq_s, dq_s};
"#;

/// Behavioural X2 cells: the quarter a pin shows is selected by `clk` (first half) and `clk2x`
/// (first quarter of each half); DQS is re-timed to `clk2x_90`, an eighth of a core cycle later.
pub(super) const GENERIC_X2: &str = r#"    reg  [3:0]  re_q, dqs_q, dqs_r;
    reg  [31:0] dq_q;
    reg  [7:0]  s0, s1, s2;
    reg         dqs_h, dqs_en, dq_en;
    always @(posedge clk) begin
        pin_ce_n <= ce_n; pin_cle <= cle; pin_ale <= ale; pin_we_n <= we_n; pin_wp_n <= wp_n;
        re_q <= re; dqs_q <= dqs; dq_q <= dq; dq_en <= dq_oe;
        rb_n <= pin_rb_n;
    end
    wire [1:0] qi = {~clk, ~clk2x};
    // DQS: taken an eighth of a cycle after the core edge, one quarter per clk2x_90 half.
    always @(posedge clk2x_90) begin
        if (clk) begin dqs_r <= dqs_q; dqs_en <= dqs_oe; end
        dqs_h <= ~clk;
    end
    wire [1:0] dqs_i = {dqs_h, ~clk2x_90};
    assign pin_re_t = re_q[qi];
    assign pin_re_c = ~pin_re_t;
    assign pin_dqs_t = dqs_en ? dqs_r[dqs_i] : 1'bz;
    assign pin_dqs_c = dqs_en ? ~dqs_r[dqs_i] : 1'bz;
    assign pin_dq = dq_en ? dq_q[{qi, 3'b000} +: 8] : 8'bz;
    // DQ in: each quarter sampled at its end, all four delivered at the core edge.
    always @(negedge clk2x) if (clk) s0 <= pin_dq; else s2 <= pin_dq;
    always @(negedge clk) s1 <= pin_dq;
    always @(posedge clk) dq_in <= {pin_dq, s2, s1, s0};
"#;

pub(super) const ECP5_HEAD: &str = r#"// Lattice ECP5 io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): the ports of the generic
// wrapper, the DDR pins on ODDRX1F / IDDRX1F cells (X1: D0 leaves in the first half of a core
// cycle, D1 in the second; IDDRX1F delivers on SCLK's rising edge Q0, the pin at that edge, the
// second half, and Q1, the pin at the falling edge before it, the first half) or ODDRX2F /
// IDDRX2F (X2: SCLK the core clock, ECLK twice it; D0..D3 leave in that order, Q0..Q3 return
// the quarters oldest first), and BB pads. Latency and bit order follow Lattice FPGA-TN-02035;
// no open simulator models the cells, so they are checked at bring-up (io.rs).
"#;

pub(super) const ECP5_WIRES: &str = r#"    reg        dqs_en = 1'b0, dq_en = 1'b0;
    wire       dqs_t_o, dqs_c_o;
    wire [7:0] dq_o, dq_i, h0, h1, h2, h3;
"#;

pub(super) const ECP5_X1_CELLS: &str = r#"    always @(posedge clk90) dqs_en <= dqs_oe;
    assign h2 = 8'b0;
    assign h3 = 8'b0;
    ODDRX1F re_t_cell (.SCLK(clk), .RST(1'b0), .D0(re[0]), .D1(re[2]), .Q(pin_re_t));
    ODDRX1F re_c_cell (.SCLK(clk), .RST(1'b0), .D0(~re[0]), .D1(~re[2]), .Q(pin_re_c));
    ODDRX1F dqs_t_cell (.SCLK(clk90), .RST(1'b0), .D0(dqs[0]), .D1(dqs[2]), .Q(dqs_t_o));
    ODDRX1F dqs_c_cell (.SCLK(clk90), .RST(1'b0), .D0(~dqs[0]), .D1(~dqs[2]), .Q(dqs_c_o));
    /* verilator lint_off PINCONNECTEMPTY */
    BB dqs_t_pad (.I(dqs_t_o), .T(~dqs_en), .O(), .B(pin_dqs_t));
    BB dqs_c_pad (.I(dqs_c_o), .T(~dqs_en), .O(), .B(pin_dqs_c));
    /* verilator lint_on PINCONNECTEMPTY */
    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : dq_bit
            ODDRX1F o_cell (.SCLK(clk), .RST(1'b0), .D0(dq[i]), .D1(dq[16 + i]), .Q(dq_o[i]));
            BB pad (.I(dq_o[i]), .T(~dq_en), .O(dq_i[i]), .B(pin_dq[i]));
            IDDRX1F i_cell (.SCLK(clk), .RST(1'b0), .D(dq_i[i]), .Q0(h1[i]), .Q1(h0[i]));
        end
    endgenerate
"#;

pub(super) const ECP5_X2_CELLS: &str = r#"    always @(posedge clk) dqs_en <= dqs_oe;
    ODDRX2F re_t_cell (.SCLK(clk), .ECLK(clk2x), .RST(1'b0),
        .D0(re[0]), .D1(re[1]), .D2(re[2]), .D3(re[3]), .Q(pin_re_t));
    ODDRX2F re_c_cell (.SCLK(clk), .ECLK(clk2x), .RST(1'b0),
        .D0(~re[0]), .D1(~re[1]), .D2(~re[2]), .D3(~re[3]), .Q(pin_re_c));
    ODDRX2F dqs_t_cell (.SCLK(clk), .ECLK(clk2x_90), .RST(1'b0),
        .D0(dqs[0]), .D1(dqs[1]), .D2(dqs[2]), .D3(dqs[3]), .Q(dqs_t_o));
    ODDRX2F dqs_c_cell (.SCLK(clk), .ECLK(clk2x_90), .RST(1'b0),
        .D0(~dqs[0]), .D1(~dqs[1]), .D2(~dqs[2]), .D3(~dqs[3]), .Q(dqs_c_o));
    /* verilator lint_off PINCONNECTEMPTY */
    BB dqs_t_pad (.I(dqs_t_o), .T(~dqs_en), .O(), .B(pin_dqs_t));
    BB dqs_c_pad (.I(dqs_c_o), .T(~dqs_en), .O(), .B(pin_dqs_c));
    /* verilator lint_on PINCONNECTEMPTY */
    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : dq_bit
            ODDRX2F o_cell (.SCLK(clk), .ECLK(clk2x), .RST(1'b0),
                .D0(dq[i]), .D1(dq[8 + i]), .D2(dq[16 + i]), .D3(dq[24 + i]), .Q(dq_o[i]));
            BB pad (.I(dq_o[i]), .T(~dq_en), .O(dq_i[i]), .B(pin_dq[i]));
            IDDRX2F i_cell (.SCLK(clk), .ECLK(clk2x), .RST(1'b0), .ALIGNWD(1'b0), .D(dq_i[i]),
                .Q0(h0[i]), .Q1(h1[i]), .Q2(h2[i]), .Q3(h3[i]));
        end
    endgenerate
"#;

pub(super) const XCU_HEAD: &str = r#"// Xilinx UltraScale io wrapper of the ONFI PHY (hdl/src/nand/phy/io.rs): the ports of the
// generic wrapper, the DDR pins on ODDRE1 / IDDRE1 cells (X1: D1 leaves in the first half of a
// core cycle, D2 in the second; IDDRE1 in SAME_EDGE_PIPELINED mode delivers on one rising edge
// of C the pin at a rising edge, Q1, and at the falling edge after it, Q2) or OSERDESE3 /
// ISERDESE3 with DATA_WIDTH 4 (X2: CLKDIV the core clock, CLK twice it; D[0] leaves first,
// Q[0] holds the oldest quarter), and IOBUF / OBUF pads. Latency and bit order follow AMD
// UG571; the cells are black boxes to the open tools (yosys synth_xilinx keeps them), so they
// are checked at bring-up (io.rs).
"#;

pub(super) const XCU_WIRES: &str = r#"    reg        dqs_en = 1'b0, dq_en = 1'b0;
    wire       re_t_o, re_c_o, dqs_t_o, dqs_c_o;
    wire [7:0] dq_o, dq_i, h0, h1, h2, h3;
"#;

pub(super) const XCU_PADS: &str = r#"    OBUF re_t_pad (.I(re_t_o), .O(pin_re_t));
    OBUF re_c_pad (.I(re_c_o), .O(pin_re_c));
    /* verilator lint_off PINCONNECTEMPTY */
    IOBUF dqs_t_pad (.I(dqs_t_o), .T(~dqs_en), .O(), .IO(pin_dqs_t));
    IOBUF dqs_c_pad (.I(dqs_c_o), .T(~dqs_en), .O(), .IO(pin_dqs_c));
    /* verilator lint_on PINCONNECTEMPTY */
"#;

pub(super) const XCU_X1_CELLS: &str = r#"    always @(posedge clk90) dqs_en <= dqs_oe;
    assign h2 = 8'b0;
    assign h3 = 8'b0;
    ODDRE1 re_t_cell (.C(clk), .SR(1'b0), .D1(re[0]), .D2(re[2]), .Q(re_t_o));
    ODDRE1 re_c_cell (.C(clk), .SR(1'b0), .D1(~re[0]), .D2(~re[2]), .Q(re_c_o));
    ODDRE1 dqs_t_cell (.C(clk90), .SR(1'b0), .D1(dqs[0]), .D2(dqs[2]), .Q(dqs_t_o));
    ODDRE1 dqs_c_cell (.C(clk90), .SR(1'b0), .D1(~dqs[0]), .D2(~dqs[2]), .Q(dqs_c_o));
XCU_PADS    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : dq_bit
            ODDRE1 o_cell (.C(clk), .SR(1'b0), .D1(dq[i]), .D2(dq[16 + i]), .Q(dq_o[i]));
            IOBUF pad (.I(dq_o[i]), .T(~dq_en), .O(dq_i[i]), .IO(pin_dq[i]));
            IDDRE1 #(.DDR_CLK_EDGE("SAME_EDGE_PIPELINED")) i_cell (
                .C(clk), .CB(~clk), .R(1'b0), .D(dq_i[i]), .Q1(h0[i]), .Q2(h1[i]));
        end
    endgenerate
"#;

pub(super) const XCU_X2_CELLS: &str = r#"    always @(posedge clk) dqs_en <= dqs_oe;
    /* verilator lint_off PINCONNECTEMPTY */
    OSERDESE3 #(.DATA_WIDTH(4)) re_t_cell (.CLK(clk2x), .CLKDIV(clk), .RST(1'b0), .T(1'b0),
        .D({4'b0, re}), .OQ(re_t_o), .T_OUT());
    OSERDESE3 #(.DATA_WIDTH(4)) re_c_cell (.CLK(clk2x), .CLKDIV(clk), .RST(1'b0), .T(1'b0),
        .D({4'b0, ~re}), .OQ(re_c_o), .T_OUT());
    OSERDESE3 #(.DATA_WIDTH(4)) dqs_t_cell (.CLK(clk2x_90), .CLKDIV(clk), .RST(1'b0),
        .T(1'b0), .D({4'b0, dqs}), .OQ(dqs_t_o), .T_OUT());
    OSERDESE3 #(.DATA_WIDTH(4)) dqs_c_cell (.CLK(clk2x_90), .CLKDIV(clk), .RST(1'b0),
        .T(1'b0), .D({4'b0, ~dqs}), .OQ(dqs_c_o), .T_OUT());
    /* verilator lint_on PINCONNECTEMPTY */
XCU_PADS    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : dq_bit
            wire [7:0] q;
            /* verilator lint_off PINCONNECTEMPTY */
            OSERDESE3 #(.DATA_WIDTH(4)) o_cell (.CLK(clk2x), .CLKDIV(clk), .RST(1'b0),
                .T(1'b0), .D({4'b0, dq[24 + i], dq[16 + i], dq[8 + i], dq[i]}), .OQ(dq_o[i]),
                .T_OUT());
            IOBUF pad (.I(dq_o[i]), .T(~dq_en), .O(dq_i[i]), .IO(pin_dq[i]));
            ISERDESE3 #(.DATA_WIDTH(4), .FIFO_ENABLE("FALSE")) i_cell (.CLK(clk2x),
                .CLK_B(~clk2x), .CLKDIV(clk), .RST(1'b0), .D(dq_i[i]), .FIFO_RD_CLK(1'b0),
                .FIFO_RD_EN(1'b0), .Q(q), .FIFO_EMPTY(), .INTERNAL_DIVCLK());
            /* verilator lint_on PINCONNECTEMPTY */
            assign {h3[i], h2[i], h1[i], h0[i]} = q[3:0];
        end
    endgenerate
"#;
