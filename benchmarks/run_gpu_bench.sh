#!/usr/bin/env bash
# The GPU benchmark (README "GPU"), for a machine with one GPU: stage 4's kernels alone
# (checked against the host stage at N = 2000, then timed at N), and the whole solvers
# side by side in one run — tseig two_stage on the host (all cores as MPI ranks), the
# same with its back-transforms on the GPU (the ranks sharing the GPU), and cuSOLVER's
# Xsyevd / Xsyevdx. JSON lines under $OUT, tables on stderr.
#
#   benchmarks/run_gpu_bench.sh        (after scripts/device-pack.sh: source .device-pack/env.sh)
# Environment (defaults): OUT=/tmp/out  TSEIG_BIN=$TSEIG_DEVICE_PACK/bin or build-gpu/bin
#   N=8192 (real)  NZ=4096 (complex)  NP=$(nproc) ranks  NEV_FRAC=1,0.2
#   LIMIT=400 (seconds per dense_bench run)
set -u
OUT=${OUT:-/tmp/out}
bin=${TSEIG_BIN:-${TSEIG_DEVICE_PACK:-build-gpu}/bin}
[ -d "$bin" ] || bin=build-gpu/bin
N=${N:-8192} NZ=${NZ:-4096} NP=${NP:-$(nproc)} NEV_FRAC=${NEV_FRAC:-1,0.2} LIMIT=${LIMIT:-400}
mkdir -p "$OUT"
status=0
run() {  # run NAME LIMIT CMD...: output to the terminal and $OUT/NAME.json
  local name=$1 limit=$2
  shift 2
  echo "===== $name: $*" >&2
  timeout -k 10 "$limit" "$@" | tee "$OUT/$name.json" || { echo "===== $name failed" >&2; status=1; }
}
run band_check 300 "$bin/band_backtransform_bench" --n 2000 --ncols 2000 --type dz --repeat 1 \
  --gpu 0:8,1:64
run band_gpu 300 "$bin/band_backtransform_bench" --n "$N" --ncols "$N" --type d --repeat 2 \
  --sweeps-per-pass 0 --gpu 0:1,0:2,0:4,0:8,1:128
run dense_d "$LIMIT" mpirun -n "$NP" "$bin/dense_bench" --n "$N" --type d --nev-frac "$NEV_FRAC" \
  --solvers two_stage,two_stage_gpu,cusolver --dgemm-n 0
run dense_z "$LIMIT" mpirun -n "$NP" "$bin/dense_bench" --n "$NZ" --type z --nev-frac "$NEV_FRAC" \
  --solvers two_stage,two_stage_gpu,cusolver --dgemm-n 0
exit $status
