#!/usr/bin/env bash
# Installs the tools the test suite needs (verilator, yosys, nextpnr-ice40, icestorm, chromium)
# when they are missing. Debian packages; needs root (CI and developer machines run as root).
set -euo pipefail
need=()
command -v verilator >/dev/null || need+=(verilator)
command -v yosys >/dev/null || need+=(yosys)
command -v nextpnr-ice40 >/dev/null || need+=(nextpnr-ice40)
command -v icepack >/dev/null || need+=(fpga-icestorm)
command -v g++ >/dev/null || need+=(g++)
# headless browser for the sweep report test (testbench/tests/report_html.rs)
command -v chromium >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "ensure-tools: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
