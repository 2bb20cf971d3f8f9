#!/usr/bin/env bash
# Raw Verilator ceiling of the datapath (issue #9): builds testbench/cpp/raw_eval.cpp against a
# Verilated `ssdlab_datapath` (the exported form, ports without `$`) with the runner's flags (verilator -O2, OPT_FAST=-O2; override with OPT_FAST=-Os
# etc.), then runs it pinned to one core, idle and with traffic. A datapath whose header gives
# `nand_clock` a frequency (its NAND sequencers on a clock of their own) gets that clock too.
# THREADS=N (default 1) builds with `verilator --threads N` (the design partitioned into
# macro-tasks over N threads) and runs on cores 0..N-1 instead of core 1.
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
threads="${THREADS:-1}"
case "$threads" in ''|*[!0-9]*|0) echo "raw_eval: THREADS=$threads: a whole number >= 1" >&2; exit 2;; esac
tflag=""; cores=1
if [ "$threads" -gt 1 ]; then tflag="--threads $threads"; cores="0-$((threads - 1))"; fi
verilator --cc --exe -O2 $tflag --top-module "$module" --prefix Vtop -Mdir obj -o raw_eval waivers.vlt block.v raw_eval.cpp > build.log 2>&1
make -C obj -j "${JOBS:-2}" -f Vtop.mk "OPT_FAST=$opt" raw_eval >> build.log 2>&1
echo "raw_eval: built with OPT_FAST=$opt${tflag:+, $tflag} in $(( $(date +%s) - start )) s (log $work/build.log)"
mhz=$(grep -m1 -oE '`nand_clock`, [0-9]+ MHz' block.v | grep -oE '[0-9]+' || true)
nand_ps=$(( ${mhz:-0} > 0 ? 1000000 / ${mhz:-1} : 0 ))
taskset -c "$cores" obj/raw_eval "$cycles" 0 "$nand_ps"
taskset -c "$cores" obj/raw_eval "$cycles" 1 "$nand_ps"
