#!/usr/bin/env bash
# Runs slepc_eigen_bench (tseig's LOBPCG and ChebFD against SLEPc, one residual test for
# all; PETSc/SLEPc from scripts/install-bench-deps.sh) at 2 MPI ranks: the 3D Laplacian
# (real build; the --nev smallest) and the disordered TI (complex build; the --nev
# nearest 0); on the Laplacian also scipy's lobpcg (scipy_lobpcg_bench.py, the same test;
# --skip scipy_lobpcg leaves it out). Collects the JSON lines in bench-out/eigen.jsonl,
# prints the table (bench-out/eigen.md) and draws bench-out/eigen.png.
#
# usage: benchmarks/run_eigen_bench.sh [--build DIR] [--out DIR] [--np P]
#          [--lap "64"] [--nev-lap "16 32"] [--ti 64,64,16] [--nev-ti 20] [--skip NAMES]
# The default run takes about an hour on 2 cores (SLEPc's shift-invert alone ~15 min
# and ~9 GiB per rank; --skip slepc_shift_invert leaves it out).
set -euo pipefail

build=build
out=bench-out
np=2
laps="64"
nevs_lap="16 32"
ti=64,64,16
nevs_ti="20"
skip=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --np) np="$2"; shift 2 ;;
    --lap) laps="$2"; shift 2 ;;
    --nev-lap) nevs_lap="$2"; shift 2 ;;
    --ti) ti="$2"; shift 2 ;;
    --nev-ti) nevs_ti="$2"; shift 2 ;;
    --skip) skip="$2"; shift 2 ;;
    *) echo "run_eigen_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for exe in slepc_eigen_bench_real slepc_eigen_bench_complex; do
  if [[ ! -x "$build/bin/$exe" ]]; then
    echo "run_eigen_bench.sh: $build/bin/$exe not found (build with PETSc/SLEPc installed:" \
      "bash scripts/install-bench-deps.sh)" >&2
    exit 1
  fi
done
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

: >"$out/eigen.jsonl"
run() {
  echo "== $*" >&2
  mpirun -np "$np" --oversubscribe "$@" --skip "${skip:-none}" | tee -a "$out/eigen.jsonl"
}
# scipy's lobpcg, the third peer on the Laplacian: one process with the MPI runs' cores as
# BLAS threads (Debian's python3-scipy belongs to the system python).
scipy_python=""
for py in "${PYTHON:-python3}" /usr/bin/python3; do
  if "$py" -c 'import scipy' 2>/dev/null; then scipy_python="$py" && break; fi
done
for n in $laps; do
  for k in $nevs_lap; do
    run "$build/bin/slepc_eigen_bench_real" --lap "$n" --nev "$k"
    if [[ ",$skip," == *",scipy_lobpcg,"* ]]; then continue; fi
    if [[ -z "$scipy_python" ]]; then
      echo "run_eigen_bench.sh: no python3 with scipy (apt install python3-scipy); skipped" >&2
      continue
    fi
    echo "== scipy lobpcg --lap $n --nev $k" >&2
    OPENBLAS_NUM_THREADS="$np" "$scipy_python" "$(dirname "$0")/scipy_lobpcg_bench.py" \
      --lap "$n" --nev "$k" | tee -a "$out/eigen.jsonl"
  done
done
for k in $nevs_ti; do
  run "$build/bin/slepc_eigen_bench_complex" --ti "$ti" --nev "$k"
done
# Debian's matplotlib belongs to the system python; a pyenv shim may lack it.
for py in "${PYTHON:-python3}" /usr/bin/python3; do
  if "$py" -c 'import matplotlib' 2>/dev/null; then
    "$py" "$(dirname "$0")/plot_eigen.py" "$out/eigen.jsonl" "$out/eigen.png" | tee "$out/eigen.md"
    exit "${PIPESTATUS[0]}"
  fi
done
echo "run_eigen_bench.sh: no python3 with matplotlib; skipped the table and plot" >&2
