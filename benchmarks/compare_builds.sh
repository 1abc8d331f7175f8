#!/usr/bin/env bash
# Times two builds of tseig against each other in one run: dense_bench of build A and of
# build B alternate (A B, then B A, ...) on the same problems, so machine drift hits both;
# compare_builds.py prints the minimum time per solver and the ratio B/A.
#
# usage: benchmarks/compare_builds.sh [--rounds R] [--np P] [--out DIR] DIR_A DIR_B [dense_bench args]
#   DIR_A, DIR_B  build trees holding bin/dense_bench (e.g. a build configured with
#                 -DTSEIG_MISCOMPILE_WORKAROUND=OFF, or one of an older commit)
#   --rounds R    repetitions of each build (default 2); --np P ranks (default 2)
# Example (issue 11): benchmarks/compare_builds.sh build-noworkaround build --n 4000 \
#   --nev-frac 1,0.2 --type d,z --solvers one_stage,two_stage,scalapack,elpa1
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
if [[ $# -lt 2 ]]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
a="$1" b="$2"
shift 2
for dir in "$a" "$b"; do
  [[ -x "$dir/bin/dense_bench" ]] || { echo "compare_builds.sh: $dir/bin/dense_bench not found" >&2; exit 1; }
done
mkdir -p "$out"
rm -f "$out"/A-*.jsonl "$out"/B-*.jsonl

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
run() {  # run LABEL DIR ROUND
  echo "== round $3: build $1 ($2)" >&2
  mpirun -np "$np" --oversubscribe "$2/bin/dense_bench" --dgemm-n 0 "${@:4}" \
    --json-out "$out/$1-$3.jsonl" 2>/dev/null
}
for ((r = 1; r <= rounds; ++r)); do
  if ((r % 2)); then
    run A "$a" "$r" "$@"; run B "$b" "$r" "$@"
  else
    run B "$b" "$r" "$@"; run A "$a" "$r" "$@"
  fi
done
python3 "$(dirname "$0")/compare_builds.py" --a "$a" --b "$b" "$out"
