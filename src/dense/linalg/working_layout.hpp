#pragma once
// The working layout of the distributed kernels behind tseig/linalg.hpp (square nb×nb
// blocks with the first block on process (0, 0): is_working_layout) and the helpers
// that move matrices into it and check the arguments of a collective call.
#include <mpi.h>

#include <initializer_list>
#include <vector>

#include "core/mpi_types.hpp"
#include "tseig/linalg.hpp"

namespace tseig::dense {

/// Where the global columns [c0, c1) of a working-layout matrix land when every process
/// column's local columns in that range are concatenated in process-column order (the
/// layout gather_along_row produces).
struct PanelMap {
  std::vector<int> below, start;  // per process column: local columns before c0; offset
  int nb = 1, npcol = 1, width = 0;
  PanelMap(int c0, int c1, int nb_, int npcol_)
      : below(npcol_), start(npcol_ + 1), nb(nb_), npcol(npcol_) {
    for (int q = 0; q < npcol; ++q) {
      below[q] = block_cyclic::local_count_below(c0, nb, q, 0, npcol);
      start[q + 1] = start[q] + block_cyclic::local_count_below(c1, nb, q, 0, npcol) - below[q];
    }
    width = start[npcol];
  }
  int count(int q) const { return start[q + 1] - start[q]; }
  /// Panel column of global column g (c0 ≤ g < c1).
  int position(int g) const {
    const int q = block_cyclic::owner(g, nb, 0, npcol);
    return start[q] + block_cyclic::local_index(g, nb, npcol) - below[q];
  }
};

/// Collective over my process row: out (h × map.width, column-major, ld h) receives every
/// process column's piece `local` (h × map.count(q)), in process-column order.
template <class T>
void gather_along_row(const Grid& g, const PanelMap& map, int h, const T* local, T* out) {
  std::vector<int> counts(map.npcol), displs(map.npcol);
  for (int q = 0; q < map.npcol; ++q) {
    counts[q] = h * map.count(q);
    displs[q] = h * map.start[q];
  }
  MPI_Allgatherv(local, counts[g.mycol()], mpi_type<T>(), out, counts.data(), displs.data(),
                 mpi_type<T>(), g.row_comm());
}

/// True if A is square with square blocks and rsrc = csrc = 0.
template <class T>
bool is_working_layout(const DistMatrix<T>& A) {
  return A.m() == A.n() && A.mb() == A.nb() && A.rsrc() == 0 && A.csrc() == 0;
}

/// Collective. Aᴴ in a new matrix with A's layout.
template <class T>
DistMatrix<T> conjugate_transpose(const DistMatrix<T>& A);

/// Sets the entries of A strictly outside `keep` (upper or lower) to zero in the first
/// `ncols` columns (-1: all). Local.
template <class T>
void zero_outside(DistMatrix<T>& A, Triangle keep, int ncols = -1);

/// Collective: throws Error(invalid_argument) on every rank unless all ranks passed the
/// same values, so that a mismatch fails instead of hanging in a later collective.
void require_same_arguments(MPI_Comm comm, const std::vector<int>& values, const char* what);

}  // namespace tseig::dense
