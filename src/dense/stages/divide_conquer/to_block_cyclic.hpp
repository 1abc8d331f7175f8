#pragma once
// Moves eigenvectors held as contiguous row blocks (one per rank) into a block-cyclic
// DistMatrix of any blocking and source process, real into complex when T is complex.
#include <vector>

#include "tseig/matrix.hpp"

namespace tseig::dense::dc {

/// Collective over Z's grid. Rank r (rank in Z.grid().comm()) holds rows
/// [first[r], first[r + 1]) of the first `ncols` columns in `q` (column-major, leading
/// dimension = its number of rows); they go to the first `ncols` columns of Z, moved
/// chunk_cols columns per round.
template <class T>
void rows_to_block_cyclic(const std::vector<int>& first, const real_t<T>* q, int ncols,
                          DistMatrix<T>& Z, int chunk_cols);

}  // namespace tseig::dense::dc
