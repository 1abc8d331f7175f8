#pragma once
// Stage 1 of the two-stage path: Hermitian A → Hermitian band matrix B = Qᴴ A Q with
// semi-bandwidth b, by QR panels of width b and two-sided rank-2b updates in BLAS-3.
#include <vector>

#include "core/instantiate.hpp"
#include "tseig/device.hpp"
#include "tseig/matrix.hpp"

namespace tseig::dense {

/// Collective over A's grid. A: n×n, square blocks, rsrc = csrc = 0, lower triangle
/// valid; b: a multiple of A.nb(). On return the lower band of A (rows j..j+b of column
/// j) holds B and the rest of the lower triangle holds the reflectors: reflector j
/// (0 ≤ j < n−b) has v(j+b) = 1, v(j+b+1..n−1) = A(j+b+1.., j) and zeros above, and
/// Q = H(0)·H(1)···H(n−b−1), H(j) = I − tau[j]·v_j·v_jᴴ. Returns tau (n−b entries, or
/// none when b ≥ n), identical on every rank.
template <Device D, class T>
std::vector<T> reduce_to_band(DistMatrix<T>& A, int b);

/// Collective. The lower band of A (b+1 diagonals) on every rank, LAPACK 'L' band
/// layout: band[(i−j) + j·(b+1)] = A(i, j) for j ≤ i ≤ min(n−1, j+b).
template <class T>
std::vector<T> gather_band(const DistMatrix<T>& A, int b);

// Host instantiations live in host.cpp; the CUDA backend adds its own beside it.
#define TSEIG_EXTERN(T) \
  extern template std::vector<T> reduce_to_band<Device::host, T>(DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_EXTERN)
#undef TSEIG_EXTERN

}  // namespace tseig::dense
