#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: clang-14, ASan + UBSan) and runs each for
# the given number of seconds (default 60), printing executions and coverage.
#   bash scripts/fuzz.sh [seconds-per-target] [target...]
# Targets: dense_mm, sparse_mm, cli_options, tune_cache (default: all). New corpus entries go to
# build-fuzz/corpus/<target> (the seeds in fuzz/corpus/<target> are only read); crashing
# inputs to build-fuzz/artifacts/<target>/. Exit status 1 when any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(dense_mm sparse_mm cli_options tune_cache)

# clang-14 and its compiler-rt (libFuzzer) are needed here only, not by the normal build.
bash scripts/install-deps.sh clang-14 libclang-rt-14-dev
# shellcheck source=scripts/common.sh
source scripts/common.sh
tseig_mpi_env

cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j"${TSEIG_FUZZ_JOBS:-$(nproc)}" \
  --target "${targets[@]/#/fuzz_}"

# Leaks inside Open MPI/OpenBLAS are suppressed as in the sanitizer job (its MCA plugins
# stay loaded so that their frames can be matched); UBSan stops at the first report so
# that libFuzzer keeps the input.
export OMPI_MCA_mca_base_component_disable_dlclose=1
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:fast_unwind_on_malloc=0}"

failed=()
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t
  artifacts=build-fuzz/artifacts/$t/
  log=build-fuzz/logs/$t.log
  mkdir -p "$corpus" "$artifacts" build-fuzz/logs
  dict=fuzz/mm.dict
  [ "$t" = cli_options ] && dict=fuzz/cli_options.dict
  [ "$t" = tune_cache ] && dict=fuzz/tune_cache.dict
  echo "== $t: ${seconds} s (log $log)"
  rc=0
  # -timeout: an input running longer than 10 s counts as a hang; -rss_limit_mb also
  # bounds single allocations (malloc_limit_mb defaults to it).
  "build-fuzz/bin/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 -dict="$dict" -artifact_prefix="$artifacts" \
    "$corpus" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  # Coverage at the start and at the end (DONE, or the last line before a finding).
  grep -m1 -E '^#[0-9]+\s+INITED' "$log" || true
  grep -E '^#[0-9]+\s' "$log" | tail -n 1 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
    "$log" || true
  if ((rc != 0)); then
    failed+=("$t")
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -n 20 || true
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: findings in ${failed[*]} (see build-fuzz/logs, build-fuzz/artifacts)"
  exit 1
fi
echo "fuzz: no findings"
