# Board pins of the KCU105 (xcku040-ffva1156-2-e) for the SSD controller as a PCIe Gen3 x4
# endpoint in the board's edge connector: PCIe reference clock, PERST#, the four lanes (through
# the PCIe IP's GT location), a system clock for the core-clock MMCM, and the NAND pins' names
# and IO standards on the FMC connectors.
# block: none (these are ports of a Vivado top-level wrapper around the UltraScale PCIe Gen3 IP
#   (pcie3_ultrascale), a DDR4 controller and the datapath `ssdlab_datapath`; the wrapper and the IPs are
#   Vivado-generated and not in this repository, so no generated Verilog here has these ports.
#   The datapath's own ports are constrained in kcu105_datapath.xdc.)
# checked here by: hdl/tests/synth_report.rs checks that this header is present, and
#   hdl/src/nand/phy/io/tests.rs that the NAND pin names are the io wrapper's; nothing in this
#   repository reads XDC semantics, and the port names below are the Vivado top's, not
#   datapath.v's.
# checked only by: Vivado (read_xdc, then place_design and report_drc against the xcku040
#   package: a pin that does not exist or cannot take its IO standard fails there).
#
# Source of the pin locations: the KCU105 constraint file of fpganinja/taxi
# (example/KCU105/fpga/fpga.xdc, Alex Forencich, MIT licence; read in the fork
# Braves-Attempt/taxi at commit 27033384d975), which gives, for the PCIe edge connector,
# MGTREFCLK0 of GTH quad 225 on AB6/AB5, PERST# on K22 (LVCMOS18) and lanes 0-7 on GTH quads
# 225 and 224. The primary source, AMD UG917 (KCU105 board user guide) / the board's master XDC,
# was not available here: compare against it before using this file on hardware.

# System clock: 125 MHz LVDS from the board's Si5335 (taxi fpga.xdc: G10/F10), the reference of
# the MMCM that makes the 250 MHz core clock when `ssdlab_datapath` does not run on the PCIe IP's user clock.
set_property -dict {PACKAGE_PIN G10 IOSTANDARD LVDS} [get_ports clk_125mhz_p]
set_property -dict {PACKAGE_PIN F10 IOSTANDARD LVDS} [get_ports clk_125mhz_n]
create_clock -name clk_125mhz -period 8.000 [get_ports clk_125mhz_p]

# PCIe reference clock, 100 MHz from the edge connector, MGTREFCLK0 of GTH quad 225 (a GT
# reference clock pin takes no IOSTANDARD). The wrapper feeds it to IBUFDS_GTE3 for the IP.
set_property PACKAGE_PIN AB6 [get_ports pcie_refclk_p]
set_property PACKAGE_PIN AB5 [get_ports pcie_refclk_n]
create_clock -name pcie_refclk -period 10.000 [get_ports pcie_refclk_p]

# PERST# from the edge connector (active low, 1.8 V bank), asynchronous: the IP synchronizes it.
set_property -dict {PACKAGE_PIN K22 IOSTANDARD LVCMOS18 PULLUP true} [get_ports pcie_perst_n]
set_false_path -from [get_ports pcie_perst_n]

# Lanes. Gen3 x4 uses edge-connector lanes 0-3, which the taxi file places on GTH quad 225
# (GTHE3_COMMON_X0Y1), lane 0 on its channel 3:
#   lane 0: GTHE3_CHANNEL_X0Y7, RX AB2/AB1, TX AC4/AC3
#   lane 1: GTHE3_CHANNEL_X0Y6, RX AD2/AD1, TX AE4/AE3
#   lane 2: GTHE3_CHANNEL_X0Y5, RX AF2/AF1, TX AG4/AG3
#   lane 3: GTHE3_CHANNEL_X0Y4, RX AH2/AH1, TX AH6/AH5
# The lanes are not pinned here: the PCIe IP LOCs its GT channels itself from its GT
# location setting (IP customization: GT quad = Quad 225, PCIe block location next to it), and
# pin constraints on pci_exp_* would only restate (or contradict) the IP's own XDC. Which
# PCIE_3_1 site (X0Y0) the KCU105 edge connector pairs with is NOT confirmed from a source here;
# Vivado's IP customization for the KCU105 board part selects it.

# NAND pins. Each channel's ONFI PHY is `ssdlab_nand_phy` (out/verilog/nand_phy.v) behind the
# UltraScale io wrapper `ssdlab_nand_phy_io_xcu_x2` (out/verilog/io/nand_phy_io_xcu_x2.v; X2:
# OSERDESE3/ISERDESE3 4:1 on the 200 MHz core clock and a 400 MHz clk2x, for 800 MT/s). The
# Vivado top brings channel c's wrapper pins `pin_<name>` out as `nand<c>_<name>`:
#   nand<c>_ce_n[7:0] nand<c>_cle nand<c>_ale nand<c>_we_n nand<c>_wp_n   (SDR, out)
#   nand<c>_re_t nand<c>_re_c                                             (RE#, out, differential)
#   nand<c>_dqs_t nand<c>_dqs_c                                           (DQS, in/out, differential)
#   nand<c>_dq[7:0]                                                       (DQ, in/out)
#   nand<c>_rb_n[7:0]                                                     (R/B#, in, open drain)
# CE# and R/B# are one bit per way (the wrapper has 8, for up to 8 ways); a board brings out
# the preset's ways, 4 for e12-960g and sm2262-1t: CE#[3:0], R/B#[3:0] (the others tied high).
# 24 pins per channel, 192 for 8 channels, on the two FMC connectors: HPC J22 (LA00-LA33 and
# HA00-HA23: 116 pins, per the taxi file) and LPC J2 (LA00-LA33: 68 pins) = 184, so R/B# is
# wired-OR per channel on the board (one pin, the wrapper's four inputs tied), 168 pins. The
# package pins per signal are not assigned here: they follow the NAND board's FMC pinout.
# IO standards: the presets' 800 MT/s is NV-DDR3 (ONFI 4.1, VccQ 1.2 V): SSTL12, differential
# for RE# and DQS, R/B# as 1.2 V CMOS with a pull-up. The FMC banks run at VADJ, 1.8 V on the
# KCU105 (fpgadeveloper/fpga-drive-aximm-pcie, Vivado/src/constraints/kcu105-hpc-dual.xdc:
# "VADJ which is fixed to 1.8V on KCU105"; not confirmed from UG917 here): at 1.8 V only
# NV-DDR2 (SSTL18_I / DIFF_SSTL18_I, up to 533 MT/s; `onfi.transfer_mts`) applies, and these
# lines would change accordingly. Checked here: every `nand*_` name below is a `pin_` port of
# the io wrapper (hdl/src/nand/phy/io/tests.rs).
set_property IOSTANDARD SSTL12 [get_ports {nand*_dq[*] nand*_ce_n[*] nand*_cle nand*_ale}]
set_property IOSTANDARD SSTL12 [get_ports {nand*_we_n nand*_wp_n}]
set_property IOSTANDARD DIFF_SSTL12 [get_ports {nand*_re_t nand*_re_c nand*_dqs_t nand*_dqs_c}]
set_property -dict {IOSTANDARD LVCMOS12 PULLUP true} [get_ports {nand*_rb_n[*]}]
# R/B# is asynchronous (the way FSMs synchronize it with two flip-flops).
set_false_path -from [get_ports {nand*_rb_n[*]}]
