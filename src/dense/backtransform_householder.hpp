#pragma once
// Back-transformation of the one-stage path: Z ← Q·Z with the Householder reflectors
// left in A by tridiagonalize, applied as compact-WY blocks (I − V·T·Vᴴ) with GEMMs.
#include <vector>

#include "tseig/matrix.hpp"

namespace tseig::dense {

/// Collective. A and tau as returned by tridiagonalize. Z: n×≥ncols on A's grid with
/// A's row distribution (Z.mb() == A.nb(), Z.rsrc() == 0); its first ncols columns are
/// multiplied by Q. Cost ∝ n²·ncols.
template <class T>
void backtransform_householder(const DistMatrix<T>& A, const std::vector<T>& tau, DistMatrix<T>& Z,
                               int ncols);

}  // namespace tseig::dense
