// Place-and-route harness of one NAND channel (`nand_channel.v`, module ssdlab_nand_channel) for the iCE40-HX8K
// ct256 run of `make synth` (scripts/synth.sh). The channel has more ports than the ct256 has
// user I/O: its 32-bit `cmd_array` (array cycles of the op on `cmd_op`, an on-chip signal from
// the firmware port) and the top 16 bits of its 68-bit `cmd_op` (column [59:52] and cache-read
// pages) are loaded here from one pin through a shift register, and its `reset` from one more
// bit of it, so every other port stays a pin as before. On a board the
// command ports and the reset stay on chip; see constraints/nand_channel_hx8k.pcf.
// Ways: the channel's way ids are 3 bits and its CE / R/B# vectors 8 (up to 8 ways); the harness
// pins ways 0-3 (way-id bit 2 held 0, R/B# of ways 4-7 held ready, CE 7:4 and way-id bit 2 of
// the outputs left open), which covers the exported channel of every built-in preset (2 or 4
// ways) within the ct256's 206 user I/O.
module nand_channel_pnr(
    input wire clock,
    input wire cmd_valid,
    input wire [1:0] cmd_way,
    input wire [51:0] cmd_op_lo,
    input wire cmd_array_sin,
    output wire cmd_ready,
    input wire [31:0] wr_data,
    output wire [1:0] data_way,
    output wire [3:0] phy_ce,
    output wire phy_cle,
    output wire phy_ale,
    output wire phy_we,
    output wire [31:0] phy_dq_out,
    output wire phy_wr_beat,
    output wire phy_rd_beat,
    input wire [3:0] phy_rb,
    input wire [31:0] phy_dq_in,
    input wire phy_dq_in_valid,
    output wire [31:0] rd_data,
    output wire rd_valid,
    output wire done_valid,
    output wire [1:0] done_way
);
    // The shift register's top bit drives the channel's synchronous reset (the ct256 has no
    // user I/O left for it; on a board it comes from on-chip logic too).
    reg [48:0] chain = 49'd0;
    always @(posedge clock) chain <= {chain[47:0], cmd_array_sin};
    wire [31:0] cmd_array = chain[31:0];
    wire [67:0] cmd_op = {chain[47:32], cmd_op_lo};
    // Outputs of ways 4-7 (constant 0 for a channel of 4 ways or fewer), not pinned.
    wire data_way_hi, done_way_hi;
    wire [3:0] ce_hi;
    ssdlab_nand_channel channel(
        .clock(clock),
        .reset(chain[48]),
        .cmd_valid(cmd_valid),
        .cmd_way({1'b0, cmd_way}),
        .cmd_op(cmd_op),
        .cmd_array(cmd_array),
        .cmd_ready(cmd_ready),
        .wr_data(wr_data),
        .data_way({data_way_hi, data_way}),
        .phy_ce({ce_hi, phy_ce}),
        .phy_cle(phy_cle),
        .phy_ale(phy_ale),
        .phy_we(phy_we),
        .phy_dq_out(phy_dq_out),
        .phy_wr_beat(phy_wr_beat),
        .phy_rd_beat(phy_rd_beat),
        .phy_rb({4'b1111, phy_rb}),
        .phy_dq_in(phy_dq_in),
        .phy_dq_in_valid(phy_dq_in_valid),
        .rd_data(rd_data),
        .rd_valid(rd_valid),
        .done_valid(done_valid),
        .done_way({done_way_hi, done_way})
    );
endmodule
