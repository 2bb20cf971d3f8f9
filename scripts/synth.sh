#!/usr/bin/env bash
# yosys synthesis of every generated block in $1 (default out/verilog) into reports under $2
# (default out/synth): generic (`synth`), Lattice iCE40 (`synth_ice40`) and, unless
# SSDLAB_SYNTH_XILINX=0, Xilinx 7-series (`synth_xilinx`). Writes one yosys `stat` per block and
# family and a table resources.txt (LUTs, FFs, block RAMs). Then places and routes one NAND channel
# on an iCE40-HX8K (ct256) with nextpnr-ice40 and constraints/nand_channel_hx8k.pcf, and records
# the estimated Fmax per placement seed (target: >= 100 MHz) in nand_channel_ice40_fmax.txt.
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
# Sum the counts of the cell types matching $2 in a yosys stat file $1.
count() { awk -v pat="$2" '$1 ~ pat && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$1"; }
families=(generic ice40)
[ "${SSDLAB_SYNTH_XILINX:-1}" != "0" ] && families+=(xilinx)
table="$out/resources.txt"
printf '%-18s %-8s %8s %8s %8s\n' block family LUTs FFs BRAM > "$table"
fail=0
for f in "${files[@]}"; do
  b="$(basename "$f" .v)"
  for fam in "${families[@]}"; do
    stat="$out/$b.$fam.stat"
    case "$fam" in
      generic) cmd="synth -flatten -top top" ;;
      # -abc9: timing-driven LUT mapping (ABC9 with the iCE40 box delays); on the NAND channel
      # it is worth ~10 MHz after place and route over the default `abc` mapping.
      ice40) cmd="synth_ice40 -abc9 -top top -json $out/$b.ice40.json" ;;
      xilinx) cmd="synth_xilinx -flatten -top top -family xc7" ;;
    esac
    if ! yosys -q -p "read_verilog $f; $cmd; tee -q -o $stat stat" > "$out/$b.$fam.log" 2>&1; then
      echo "synth: yosys $fam failed on $b (log: $out/$b.$fam.log)" >&2
      fail=1
      continue
    fi
    case "$fam" in
      generic) luts=$(count "$stat" '^\$_(AND|OR|XOR|XNOR|NAND|NOR|NOT|MUX|ANDNOT|ORNOT)_$'); ffs=$(count "$stat" '^\$_.*DFF'); bram=$(count "$stat" '^\$mem') ;;
      ice40) luts=$(count "$stat" '^SB_LUT4$'); ffs=$(count "$stat" '^SB_DFF'); bram=$(count "$stat" '^SB_RAM40_4K') ;;
      xilinx) luts=$(count "$stat" '^LUT[1-6]$'); ffs=$(count "$stat" '^FD[A-Z]*$'); bram=$(count "$stat" '^RAMB') ;;
    esac
    [ "$fam" = generic ] && luts="$luts(gates)"
    printf '%-18s %-8s %8s %8s %8s\n' "$b" "$fam" "$luts" "$ffs" "$bram" >> "$table"
  done
done
cat "$table"
# Place and route of one channel on iCE40-HX8K.
json="$out/nand_channel.ice40.json"
if [ -f "$json" ]; then
  pcf="$root/constraints/nand_channel_hx8k.pcf"
  # Placement varies Fmax by several MHz: report each of $SSDLAB_PNR_SEEDS (default 1-5, the
  # seeds ARCHITECTURE.md records; a few minutes each).
  : > "$out/nand_channel_ice40_fmax.txt"
  for seed in ${SSDLAB_PNR_SEEDS:-1 2 3 4 5}; do
    log="$out/nand_channel.pnr.seed$seed.log"
    if nextpnr-ice40 --hx8k --package ct256 --json "$json" --pcf "$pcf" --pcf-allow-unconstrained \
        --asc "$out/nand_channel.seed$seed.asc" --freq 100 --seed "$seed" > "$log" 2>&1 \
        || grep -q "Max frequency" "$log"; then
      fmax=$(grep -E "Max frequency for clock" "$log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
      echo "nand_channel on iCE40-HX8K (nextpnr-ice40, seed $seed): Fmax ${fmax} MHz (target 100 MHz)" | tee -a "$out/nand_channel_ice40_fmax.txt"
    else
      echo "synth: nextpnr-ice40 failed (log: $log)" >&2
      fail=1
    fi
  done
fi
exit $fail
