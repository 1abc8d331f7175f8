#pragma once
// check_solve: the checks every eigensolver test makes of one solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "test_util.hpp"

namespace tseig::test {

/// Solves a copy of H (H z = λ z; with S: H z = λ S z) with `opt`, Z blocked z_nb × z_nb,
/// and checks: nev eigenvalues in ascending order; within tol of `ref` where this rank
/// has it (empty: not compared); residual and (S-)orthogonality within max(tol, bound),
/// tol = accuracy_tolerance(N) (bound: e.g. a multiple of LAPACK's own). Eigenvalues
/// only (opt.eigenvalues_only): no residual or orthogonality.
template <class T>
void check_solve(const DistMatrix<T>& H, const DistMatrix<T>* S, EigensolverOptions opt, int z_nb,
                 const std::vector<real_t<T>>& ref, double residual_bound = 0,
                 double orthogonality_bound = 0) {
  const int n = H.n(), nev = opt.nev < 0 ? n : opt.nev;
  // The grid under test is the point: solve on it (test_working_grid covers the others).
  opt.grid_choice = GridChoice::as_given;
  DistMatrix<T> work = H.clone();
  DistMatrix<T> Z(H.grid(), n, nev, z_nb, z_nb);
  Eigensolver<T> solver(opt);
  std::vector<real_t<T>> w;
  if (S)
    w = opt.eigenvalues_only ? solver.generalized_eigenvalues(work, *S)
                             : solver.generalized_eigenvectors(work, *S, Z);
  else
    w = opt.eigenvalues_only ? solver.eigenvalues(work) : solver.eigenvectors(work, Z);
  ASSERT_EQ(static_cast<int>(w.size()), nev);
  for (int k = 1; k < nev; ++k) EXPECT_LE(w[k - 1], w[k]) << "eigenvalues not ascending";
  const double tol = accuracy_tolerance<T>(n);
  if (!ref.empty()) {
    EXPECT_LE(accuracy::eigenvalue_error(w, ref), tol) << "eigenvalues differ from LAPACK";
  }
  if (opt.eigenvalues_only) return;
  const double residual =
      S ? accuracy::generalized_residual(H, *S, w, Z) : accuracy::residual(H, w, Z);
  const double orthogonality =
      S ? accuracy::s_orthogonality(*S, Z, nev) : accuracy::orthogonality(Z, nev);
  EXPECT_LE(residual, std::max(tol, residual_bound));
  EXPECT_LE(orthogonality, std::max(tol, orthogonality_bound));
}

}  // namespace tseig::test
