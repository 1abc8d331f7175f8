#pragma once
// The machine's dense compute rate, to read the solver timings against.
#include <mpi.h>

#include "bench_record.hpp"

namespace tseig::bench {

/// Collective: every rank runs one local n×n×n dgemm at the same time (as the solvers
/// share the cores), after a warm-up call.
DgemmRate measure_dgemm(MPI_Comm comm, int n);

/// BLAS threads each rank uses (OpenBLAS' own count).
int blas_threads();

}  // namespace tseig::bench
