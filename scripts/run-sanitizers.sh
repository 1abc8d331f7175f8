#!/usr/bin/env bash
# The sanitizer job: builds preset "asan" (AddressSanitizer + UndefinedBehaviorSanitizer
# at -O1, host only; -g1: the line tables the reports' stack traces need, without the
# variable and type information only a debugger reads) into build-asan/ and runs the
# tests labelled "sanitize" — one rank count (2 where registered) of every MPI test
# program, so every solver and entry point
# (C++, C API, Fortran, tseig-solve) runs once under the sanitizers. Leaks are checked
# with tests/sanitizers/lsan.supp. Extra arguments go to ctest. Exit code: ctest's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh

bash scripts/install-deps.sh
cmake --preset asan
cmake --build --preset asan -j"$(nproc)"
tseig_mpi_env
# Debian's OpenBLAS 0.3.21 kernels are not instrumented, and some read past the end of
# small arrays: harmless in a normal heap, a SEGV where ASan's allocator ends a mapping
# there. Seen: zgemv for Haswell and later (OpenBLAS issue #4013); ssymv_L for Prescott,
# Core2, Atom and Barcelona (inside ScaLAPACK's pssymv, on PBLAS's own buffers). The
# Nehalem kernels pass the whole job, so it uses them; their cgemv once read past the
# last column of a local matrix inside pcheevd, so local matrices carry 256 bytes of
# slack (src/core/dist_matrix.cpp).
export OPENBLAS_CORETYPE=Nehalem
start=$SECONDS
set +e
ctest --preset asan -j"$(nproc)" "$@" 2>&1 | tee build-asan/ctest.log
rc=${PIPESTATUS[0]}
set -e
echo
echo "== tseig sanitizer summary ($((SECONDS - start)) s)"
grep -E "tests passed|tests failed out of" build-asan/ctest.log || true
exit "$rc"
