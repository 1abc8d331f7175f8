#pragma once
// ChebFD's Krylov–Schur variant (the filtered Lanczos of Fang & Saad 2012 and of SLEPc's
// STFILTER, in block form): a block Krylov space of p(H), p the window filter, restarted
// the Krylov–Schur way (Stewart 2001) around the Ritz vectors of p(H) with the largest
// values, which are those of the window. The Krylov space separates the window's
// eigenvectors from the rest after far fewer filter applications than a subspace
// iteration, which needs a filter sharp enough to suppress everything its space cannot
// hold: a third of the degree that resolves the window is enough. The eigenpairs are
// extracted by a Rayleigh–Ritz step with H itself on the kept space at each restart.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "tseig/sparse/chebfd.hpp"

namespace tseig::sparse::detail {

/// Smallest order the Krylov–Schur variant takes (room for a basis of four blocks and
/// its residual block); below it chebfd runs the subspace iteration.
inline std::int64_t krylov_min_rows(int block_width) {
  return 5 * std::int64_t{block_width};
}

/// Whether a window of about `count` eigenvalues fits the basis the Krylov–Schur variant
/// keeps for it (2.5× the count in whole blocks, at most the order less a block). A window
/// holding most of the spectrum does not: the kept vectors (at most the order less four
/// blocks) could not hold it, and the variant stopped "converged" with part of it (32 of
/// the 43 eigenvalues of tridiag(−1, 2, −1) of order 64 in [1, 5]); the subspace iteration
/// takes those.
/// Blocks of one column never: a single-vector Krylov space holds one copy of each
/// eigenvalue, so every converged pair could be a level with more (see run()).
inline bool krylov_holds(std::int64_t rows, int block_width, double count) {
  const std::int64_t nb = block_width;
  if (nb < 2) return false;
  const auto blocks = static_cast<std::int64_t>(std::ceil(2.5 * std::max(count, 1.0) / nb));
  return rows >= krylov_min_rows(block_width) && blocks * nb <= rows - nb;
}

/// Collective: every eigenpair with lower ≤ λ ≤ upper (inside the KPM bounds), each
/// eigenvalue with its multiplicity, ascending; nullopt (on every rank) when the window
/// turned out to hold more than the basis can keep (the KPM count was low) or a level
/// with as many converged copies as the block width, for the subspace iteration to take
/// over: `found` then holds the pairs converged so far, with the applications and times
/// spent.
template <class T>
std::optional<EigenResult<T>> chebfd_krylov_schur(const Matrix<T>& a, const KpmMoments& kpm,
                                                  double lower, double upper,
                                                  const ChebfdOptions& o, EigenResult<T>& found);

}  // namespace tseig::sparse::detail
