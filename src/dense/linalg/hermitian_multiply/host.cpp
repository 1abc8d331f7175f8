// C = Aᴴ·B as a sum of low-rank products over the block rows k of A and B:
// C(i, j) += A(k, i)ᴴ B(k, j). Block row k of A is gathered along its process row (the
// rows of C are A's columns, so every rank needs it whole) and broadcast down the
// process columns together with the rank's part of block row k of B. Zero blocks of a
// triangular A and blocks of C outside uplo_c are skipped.
#include <algorithm>
#include <string>
#include <vector>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/linalg/hermitian_multiply/api.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <Device D, class T>
void hermitian_multiply_aligned(Triangle uplo_a, Triangle uplo_c, const DistMatrix<T>& A,
                                const DistMatrix<T>& B, DistMatrix<T>& C, int ncb,
                                const TuneParameters& tune) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb(), ldc = C.lld();
  const int lcn = C.local_cols_before(ncb);  // my columns of B and C among the first ncb
  for (int lj = 0; lj < lcn; ++lj) std::fill_n(&C.local(0, lj), C.local_rows(), T(0));
  // Block rows are taken a few at a time: deeper GEMMs and fewer passes over C, which
  // does not fit in cache. Within a batch the unused triangle of A is masked with zeros.
  const int depth = std::max(1, tune.multiply_depth / nb) * nb;
  std::vector<T> mine, piece, panel, bpanel, rows;
  for (int k0 = 0; k0 < n; k0 += depth) {
    const int kk = std::min(depth, n - k0);
    // Columns of A's block rows that can be nonzero, i.e. the rows of C they contribute to.
    const int c0 = uplo_a == Triangle::upper ? k0 : 0;
    const int c1 = uplo_a == Triangle::lower ? k0 + kk : n;
    const PanelMap map(c0, c1, nb, g.npcol());
    panel.assign(static_cast<std::size_t>(kk) * map.width, T(0));
    bpanel.assign(static_cast<std::size_t>(kk) * lcn, T(0));
    for (int b0 = k0; b0 < k0 + kk; b0 += nb) {
      const int h = std::min(nb, n - b0);
      const int pk = (b0 / nb) % g.nprow();
      piece.assign(static_cast<std::size_t>(h) * (map.width + lcn), T(0));
      if (g.myrow() == pk) {
        const int lrk = A.local_row(b0), lca = A.local_cols_before(c0);
        const int count = map.count(g.mycol());
        // The unused triangle of A is never read: zeros go in its place.
        mine.resize(static_cast<std::size_t>(h) * std::max(count, 1));
        for (int j = 0; j < count; ++j) {
          const int gj = A.global_col(lca + j);
          for (int r = 0; r < h; ++r) {
            const int gi = b0 + r;
            const bool used =
                uplo_a == Triangle::full || (uplo_a == Triangle::upper ? gi <= gj : gi >= gj);
            mine[static_cast<std::size_t>(j) * h + r] = used ? A.local(lrk + r, lca + j) : T(0);
          }
        }
        gather_along_row(g, map, h, mine.data(), piece.data());
        const int lrb = B.local_row(b0);
        for (int j = 0; j < lcn; ++j)
          std::copy_n(&B.local(lrb, j), h, &piece[static_cast<std::size_t>(map.width + j) * h]);
      }
      if (g.nprow() > 1)
        MPI_Bcast(piece.data(), static_cast<int>(piece.size()), mpi_type<T>(), pk, g.col_comm());
      // Rows b0 − k0 … of the batch panels (leading dimension kk).
      for (int j = 0; j < map.width; ++j)
        std::copy_n(&piece[static_cast<std::size_t>(j) * h], h,
                    &panel[static_cast<std::size_t>(j) * kk + (b0 - k0)]);
      for (int j = 0; j < lcn; ++j)
        std::copy_n(&piece[static_cast<std::size_t>(map.width + j) * h], h,
                    &bpanel[static_cast<std::size_t>(j) * kk + (b0 - k0)]);
    }

    const int r0 = C.local_rows_before(c0), r1 = C.local_rows_before(c1);
    rows.resize(static_cast<std::size_t>(kk) * std::max(r1 - r0, 1));
    for (int r = r0; r < r1; ++r)
      std::copy_n(&panel[static_cast<std::size_t>(map.position(C.global_row(r))) * kk], kk,
                  &rows[static_cast<std::size_t>(r - r0) * kk]);
    // Row segments of C with the panel rows that reach them: for a triangular A the
    // batch's own block rows see only part of the panel (the rest is masked zeros).
    struct Segment {
      int ra, rb, first, depth;  // local rows [ra, rb), panel rows [first, first + depth)
    };
    std::vector<Segment> segments;
    if (uplo_a == Triangle::full) {
      segments.push_back({r0, r1, 0, kk});
    } else {
      const bool upper = uplo_a == Triangle::upper;
      for (int b0 = k0; b0 < k0 + kk; b0 += nb) {
        const int b1 = std::min(b0 + nb, n);
        segments.push_back({C.local_rows_before(b0), C.local_rows_before(b1), upper ? 0 : b0 - k0,
                            upper ? b1 - k0 : k0 + kk - b0});
      }
      if (upper)
        segments.push_back({C.local_rows_before(k0 + kk), r1, 0, kk});
      else
        segments.push_back({r0, C.local_rows_before(k0), 0, kk});
    }
    for (const Segment& sg : segments) {
      const T* a = rows.data() + static_cast<std::size_t>(sg.ra - r0) * kk + sg.first;
      const T* b = bpanel.data() + sg.first;
      if (uplo_c == Triangle::full) {
        blas::gemm('C', 'N', sg.rb - sg.ra, lcn, sg.depth, T(1), a, kk, b, kk, T(1),
                   &C.local(sg.ra, 0), ldc);
        continue;
      }
      // One GEMM per block column of C, on the rows that reach its triangle.
      for (int c = 0; c < lcn; c += C.nb()) {
        const int w = std::min(C.nb(), lcn - c);
        const int gj0 = C.global_col(c);
        const int ra =
            uplo_c == Triangle::upper ? sg.ra : std::max(sg.ra, C.local_rows_before(gj0));
        const int rb =
            uplo_c == Triangle::upper ? std::min(sg.rb, C.local_rows_before(gj0 + w)) : sg.rb;
        blas::gemm('C', 'N', rb - ra, w, sg.depth, T(1),
                   a + static_cast<std::size_t>(ra - sg.ra) * kk, kk,
                   b + static_cast<std::size_t>(c) * kk, kk, T(1), &C.local(ra, c), ldc);
      }
    }
  }
  zero_outside(C, uplo_c, ncb);
}

#define TSEIG_INSTANTIATE(T)                                                               \
  template void hermitian_multiply_aligned<Device::host, T>(                               \
      Triangle, Triangle, const DistMatrix<T>&, const DistMatrix<T>&, DistMatrix<T>&, int, \
      const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
