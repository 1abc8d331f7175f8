#pragma once
// tseig-tune's sparse mode: the matrix and method options of tseig-solve's sparse mode;
// the storage formats are timed with that method's kernel at its block width, the
// Rayleigh–Ritz threshold on the same ranks, and the result goes to the tuning cache
// that tseig-solve (and sparse::tuned_parameters) read for a matrix like it.
#include <mpi.h>

namespace tseig::cli {

/// Runs the sparse tuning for argv (tseig-tune's own flags --seconds S,
/// --rr-orders N,N,...|none and, for ChebFD, --block-widths N,N,...|none first); throws
/// UsageError or Error.
void tune_sparse(int argc, const char* const* argv, MPI_Comm comm);

}  // namespace tseig::cli
