#include "dense/stages/backtransform_householder/wy_blocks.hpp"

#include <algorithm>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"

namespace tseig::dense {

template <class T>
WyBlocks<T>::WyBlocks(const DistMatrix<T>& A, const std::vector<T>& tau, int offset,
                      const TuneParameters& tune)
    : A_(A), tau_(tau), offset_(offset), width_(std::max(1, tune.wy_width / A.nb()) * A.nb()) {
  const int lr = A.local_rows();
  allocate_collectively(A.grid().comm(), [&] {
    grow_.resize(lr);
    V_.reserve(static_cast<std::size_t>(std::max(lr, 1)) * width_);
    S_.reserve(static_cast<std::size_t>(width_) * width_);
    T_.reserve(static_cast<std::size_t>(width_) * width_);
  });
  for (int li = 0; li < lr; ++li) grow_[li] = A.global_row(li);
}

template <class T>
typename WyBlocks<T>::Block WyBlocks<T>::gather(int b0) {
  const Grid& g = A_.grid();
  const int nb = A_.nb(), lr = A_.local_rows();
  const int b1 = std::min(b0 + width_, static_cast<int>(tau_.size())), w = b1 - b0;
  const int r0 = A_.local_rows_before(b0 + offset_), m = lr - r0, ldv = std::max(m, 1);
  // My rows (≥ b0+offset) of V, panel by panel from the process column that owns it.
  V_.assign(static_cast<std::size_t>(ldv) * w, T(0));
  for (int k0 = b0; k0 < b1; k0 += nb) {
    const int k1 = std::min(k0 + nb, b1), pc = A_.col_owner(k0);
    T* Vp = V_.data() + static_cast<std::size_t>(k0 - b0) * ldv;
    if (pc == g.mycol()) {
      const int lcol0 = A_.local_col(k0);
      for (int j = k0; j < k1; ++j)
        for (int li = r0; li < lr; ++li) {
          const int gi = grow_[li];
          Vp[(li - r0) + static_cast<std::size_t>(j - k0) * ldv] =
              gi < j + offset_    ? T(0)
              : gi == j + offset_ ? T(1)
                                  : A_.local(li, lcol0 + (j - k0));
        }
    }
    broadcast_along_row(g, Vp, ldv * (k1 - k0), pc);
  }
  return {w, r0, m, ldv, V_.data(), nullptr};
}

template <class T>
typename WyBlocks<T>::Block WyBlocks<T>::form(int b0) {
  const Grid& g = A_.grid();
  const int nb = A_.nb();
  const Block v = gather(b0);
  const int w = v.w, r0 = v.r0, m = v.m, ldv = v.ldv;
  // T from S = VᴴV (as ?larft): T(i,i) = tau_i, T(0:i,i) = −tau_i·T(0:i,0:i)·S(0:i,i).
  // Only S's upper triangle is read, and V(:, k0:k1) is zero above row k0 + offset: one
  // GEMM per panel of S's columns over those rows, the panels dealt out over the process
  // columns (which hold the same rows) and summed over the grid.
  S_.assign(static_cast<std::size_t>(w) * w, T(0));
  for (int k0 = 0, q = 0; k0 < w; k0 += nb, ++q) {
    if (q % g.npcol() != g.mycol()) continue;
    const int k1 = std::min(k0 + nb, w), rs = A_.local_rows_before(b0 + k0 + offset_) - r0;
    blas::gemm('C', 'N', k1, k1 - k0, m - rs, T(1), V_.data() + rs, ldv,
               V_.data() + rs + static_cast<std::size_t>(k0) * ldv, ldv, T(0),
               S_.data() + static_cast<std::size_t>(k0) * w, w);
  }
  sum_over_grid(g, S_.data(), w * w);
  // Column by column (contiguous, vectorized): a row-wise dot at stride w made forming T
  // cost more than applying the block when few vectors are wanted.
  T_.assign(static_cast<std::size_t>(w) * w, T(0));
  for (int i = 0; i < w; ++i) {
    const T t = tau_[b0 + i];
    T* ti = T_.data() + static_cast<std::size_t>(i) * w;
    for (int c = 0; c < i; ++c) {
      const T s = S_[c + static_cast<std::size_t>(i) * w];
      const T* tc = T_.data() + static_cast<std::size_t>(c) * w;
      for (int r = 0; r <= c; ++r) ti[r] += tc[r] * s;
    }
    for (int r = 0; r < i; ++r) ti[r] *= -t;
    ti[i] = t;
  }
  return {w, r0, m, ldv, V_.data(), T_.data()};
}

#define TSEIG_INSTANTIATE(T) template class WyBlocks<T>;
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
