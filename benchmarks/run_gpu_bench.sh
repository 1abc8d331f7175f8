#!/usr/bin/env bash
# The GPU benchmark (README "GPU"), for a machine with one GPU: stage 4's kernels alone
# (checked against the host stage at N = 2000; timed at N when BAND_TIMES=1), and the
# whole solvers side by side in one run: tseig two_stage on the host (all cores as MPI
# ranks), the GPU solvers on 1 rank (all cores as BLAS threads) and on GPU_NP ranks
# sharing the GPU, and cuSOLVER's Xsyevd / Xsyevdx. JSON lines under $OUT, tables on stderr.
#
#   benchmarks/run_gpu_bench.sh        (after scripts/device-pack.sh: source .device-pack/env.sh)
# Environment (defaults): OUT=/tmp/out  TSEIG_BIN=$TSEIG_DEVICE_PACK/bin or build-gpu/bin
#   N=8192 (real)  NZ=4096 (complex; 0 skips)  NP=$(nproc) host ranks  GPU_NP=4
#   NEV_FRAC=1,0.2  LIMIT=400 (seconds per dense_bench run)  BAND_TIMES=0
set -u
OUT=${OUT:-/tmp/out}
bin=${TSEIG_BIN:-${TSEIG_DEVICE_PACK:-build-gpu}/bin}
[ -d "$bin" ] || bin=build-gpu/bin
N=${N:-8192} NZ=${NZ:-4096} NP=${NP:-$(nproc --all)} GPU_NP=${GPU_NP:-4} NEV_FRAC=${NEV_FRAC:-1,0.2}
LIMIT=${LIMIT:-400} BAND_TIMES=${BAND_TIMES:-0}
mkdir -p "$OUT"
status=0
run() {  # run NAME LIMIT CMD...: output to the terminal and $OUT/NAME.json
  local name=$1 limit=$2
  shift 2
  echo "===== $name: $*" >&2
  timeout -k 10 "$limit" "$@" | tee "$OUT/$name.json" || { echo "===== $name failed" >&2; status=1; }
}
# dense TYPE ORDER: the solvers at one size; BLAS threads fill the cores in each run.
dense() {
  local t=$1 n=$2 cores
  cores=$(nproc --all)  # plain nproc obeys OMP_NUM_THREADS (1 in the device pack)
  run "dense_${t}_gpu_np1" "$LIMIT" env OPENBLAS_NUM_THREADS="$cores" OMP_NUM_THREADS="$cores" \
    "$bin/dense_bench" --n "$n" --type "$t" --nev-frac "$NEV_FRAC" \
    --solvers two_stage_gpu,one_stage_gpu,cusolver --dgemm-n 0
  if [ "$GPU_NP" -gt 1 ]; then
    run "dense_${t}_gpu_np$GPU_NP" "$LIMIT" env OPENBLAS_NUM_THREADS=$((cores / GPU_NP)) \
      mpirun -n "$GPU_NP" "$bin/dense_bench" --n "$n" --type "$t" --nev-frac "$NEV_FRAC" \
      --solvers two_stage_gpu --dgemm-n 0
  fi
  run "dense_${t}_host_np$NP" "$LIMIT" env OPENBLAS_NUM_THREADS=1 mpirun -n "$NP" \
    "$bin/dense_bench" --n "$n" --type "$t" --nev-frac "$NEV_FRAC" --solvers two_stage --dgemm-n 0
}
run band_check 300 "$bin/band_backtransform_bench" --n 2000 --ncols 2000 --type dz --repeat 1 \
  --gpu 0:8,1:64
if [ "$BAND_TIMES" = 1 ]; then
  run band_gpu 300 "$bin/band_backtransform_bench" --n "$N" --ncols "$N" --type d --repeat 2 \
    --sweeps-per-pass 0 --gpu 0:1,0:2,0:4,0:8,1:128
fi
dense d "$N"
if [ "$NZ" -gt 0 ]; then dense z "$NZ"; fi
exit $status
