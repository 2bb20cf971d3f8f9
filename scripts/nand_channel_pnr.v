// Place-and-route harness of one NAND channel with its ONFI PHY (`nand_channel.v`, module
// ssdlab_nand_channel, and `nand_phy.v`, module ssdlab_nand_phy, on the channel's beat port) for
// the iCE40-HX8K ct256 run of `make synth` (scripts/synth.sh). The pins are the PHY's: CE#,
// CLE, ALE, WE#, WP#, and RE#, DQS and DQ per quarter of a core cycle with their output
// enables, R/B# and DQ in per quarter (what an io wrapper of DDR cells or serializers takes;
// none for iCE40 here). The channel's command and data ports have more bits than the ct256
// has user I/O beside them: its 32-bit `cmd_array` (array cycles of the op on `cmd_op`, an
// on-chip signal from the firmware port) and the top 28 bits of its 68-bit `cmd_op` (row
// bits, column and cache-read pages) are loaded here from one pin through a shift register,
// and the `reset` of both blocks from one more bit of it, so every other port stays a pin.
// On a board the command ports and the reset stay on chip; see constraints/nand_channel_hx8k.pcf.
// Ways: the way ids are 3 bits and the CE# / R/B# vectors 8 (up to 8 ways); the harness pins
// ways 0-3 (way-id bit 2 held 0, R/B# of ways 4-7 held ready, CE# 7:4 and way-id bit 2 of the
// outputs left open), which covers the exported channel of every built-in
// preset (2 or 4 ways) within the ct256's 206 user I/O.
module nand_channel_pnr(
    input wire clock,
    input wire cmd_valid,
    input wire [1:0] cmd_way,
    input wire [39:0] cmd_op_lo,
    input wire cmd_array_sin,
    output wire cmd_ready,
    input wire [31:0] wr_data,
    output wire [1:0] data_way,
    output wire [3:0] ce_n,
    output wire cle,
    output wire ale,
    output wire we_n,
    output wire wp_n,
    output wire [3:0] re,
    output wire [3:0] dqs,
    output wire dqs_oe,
    output wire [31:0] dq,
    output wire dq_oe,
    input wire [3:0] rb_n,
    input wire [31:0] dq_in,
    output wire [31:0] rd_data,
    output wire rd_valid,
    output wire done_valid,
    output wire [1:0] done_way
);
    // The shift register's top bit drives the synchronous reset (the ct256 has no user I/O
    // left for it; on a board it comes from on-chip logic too).
    reg [60:0] chain = 61'd0;
    always @(posedge clock) chain <= {chain[59:0], cmd_array_sin};
    wire [31:0] cmd_array = chain[31:0];
    wire [67:0] cmd_op = {chain[59:32], cmd_op_lo};
    // Outputs of ways 4-7 (constant for a channel of 4 ways or fewer), not pinned.
    wire data_way_hi, done_way_hi;
    wire [3:0] ce_n_hi;
    // The beat port between the channel and the PHY.
    wire [7:0] b_ce, b_rb;
    wire b_cle, b_ale, b_we, b_wr, b_rd, b_dq_in_valid;
    wire [31:0] b_dq, b_dq_in;
    ssdlab_nand_channel channel(
        .clock(clock),
        .reset(chain[60]),
        .cmd_valid(cmd_valid),
        .cmd_way({1'b0, cmd_way}),
        .cmd_op(cmd_op),
        .cmd_array(cmd_array),
        .cmd_ready(cmd_ready),
        .wr_data(wr_data),
        .data_way({data_way_hi, data_way}),
        .phy_ce(b_ce),
        .phy_cle(b_cle),
        .phy_ale(b_ale),
        .phy_we(b_we),
        .phy_dq_out(b_dq),
        .phy_wr_beat(b_wr),
        .phy_rd_beat(b_rd),
        .phy_rb(b_rb),
        .phy_dq_in(b_dq_in),
        .phy_dq_in_valid(b_dq_in_valid),
        .rd_data(rd_data),
        .rd_valid(rd_valid),
        .done_valid(done_valid),
        .done_way({done_way_hi, done_way})
    );
    ssdlab_nand_phy phy(
        .clock(clock),
        .reset(chain[60]),
        .beat_ce(b_ce),
        .beat_cle(b_cle),
        .beat_ale(b_ale),
        .beat_we(b_we),
        .beat_dq(b_dq),
        .beat_wr(b_wr),
        .beat_rd(b_rd),
        .beat_rb(b_rb),
        .beat_dq_in(b_dq_in),
        .beat_dq_in_valid(b_dq_in_valid),
        .ce_n({ce_n_hi, ce_n}),
        .cle(cle),
        .ale(ale),
        .we_n(we_n),
        .wp_n(wp_n),
        .re(re),
        .dqs(dqs),
        .dqs_oe(dqs_oe),
        .dq(dq),
        .dq_oe(dq_oe),
        .rb_n({4'b1111, rb_n}),
        .dq_in(dq_in)
    );
endmodule
