#pragma once
// The sparse matrix of a command line (tseig-solve's sparse mode, tseig-tune's): a
// generator or a Matrix Market file, with a name for reports.
#include <mpi.h>

#include <string>

#include "sparse_options.hpp"
#include "tseig/sparse/matrix.hpp"

namespace tseig::cli {

/// Collective: the matrix `o` names; `name` describes it ("laplace3d 64x64x64", the path).
template <class T>
sparse::Matrix<T> make_sparse_matrix(const SparseOptions& o, MPI_Comm comm, std::string& name);

}  // namespace tseig::cli
