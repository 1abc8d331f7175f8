#pragma once
// LOBPCG's projected matrices in the small space: the carried [X P] block grown by a
// fresh W part, its leading block after a restart, and the congruence that follows the
// basis's rotation.
#include <cstddef>
#include <vector>

#include "core/blas/host.hpp"
#include "tseig/types.hpp"

namespace tseig::sparse::detail {

/// The k × k projected matrix of a basis whose leading q columns have the carried block
/// `carried` (q × q) and whose other columns are new: `fresh` is Vᴴ·(op·new), k × (k − q).
template <class T>
std::vector<T> assemble(const std::vector<T>& carried, int q, const T* fresh, int k) {
  std::vector<T> g(static_cast<std::size_t>(k) * k);
  for (int b = 0; b < k; ++b)
    for (int a = 0; a < k; ++a) {
      T& v = g[a + static_cast<std::size_t>(b) * k];
      if (b >= q)
        v = fresh[a + static_cast<std::size_t>(b - q) * k];
      else if (a >= q)
        v = conj_if_complex(fresh[b + static_cast<std::size_t>(a - q) * k]);
      else
        v = carried[a + static_cast<std::size_t>(b) * q];
    }
  return g;
}

/// The leading m × m block of the q × q `g`.
template <class T>
std::vector<T> leading(const std::vector<T>& g, int q, int m) {
  std::vector<T> out(static_cast<std::size_t>(m) * m);
  for (int b = 0; b < m; ++b)
    for (int a = 0; a < m; ++a)
      out[a + static_cast<std::size_t>(b) * m] = g[a + static_cast<std::size_t>(b) * q];
  return out;
}

/// Cᴴ·G·C for the k × k G and the k × cols C (column-major).
template <class T>
std::vector<T> congruence(const std::vector<T>& g, const std::vector<T>& c, int k, int cols) {
  std::vector<T> gc(static_cast<std::size_t>(k) * cols), out(static_cast<std::size_t>(cols) * cols);
  blas::gemm('N', 'N', k, cols, k, T(1), g.data(), k, c.data(), k, T(0), gc.data(), k);
  blas::gemm('C', 'N', cols, cols, k, T(1), c.data(), k, gc.data(), k, T(0), out.data(), cols);
  return out;
}

}  // namespace tseig::sparse::detail
