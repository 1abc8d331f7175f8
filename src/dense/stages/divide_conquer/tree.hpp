#pragma once
// The divide & conquer tree: the tridiagonal matrix is cut into one contiguous block of
// rows per rank, each block is solved on its rank by LAPACK ?stedc, and pairs of rank
// ranges are merged up to the whole matrix, where only the wanted eigenvectors are formed.
// With few wanted, the top merge's children stay factored (api.hpp), so that their
// eigenvectors too are formed only in the product with the wanted columns.
#include <mpi.h>

#include <vector>

#include "dense/stages/divide_conquer/api.hpp"

namespace tseig::dense::dc {

/// Rank r holds rows [first[r], first[r + 1]); ranks from `active` on hold none, so that
/// no block is smaller than a useful leaf.
struct RowSplit {
  std::vector<int> first;
  int active = 1;
};

/// Leaves of at least min_leaf rows (a smaller problem stays on one rank). A single rank
/// still splits a problem of two leaves or more, so that its top merge forms only the
/// wanted eigenvectors.
RowSplit split_rows(int n, int nranks, int min_leaf);

/// Collective over comm (ranks as in split): eigenpairs of tridiag(e, d, e), d and e
/// scaled to a max-norm ≤ 1 and identical on every rank. Returns this rank's rows of the
/// eigenvectors of the eigenvalues first, …, first + count − 1 (0-based, ascending); `w`
/// holds all eigenvalues on active ranks.
template <Device D, class R>
Piece<R> divide_and_conquer(MPI_Comm comm, const RowSplit& split, std::vector<R> d,
                            const std::vector<R>& e, int first, int count,
                            const TuneParameters& tune);

}  // namespace tseig::dense::dc
