#!/usr/bin/env bash
# Raw Verilator ceiling of the datapath (issue #9): builds testbench/cpp/raw_eval.cpp against a
# Verilated `ssdlab_datapath` (the exported form, ports without `$`) with the runner's flags (verilator -O2, OPT_FAST=-O2; override with OPT_FAST=-Os
# etc.), then runs it pinned to one core, idle and with traffic. A datapath whose header gives
# `nand_clock` a frequency (its NAND sequencers on a clock of their own) gets that clock too.
# Usage: testbench/cpp/raw_eval.sh [datapath.v (default out/verilog/datapath.v from `make verilog`)] [cycles]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="${1:-out/verilog/datapath.v}"
cycles="${2:-1000000}"
opt="${OPT_FAST:--O2}"
[ -f "$top" ] || { echo "raw_eval: no $top (run make verilog)" >&2; exit 2; }
work="${RAW_EVAL_DIR:-out/raw_eval}"
rm -rf "$work" && mkdir -p "$work"
cp "$top" "$work/block.v"
module=$(grep -m1 -oE '^module [A-Za-z_][A-Za-z0-9_]*' "$top" | cut -d' ' -f2)
cp "$here/raw_eval.cpp" "$work/"
cp "$here/../../hdl/verilator-waivers.vlt" "$work/waivers.vlt"
cd "$work"
start=$(date +%s)
verilator --cc --exe -O2 --top-module "$module" --prefix Vtop -Mdir obj -o raw_eval waivers.vlt block.v raw_eval.cpp > build.log 2>&1
make -C obj -j "${JOBS:-2}" -f Vtop.mk "OPT_FAST=$opt" raw_eval >> build.log 2>&1
echo "raw_eval: built with OPT_FAST=$opt in $(( $(date +%s) - start )) s (log $work/build.log)"
mhz=$(grep -m1 -oE '`nand_clock`, [0-9]+ MHz' block.v | grep -oE '[0-9]+' || true)
nand_ps=$(( ${mhz:-0} > 0 ? 1000000 / ${mhz:-1} : 0 ))
taskset -c 1 obj/raw_eval "$cycles" 0 "$nand_ps"
taskset -c 1 obj/raw_eval "$cycles" 1 "$nand_ps"
