#!/usr/bin/env bash
# Times several builds of tseig against each other in one run: the dense_bench of each
# build runs in turn on the same problems, the order rotating from round to round so that
# machine drift hits all; compare_builds.py prints the minimum time per solver and the
# ratio of each build to the first.
#
# usage: benchmarks/compare_builds.sh [--rounds R] [--np P] [--out DIR] DIR... -- [dense_bench args]
#   DIR...        build trees holding bin/dense_bench (e.g. one configured with
#                 -DTSEIG_MISCOMPILE_WORKAROUND=OFF, or one of an older commit); the first
#                 is the reference of the ratios
#   --rounds R    repetitions of each build (default 2); --np P ranks (default 2)
# Example: benchmarks/compare_builds.sh build-noworkaround build -- --n 4000 \
#   --nev-frac 1,0.2 --type d,z --solvers one_stage,two_stage,scalapack
set -euo pipefail

rounds=2
np=2
out=bench-out/compare
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --np) np="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) break ;;
  esac
done
builds=()
while [[ $# -gt 0 && "$1" != "--" ]]; do
  builds+=("$1")
  shift
done
[[ $# -gt 0 ]] && shift  # the "--"
if ((${#builds[@]} < 2)); then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
for dir in "${builds[@]}"; do
  [[ -x "$dir/bin/dense_bench" ]] || { echo "compare_builds.sh: $dir/bin/dense_bench not found" >&2; exit 1; }
done
mkdir -p "$out"
rm -f "$out"/build*-round*.jsonl

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
nb=${#builds[@]}
for ((r = 0; r < rounds; ++r)); do
  for ((k = 0; k < nb; ++k)); do
    i=$(((k + r) % nb))
    echo "== round $((r + 1)): ${builds[$i]}" >&2
    mpirun -np "$np" --oversubscribe "${builds[$i]}/bin/dense_bench" --dgemm-n 0 "$@" \
      --json-out "$out/build$i-round$r.jsonl" 2>/dev/null
  done
done
python3 "$(dirname "$0")/compare_builds.py" "$out" "${builds[@]}"
