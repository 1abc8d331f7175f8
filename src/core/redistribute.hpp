#pragma once
// Block-cyclic to block-cyclic copy between two layouts over the same processes (any
// blocking, source process, grid shape or order): one all-to-all, its buffers had on
// every rank or on none. It replaces p?gemr2d, which exits the process when its own
// malloc fails.
#include "tseig/matrix.hpp"

namespace tseig::detail {

/// Collective over dst.grid(): dst's first `ncols` columns ← src's (m rows). Both grids
/// span the same processes in the same order (Grid::same_processes). A rank that
/// cannot allocate its buffers makes every rank throw Error(out_of_memory).
template <class T>
void redistribute_columns(const DistMatrix<T>& src, DistMatrix<T>& dst, int ncols);

}  // namespace tseig::detail
