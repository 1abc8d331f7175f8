#!/usr/bin/env bash
# Newcomer command 1: install what is missing, build, and solve on 2 MPI ranks with
# tseig-solve: a dense problem (extra arguments go to this run, see README.md), then the
# default sparse problems: the 16 lowest eigenpairs of a 3D Laplacian by LOBPCG, the
# eigenpairs of a 2D periodic Laplacian in an interval by ChebFD, and the KPM density of
# states of a topological insulator (JSON and PNG in build/).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh

tseig_build
tseig_mpi_env
solve=(mpirun -np 2 "${TSEIG_MPIRUN_FLAGS[@]}" build/bin/tseig-solve)
set -x
"${solve[@]}" "$@"
"${solve[@]}" --laplace3d 40 --lobpcg --nev 16 --tol 1e-8
"${solve[@]}" --laplace2d 64 --chebfd --interval 0:0.2 --tol 1e-8
"${solve[@]}" --ti 32,32,16 --disorder 1 --kpm --moments 512 --interval -0.5:0.5 --json \
  >build/ti-dos.json
set +x
for py in "${PYTHON:-python3}" /usr/bin/python3; do
  if "$py" -c 'import matplotlib' 2>/dev/null; then
    "$py" scripts/plot_dos.py build/ti-dos.json build/ti-dos.png
    exit 0
  fi
done
echo "run-main.sh: no python3 with matplotlib; DOS left in build/ti-dos.json"
