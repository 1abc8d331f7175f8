#!/usr/bin/env bash
# Counts MPI messages and bytes per stage of tseig-solve (the PMPI layer
# build/lib/libtseig_comm_profile.so, LD_PRELOADed, switched on by TSEIG_COMM_PROFILE) at
# several rank counts (oversubscribed: counts, not times), then compares each stage with
# the analytical model and prints the model's prediction for large runs
# (benchmarks/comm_model.py).
#
# usage: benchmarks/run_comm_profile.sh [--build DIR] [--out DIR] [--np "1 2 4 8 16"]
#          [--n 1000,2000] [--solvers one_stage,two_stage] [--nb 64]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
tseig_mpi_env

build=build
out=bench-out/comm
nps="1 2 4 8 16"
sizes=1000,2000
solvers=one_stage,two_stage
nb=64
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --np) nps="$2"; shift 2 ;;
    --n) sizes="$2"; shift 2 ;;
    --solvers) solvers="$2"; shift 2 ;;
    --nb) nb="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
lib="$PWD/$build/lib/libtseig_comm_profile.so"
[[ -f "$lib" ]] || { echo "missing $lib (build the tseig_comm_profile target)" >&2; exit 1; }
for n in ${sizes//,/ }; do
  for solver in ${solvers//,/ }; do
    for np in $nps; do
      file="$out/${solver}_n${n}_np${np}.json"
      mpiexec "${TSEIG_MPIRUN_FLAGS[@]}" --oversubscribe -n "$np" -x LD_PRELOAD="$lib" \
        -x TSEIG_COMM_PROFILE="$file" "$build/bin/tseig-solve" --random "$n" --nb "$nb" \
        --solver "$solver" --grid-choice as_given --json > "$out/${solver}_n${n}_np${np}.solve.json"
      echo "counted $solver N=$n np=$np -> $file"
    done
  done
done
/usr/bin/python3 benchmarks/comm_model.py compare "$out" | tee "$out/compare.md"
/usr/bin/python3 benchmarks/comm_model.py predict --n 100000 --np 64,256,1024 --nb "$nb" \
  | tee "$out/predict.md"
