#pragma once
// LOBPCG's search directions P in the small space (Hetmaniuk & Lehoucq): from the
// Rayleigh–Ritz vectors of [X P W], the part of each active column's new coefficients that
// lies outside the new X.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <vector>

#include "tseig/types.hpp"

namespace tseig::sparse::detail {

/// The coefficients Z (k × np, column-major) of P, given C (k × k, column-major: the Ritz
/// vectors of the k-column basis, the new X in its first m) and the sorted active columns:
/// the [P, W] part of the new X's coefficients of the active columns, made orthogonal to
/// all of the new X's. C is unitary, so that is C_rest·(C_restᴴ·[0; C_x(m:k, :)]) with
/// C_rest the Ritz vectors beyond m, orthonormalized by Gram–Schmidt twice. A column that
/// leaves nothing (converged) gives no direction, so np ≤ min(active, k − m).
template <class T>
std::vector<T> direction_coefficients(const std::vector<T>& c, int k, int m,
                                      const std::vector<int>& active) {
  using R = real_t<T>;
  const int rest = k - m;
  std::vector<T> y(static_cast<std::size_t>(rest) * m, T(0));  // C_restᴴ·[0; C_x(m:k, :)]
  for (int j = 0; j < m; ++j)
    for (int r = 0; r < rest; ++r) {
      T sum(0);
      for (int i = m; i < k; ++i)
        sum += conj_if_complex(c[i + static_cast<std::size_t>(m + r) * k]) *
               c[i + static_cast<std::size_t>(j) * k];
      y[r + static_cast<std::size_t>(j) * rest] = sum;
    }
  std::vector<T> kept;
  int np = 0;
  for (int j = 0; j < m && np < rest; ++j) {
    if (!std::binary_search(active.begin(), active.end(), j)) continue;  // soft-locked
    std::vector<T> col(y.begin() + static_cast<std::ptrdiff_t>(j) * rest,
                       y.begin() + static_cast<std::ptrdiff_t>(j + 1) * rest);
    double norm = 0;
    for (int pass = 0; pass < 2; ++pass) {
      for (int p = 0; p < np; ++p) {
        T d(0);
        for (int r = 0; r < rest; ++r) d += conj_if_complex(kept[r + p * rest]) * col[r];
        for (int r = 0; r < rest; ++r) col[r] -= d * kept[r + p * rest];
      }
      norm = 0;
      for (const T& v : col) norm += std::norm(v);
      norm = std::sqrt(norm);
    }
    if (norm <= 100 * std::numeric_limits<R>::epsilon()) continue;  // a converged column
    for (T& v : col) v /= R(norm);
    kept.insert(kept.end(), col.begin(), col.end());
    ++np;
  }
  std::vector<T> z(static_cast<std::size_t>(k) * np, T(0));  // C_rest·kept
  for (int p = 0; p < np; ++p)
    for (int r = 0; r < rest; ++r)
      for (int i = 0; i < k; ++i)
        z[i + static_cast<std::size_t>(p) * k] +=
            c[i + static_cast<std::size_t>(m + r) * k] * kept[r + p * rest];
  return z;
}

}  // namespace tseig::sparse::detail
