#!/usr/bin/env bash
# verilator --lint-only -Wall on every generated Verilog file in $1 (default out/verilog), with
# the rust-hdl library waivers of hdl/verilator-waivers.vlt (each with its reason). Exit 1 on any
# warning left; prints one line per file.
set -uo pipefail
dir="${1:-out/verilog}"
root="$(cd "$(dirname "$0")/.." && pwd)"
waivers="$root/hdl/verilator-waivers.vlt"
shopt -s nullglob
files=("$dir"/*.v)
if [ ${#files[@]} -eq 0 ]; then
  echo "lint: no Verilog in $dir (run make verilog)" >&2
  exit 2
fi
fail=0
for f in "${files[@]}"; do
  # The file's first module is its block (`module ssdlab_<block>`, hdl/src/export).
  top=$(grep -m1 -oE '^module [A-Za-z_][A-Za-z0-9_$]*' "$f" | cut -d' ' -f2)
  if out=$(verilator --lint-only -Wall --top-module "$top" "$waivers" "$f" 2>&1); then
    echo "lint: clean  $(basename "$f")"
  else
    echo "lint: FAILED $(basename "$f")"
    echo "$out" | grep -E '^%(Warning|Error)' | head -30
    fail=1
  fi
done
exit $fail
