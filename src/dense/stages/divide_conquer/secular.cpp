// Roots and eigenvectors of the secular equation (LAPACK ?laed3 split over ranks).
#include "dense/stages/divide_conquer/secular.hpp"

#include <algorithm>
#include <cmath>

#include "core/blas/host.hpp"

namespace tseig::dense::dc {

template <class R>
int deflated_not_above(const Deflation<R>& df, R x) {
  return static_cast<int>(std::upper_bound(df.deflated_value.begin(), df.deflated_value.end(), x) -
                          df.deflated_value.begin());
}

template <class R>
SecularShare<R> solve_secular(const Deflation<R>& df, const std::vector<int>& mine, int first,
                              int nout) {
  const int k = df.k();
  SecularShare<R> out;
  out.root.assign(k, R(0));
  if (k > 2) out.zprod.assign(k, R(1));
  std::vector<R> delta(k);
  for (int j : mine) {
    R lam = 0;
    if (lapack::laed4(k, j, df.lambda.data(), df.z.data(), delta.data(), df.rho, &lam) != 0)
      out.failed = true;
    out.root[j] = lam;
    // Π over roots j of (pole_i − root_j) / (pole_i − pole_j), j ≠ i; (pole_i − root_i).
    if (k > 2)
      for (int i = 0; i < k; ++i)
        out.zprod[i] *= i == j ? delta[i] : delta[i] / (df.lambda[i] - df.lambda[j]);
    // Roots ascend, so j roots lie below this one.
    const int pos = j + deflated_not_above(df, lam);
    if (pos >= first && pos < first + nout) out.kept.push_back(j);
  }
  return out;
}

template <class R>
std::vector<R> lowner_z(const std::vector<R>& product, const std::vector<R>& z) {
  std::vector<R> zhat(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) zhat[i] = std::copysign(std::sqrt(-product[i]), z[i]);
  return zhat;
}

template <class R>
bool secular_vector(const Deflation<R>& df, int j, const R* zhat, R* work, R* s) {
  const int k = df.k();
  R lam = 0;
  if (lapack::laed4(k, j, df.lambda.data(), df.z.data(), work, df.rho, &lam) != 0) return false;
  if (k <= 2) {
    std::copy(work, work + k, s);
    return true;
  }
  R norm2 = 0;
  for (int i = 0; i < k; ++i) {
    s[i] = zhat[i] / work[i];
    norm2 += s[i] * s[i];
  }
  const R scale = 1 / std::sqrt(norm2);
  for (int i = 0; i < k; ++i) s[i] *= scale;
  return true;
}

#define TSEIG_INSTANTIATE(R)                                                                      \
  template int deflated_not_above(const Deflation<R>&, R);                                        \
  template SecularShare<R> solve_secular(const Deflation<R>&, const std::vector<int>&, int, int); \
  template std::vector<R> lowner_z(const std::vector<R>&, const std::vector<R>&);                 \
  template bool secular_vector(const Deflation<R>&, int, const R*, R*, R*);
TSEIG_INSTANTIATE(float)
TSEIG_INSTANTIATE(double)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense::dc
