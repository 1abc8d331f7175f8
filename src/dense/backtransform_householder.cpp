// Z ← H(0)·H(1)···H(n-2)·Z, one panel of nb reflectors at a time from the last: the
// owning process column builds its rows of V and the triangular factor T, the process
// row receives them, and each rank updates its tile of Z with W = T·(Vᴴ·Z), Z −= V·W.
#include "dense/backtransform_householder.hpp"

#include <algorithm>

#include "core/blas.hpp"
#include "core/collectives.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
void backtransform_householder(const DistMatrix<T>& A, const std::vector<T>& tau,
                               DistMatrix<T>& Z, int ncols) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb(), lr = A.local_rows();
  if (Z.mb() != nb || Z.rsrc() != A.rsrc() || Z.m() != n || !Z.grid().same_as(g))
    throw Error(ErrorCode::invalid_argument,
                "backtransform_householder: Z must share A's grid and row distribution");
  if (n <= 1 || ncols <= 0) return;
  const int lcz = Z.local_cols_before(ncols);
  std::vector<int> grow(lr);
  for (int li = 0; li < lr; ++li) grow[li] = A.global_row(li);

  std::vector<T> panel, S, Wt;
  const int last = ((n - 2) / nb) * nb;  // start of the panel holding reflector n-2
  for (int k0 = last; k0 >= 0; k0 -= nb) {
    const int k1 = std::min(k0 + nb, n - 1), w = k1 - k0;
    const int pc = A.col_owner(k0);
    const int r0 = A.local_rows_before(k0 + 1), m = lr - r0;
    // panel = [V (m×w, my rows ≥ k0+1) | T (w×w)], sent as one message.
    panel.assign(static_cast<std::size_t>(m) * w + static_cast<std::size_t>(w) * w, T(0));
    T* Vp = panel.data();
    T* Tp = panel.data() + static_cast<std::size_t>(m) * w;
    if (pc == g.mycol()) {
      const int lcol0 = A.local_col(k0);
      for (int i = 0; i < w; ++i) {
        const int j = k0 + i;
        for (int li = r0; li < lr; ++li) {
          const int gi = grow[li];
          Vp[(li - r0) + static_cast<std::size_t>(i) * m] =
              gi < j + 1 ? T(0) : gi == j + 1 ? T(1) : A.local(li, lcol0 + i);
        }
      }
      // T from S = VᴴV (as ?larft): T(i,i) = tau_i, T(0:i,i) = −tau_i·T(0:i,0:i)·S(0:i,i).
      S.assign(static_cast<std::size_t>(w) * w, T(0));
      blas::gemm('C', 'N', w, w, m, T(1), Vp, std::max(m, 1), Vp, std::max(m, 1), T(0), S.data(),
                 w);
      sum_over_column(g, S.data(), w * w);
      for (int i = 0; i < w; ++i) {
        const T t = tau[k0 + i];
        Tp[i + static_cast<std::size_t>(i) * w] = t;
        for (int r = 0; r < i; ++r) {
          T acc = 0;
          for (int c = r; c < i; ++c)
            acc += Tp[r + static_cast<std::size_t>(c) * w] * S[c + static_cast<std::size_t>(i) * w];
          Tp[r + static_cast<std::size_t>(i) * w] = -t * acc;
        }
      }
    }
    broadcast_along_row(g, panel.data(), static_cast<int>(panel.size()), pc);
    if (lcz == 0) continue;
    // W = T·(Vᴴ·Z(k0+1:n, :)), then Z −= V·W.
    Wt.assign(static_cast<std::size_t>(w) * lcz, T(0));
    blas::gemm('C', 'N', w, lcz, m, T(1), Vp, std::max(m, 1), &Z.local(r0, 0), Z.lld(), T(0),
               Wt.data(), w);
    sum_over_column(g, Wt.data(), w * lcz);
    blas::trmm('L', 'U', 'N', 'N', w, lcz, T(1), Tp, w, Wt.data(), w);
    blas::gemm('N', 'N', m, lcz, w, T(-1), Vp, std::max(m, 1), Wt.data(), w, T(1),
               &Z.local(r0, 0), Z.lld());
  }
}

template void backtransform_householder(const DistMatrix<float>&, const std::vector<float>&,
                                        DistMatrix<float>&, int);
template void backtransform_householder(const DistMatrix<double>&, const std::vector<double>&,
                                        DistMatrix<double>&, int);
template void backtransform_householder(const DistMatrix<std::complex<float>>&,
                                        const std::vector<std::complex<float>>&,
                                        DistMatrix<std::complex<float>>&, int);
template void backtransform_householder(const DistMatrix<std::complex<double>>&,
                                        const std::vector<std::complex<double>>&,
                                        DistMatrix<std::complex<double>>&, int);

}  // namespace tseig::dense
