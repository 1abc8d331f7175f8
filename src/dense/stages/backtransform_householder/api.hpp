#pragma once
// Z ← Q·Z with Householder reflectors stored in the columns of A below a diagonal
// (those of tridiagonalize: one-stage back-transform; those of reduce_to_band: stage 5
// of the two-stage path), applied as compact-WY blocks (I − V·T·Vᴴ) with GEMMs, or on
// one process row block by block through the stage-4 reflector kernel
// (TuneParameters::householder_kernel).
#include <vector>

#include "core/instantiate.hpp"
#include "tseig/device.hpp"
#include "tseig/matrix.hpp"
#include "tseig/tune.hpp"

namespace tseig::dense {

/// Collective. Reflector j (0 ≤ j < tau.size()) has v(j+offset) = 1, v below that in
/// A(j+offset+1.., j), zeros above; Q = H(0)·H(1)··· (offset 1: tridiagonalize, offset b:
/// reduce_to_band). Z: n×≥ncols on A's grid with A's row distribution (Z.mb() == A.nb(),
/// Z.rsrc() == 0); its first ncols columns are multiplied by Q. Cost ∝ n²·ncols.
/// Reflectors go in blocks of tune.wy_width; tune.householder_kernel picks how a block is
/// applied.
template <Device D, class T>
void backtransform_householder(const DistMatrix<T>& A, const std::vector<T>& tau, int offset,
                               DistMatrix<T>& Z, int ncols, const TuneParameters& tune);

/// Collective: the path backtransform_householder takes on grid g with `tune`, the same
/// on every rank: 1 (compact-WY GEMMs) or 2 (the reflector kernel, one process row only).
/// householder_kernel 0 takes the kernel where its SIMD is wider than the BLAS's.
int householder_path(const Grid& g, const TuneParameters& tune);
/// Collective: the path the defaults take where g has both (one process row), else 0.
int default_householder_path_of_two(const Grid& g);

/// Throws Error(invalid_argument) unless Z shares A's grid and row distribution.
void require_z_like_a(bool matches);

// Instantiations: host in host.cpp, CUDA (cuBLAS) in cuda.cpp.
#define TSEIG_EXTERN(T)                                                      \
  extern template void backtransform_householder<Device::host, T>(           \
      const DistMatrix<T>&, const std::vector<T>&, int, DistMatrix<T>&, int, \
      const TuneParameters&);                                                \
  extern template void backtransform_householder<Device::cuda, T>(           \
      const DistMatrix<T>&, const std::vector<T>&, int, DistMatrix<T>&, int, \
      const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_EXTERN)
#undef TSEIG_EXTERN

}  // namespace tseig::dense
