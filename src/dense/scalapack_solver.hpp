#pragma once
// The reference path: ScaLAPACK p?syevd/p?heevd for eigenvectors (the first nev are
// kept), p?syevr/p?heevr for eigenvalues only.
#include <vector>

#include "dense/wanted.hpp"
#include "tseig/eigensolver.hpp"

namespace tseig::dense {

/// Collective. A: n×n with square blocks, lower triangle valid; destroyed.
/// Z: null for eigenvalues only, else n×n with A's distribution (ScaLAPACK requires it).
template <class T>
std::vector<real_t<T>> solve_scalapack(DistMatrix<T>& A, Wanted& wanted, DistMatrix<T>* Z,
                                       StageTimes& times);

}  // namespace tseig::dense
