// Complex tall-skinny products through the real kernels (tall_skinny.hpp): with the
// columns as (re, im) pairs, conj(x)·y = (xr·yr + xi·yi) + i(xr·yi − xi·yr) reads four
// entries of the real Gram, and x·(p + iq) = (xr·p − xi·q) + i(xr·q + xi·p) is a real
// product with the 2 × 2 blocks [p q; −q p] of S.
#include <vector>

#include "sparse/solvers/tall_skinny.hpp"

#if TSEIG_TALL_SKINNY_KERNELS

namespace tseig::sparse::detail {

namespace {

using complex = std::complex<double>;

const double* pairs(const complex* p) {
  return reinterpret_cast<const double*>(p);
}
double* pairs(complex* p) {
  return reinterpret_cast<double*>(p);
}

}  // namespace

void tall_gram(int n, int k, const complex* x, std::size_t ldx,
               std::span<const ComplexGramTarget> targets) {
  std::vector<std::vector<double>> real(targets.size());
  std::vector<GramTarget> forms;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const ComplexGramTarget& c = targets[t];
    real[t].resize(4 * static_cast<std::size_t>(k) * c.l);
    forms.push_back({2 * c.l, pairs(c.y), 2 * c.ldy, real[t].data()});
  }
  tall_gram(n, 2 * k, pairs(x), 2 * ldx, forms);
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const double* g = real[t].data();
    const std::size_t ld = 2 * static_cast<std::size_t>(k);
    for (int b = 0; b < targets[t].l; ++b)
      for (int a = 0; a < k; ++a) {
        const double* re_col = g + 2 * b * ld + 2 * a;  // column yr_b, rows xr_a, xi_a
        const double* im_col = re_col + ld;             // column yi_b
        targets[t].c[a + static_cast<std::size_t>(b) * k] =
            complex(re_col[0] + im_col[1], im_col[0] - re_col[1]);
      }
  }
}

void tall_transform(int n, int k, int l, const complex* x, std::size_t ldx, const complex* s,
                    double beta, complex* y, std::size_t ldy) {
  const std::size_t ld = 2 * static_cast<std::size_t>(k);
  std::vector<double> real(ld * 2 * l);
  for (int b = 0; b < l; ++b)
    for (int a = 0; a < k; ++a) {
      const complex v = s[a + static_cast<std::size_t>(b) * k];
      double* re_col = real.data() + 2 * b * ld + 2 * a;  // output column re_b
      double* im_col = re_col + ld;                       // output column im_b
      re_col[0] = v.real();
      re_col[1] = -v.imag();
      im_col[0] = v.imag();
      im_col[1] = v.real();
    }
  tall_transform(n, 2 * k, 2 * l, pairs(x), 2 * ldx, real.data(), beta, pairs(y), 2 * ldy);
}

}  // namespace tseig::sparse::detail

#endif  // AVX2 + FMA or AVX-512
