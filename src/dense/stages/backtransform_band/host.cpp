// Order. Reflector (s, j) acts on rows s+1+j·b … s+j·b+b; those of one sweep are
// disjoint, and (s, j) meets (s', j') with s' < s only for j' ∈ {j, j+1}. So instead of
// the exact reverse (s from the last, j from the last) this equivalent order is used:
// blocks of k sweeps from the last, inside a block steps j from the first, inside a
// step sweeps from the last. A block then walks down the columns once, and consecutive
// sweeps of a step are one row apart, so they are applied in pairs by one kernel.
#include "dense/stages/backtransform_band/api.hpp"

#include <algorithm>

#include "core/instantiate.hpp"
#include "dense/stages/backtransform_band/reflector_pair_kernel.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
void backtransform_band(const BandReflectors<T>& q, T* X, int ldx, int ncols, int group) {
  const int n = q.n, b = q.b, sweeps = n - 1;
  if (sweeps <= 0 || ncols <= 0) return;
  const int k = std::max(2, group);
  constexpr int W = stripe_width<T>();
  const int nstripes = (ncols + W - 1) / W;
  // Stripes: W columns each, row by row (the last one padded with zero columns).
  std::vector<T> S(static_cast<std::size_t>(nstripes) * n * W, T(0));
  auto stripe = [&](int st) { return S.data() + static_cast<std::size_t>(st) * n * W; };
  for (int c = 0; c < ncols; ++c)
    for (int i = 0; i < n; ++i)
      stripe(c / W)[static_cast<std::size_t>(i) * W + c % W] =
          X[i + static_cast<std::size_t>(c) * ldx];

  // The pairs of one block of sweeps, padded to a common window once, used by all stripes.
  struct Pair {
    int row, len;
    T tau1, tau2, s12;
    std::size_t v;  // v1 at pv[v], v2 at pv[v + b + 1]
  };
  std::vector<Pair> pairs;
  std::vector<T> pv;
  auto reflector = [&](int s, int j) { return &q.v[q.index(s, j) * static_cast<std::size_t>(b)]; };
  const std::size_t slot = static_cast<std::size_t>(b) + 1;
  for (int s0 = ((sweeps - 1) / k) * k; s0 >= 0; s0 -= k) {
    const int s1 = std::min(s0 + k, sweeps);
    pairs.clear();
    pv.clear();
    for (int j = 0; j < q.steps(s0); ++j) {
      int kg = 0;  // steps(s) decreases with s: the sweeps with a step j are a prefix
      while (s0 + kg < s1 && q.steps(s0 + kg) > j) ++kg;
      // (s, j) before (s−1, j): pairs from the last sweep of the block; H1 = (s−1, j)
      // starts one row above H2 = (s, j). A lone first sweep is H1 with tau2 = 0.
      for (int i = kg - 1; i >= 0; i -= 2) {
        const int s = s0 + i, l2 = q.length(s, j);
        const bool lone = i == 0;
        const int l1 = lone ? l2 : q.length(s - 1, j), len = lone ? l2 : std::max(l1, l2 + 1);
        const std::size_t at = pv.size();
        pv.resize(at + 2 * slot, T(0));
        T* v1 = &pv[at];
        T* v2 = v1 + slot;
        std::copy(reflector(lone ? s : s - 1, j), reflector(lone ? s : s - 1, j) + l1, v1);
        if (!lone) std::copy(reflector(s, j), reflector(s, j) + l2, v2 + 1);
        T s12 = 0;
        for (int t = 1; t < len; ++t) s12 += conj_if_complex(v1[t]) * v2[t];
        pairs.push_back({lone ? q.row(s, j) : q.row(s, j) - 1, len,
                         q.tau[q.index(lone ? s : s - 1, j)], lone ? T(0) : q.tau[q.index(s, j)],
                         s12, at});
      }
    }
    for (int st = 0; st < nstripes; ++st) {
      T* St = stripe(st);
      for (const Pair& p : pairs)
        apply_reflector_pair(&pv[p.v], p.tau1, &pv[p.v + slot], p.tau2, p.s12, p.len,
                             St + static_cast<std::size_t>(p.row) * W);
    }
  }
  for (int c = 0; c < ncols; ++c)
    for (int i = 0; i < n; ++i)
      X[i + static_cast<std::size_t>(c) * ldx] =
          stripe(c / W)[static_cast<std::size_t>(i) * W + c % W];
}

template <Device D, class T>
void backtransform_band(const BandReflectors<T>& q, DistMatrix<T>& Z, int nev,
                        const TuneParameters& tune) {
  const Grid& g = Z.grid();
  const int n = Z.m(), p = g.size();
  if (n <= 1 || nev <= 0) return;
  // Whole columns, one contiguous chunk per rank.
  Grid line(g.comm(), 1, p);
  const int chunk = (nev + p - 1) / p;
  DistMatrix<T> X(line, n, nev, n, chunk);
  X.copy_from(Z, nev);
  // The kernel's stripes are this rank's alone; an allocation that fails there must
  // still reach the other ranks before the copy back.
  collectively(g.comm(), [&] {
    backtransform_band(q, X.data(), X.lld(), X.local_cols(), tune.band_sweeps_per_pass);
  });
  Z.copy_from(X, nev);
}

#define TSEIG_INSTANTIATE(T)                                                                       \
  template void backtransform_band(const BandReflectors<T>&, T*, int, int, int);                   \
  template void backtransform_band<Device::host, T>(const BandReflectors<T>&, DistMatrix<T>&, int, \
                                                    const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
