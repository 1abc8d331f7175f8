#!/usr/bin/env bash
# Newcomer command 2: install what is missing, build, run the whole test suite
# (ctest preset "default") and summarise. Extra arguments go to ctest (e.g. -L install,
# -R grid, -j2). The exit code is ctest's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh

tseig_build
tseig_mpi_env
start=$SECONDS
log=build/ctest.log
set +e
ctest --preset default "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

echo
echo "== tseig test summary ($((SECONDS - start)) s; full output: build/Testing/Temporary/LastTest.log)"
grep -E "tests passed|tests failed out of|No tests were found" "$log" || true
# GoogleTest skips pass in ctest; list them with their reasons so they are not missed.
skipped=$(awk '{gsub(/\033\[[0-9;]*m/, "")}
               /: Skipped$/ {reason = ""; grab = 1; next}
               grab && /^\[  SKIPPED \]/ {print "  " $4 ": " reason; grab = 0; next}
               grab {reason = reason (reason == "" ? "" : " ") $0}' \
            build/Testing/Temporary/LastTest.log 2>/dev/null | sort -u)
if [ -n "$skipped" ]; then
  echo "skipped test cases:"
  echo "$skipped"
fi
exit "$rc"
