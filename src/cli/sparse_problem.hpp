#pragma once
// The sparse problem of a command line (tseig-solve's sparse mode, tseig-tune's): the
// matrix (a generator or a Matrix Market file, with a name for reports), the kernel its
// method runs, and the ChebFD options.
#include <mpi.h>

#include <string>

#include "sparse_options.hpp"
#include "tseig/sparse/autotune.hpp"
#include "tseig/sparse/chebfd.hpp"
#include "tseig/sparse/matrix.hpp"

namespace tseig::cli {

/// Collective: the matrix `o` names; `name` describes it ("laplace3d 64x64x64", the path).
template <class T>
sparse::Matrix<T> make_sparse_matrix(const SparseOptions& o, MPI_Comm comm, std::string& name);

/// The kernel the method spends its time in (the tuning cache's entries are per kernel).
sparse::TunedKernel tuned_kernel(SparseMethod m);

/// Progress lines on rank 0's stderr for long runs: from 2 s on, at most one a second.
sparse::ProgressCallback progress_line(const char* method, MPI_Comm comm);

/// ChebFD's options from the command line, the tuned knobs where it sets none, and a
/// progress line on rank 0's stderr for long runs.
sparse::ChebfdOptions chebfd_options(const SparseOptions& o,
                                     const sparse::SparseTuneParameters& tuned, MPI_Comm comm);

}  // namespace tseig::cli
