#!/usr/bin/env bash
# yosys synthesis of every generated block in $1 (default out/verilog, `make verilog`) into $2
# (default out/synth). Each `<block>.v` (module `ssdlab_<block>`, its first module) is synthesized
# flattened for
#   - Xilinx UltraScale (`xcu`): `synth_xilinx -flatten -family xcu` (the KCU105's xcku040), and
#   - Lattice iCE40: `synth_ice40 -abc9` (ABC9: timing-driven LUT mapping with the iCE40 box
#     delays; on the NAND channel it is worth ~10 MHz after place and route over `abc`).
# The whole datapath (`datapath.v`, every other block inside it) gets only the Xilinx
# run: it is several times an HX8K, and its iCE40 run would cost minutes for a "does not fit"
# (SSDLAB_SYNTH_TOP_ICE40=1 runs it anyway).
# Per block and family it writes `<block>.<family>.stat` (yosys `stat`), `.log` and `.time`
# (bash `time`: wall, user, sys seconds). The table and the comparison with the checked-in
# hdl/synth-report.txt are made from these files by `synth-report` (`make synth` runs it).
# Then it places and routes one NAND channel with its ONFI PHY (in the harness
# scripts/nand_channel_pnr.v) on an iCE40-HX8K (ct256) with nextpnr-ice40 and constraints/nand_channel_hx8k.pcf, and records the estimated Fmax per placement seed
# (SSDLAB_PNR_SEEDS, default "1 2 3 4 5"; empty = no place and route) in
# nand_channel_ice40_fmax.txt.
set -uo pipefail
vdir="${1:-out/verilog}"
out="${2:-out/synth}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
shopt -s nullglob
files=("$vdir"/*.v)
if [ ${#files[@]} -eq 0 ]; then
  echo "synth: no Verilog in $vdir (run make verilog)" >&2
  exit 2
fi
# Results of an earlier run for a block no longer exported must not reach the report.
rm -f "$out"/*.stat "$out"/*.time "$out"/*.skip
fail=0
TIMEFORMAT='%R %U %S'
for f in "${files[@]}"; do
  b="$(basename "$f" .v)"
  topm=$(grep -m1 -oE '^module [A-Za-z_][A-Za-z0-9_$]*' "$f" | cut -d' ' -f2)
  for fam in xcu ice40; do
    case "$fam" in
      xcu) cmd="synth_xilinx -flatten -top $topm -family xcu" ;;
      ice40) cmd="synth_ice40 -abc9 -top $topm -json $out/$b.ice40.json" ;;
    esac
    if [ "$fam" = ice40 ] && [ "$b" = datapath ] \
        && [ "${SSDLAB_SYNTH_TOP_ICE40:-0}" != 1 ]; then
      echo "not synthesized: the whole datapath is several HX8Ks (see its parts' lines); SSDLAB_SYNTH_TOP_ICE40=1 runs it" > "$out/$b.ice40.skip"
      continue
    fi
    # The page buffer's regions (hdl/src/top/lane_ram.rs, the one module that waives
    # MULTIDRIVEN) are true dual-port RAM with a clock per port: iCE40 EBR has one read and one
    # write port, so yosys cannot map them there.
    if [ "$fam" = ice40 ] && grep -q 'verilator lint_off MULTIDRIVEN' "$f"; then
      echo "not synthesized: its page-buffer regions are true dual-port RAM with a clock per port, which iCE40 EBR (one read, one write port) cannot hold" > "$out/$b.ice40.skip"
      continue
    fi
    stat="$out/$b.$fam.stat"
    echo "synth: $b $fam ..." >&2
    { time yosys -q -p "read_verilog $f; $cmd; tee -q -o $stat stat" > "$out/$b.$fam.log" 2>&1; } \
        2> "$out/$b.$fam.time"
    if [ ! -s "$stat" ]; then
      echo "synth: yosys $fam failed on $b (log: $out/$b.$fam.log)" >&2
      rm -f "$stat" "$out/$b.$fam.time"
      fail=1
    fi
  done
done
# Place and route of one channel and its ONFI PHY on iCE40-HX8K, inside scripts/nand_channel_pnr.v:
# the pins are the PHY's, and the channel's command ports are more than the ct256's user I/O
# beside them, so the harness loads its on-chip `cmd_array` and part of `cmd_op` from one pin
# through a shift register (see the file).
json="$out/nand_channel_pnr.ice40.json"
rm -f "$json"
if [ -f "$vdir/nand_channel.v" ] && [ -f "$vdir/nand_phy.v" ] && [ -n "${SSDLAB_PNR_SEEDS-1}" ]; then
  if ! yosys -q -p "read_verilog $vdir/nand_channel.v $vdir/nand_phy.v $root/scripts/nand_channel_pnr.v; synth_ice40 -abc9 -top nand_channel_pnr -json $json" > "$out/nand_channel_pnr.ice40.log" 2>&1; then
    echo "synth: yosys ice40 failed on the place-and-route harness (log: $out/nand_channel_pnr.ice40.log)" >&2
    fail=1
  fi
fi
if [ -f "$json" ]; then
  pcf="$root/constraints/nand_channel_hx8k.pcf"
  # Placement varies Fmax by several MHz: report each seed (a few minutes each).
  : > "$out/nand_channel_ice40_fmax.txt"
  for seed in ${SSDLAB_PNR_SEEDS-1 2 3 4 5}; do
    log="$out/nand_channel.pnr.seed$seed.log"
    if nextpnr-ice40 --hx8k --package ct256 --json "$json" --pcf "$pcf" --pcf-allow-unconstrained \
        --asc "$out/nand_channel.seed$seed.asc" --freq 100 --seed "$seed" > "$log" 2>&1 \
        || grep -q "Max frequency" "$log"; then
      fmax=$(grep -E "Max frequency for clock" "$log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
      echo "nand_channel + nand_phy on iCE40-HX8K (nextpnr-ice40, seed $seed): Fmax ${fmax} MHz (target 100 MHz)" | tee -a "$out/nand_channel_ice40_fmax.txt"
    else
      echo "synth: nextpnr-ice40 failed (log: $log)" >&2
      fail=1
    fi
  done
fi
exit $fail
