#pragma once
// ChebFD's Krylov–Schur variant (the filtered Lanczos of Fang & Saad 2012 and of SLEPc's
// STFILTER, in block form): a block Krylov space of p(H), p the window filter, restarted
// the Krylov–Schur way (Stewart 2001) around the Ritz vectors of p(H) with the largest
// values, which are those of the window. The Krylov space separates the window's
// eigenvectors from the rest after far fewer filter applications than a subspace
// iteration, which needs a filter sharp enough to suppress everything its space cannot
// hold: a third of the degree that resolves the window is enough. The eigenpairs are
// extracted by a Rayleigh–Ritz step with H itself on the kept space at each restart.
#include "tseig/sparse/chebfd.hpp"

namespace tseig::sparse::detail {

/// Smallest order the Krylov–Schur variant takes (room for a basis of four blocks and
/// its residual block); below it chebfd runs the subspace iteration.
inline std::int64_t krylov_min_rows(int block_width) {
  return 5 * std::int64_t{block_width};
}

/// Collective: every eigenpair with lower ≤ λ ≤ upper (inside the KPM bounds), each
/// eigenvalue with its multiplicity up to the block width, ascending.
template <class T>
EigenResult<T> chebfd_krylov_schur(const Matrix<T>& a, const KpmMoments& kpm, double lower,
                                   double upper, const ChebfdOptions& o);

}  // namespace tseig::sparse::detail
