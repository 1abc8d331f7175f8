// Z ← H(0)·H(1)···H(r-1)·Z in blocks of reflectors from the last (wy_blocks.hpp). On a
// grid of one process row every rank holds whole columns of Z, and the blocks go to the
// reflector-group kernel of stage 4 (stripes.hpp) in groups of consecutive reflectors;
// otherwise each process row updates its tile of Z with W = T·(Vᴴ·Z), Z −= V·W.
#include <algorithm>
#include <optional>

#include "core/blas/host.hpp"
#include "core/blas/vector_width.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/stages/backtransform_band/stripes.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/backtransform_householder/wy_blocks.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {
namespace {

// One block's reflectors in groups of G consecutive ones (reflector k of a group starts k
// rows below its first), copied to slots of the group's window length, from the block's
// last group to its first: the order they act in.
template <class T>
class WyGroups {
 public:
  static constexpr int G = reflector_group_size<T>();
  void reserve(int width, int rows) {
    groups_.reserve((width + G - 1) / G);
    pv_.reserve(static_cast<std::size_t>(width + G) * std::max(rows, 1));
  }
  /// blk's V has row 0 at global row `row0`; tau holds the block's taus.
  void build(const typename WyBlocks<T>::Block& blk, const T* tau, int row0) {
    groups_.clear();
    pv_.clear();
    for (int i = blk.w - 1; i >= 0; i -= G) {
      ReflectorGroup<T> g;
      g.count = std::min(G, i + 1);
      const int first = i - g.count + 1;
      g.row = row0 + first;
      g.len = blk.m - first;
      g.v = pv_.size();
      pv_.resize(g.v + static_cast<std::size_t>(G) * g.len, T(0));
      T* v = &pv_[g.v];
      for (int k = 0; k < g.count; ++k) {
        std::copy_n(blk.V + first + static_cast<std::size_t>(first + k) * blk.ldv, g.len,
                    v + static_cast<std::size_t>(k) * g.len);
        g.tau[k] = tau[first + k];
      }
      g.set_products(pv_.data(), g.len);
      groups_.push_back(g);
    }
  }
  void apply(Stripes<T>& S) const {
    for (int st = 0; st < S.count(); ++st)
      for (const ReflectorGroup<T>& g : groups_) g.apply(pv_.data(), g.len, S.at(st, g.row));
  }

 private:
  std::vector<ReflectorGroup<T>> groups_;
  std::vector<T> pv_;
};

template <class T>
void apply_in_stripes(WyBlocks<T>& blocks, const std::vector<T>& tau, int offset, DistMatrix<T>& Z,
                      int lcz) {
  const int n = Z.m();
  std::optional<Stripes<T>> S;
  WyGroups<T> groups;
  allocate_collectively(Z.grid().comm(), [&] {
    S.emplace(offset, n - offset, lcz);
    groups.reserve(blocks.width(), n - offset);
  });
  if (lcz > 0) S->load(&Z.local(offset, 0), Z.lld(), n - offset);
  for (int b0 = blocks.last(); b0 >= 0; b0 -= blocks.width()) {
    const auto blk = blocks.gather(b0);
    if (lcz == 0) continue;
    groups.build(blk, &tau[b0], b0 + offset);
    groups.apply(*S);
  }
  if (lcz > 0) S->store(&Z.local(offset, 0), Z.lld(), n - offset);
}

}  // namespace

int householder_path(const Grid& g, const TuneParameters& tune) {
  if (g.nprow() != 1 || tune.householder_kernel == 1) return 1;
  if (tune.householder_kernel == 2) return 2;  // tune is the same on every rank
  // The BLAS's core, read from each rank's environment, could differ between nodes.
  int kernel = band_kernel_vector_bytes > blas::vector_bytes() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &kernel, 1, MPI_INT, MPI_MIN, g.comm());
  return kernel == 1 ? 2 : 1;
}

int default_householder_path_of_two(const Grid& g) {
  return g.nprow() == 1 ? householder_path(g, TuneParameters{}) : 0;
}

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
  if (householder_path(g, tune) == 2) return apply_in_stripes(blocks, tau, offset, Z, lcz);
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
