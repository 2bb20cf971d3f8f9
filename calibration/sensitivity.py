#!/usr/bin/env python3
"""Full-size sensitivity sweep of a drive preset against the SSDFans protocol.

Each major parameter is moved to -20 % and +20 % of its preset value (ONFI rate: -25 / +25 %,
the nearest multiples of the 200 MHz sequencer clock), one at a time, everything else unchanged;
every variant runs `ssdlab validate --config <variant> --seed <seed> --output-format json` on the
full protocol (30 s windows, 512 GB drive) and the table prints each figure's change against the
base run of the same binary and seed, in percent. Variants are written next to the results.

Usage (from the repository root, after `cargo build --release -p ssdlab-testbench --bin ssdlab`):
    python3 calibration/sensitivity.py --out /tmp/sens [--jobs 2] [--seed 1] [--only tlc_tprog,op]
The markdown table goes to stdout and to <out>/table.md; raw figures to <out>/results.json.
"""

import argparse
import concurrent.futures
import json
import pathlib
import re
import subprocess
import sys

PRESET = "presets/sm2262-512g.toml"
BINARY = "target/release/ssdlab"

# (id, label, [(table, key)], kind, factors); kind "float" keeps one decimal, "int" rounds.
PARAMS = [
    ("tlc_tprog", "TLC tPROG", [("nand.tlc", "t_prog_us")], "float", (0.8, 1.2)),
    ("op", "over-provisioning", [("ftl", "over_provisioning_pct")], "float", (0.8, 1.2)),
    ("tlc_tr", "TLC tR (LSB/CSB/MSB)",
     [("nand.tlc", "t_read_lsb_us"), ("nand.tlc", "t_read_csb_us"), ("nand.tlc", "t_read_msb_us")],
     "float", (0.8, 1.2)),
    ("tlc_erase", "TLC tBERS", [("nand.tlc", "t_erase_ms")], "float", (0.8, 1.2)),
    ("slc_tprog", "SLC tPROG", [("nand.slc", "t_prog_us")], "float", (0.8, 1.2)),
    ("slc_tr", "SLC tR",
     [("nand.slc", "t_read_lsb_us"), ("nand.slc", "t_read_csb_us"), ("nand.slc", "t_read_msb_us")],
     "float", (0.8, 1.2)),
    ("onfi", "ONFI rate", [("onfi", "transfer_mts")], "int", (0.75, 1.25)),
    ("cpu_cmd", "cpu_ns_per_cmd", [("controller", "cpu_ns_per_cmd")], "float", (0.8, 1.2)),
    ("cpu_unit", "cpu_ns_per_unit", [("controller", "cpu_ns_per_unit")], "float", (0.8, 1.2)),
    ("cpu_write", "cpu_ns_per_write_cmd", [("controller", "cpu_ns_per_write_cmd")], "float", (0.8, 1.2)),
    ("wbuf", "write buffer", [("controller", "write_buffer_kib")], "int", (0.8, 1.2)),
    ("slc_dyn", "SLC dynamic fraction", [("ftl.slc_cache", "dynamic_fraction")], "float", (0.8, 1.2)),
    ("read_ahead", "read-ahead window", [("ftl", "read_ahead_kib")], "int", (0.8, 1.2)),
    ("spread", "relocation_spread_blocks (2: 1 / 3)", [("controller", "relocation_spread_blocks")], "int",
     (0.5, 1.5)),
    ("reserve", "gc_threshold_free_blocks (16: 13 / 19)", [("ftl", "gc_threshold_free_blocks")], "int", (0.8, 1.2)),
]

LINE = re.compile(r"^(?P<key>[A-Za-z_]+)(?P<eq>\s*=\s*)(?P<val>[-0-9.]+)(?P<rest>.*)$")


def variant(text, keys, kind, factor):
    """The preset text with every (table, key) value multiplied by factor."""
    table, out, hit = None, [], set()
    for line in text.splitlines():
        head = re.match(r"^\[([A-Za-z_.]+)\]", line)
        if head:
            table = head.group(1)
        m = LINE.match(line)
        if m and (table, m.group("key")) in keys:
            v = float(m.group("val")) * factor
            val = str(int(round(v))) if kind == "int" else f"{v:.2f}".rstrip("0").rstrip(".")
            if kind == "float" and "." not in val:
                val += ".0"
            line = f"{m.group('key')}{m.group('eq')}{val}{m.group('rest')}"
            hit.add((table, m.group("key")))
        out.append(line)
    missing = set(keys) - hit
    if missing:
        sys.exit(f"sensitivity.py: {PRESET} has no {sorted(missing)}")
    return "\n".join(out) + "\n"


def run(config, seed, out_json):
    cmd = [BINARY, "validate", "--config", str(config), "--seed", str(seed), "--output-format", "json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"sensitivity.py: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    out_json.write_text(p.stdout)
    figures = {}
    for step in json.loads(p.stdout)["steps"]:
        r = step.get("report")
        if r:
            figures[r["id"]] = r["model"]
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated parameter ids")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    text = pathlib.Path(PRESET).read_text()
    only = set(filter(None, a.only.split(",")))
    runs = [("base", 1.0, pathlib.Path(PRESET))]
    for pid, _, keys, kind, factors in PARAMS:
        if only and pid not in only:
            continue
        for f in factors:
            path = a.out / f"{pid}_{f}.toml"
            path.write_text(variant(text, set(keys), kind, f))
            runs.append((pid, f, path))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {(pid, f): ex.submit(run, path, a.seed, a.out / f"{pid}_{f}.json") for pid, f, path in runs}
        res = {k: v.result() for k, v in futs.items()}
    (a.out / "results.json").write_text(json.dumps({f"{k[0]}_{k[1]}": v for k, v in res.items()}, indent=1))
    base = res[("base", 1.0)]
    ids = list(base)
    lines = ["| parameter (-/+) | " + " | ".join(ids) + " |", "|---" * (len(ids) + 1) + "|",
             "| base (model value) | " + " | ".join(f"{base[i]:.0f}" for i in ids) + " |"]
    for pid, label, _, _, factors in PARAMS:
        if (pid, factors[0]) not in res:
            continue
        cells = []
        for i in ids:
            ch = [100.0 * (res[(pid, f)][i] / base[i] - 1.0) for f in factors]
            cells.append(" / ".join(f"{c:+.0f}" for c in ch))
        lines.append(f"| {label} x{factors[0]:.3g} / x{factors[1]:.3g} | " + " | ".join(cells) + " |")
    table = "\n".join(lines) + "\n"
    (a.out / "table.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
