#pragma once
// Checks shared by the block-solver tests: a result against a reference spectrum, with
// its true residuals and S-orthonormality recomputed from the returned vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "test_util.hpp"
#include "tseig/sparse/linear_operator.hpp"

namespace tseig::sparse::test {

template <class T>
double default_tol() {
  return std::sqrt(static_cast<double>(std::numeric_limits<real_t<T>>::epsilon()));
}

/// Checks r against the reference eigenvalues (in r's order): eigenvalues, true
/// residuals ‖Hx − λSx‖ and S-orthonormality. `s` null: S = I; norm_s = ‖S‖; norm_h = ‖H‖,
/// 0: the largest |reference| (a whole spectrum).
template <class T>
void expect_pairs(const LinearOperator<T>& h, const LinearOperator<T>* s, const EigenResult<T>& r,
                  const std::vector<double>& reference, double tol, double norm_s = 1,
                  double norm_h = 0) {
  const int k = static_cast<int>(r.eigenvalues.size());
  if (norm_h == 0) norm_h = std::max(std::abs(reference.front()), std::abs(reference.back()));
  ASSERT_GE(reference.size(), static_cast<std::size_t>(k));
  const double n_eps = static_cast<double>(h.rows()) * tseig::test::eps<T>();
  ASSERT_TRUE(r.converged);
  ASSERT_EQ(r.eigenvectors.cols(), k);
  ASSERT_EQ(static_cast<int>(r.residuals.size()), k);
  for (int j = 0; j < k; ++j) {
    // |θ − λ| ≤ ‖r‖/‖x‖ (times ‖S⁻¹‖ ≤ 1 for the S used here).
    const double bound = 1.5 * tol * (norm_h + std::abs(reference[j]) * norm_s) + 10 * n_eps;
    EXPECT_NEAR(r.eigenvalues[j], reference[j], bound) << "pair " << j;
    EXPECT_LE(r.residuals[j], tol);
  }
  MultiVector<T> hx(h.layout(), k), sx(h.layout(), k);
  h.apply(r.eigenvectors, hx);
  if (s)
    s->apply(r.eigenvectors, sx);
  else
    sx.assign(r.eigenvectors);
  const std::vector<T> g = gram(r.eigenvectors, sx);
  double orth = 0;
  for (int b = 0; b < k; ++b)
    for (int a = 0; a < k; ++a)
      orth = std::max(orth, static_cast<double>(std::abs(g[a + b * k] - T(a == b))));
  EXPECT_LE(orth, 100 * n_eps) << "S-orthonormality";
  MultiVector<T> res(h.layout(), k);
  for (int i = 0; i < res.local_rows(); ++i)
    for (int j = 0; j < k; ++j) res(i, j) = hx(i, j) - T(r.eigenvalues[j]) * sx(i, j);
  const auto rn = column_norms(res);
  const auto xn = column_norms(r.eigenvectors);
  for (int j = 0; j < k; ++j)
    EXPECT_LE(static_cast<double>(rn[j]) / ((norm_h + std::abs(r.eigenvalues[j]) * norm_s) * xn[j]),
              1.5 * tol + 10 * n_eps)
        << "true residual of pair " << j;
}

}  // namespace tseig::sparse::test
