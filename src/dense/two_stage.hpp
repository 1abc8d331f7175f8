#pragma once
// The two-stage (ELPA2-style) solver: full → band → tridiagonal → tridiagonal solve →
// back-transform tridiagonal → band → full.
#include <vector>

#include "dense/wanted.hpp"
#include "tseig/device.hpp"
#include "tseig/eigensolver.hpp"

namespace tseig::dense {

/// The band width used when the caller leaves it to the solver: tune.bandwidth_target
/// rounded up to a multiple of nb.
int default_bandwidth(int nb, const TuneParameters& tune);

/// Collective. A: n×n, square blocks, rsrc = csrc = 0, lower triangle valid; destroyed.
/// bandwidth: semi-bandwidth b of the intermediate band matrix (a multiple of A.nb();
/// 0 = default). Z: null for eigenvalues only, else n×≥count with A's grid and row
/// distribution. Returns the wanted eigenvalues (an interval resolved into `wanted`),
/// their vectors in Z's first columns; stage times go to `times`.
template <Device D, class T>
std::vector<real_t<T>> solve_two_stage(DistMatrix<T>& A, Wanted& wanted, int bandwidth,
                                       DistMatrix<T>* Z, const TuneParameters& tune,
                                       StageTimes& times);

}  // namespace tseig::dense
