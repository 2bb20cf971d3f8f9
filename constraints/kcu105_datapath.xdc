# Timing constraints of the controller datapath (`hdl/src/top.rs`, block `Datapath`, generated
# Verilog `module ssdlab_datapath` in out/verilog/datapath.v) for the KCU105's Kintex UltraScale xcku040
# (xcku040-ffva1156-2-e), used when `ssdlab_datapath` is synthesized and implemented as a module inside a
# Vivado design (out of context: `synth_design -mode out_of_context -top ssdlab_datapath`, then `read_xdc`).
# block: datapath
# checked here by: hdl/tests/synth_report.rs (make test) only for names: every port named below
#   must be a port of the generated datapath.v, so a renamed port fails the test. Nothing in this
#   repository reads XDC semantics (yosys ignores it; nextpnr has no UltraScale flow).
# checked only by: Vivado (read_xdc, report_timing_summary / check_timing on the xcku040).
#
# The pins of the board (PCIe reference clock, PERST#, lanes, the NAND connector plan) are in
# kcu105_board.xdc: the ports of `ssdlab_datapath` are not pins. The PCIe ports (cq/cc/rq/rc AXI-S,
# mps_code, mrrs_code) face the user side of the UltraScale PCIe Gen3 hard block's IP, the
# dram_* ports a DDR4 controller's user side, the phy_i_* ports (channel i's ONFI pins per quarter
# of a core cycle, from the ONFI PHY inside) the core-clock side of that channel's io wrapper
# (nand_phy_io_xcu_*: OSERDESE3/ISERDESE3, kcu105_board.xdc), the firmware ports a soft CPU.

# The core clock: one clock for the front end and the NAND sequencers, 250 MHz
# (top.rs CORE_CLOCK_MHZ; the PCIe IP's user clock for Gen3 x4 with a 128-bit interface,
# NAND timing counts elaborated for onfi.core_clock_mhz = 250).
create_clock -name core_clk -period 4.000 [get_ports clock]

# Out of context every other port connects to on-chip logic clocked by core_clk (the PCIe IP,
# the DDR4 controller, the io wrappers, the firmware CPU). Budget: 1 ns of the 4 ns period for the
# logic on the other side of each port (the IP cores register their AXI-S outputs). `reset` is
# synchronous to core_clk and timed as any other input (drive it from a register, e.g. a reset
# synchronizer on the PCIe IP's user_reset).
set_input_delay -clock core_clk 1.000 [filter [all_inputs] {NAME != clock}]
set_output_delay -clock core_clk 1.000 [all_outputs]

# R/B# of each way is asynchronous to the core clock (open-drain from the NAND targets); the
# way FSMs synchronize it with two flip-flops (nand/way_fsm.rs), so no path from these ports is
# timed.
set_false_path -from [get_ports {phy_0_rb_n[*] phy_1_rb_n[*] phy_2_rb_n[*] phy_3_rb_n[*]}]
set_false_path -from [get_ports {phy_4_rb_n[*] phy_5_rb_n[*] phy_6_rb_n[*] phy_7_rb_n[*]}]
