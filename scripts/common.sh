# shellcheck shell=bash disable=SC2034  # TSEIG_MPIRUN_FLAGS is read by the sourcing script
# Shared by run-main.sh and run-tests.sh (sourced, not run): dependencies, the
# Release build of preset "default" into build/, and the environment MPI runs need.

# Installs missing packages, configures and builds. Runs from the repository root.
tseig_build() {
  bash scripts/install-deps.sh
  cmake --preset default
  cmake --build --preset default -j"$(nproc)"
}

# One BLAS thread per rank (ranks already share the cores); Open MPI refuses root
# unless told, and refuses more ranks than cores unless oversubscription is allowed.
tseig_mpi_env() {
  export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  TSEIG_MPIRUN_FLAGS=()
  if mpirun --version 2>&1 | grep -q "Open MPI"; then
    TSEIG_MPIRUN_FLAGS=(--oversubscribe)
  fi
}
