#pragma once
// Distributed reader of Matrix Market coordinate files into a sparse Matrix: every rank
// reads one byte range of the entries, so no rank ever holds the whole file.
#include <mpi.h>

#include <span>
#include <string>

#include "tseig/export.hpp"
#include "tseig/sparse/matrix.hpp"

namespace tseig::sparse {

/// Collective: reads the square coordinate matrix in `path` (real, integer, pattern or
/// complex; general, symmetric or hermitian — symmetric and hermitian files list the
/// lower triangle and are expanded). Rows are balanced by nonzeros in proportion to
/// `weights` (empty: equal). With `require_hermitian`, a matrix that is not
/// Hermitian (symmetric for real T) is rejected. Errors, raised on every rank:
/// io_error for a missing file, a bad header or entry line, an index out of range, an
/// upper-triangle entry in a symmetric file, fewer or more entries than announced, or a
/// complex file read into a real T; not_finite for NaN/Inf; not_hermitian.
template <class T>
TSEIG_API Matrix<T> read_matrix_market(MPI_Comm comm, const std::string& path,
                                       bool require_hermitian = false,
                                       const SparseTuneParameters& tune = {},
                                       std::span<const double> weights = {});

}  // namespace tseig::sparse
