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
  std::vector<T> Wt;
  allocate_collectively(g.comm(),
                        [&] { Wt.reserve(static_cast<std::size_t>(blocks.width()) * lcz); });
  for (int b0 = blocks.last(); b0 >= 0; b0 -= blocks.width()) {
    const auto blk = blocks.form(b0);
    if (lcz == 0) continue;
    const int w = blk.w, m = blk.m;
    // W = T·(Vᴴ·Z(b0+offset:n, :)), then Z −= V·W.
    Wt.assign(static_cast<std::size_t>(w) * lcz, T(0));
    blas::gemm('C', 'N', w, lcz, m, T(1), blk.V, blk.ldv, &Z.local(blk.r0, 0), Z.lld(), T(0),
               Wt.data(), w);
    sum_over_column(g, Wt.data(), w * lcz);
    blas::trmm('L', 'U', 'N', 'N', w, lcz, T(1), blk.T_, w, Wt.data(), w);
    blas::gemm('N', 'N', m, lcz, w, T(-1), blk.V, blk.ldv, Wt.data(), w, T(1), &Z.local(blk.r0, 0),
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
