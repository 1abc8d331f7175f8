#pragma once
// tseig-solve's sparse mode: build or read the matrix, run KPM, LOBPCG or ChebFD, and
// print a summary or one JSON object on rank 0.
#include <mpi.h>

#include <ostream>

#include "sparse_options.hpp"

namespace tseig::cli {

/// Collective over `comm`; library failures arrive as tseig::Error on every rank.
void run_sparse(const SparseOptions& options, MPI_Comm comm, std::ostream& out);

}  // namespace tseig::cli
