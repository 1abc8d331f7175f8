#!/usr/bin/env bash
# Runs tune_bench (the autotuner's tuned, model and default choices against the
# exhaustive best of its candidate grid) at each rank count, collects the JSON lines in
# bench-out/tune.jsonl, prints the table (bench-out/tune.md) and draws bench-out/tune.png.
#
# usage: benchmarks/run_tune_bench.sh [--build DIR] [--out DIR] [--np "1 2"]
#          [--n 1000,2000] [--nev-frac 1,0.2,0.05] [--type d,z] [--reps 2] [--confirm 3]
# Each problem costs ~80 solves on a grid of one process row (up to 39 candidates × reps:
# both Householder back-transform paths; 21 on other grids), then the SCF search and the
# confirmation round (up to 6 finalists × 3 rounds): N = 2000
# real takes ~2 minutes on 2 cores, complex ~5.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
tseig_mpi_env

build=build
out=bench-out
nps="1 2"
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --np) nps="$2"; shift 2 ;;
    --n|--nev-frac|--type|--reps|--confirm) args+=("$1" "$2"); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
: > "$out/tune.jsonl"
for np in $nps; do
  mpiexec "${TSEIG_MPIRUN_FLAGS[@]}" -n "$np" "$build/bin/tune_bench" "${args[@]}" | tee -a "$out/tune.jsonl"
done
/usr/bin/python3 benchmarks/plot_tune.py "$out/tune.jsonl" "$out/tune.png" | tee "$out/tune.md"
