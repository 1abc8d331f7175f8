// Distributed blocked Cholesky A = UᴴU (right-looking): per block row, LAPACK ?potrf on
// the diagonal tile's owner, ?trsm of the block row by its process row, then the
// rank-nb update of the upper trailing blocks only.
#include <algorithm>
#include <string>
#include <vector>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/linalg/cholesky/api.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <Device D, class T>
void cholesky_upper(DistMatrix<T>& A) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb(), ld = A.lld();
  const int nprow = g.nprow(), npcol = g.npcol();
  std::vector<T> tile, mine, panel, rows;
  for (int k0 = 0; k0 < n; k0 += nb) {
    const int h = std::min(nb, n - k0), k1 = k0 + h;
    const int pk = (k0 / nb) % nprow, qk = (k0 / nb) % npcol;
    const PanelMap map(k1, n, nb, npcol);
    const int lr1 = A.local_rows_before(k1), lc1 = A.local_cols_before(k1);
    // panel = [LAPACK info of the diagonal tile, U(k0:k1, k1:n) in PanelMap order]: the
    // info travels with the data, so every rank learns of a failure without an extra
    // collective and all stop at the same block.
    panel.assign(1 + static_cast<std::size_t>(h) * map.width, T(0));
    if (g.myrow() == pk) {
      tile.assign(static_cast<std::size_t>(h) * h + 1, T(0));
      const int lrk = A.local_row(k0);
      if (g.mycol() == qk) {
        T* a = &A.local(lrk, A.local_col(k0));
        const int info = lapack::potrf('U', h, a, ld);
        for (int j = 0; j < h; ++j) std::copy_n(a + static_cast<long>(j) * ld, h, &tile[j * h]);
        tile[h * h] = T(static_cast<real_t<T>>(info));
      }
      if (npcol > 1) MPI_Bcast(tile.data(), h * h + 1, mpi_type<T>(), qk, g.row_comm());
      panel[0] = tile[h * h];
      const int ncols = A.local_cols() - lc1;
      if (std::real(panel[0]) == 0) {
        // U(k, k1:n) = U_kkᴴ⁻¹ A(k, k1:n), then gathered along the process row.
        blas::trsm('L', 'U', 'C', 'N', h, ncols, T(1), tile.data(), h, &A.local(lrk, lc1), ld);
        mine.resize(static_cast<std::size_t>(h) * std::max(ncols, 1));
        for (int j = 0; j < ncols; ++j)
          std::copy_n(&A.local(lrk, lc1 + j), h, &mine[static_cast<std::size_t>(j) * h]);
        gather_along_row(g, map, h, mine.data(), panel.data() + 1);
      }
    }
    if (nprow > 1)
      MPI_Bcast(panel.data(), static_cast<int>(panel.size()), mpi_type<T>(), pk, g.col_comm());
    const int info = static_cast<int>(std::real(panel[0]));
    if (info != 0)
      throw Error(
          ErrorCode::not_positive_definite,
          "leading minor of order " + std::to_string(k0 + info) + " is not positive definite");

    // Trailing update A(i, j) -= U(k, i)ᴴ U(k, j) for the blocks i ≤ j only. My columns
    // are contiguous in the panel; my rows are picked out of it.
    const T* u = panel.data() + 1;
    const int nrows = A.local_rows() - lr1;
    rows.resize(static_cast<std::size_t>(h) * std::max(nrows, 1));
    for (int r = 0; r < nrows; ++r)
      std::copy_n(u + static_cast<std::size_t>(map.position(A.global_row(lr1 + r))) * h, h,
                  &rows[static_cast<std::size_t>(r) * h]);
    const T* cols = u + static_cast<std::size_t>(map.start[g.mycol()]) * h;
    for (int c = lc1; c < A.local_cols(); c += nb) {
      const int w = std::min(nb, A.local_cols() - c);
      // Rows up to the end of this block column: its diagonal block and everything above.
      const int m = A.local_rows_before(A.global_col(c) + w) - lr1;
      blas::gemm('C', 'N', m, w, h, T(-1), rows.data(), h,
                 cols + static_cast<std::size_t>(c - lc1) * h, h, T(1), &A.local(lr1, c), ld);
    }
  }
  zero_outside(A, Triangle::upper);
}

#define TSEIG_INSTANTIATE(T) template void cholesky_upper<Device::host, T>(DistMatrix<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
