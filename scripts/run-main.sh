#!/usr/bin/env bash
# Newcomer command 1: install what is missing, build, and solve a problem with
# tseig-solve on 2 MPI ranks. Extra arguments go to tseig-solve (see README.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh

tseig_build
tseig_mpi_env
set -x
mpirun -np 2 "${TSEIG_MPIRUN_FLAGS[@]}" build/bin/tseig-solve "$@"
