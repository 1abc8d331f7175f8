#pragma once
// The one-stage (ELPA1-style) solver: tridiagonalize → tridiagonal solve → back-transform.
#include <vector>

#include "dense/wanted.hpp"
#include "tseig/device.hpp"
#include "tseig/eigensolver.hpp"

namespace tseig::dense {

/// Collective. A: n×n, square blocks, rsrc = csrc = 0, lower triangle valid; destroyed.
/// Z: null for eigenvalues only, else n×≥count with A's grid and row distribution.
/// Returns the wanted eigenvalues (an interval resolved into `wanted`), their vectors in
/// Z's first columns; stage times are added to `times`.
template <Device D, class T>
std::vector<real_t<T>> solve_one_stage(DistMatrix<T>& A, Wanted& wanted, DistMatrix<T>* Z,
                                       const TuneParameters& tune, StageTimes& times);

}  // namespace tseig::dense
