#!/usr/bin/env bash
# Runs ON the remote GPU machine, from the repository root, with .device-pack/ carried
# (made here by scripts/device-pack.sh). Runs every step even when one fails, logs each
# to $OUT/<step>.log and prints a PASS/FAIL table last; exits 1 if any step failed.
#
#   scripts/device-run.sh [BENCH ARGS...]    e.g. scripts/device-run.sh dense_bench --n 8192
#
# Environment (defaults): OUT=/tmp/out  TSEIG_DEVICE_TESTS="test_gpu test_gpu_stages"
#   TSEIG_DEVICE_RANKS="1 2" (rank counts for the tests)  TSEIG_DEVICE_TIMEOUT=240 (s per test)
#   TSEIG_DEVICE_BENCH_RANKS=1  TSEIG_DEVICE_BENCH_TIMEOUT=300
set -u
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" || exit 2
[ -f .device-pack/env.sh ] || { echo "no .device-pack/env.sh: run scripts/device-pack.sh here first" >&2; exit 2; }
# shellcheck source=/dev/null
source .device-pack/env.sh
bin=$TSEIG_DEVICE_PACK/bin
tests=${TSEIG_DEVICE_TESTS:-"test_gpu test_gpu_stages"}
ranks=${TSEIG_DEVICE_RANKS:-"1 2"}
tmo=${TSEIG_DEVICE_TIMEOUT:-240}
table=() failed=0

# step NAME TIMEOUT CMD...: runs CMD with a time limit, output to the terminal and $OUT/NAME.log.
step() {
  local name=$1 limit=$2 rc start=$SECONDS verdict
  shift 2
  echo "===== $name: $*"
  timeout -k 10 "$limit" "$@" 2>&1 | tee "$OUT/$name.log"
  rc=${PIPESTATUS[0]}
  case $rc in
    0) verdict=PASS ;;
    124 | 137) verdict="FAIL (timeout ${limit}s)"; failed=1 ;;
    *) verdict="FAIL (rc $rc)"; failed=1 ;;
  esac
  echo "===== $name: $verdict in $((SECONDS - start)) s"
  table+=("$(printf '%-28s %-22s %5d s' "$name" "$verdict" $((SECONDS - start)))")
  return "$rc"
}
skip() { table+=("$(printf '%-28s %s' "$1" "SKIP ($2)")"); }

# Diagnostics, to files only: enough to debug a failure without another device run.
{
  uname -a; cat /etc/os-release; ldd --version | head -1; nproc --all
  env | grep -E '^(OMPI|OPAL|PMIX|LD_|PATH|CUDA|NVIDIA|OPENBLAS|OMP_|TSEIG)' | sort
  nvidia-smi; ldconfig -p | grep -Ei 'cuda|cublas|cusolver|libz\.|libstdc'
  for b in "$bin"/*; do echo "== ldd $b"; ldd "$b"; done
} > "$OUT/environment.txt" 2>&1

# shellcheck disable=SC1091
echo "host: $(. /etc/os-release && echo "$PRETTY_NAME"), $(getconf GNU_LIBC_VERSION), $(nproc --all) cores"
step nvidia-smi 60 nvidia-smi -L
# Also proves MPI works as a singleton (no mpirun).
if [ -x "$bin/tseig-solve" ]; then step capabilities 120 "$bin/tseig-solve" --capabilities; fi

mpirun_ok=1
for n in $ranks; do
  if [ "$n" != 1 ] && [ "$mpirun_ok" = 1 ]; then
    step "mpirun_np$n" 60 mpirun -n "$n" true || mpirun_ok=0
  fi
  for t in $tests; do
    if ! [ -x "$bin/$t" ]; then skip "${t}_np$n" "not in pack"; continue; fi
    if [ "$n" = 1 ]; then
      step "${t}_np1" "$tmo" env TSEIG_TEST_REQUIRE_GPU=1 "$bin/$t"
    elif [ "$mpirun_ok" = 1 ]; then
      step "${t}_np$n" "$tmo" mpirun -n "$n" -x TSEIG_TEST_REQUIRE_GPU=1 "$bin/$t"
    else
      skip "${t}_np$n" "mpirun broken"
    fi
  done
done

# Optional benchmark: a program from the pack (or any command) with its arguments.
if [ $# -gt 0 ]; then
  cmd=("$@")
  [ -x "$bin/$1" ] && cmd[0]=$bin/$1
  br=${TSEIG_DEVICE_BENCH_RANKS:-1}
  if [ "$br" != 1 ]; then cmd=(mpirun -n "$br" "${cmd[@]}"); fi
  step "bench_$(basename "$1")" "${TSEIG_DEVICE_BENCH_TIMEOUT:-300}" "${cmd[@]}"
fi

{
  echo; echo "===== summary (logs in $OUT)"
  printf '%s\n' "${table[@]}"
  if [ "$failed" = 0 ]; then echo "ALL PASSED"; else echo "SOME STEPS FAILED"; fi
} | tee "$OUT/summary.txt"
exit "$failed"
