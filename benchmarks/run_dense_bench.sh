#!/usr/bin/env bash
# Runs dense_bench (already built) at 1 and 2 MPI ranks with one BLAS thread per rank,
# the 2-rank run with the LAPACK reference (rank 0 with both ranks' BLAS threads and
# cores, the whole 2-core node), collects the JSON lines in bench-out/dense.jsonl and
# draws bench-out/dense.png.
#
# usage: benchmarks/run_dense_bench.sh [--quick] [--build DIR] [--out DIR] [dense_bench args]
#   --quick      N=1000, all eigenpairs, double only (about 10 s)
#   --build DIR  build tree holding bin/dense_bench (default: build)
#   --out DIR    output folder (default: bench-out)
# Further arguments go to every dense_bench run, e.g. --n 2000 --type d.
# The default run (N=2000,4000; d,z; nev N and 0.2N) takes about 20 minutes on 2 cores.
set -euo pipefail

build=build
out=bench-out
mode=()
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) mode=(--quick); shift ;;
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

bench="$build/bin/dense_bench"
if [[ ! -x "$bench" ]]; then
  echo "run_dense_bench.sh: $bench not found; build first (cmake --build $build)" >&2
  exit 1
fi
mkdir -p "$out"

# Containers run as root; oversubscribed ranks must yield instead of spinning.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1

for np in 1 2; do
  echo "== dense_bench at $np rank(s), 1 BLAS thread each" >&2
  lapack=()
  [[ $np -eq 2 ]] && lapack=(--lapack)
  OPENBLAS_NUM_THREADS=1 mpirun -np "$np" --oversubscribe "$bench" "${mode[@]}" "${args[@]}" \
    "${lapack[@]}" --json-out "$out/dense-np$np.jsonl"
done

cat "$out/dense-np1.jsonl" "$out/dense-np2.jsonl" > "$out/dense.jsonl"
echo "== results in $out/dense.jsonl" >&2

# Debian's numpy/matplotlib belong to the system python; a pyenv shim may lack them.
for py in "${PYTHON:-python3}" /usr/bin/python3; do
  if "$py" -c 'import numpy, matplotlib' 2>/dev/null; then
    exec "$py" "$(dirname "$0")/plot_dense.py" "$out/dense.jsonl" --png "$out/dense.png"
  fi
done
echo "run_dense_bench.sh: no python3 with numpy and matplotlib; skipped the plot" >&2
