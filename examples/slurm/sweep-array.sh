#!/usr/bin/env bash
# One shard of an ssdlab sweep per Slurm array task.
#
#   sbatch --array=0-$((N-1)) examples/slurm/sweep-array.sh N OUTDIR SWEEP-ARGS...
#   sbatch --dependency=afterok:<array job id> --wrap "ssdlab sweep merge OUTDIR/shard-* --output OUTDIR/merged"
#
# Task I runs the points whose index is I modulo N (`--shard I/N`) into OUTDIR/shard-I; the
# merge refuses shards of different grids and points present twice. A 512 GB drive holds about
# 2.1 GB of tables: ask for 3 GB per task (one point at a time, the default --jobs 1).
# SSDLAB names the binary (default: ssdlab on PATH).
#SBATCH --job-name=ssdlab-sweep
#SBATCH --cpus-per-task=1
#SBATCH --mem=3G
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: sweep-array.sh N OUTDIR SWEEP-ARGS..." >&2
  exit 2
fi
n=$1
out=$2
shift 2
i=${SLURM_ARRAY_TASK_ID:?run under sbatch --array, or set SLURM_ARRAY_TASK_ID}
exec "${SSDLAB:-ssdlab}" sweep --shard "$i/$n" --output "$out/shard-$i" "$@"
