#pragma once
// Stage 3: eigenvalues and eigenvectors of a real symmetric tridiagonal matrix,
// delivered into a distributed matrix.
#include <vector>

#include "tseig/matrix.hpp"

namespace tseig::dense {

/// Collective over Z's grid (or `grid` when Z is null). Returns all n eigenvalues of
/// tridiag(e, d, e) in ascending order, identical on every rank. With Z (n×≥nev, any
/// layout) the eigenvectors of the nev lowest go to Z's first nev columns.
/// Today every rank runs LAPACK ?stedc on the whole problem and keeps its part.
template <class T>
std::vector<real_t<T>> solve_tridiagonal(const Grid& grid, std::vector<real_t<T>> d,
                                         std::vector<real_t<T>> e, int nev, DistMatrix<T>* Z);

}  // namespace tseig::dense
