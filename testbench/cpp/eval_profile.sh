#!/usr/bin/env bash
# Where the Verilated datapath spends its time (issue #9): builds raw_eval with debug line info
# (raw_eval.sh, OPT_FAST="-O2 -g", so the code is the measured -O2 code), samples it with
# `perf record -e cpu-clock` (works without hardware counters) pinned to one core, resolves the
# samples to generated C++ lines (addr2line) and prints them by Verilog hierarchy and by
# Verilator region (eval_profile.py).
# Usage: testbench/cpp/eval_profile.sh [datapath.v] [cycles] [traffic 0|1] [depth]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="${1:-out/verilog/datapath.v}"
cycles="${2:-300000}"
traffic="${3:-1}"
depth="${4:-3}"
command -v perf > /dev/null || { echo "eval_profile: perf not found (apt-get install linux-perf)" >&2; exit 2; }
work="${RAW_EVAL_DIR:-out/eval_profile}"
RAW_EVAL_DIR="$work" OPT_FAST="-O2 -g" "$here/raw_eval.sh" "$top" 1000
cd "$work"
perf record -q -F 4000 -e cpu-clock -o perf.data -- taskset -c 1 obj/raw_eval "$cycles" "$traffic"
# The binary is position-independent: sample address - mapping start + file offset = link address.
perf script -i perf.data --show-mmap-events -F ip > script.txt 2> /dev/null
map=$(grep -m1 'MMAP2.*obj/raw_eval' script.txt)
[ -n "$map" ] || { echo "eval_profile: no mapping of obj/raw_eval in perf.data" >&2; exit 1; }
start=$(sed -E 's/.*\[(0x[0-9a-f]+)\(.*/\1/' <<< "$map")
pgoff=$(sed -E 's/.*@ (0x[0-9a-f]+) .*/\1/' <<< "$map")
perf script -i perf.data -F ip,dso 2> /dev/null | awk '/obj\/raw_eval/ {print $1}' | sort | uniq -c > ips.txt
python3 -c "
s, o = int('$start', 16), int('$pgoff', 16)
for l in open('ips.txt'):
    c, ip = l.split(); print(c, hex(int(ip, 16) - s + o))" > rel.txt
cut -d' ' -f2 rel.txt | addr2line -e obj/raw_eval > src.txt
paste -d' ' <(cut -d' ' -f1 rel.txt) src.txt > lines.txt
python3 "$here/eval_profile.py" obj lines.txt "$depth"
