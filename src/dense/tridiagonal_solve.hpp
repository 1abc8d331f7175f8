#pragma once
// Stage 3: eigenvalues and eigenvectors of a real symmetric tridiagonal matrix,
// delivered into a distributed matrix.
#include <vector>

#include "dense/wanted.hpp"
#include "tseig/device.hpp"
#include "tseig/matrix.hpp"
#include "tseig/tune.hpp"

namespace tseig::dense {

/// Collective over Z's grid (or `grid` when Z is null). Returns all n eigenvalues of
/// tridiag(e, d, e) in ascending order, identical on every rank. An interval selection
/// is resolved to its window first (the same on every rank). With Z (n rows, ≥ count
/// columns, any layout) the eigenvectors of the window [first, first + count) go to Z's
/// first count columns (real vectors copied into a complex Z). Distributed divide &
/// conquer: O(n²/P) memory per rank, and only the wanted eigenvectors are formed at the
/// top merge.
template <Device D, class T>
std::vector<real_t<T>> solve_tridiagonal(const Grid& grid, std::vector<real_t<T>> d,
                                         std::vector<real_t<T>> e, Wanted& wanted, DistMatrix<T>* Z,
                                         const TuneParameters& tune);

}  // namespace tseig::dense
