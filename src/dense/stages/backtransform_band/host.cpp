// Order. Reflector (s, j) acts on rows s+1+j·b … s+j·b+b; those of one sweep are
// disjoint, and (s, j) meets (s', j') with s' < s only for j' ∈ {j, j+1}. So instead of
// the exact reverse (s from the last, j from the last) this equivalent order is used:
// blocks of k sweeps from the last, inside a block steps j from the first, inside a
// step sweeps from the last. A block then walks down the columns once, and consecutive
// sweeps of a step are one row apart, so they are applied in groups (four real, two
// complex) by one kernel.
#include "dense/stages/backtransform_band/api.hpp"

#include <algorithm>

#include "core/instantiate.hpp"
#include "dense/stages/backtransform_band/reflector_group_kernel.hpp"
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

  // The groups of one block of sweeps, padded to a common window once, used by all
  // stripes. Group g holds G reflectors at pv[g.v + k·slot], k = 0..G−1, reflector k
  // starting k rows below the group's first row (zeros where it does not reach).
  constexpr int G = reflector_group_size<T>();
  struct Group {
    int row, len, count;
    T tau[G], s[G * G];
    std::size_t v;
  };
  std::vector<Group> groups;
  std::vector<T> pv;
  auto reflector = [&](int s, int j) { return &q.v[q.index(s, j) * static_cast<std::size_t>(b)]; };
  const std::size_t slot = static_cast<std::size_t>(b) + G - 1;
  for (int s0 = ((sweeps - 1) / k) * k; s0 >= 0; s0 -= k) {
    const int s1 = std::min(s0 + k, sweeps);
    groups.clear();
    pv.clear();
    for (int j = 0; j < q.steps(s0); ++j) {
      int kg = 0;  // steps(s) decreases with s: the sweeps with a step j are a prefix
      while (s0 + kg < s1 && q.steps(s0 + kg) > j) ++kg;
      // (s, j) before (s−1, j): groups from the last sweep of the block; reflector k of
      // a group is sweep first + k, one row below sweep first + k − 1.
      for (int i = kg - 1; i >= 0; i -= G) {
        Group g{};
        g.count = std::min(G, i + 1);
        const int first = s0 + i - g.count + 1;
        g.row = q.row(first, j);
        g.v = pv.size();
        pv.resize(g.v + G * slot, T(0));
        for (int r = 0; r < g.count; ++r) {
          const int l = q.length(first + r, j);
          std::copy(reflector(first + r, j), reflector(first + r, j) + l, &pv[g.v + r * slot + r]);
          g.tau[r] = q.tau[q.index(first + r, j)];
          g.len = std::max(g.len, r + l);
        }
        for (int r = 0; r < g.count; ++r)
          for (int c = r + 1; c < g.count; ++c) {
            T d = 0;
            for (int t = c; t < g.len; ++t)
              d += conj_if_complex(pv[g.v + r * slot + t]) * pv[g.v + c * slot + t];
            g.s[r * G + c] = d;
          }
        groups.push_back(g);
      }
    }
    for (int st = 0; st < nstripes; ++st) {
      T* St = stripe(st);
      for (const Group& g : groups)
        apply_reflector_group(&pv[g.v], slot, g.tau, g.s, g.count, g.len,
                              St + static_cast<std::size_t>(g.row) * W);
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
