#pragma once
// Block-cyclic to block-cyclic copy between two layouts (any blocking, source process,
// grid shape or order), also between a grid and a sub-grid of some of its processes:
// one all-to-all over a communicator holding both, its buffers had on every rank or on
// none. It replaces p?gemr2d, which exits the process when its own malloc fails.
#include <mpi.h>

#include "tseig/matrix.hpp"

namespace tseig::detail {

/// One side of an exchange as this process sees it: the blocking, and its position and
/// local array when it holds a part of the matrix (prow = pcol = −1 and no data when the
/// process is not in that grid).
template <class T>
struct LayoutPart {
  int mb = 1, nb = 1, rsrc = 0, csrc = 0;
  int prow = -1, pcol = -1;
  T* data = nullptr;
  int lld = 1;
};

/// Collective over `comm` (every process of both grids, and only those): the m × ncols
/// leading part of dst ← src's. Each grid's shape is learnt from its members' positions.
/// A rank that cannot allocate its buffers makes every rank throw Error(out_of_memory).
template <class T>
void exchange_blocks(MPI_Comm comm, int m, int ncols, const LayoutPart<const T>& src,
                     const LayoutPart<T>& dst);

/// dst's first `ncols` columns ← src's, both grids over the same processes in the same
/// order (Grid::same_processes); collective over dst.grid().
template <class T>
void redistribute_columns(const DistMatrix<T>& src, DistMatrix<T>& dst, int ncols);

}  // namespace tseig::detail
