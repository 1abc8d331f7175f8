// Full → band on the host: Y = Ã·V and the update Ã −= V·Wᴴ + W·Vᴴ run on each rank's
// lower-triangle tiles with GEMMs (tiles below the diagonal contribute to both Y's rows
// and, transposed, to Y's columns); the rest is band_reduction.hpp's.
#include <algorithm>

#include "core/blas/host.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/stages/reduce_to_band/api.hpp"
#include "dense/stages/reduce_to_band/band_reduction.hpp"

namespace tseig::dense {
namespace {

// Calls add(lj, w, row0, row1) for my tiles below (or, with_diagonal, on and below) the
// diagonal in groups of tile_group tiles: once for a group's w columns over the rows
// below (from) its last diagonal tile, and for each other tile of the group over the few
// rows between its diagonal and that one. One product per tile has a 64 × b result (Yc)
// or a b-deep sum (Yr) over thousands of rows, shapes where the BLAS re-packs its small
// operand for little work: grouping four took Yc += Ãᴴ·Vr from 0.21 to 0.17-0.18 s
// (d, N = 4000, np = 2).
template <class T, class Add>
void for_tile_groups(const DistMatrix<T>& A, const BandPanel& p, bool with_diagonal, Add&& add) {
  constexpr int tile_group = 4;
  const int nb = A.nb(), lc = A.local_cols();
  auto rows_from = [&](int lj) {  // my first local row below (or in) tile lj's diagonal block
    return A.local_rows_before(A.global_col(lj) + (with_diagonal ? 0 : std::min(nb, lc - lj)));
  };
  for (int lj0 = p.c0; lj0 < lc; lj0 += tile_group * nb) {
    const int lj1 = std::min(lc, lj0 + tile_group * nb);
    const int common = rows_from(lj0 + (lj1 - lj0 - 1) / nb * nb);
    if (A.local_rows() > common) add(lj0, lj1 - lj0, common, A.local_rows());
    for (int lj = lj0; lj + nb < lj1; lj += nb)
      if (common > rows_from(lj)) add(lj, nb, rows_from(lj), common);
  }
}

// Yr += Ã·Vc and Yc += Ãᴴ·Vr over my tiles below the diagonal.
template <class T>
void add_off_diagonal_products(const DistMatrix<T>& A, const BandPanel& p, const T* Vc, const T* Vr,
                               T* Yr, T* Yc) {
  const int kk = p.kk;
  for_tile_groups(A, p, false, [&](int lj, int w, int row0, int row1) {
    blas::gemm('N', 'N', row1 - row0, kk, w, T(1), &A.local(row0, lj), A.lld(), Vc + (lj - p.c0),
               p.ldc, T(1), Yr + (row0 - p.r0), p.ldr);
  });
  for_tile_groups(A, p, false, [&](int lj, int w, int row0, int row1) {
    blas::gemm('C', 'N', w, kk, row1 - row0, T(1), &A.local(row0, lj), A.lld(), Vr + (row0 - p.r0),
               p.ldr, T(1), Yc + (lj - p.c0), p.ldc);
  });
}

}  // namespace

template <Device D, class T>
std::vector<T> reduce_to_band(DistMatrix<T>& A, int b) {
  if (!band_reduction_needed(A, b)) return {};
  const int n = A.n(), nb = A.nb();
  BandReduction<T> r(A, b);
  std::vector<T> diag;
  allocate_collectively(A.grid().comm(), [&] { diag.resize(static_cast<std::size_t>(nb) * nb); });
  for (int k = 0; k + b < n; k += b) {
    const BandPanel p(A, b, k);
    const int kk = p.kk;
    r.factor(p);
    // Y = Ã·V from my lower tiles: Yr (by local rows) and Yc (by local columns); the
    // diagonal tiles, used as full Hermitian blocks, into Yr only.
    T* Yr = r.Yr();
    T* Yc = r.Yc();
    for (int lj = p.c0; lj < A.local_cols(); lj += nb) {
      const int gj = A.global_col(lj), w = std::min(nb, A.local_cols() - lj);
      const int rd = A.local_rows_before(gj), rl = A.local_rows_before(gj + w);
      if (rl > rd) {  // the diagonal tile is mine
        for (int c = 0; c < w; ++c)
          for (int i = 0; i < w; ++i)
            diag[i + static_cast<std::size_t>(c) * w] =
                i >= c ? A.local(rd + i, lj + c) : conj_if_complex(A.local(rd + c, lj + i));
        for (int c = 0; c < w; ++c)
          diag[c + static_cast<std::size_t>(c) * w] =
              std::real(diag[c + static_cast<std::size_t>(c) * w]);
        blas::gemm('N', 'N', w, kk, w, T(1), diag.data(), w, r.Vc() + (lj - p.c0), p.ldc, T(1),
                   Yr + (rd - p.r0), p.ldr);
      }
    }
    add_off_diagonal_products(A, p, r.Vc(), r.Vr(), Yr, Yc);
    r.complete_y(p, true);
    r.form_w(p);
    // Ã −= [V W]·[W V]ᴴ on my tiles on and below the diagonal.
    for_tile_groups(A, p, true, [&](int lj, int w, int row0, int row1) {
      blas::gemm('N', 'C', row1 - row0, w, 2 * kk, T(-1), r.L() + (row0 - p.r0), p.ldr,
                 r.R() + (lj - p.c0), p.ldc, T(1), &A.local(row0, lj), A.lld());
    });
  }
  return r.take_tau();
}

template <class T>
std::vector<T> gather_band(const DistMatrix<T>& A, int b) {
  const int n = A.n(), ld = b + 1;
  std::vector<T> band;
  allocate_collectively(A.grid().comm(),
                        [&] { band.assign(static_cast<std::size_t>(ld) * n, T(0)); });
  for (int lj = 0; lj < A.local_cols(); ++lj) {
    const int j = A.global_col(lj);
    for (int li = A.local_rows_before(j); li < A.local_rows_before(std::min(n, j + b + 1)); ++li)
      band[(A.global_row(li) - j) + static_cast<std::size_t>(j) * ld] = A.local(li, lj);
  }
  sum_over_grid(A.grid(), band.data(), ld * n);
  return band;
}

#define TSEIG_INSTANTIATE(T)                                                    \
  template std::vector<T> reduce_to_band<Device::host, T>(DistMatrix<T>&, int); \
  template std::vector<T> gather_band(const DistMatrix<T>&, int);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
