#!/usr/bin/env bash
# Installs the peers the sparse benchmarks compare with (not needed to build or test
# tseig): PETSc and SLEPc, real and complex builds, and scipy, from Debian 12.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/install-deps.sh" \
  libpetsc-real-dev libpetsc-complex-dev libslepc-real-dev libslepc-complex-dev python3-scipy
