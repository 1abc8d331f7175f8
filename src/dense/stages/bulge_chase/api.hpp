#pragma once
// Stage 2 of the two-stage path: Hermitian band matrix → real symmetric tridiagonal by
// Householder bulge chasing (the scheme of LAPACK ?hetrd_hb2st and ELPA's tridiag_band).
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "tseig/types.hpp"

namespace tseig::dense {

/// The tridiagonal matrix and the reflectors that produced it. Sweep s (0 ≤ s ≤ n−2)
/// has steps j = 0, 1, …, steps(s)−1; reflector (s, j) acts on rows r = s+1+j·b to
/// r+len−1, len = min(b, n−r), as H = I − tau·v·vᴴ with v(0) = 1. With Q = the product of
/// all H in generation order (s ascending, then j ascending), band = Q·tridiag·Qᴴ.
template <class T>
struct BandReflectors {
  int n = 0, b = 1;
  std::vector<real_t<T>> d, e;
  std::vector<T> v;                 ///< reflector (s, j) at v[(first(s) + j)·b], b slots
  std::vector<T> tau;               ///< reflector (s, j) at tau[first(s) + j]
  std::vector<std::size_t> first_;  ///< index of reflector (s, 0)

  int steps(int s) const { return (n - 1 - s + b - 1) / b; }
  int row(int s, int j) const { return s + 1 + j * b; }
  int length(int s, int j) const { return std::min(b, n - row(s, j)); }
  std::size_t index(int s, int j) const { return first_[static_cast<std::size_t>(s)] + j; }
};

/// Collective over comm. Band in LAPACK 'L' layout with leading dimension b+1 (lower
/// triangle, b subdiagonals) of the n×n Hermitian matrix, the same on every rank. The
/// columns are split into contiguous chunks, one per rank, and the sweeps run through
/// them as a pipeline: neighbours exchange only the 2b columns around their common edge.
/// Every rank receives the whole result; without keep_reflectors only d and e (v and
/// tau stay empty: eigenvalues only).
template <class T>
BandReflectors<T> bulge_chase(const std::vector<T>& band, int n, int b, MPI_Comm comm,
                              bool keep_reflectors = true);

}  // namespace tseig::dense
