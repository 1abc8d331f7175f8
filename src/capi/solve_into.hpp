#pragma once
// What every C entry point that solves does last: eigenvectors into a view of the
// caller's array (or eigenvalues only), then the eigenvalues copied to the caller's w.
#include <algorithm>
#include <vector>

#include "tseig/eigensolver.hpp"
#include "tseig/generalized.hpp"

namespace tseig::capi {

/// factor: null for A z = λ z, else A z = λ S z with S's factor. view_z() makes the view
/// of the caller's eigenvector array; it is called only when `vectors`. Returns the
/// number of eigenpairs found (less than N for a subset): w's and Z's first ones.
template <class T, class ViewZ>
int solve_into(Eigensolver<T>& solver, DistMatrix<T>& A, const CholeskyFactor<T>* factor,
               bool vectors, ViewZ&& view_z, real_t<T>* w) {
  std::vector<real_t<T>> values;
  if (vectors) {
    DistMatrix<T> Z = view_z();
    values = factor ? solver.generalized_eigenvectors(A, *factor, Z) : solver.eigenvectors(A, Z);
  } else {
    values = factor ? solver.generalized_eigenvalues(A, *factor) : solver.eigenvalues(A);
  }
  std::copy(values.begin(), values.end(), w);
  return static_cast<int>(values.size());
}

}  // namespace tseig::capi
