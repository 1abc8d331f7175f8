#!/bin/bash
# ChebFD on the degenerate levels of the 10×10 periodic Laplacian: 9 windows × block
# widths 1, 2, 4, 8 (the Krylov–Schur variant unless more arguments say otherwise); per
# run the pairs returned against the exact count (4 − 2cos(2πj/10) − 2cos(2πk/10)) and
# the H·vector applications. Usage: bash scripts/chebfd-levels-sweep.sh [ranks] [options]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
tseig_mpi_env
ranks=${1:-2}
shift || true
values=$(mktemp)
trap 'rm -f "$values"' EXIT
for window in 3:5 4.5:5 4:4.3 2:3 1:2.5 5:6 0.5:1.5 2.9:4.1 3.5:4.5; do
  for width in 1 2 4 8; do
    : >"$values"
    out=$(mpiexec "${TSEIG_MPIRUN_FLAGS[@]}" -n "$ranks" build/bin/tseig-solve --laplace2d 10 \
      --chebfd --interval "$window" --block-width "$width" --out-values "$values" "$@" 2>&1) || true
    applications=$(grep -o "[0-9]* operator applications" <<<"$out" | cut -d' ' -f1)
    verdict=$(/usr/bin/python3 - "$window" "$values" <<'PY'
import sys, numpy as np
lo, hi = map(float, sys.argv[1].split(':'))
got = np.atleast_1d(np.loadtxt(sys.argv[2])) if open(sys.argv[2]).read().strip() else np.array([])
grid = [4 - 2*np.cos(2*np.pi*j/10) - 2*np.cos(2*np.pi*k/10) for j in range(10) for k in range(10)]
exact = np.array(sorted(x for x in grid if lo - 1e-9 <= x <= hi + 1e-9))
ok = len(got) == len(exact) and np.allclose(got, exact, atol=1e-8)
print(f"{len(got)} of {len(exact)} {'whole' if ok else 'INCOMPLETE'}")
PY
    )
    echo "[$window] blocks of $width: $verdict, ${applications:-error} H·vector"
  done
done
