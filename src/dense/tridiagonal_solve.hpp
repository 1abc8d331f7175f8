#pragma once
// Stage 3: eigenvalues and eigenvectors of a real symmetric tridiagonal matrix,
// delivered into a distributed matrix.
#include <vector>

#include "tseig/device.hpp"
#include "tseig/matrix.hpp"
#include "tseig/tune.hpp"

namespace tseig::dense {

/// Collective over Z's grid (or `grid` when Z is null). Returns all n eigenvalues of
/// tridiag(e, d, e) in ascending order, identical on every rank. With Z (n×≥nev, any
/// layout) the eigenvectors of the nev lowest go to Z's first nev columns (real vectors
/// copied into a complex Z). Distributed divide & conquer: O(n²/P) memory per rank, and
/// only the nev wanted eigenvectors are formed at the top merge.
template <Device D, class T>
std::vector<real_t<T>> solve_tridiagonal(const Grid& grid, std::vector<real_t<T>> d,
                                         std::vector<real_t<T>> e, int nev, DistMatrix<T>* Z,
                                         const TuneParameters& tune);

}  // namespace tseig::dense
