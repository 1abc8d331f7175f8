// Z ← H(0)·H(1)···H(r-1)·Z in blocks of reflectors from the last: each process row
// gathers its rows of the block's V from the process columns that own the panels, forms
// the triangular factor T, and updates its tile of Z with W = T·(Vᴴ·Z), Z −= V·W.
#include "dense/stages/backtransform_householder/api.hpp"

#include <algorithm>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <Device D, class T>
void backtransform_householder(const DistMatrix<T>& A, const std::vector<T>& tau, int offset,
                               DistMatrix<T>& Z, int ncols, const TuneParameters& tune) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb(), lr = A.local_rows();
  if (Z.mb() != nb || Z.rsrc() != A.rsrc() || Z.m() != n || !Z.grid().same_as(g))
    throw Error(ErrorCode::invalid_argument,
                "backtransform_householder: Z must share A's grid and row distribution");
  const int nr = static_cast<int>(tau.size());
  if (nr == 0 || ncols <= 0) return;
  const int lcz = Z.local_cols_before(ncols);
  // Blocks of about tune.wy_width reflectors (whole panels of nb).
  const int width = std::max(1, tune.wy_width / nb) * nb;
  // Work arrays at their largest, on every rank or on none; the blocks below reuse them
  // without reallocating.
  std::vector<int> grow;
  std::vector<T> V, S, Tm, Wt;
  allocate_collectively(g.comm(), [&] {
    grow.resize(lr);
    V.reserve(static_cast<std::size_t>(std::max(lr, 1)) * width);
    S.reserve(static_cast<std::size_t>(width) * width);
    Tm.reserve(static_cast<std::size_t>(width) * width);
    Wt.reserve(static_cast<std::size_t>(width) * lcz);
  });
  for (int li = 0; li < lr; ++li) grow[li] = A.global_row(li);
  const int last = ((nr - 1) / width) * width;  // start of the block holding the last one
  for (int b0 = last; b0 >= 0; b0 -= width) {
    const int b1 = std::min(b0 + width, nr), w = b1 - b0;
    const int r0 = A.local_rows_before(b0 + offset), m = lr - r0, ldv = std::max(m, 1);
    // My rows (≥ b0+offset) of V, panel by panel from the process column that owns it.
    V.assign(static_cast<std::size_t>(ldv) * w, T(0));
    for (int k0 = b0; k0 < b1; k0 += nb) {
      const int k1 = std::min(k0 + nb, b1), pc = A.col_owner(k0);
      T* Vp = V.data() + static_cast<std::size_t>(k0 - b0) * ldv;
      if (pc == g.mycol()) {
        const int lcol0 = A.local_col(k0);
        for (int j = k0; j < k1; ++j)
          for (int li = r0; li < lr; ++li) {
            const int gi = grow[li];
            Vp[(li - r0) + static_cast<std::size_t>(j - k0) * ldv] =
                gi < j + offset    ? T(0)
                : gi == j + offset ? T(1)
                                   : A.local(li, lcol0 + (j - k0));
          }
      }
      broadcast_along_row(g, Vp, ldv * (k1 - k0), pc);
    }
    // T from S = VᴴV (as ?larft): T(i,i) = tau_i, T(0:i,i) = −tau_i·T(0:i,0:i)·S(0:i,i).
    S.assign(static_cast<std::size_t>(w) * w, T(0));
    blas::gemm('C', 'N', w, w, m, T(1), V.data(), ldv, V.data(), ldv, T(0), S.data(), w);
    sum_over_column(g, S.data(), w * w);
    Tm.assign(static_cast<std::size_t>(w) * w, T(0));
    for (int i = 0; i < w; ++i) {
      const T t = tau[b0 + i];
      Tm[i + static_cast<std::size_t>(i) * w] = t;
      for (int r = 0; r < i; ++r) {
        T acc = 0;
        for (int c = r; c < i; ++c)
          acc += Tm[r + static_cast<std::size_t>(c) * w] * S[c + static_cast<std::size_t>(i) * w];
        Tm[r + static_cast<std::size_t>(i) * w] = -t * acc;
      }
    }
    if (lcz == 0) continue;
    // W = T·(Vᴴ·Z(b0+offset:n, :)), then Z −= V·W.
    Wt.assign(static_cast<std::size_t>(w) * lcz, T(0));
    blas::gemm('C', 'N', w, lcz, m, T(1), V.data(), ldv, &Z.local(r0, 0), Z.lld(), T(0), Wt.data(),
               w);
    sum_over_column(g, Wt.data(), w * lcz);
    blas::trmm('L', 'U', 'N', 'N', w, lcz, T(1), Tm.data(), w, Wt.data(), w);
    blas::gemm('N', 'N', m, lcz, w, T(-1), V.data(), ldv, Wt.data(), w, T(1), &Z.local(r0, 0),
               Z.lld());
  }
}

#define TSEIG_INSTANTIATE(T)                                                 \
  template void backtransform_householder<Device::host, T>(                  \
      const DistMatrix<T>&, const std::vector<T>&, int, DistMatrix<T>&, int, \
      const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
