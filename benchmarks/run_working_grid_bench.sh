#!/usr/bin/env bash
# The working grid (graceful degradation) measured: tseig-solve on P ranks with
# --grid-choice as_given (the most square grid of P, 1xP for a prime P) and auto, both in
# the same run, min of --reps. JSON lines in bench-out/working_grid.jsonl, the table in
# bench-out/working_grid.md, the plot in bench-out/working_grid.png.
#
# usage: benchmarks/run_working_grid_bench.sh [--build DIR] [--out DIR] [--np "2 3 4 5 7"]
#          [--n "100 400 1200"] [--solver one_stage] [--type d] [--reps 3]
# More ranks than cores run oversubscribed: that is one of the cases the choice is for.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
tseig_mpi_env

build=build
out=bench-out
nps="2 3 4 5 7"
ns="100 400 1200"
solver=one_stage
type=d
reps=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --np) nps="$2"; shift 2 ;;
    --n) ns="$2"; shift 2 ;;
    --solver) solver="$2"; shift 2 ;;
    --type) type="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
: > "$out/working_grid.jsonl"
cores=$(getconf _NPROCESSORS_ONLN)
for np in $nps; do
  for n in $ns; do
    for rep in $(seq "$reps"); do
      # Interleaved, so that both choices see the same machine state.
      for choice in as_given auto; do
        mpiexec "${TSEIG_MPIRUN_FLAGS[@]}" -n "$np" "$build/bin/tseig-solve" \
          --random "$n" --type "$type" --solver "$solver" --nb 32 --grid-choice "$choice" --json |
          /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); d['grid_choice']='$choice'; d['rep']=$rep; d['cores']=$cores; print(json.dumps(d))" \
          >> "$out/working_grid.jsonl"
      done
    done
  done
done
/usr/bin/python3 benchmarks/plot_working_grid.py "$out/working_grid.jsonl" "$out/working_grid.png" |
  tee "$out/working_grid.md"
