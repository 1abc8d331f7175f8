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
  if (k > 2) {
    out.tau.assign(k, R(0));
    out.origin.assign(k, R(0));
    out.zprod.assign(k, R(1));
  }
  std::vector<R> delta(k);
  for (int j : mine) {
    R lam = 0;
    if (lapack::laed4(k, j, df.lambda.data(), df.z.data(), delta.data(), df.rho, &lam) != 0)
      out.failed = true;
    out.root[j] = lam;
    if (k > 2) {
      // ?laed4's origin is the root's nearer pole: there its delta is −tau.
      const int o = j + 1 < k && std::abs(delta[j + 1]) < std::abs(delta[j]) ? j + 1 : j;
      const R tau = -delta[o];
      out.tau[j] = tau;
      out.origin[j] = static_cast<R>(o);
      // Π over roots j of (pole_i − root_j) / (pole_i − pole_j), j ≠ i; (pole_i − root_i),
      // from the differences the eigenvectors will be formed with.
      for (int i = 0; i < k; ++i) {
        const R d = secular_delta(df, i, o, tau);
        out.zprod[i] *= i == j ? d : d / (df.lambda[i] - df.lambda[j]);
      }
    }
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
R secular_scale(const Deflation<R>& df, const R* zhat, int o, R tau) {
  R norm2 = 0;
  for (int i = 0; i < df.k(); ++i) {
    const R s = zhat[i] / secular_delta(df, i, o, tau);
    norm2 += s * s;
  }
  return 1 / std::sqrt(norm2);
}

template <class R>
bool two_pole_vector(const Deflation<R>& df, int j, R* s) {
  R lam = 0;
  return lapack::laed4(df.k(), j, df.lambda.data(), df.z.data(), s, df.rho, &lam) == 0;
}

#define TSEIG_INSTANTIATE(R)                                                                      \
  template int deflated_not_above(const Deflation<R>&, R);                                        \
  template SecularShare<R> solve_secular(const Deflation<R>&, const std::vector<int>&, int, int); \
  template std::vector<R> lowner_z(const std::vector<R>&, const std::vector<R>&);                 \
  template R secular_scale(const Deflation<R>&, const R*, int, R);                                \
  template bool two_pole_vector(const Deflation<R>&, int, R*);
TSEIG_INSTANTIATE(float)
TSEIG_INSTANTIATE(double)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense::dc
