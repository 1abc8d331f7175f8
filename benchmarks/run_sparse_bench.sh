#!/usr/bin/env bash
# Runs sparse_bench and its PETSc peers (already built; PETSc from
# scripts/install-bench-deps.sh) at 1 and 2 MPI ranks, interleaved in one run, collects
# the JSON lines in bench-out/sparse.jsonl and draws the table and bench-out/sparse.png.
#
# usage: benchmarks/run_sparse_bench.sh [--build DIR] [--out DIR] [sparse_bench args]
#   further arguments go to every run, e.g. --lap 60 --ti 32 --widths 1,8,16
# The default run (Laplacian 100³, TI 64³, nb 1 … 64) takes about 10 minutes on 2 cores.
set -euo pipefail

build=build
out=bench-out
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
if [[ ! -x "$build/bin/sparse_bench" ]]; then
  echo "run_sparse_bench.sh: $build/bin/sparse_bench not found; build first" >&2
  exit 1
fi
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

: >"$out/sparse.jsonl"
for np in 1 2; do
  for exe in sparse_bench petsc_spmv_bench_real petsc_spmv_bench_complex; do
    if [[ ! -x "$build/bin/$exe" ]]; then
      echo "== $exe not built (PETSc missing?), skipped" >&2
      continue
    fi
    echo "== $exe at $np rank(s)" >&2
    mpirun -np "$np" --oversubscribe "$build/bin/$exe" "${args[@]}" | tee -a "$out/sparse.jsonl"
  done
done
# Debian's matplotlib belongs to the system python; a pyenv shim may lack it.
for py in "${PYTHON:-python3}" /usr/bin/python3; do
  if "$py" -c 'import matplotlib' 2>/dev/null; then
    "$py" "$(dirname "$0")/plot_sparse.py" "$out/sparse.jsonl" "$out/sparse.png" |
      tee "$out/sparse.md"
    exit "${PIPESTATUS[0]}"
  fi
done
echo "run_sparse_bench.sh: no python3 with matplotlib; skipped the table and plot" >&2
