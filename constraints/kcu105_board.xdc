# Board pins of the KCU105 (xcku040-ffva1156-2-e) for the SSD controller as a PCIe Gen3 x4
# endpoint in the board's edge connector: PCIe reference clock, PERST#, the four lanes (through
# the PCIe IP's GT location), a system clock for the core-clock MMCM, and the plan for the NAND
# pins on the FMC connectors.
# block: none (these are ports of a Vivado top-level wrapper around the UltraScale PCIe Gen3 IP
#   (pcie3_ultrascale), a DDR4 controller and the datapath `ssdlab_datapath`; the wrapper and the IPs are
#   Vivado-generated and not in this repository, so no generated Verilog here has these ports.
#   The datapath's own ports are constrained in kcu105_datapath.xdc.)
# checked here by: hdl/tests/synth_report.rs only checks that this header is present; nothing
#   in this repository reads XDC, and the port names below are the wrapper's, not datapath.v's.
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

# NAND pins. The datapath's NAND ports (`phy_i_*` of datapath.v) are the core-clock side of an ONFI
# PHY: 32-bit DQ per core cycle, command/address strobes as one-cycle flags. The ONFI pins come
# out of that PHY, which is not in this design, so no NAND pin is constrained here. Plan, for
# when it exists: per channel DQ[7:0], DQS, RE#, WE#, CLE, ALE, WP#, CE#[3:0], R/B#[3:0] = 22
# single-ended pins (24 with differential DQS/RE#), 176 for 8 channels, on the two FMC
# connectors: HPC J22 (LA00-LA33 and HA00-HA23: 116 pins, per the taxi file) and LPC J2
# (LA00-LA33: 68 pins) = 184. R/B# may be wired-OR per channel (open drain), which frees 24.
# IO standard: the FMC banks run at VADJ, 1.8 V on the KCU105 (fpgadeveloper/fpga-drive-aximm-pcie,
# Vivado/src/constraints/kcu105-hpc-dual.xdc: "VADJ which is fixed to 1.8V on KCU105"; not
# confirmed from UG917 here), so LVCMOS18 for SDR / NV-DDR and SSTL18 for
# NV-DDR2 (ONFI VccQ 1.8 V); NV-DDR3 (VccQ 1.2 V, SSTL12) would need VADJ = 1.2 V, which is not
# confirmed possible on this board. Pin numbers per signal are left to the PHY's wrapper.
