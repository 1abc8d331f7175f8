// Z ← H(0)·H(1)···H(r-1)·Z in blocks of reflectors from the last (wy_blocks.hpp): each
// process row updates its tile of Z with W = T·(Vᴴ·Z), Z −= V·W.
#include <algorithm>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/backtransform_householder/wy_blocks.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

void require_z_like_a(bool matches) {
  if (!matches)
    throw Error(ErrorCode::invalid_argument,
                "backtransform_householder: Z must share A's grid and row distribution");
}

template <Device D, class T>
void backtransform_householder(const DistMatrix<T>& A, const std::vector<T>& tau, int offset,
                               DistMatrix<T>& Z, int ncols, const TuneParameters& tune) {
  const Grid& g = A.grid();
  require_z_like_a(Z.mb() == A.nb() && Z.rsrc() == A.rsrc() && Z.m() == A.n() &&
                   Z.grid().same_as(g));
  if (tau.empty() || ncols <= 0) return;
  const int lcz = Z.local_cols_before(ncols);
  WyBlocks<T> blocks(A, tau, offset, tune);
  std::vector<T> Wh;
  allocate_collectively(g.comm(),
                        [&] { Wh.reserve(static_cast<std::size_t>(blocks.width()) * lcz); });
  for (int b0 = blocks.last(); b0 >= 0; b0 -= blocks.width()) {
    const auto blk = blocks.form(b0);
    if (lcz == 0) continue;
    const int w = blk.w, m = blk.m;
    // W = T·(Vᴴ·Z(b0+offset:n, :)), then Z −= V·W, with W held as Wᴴ = Zᴴ·V·Tᴴ: the BLAS
    // runs the product with the w-row result (Vᴴ·Z) slowly, with the w-column one fast
    // (OpenBLAS on the AVX-512 Xeon VM, 4000 × 256 by 4000 × 2000, both cores busy:
    // 56–64 against 73–75 GFlop/s; the update runs at 78–85 either way).
    Wh.assign(static_cast<std::size_t>(w) * lcz, T(0));
    blas::gemm('C', 'N', lcz, w, m, T(1), &Z.local(blk.r0, 0), Z.lld(), blk.V, blk.ldv, T(0),
               Wh.data(), lcz);
    sum_over_column(g, Wh.data(), w * lcz);
    blas::trmm('R', 'U', 'C', 'N', lcz, w, T(1), blk.T_, w, Wh.data(), lcz);
    blas::gemm('N', 'C', m, lcz, w, T(-1), blk.V, blk.ldv, Wh.data(), lcz, T(1),
               &Z.local(blk.r0, 0), Z.lld());
  }
}

#define TSEIG_INSTANTIATE(T)                                                 \
  template void backtransform_householder<Device::host, T>(                  \
      const DistMatrix<T>&, const std::vector<T>&, int, DistMatrix<T>&, int, \
      const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
