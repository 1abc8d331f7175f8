// Distributed blocked inverse X = U⁻¹ of an upper triangular U, in place, from the last
// block to the first. Before block k is processed, the rows above it hold the pending
// products P(i, j) = U(i, k+1:) X(k+1:, j); block k then gives
//   X(k, k) = U(k, k)⁻¹ (LAPACK ?trtri),  X(k, j) = −X(k, k) P(k, j)  (j > k),
//   P(i, j) += U(i, k) X(k, j)  (i < k < j),  P(i, k) = U(i, k) X(k, k)  (i < k),
// so every update is a rank-nb GEMM between a block column broadcast along the process
// rows and a block row broadcast down the process columns, without transposes.
#include <algorithm>
#include <string>
#include <vector>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/linalg/invert_triangular/api.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <Device D, class T>
void invert_upper(DistMatrix<T>& A) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb(), ld = A.lld();
  const int nprow = g.nprow(), npcol = g.npcol();
  std::vector<T> tile, column, row;
  const int nblocks = (n + nb - 1) / nb;
  for (int kb = nblocks - 1; kb >= 0; --kb) {
    const int k0 = kb * nb, h = std::min(nb, n - k0), k1 = k0 + h;
    const int pk = kb % nprow, qk = kb % npcol;
    const bool in_row = g.myrow() == pk, in_col = g.mycol() == qk;
    const int lr0 = A.local_rows_before(k0), lc1 = A.local_cols_before(k1);
    const int ncols = A.local_cols() - lc1;

    // X(k, k) and ?trtri's info, to the process row and the process column of block k.
    tile.assign(static_cast<std::size_t>(h) * h + 1, T(0));
    if (in_row && in_col) {
      T* a = &A.local(A.local_row(k0), A.local_col(k0));
      const int info = lapack::trtri('U', h, a, ld);
      for (int j = 0; j < h; ++j) std::copy_n(a + static_cast<long>(j) * ld, h, &tile[j * h]);
      tile[h * h] = T(static_cast<real_t<T>>(info));
    }
    if (in_row && npcol > 1) MPI_Bcast(tile.data(), h * h + 1, mpi_type<T>(), qk, g.row_comm());
    if (in_col && nprow > 1) MPI_Bcast(tile.data(), h * h + 1, mpi_type<T>(), pk, g.col_comm());

    // column = [info, U(0:k0, k) on my rows]: along my process row from process column qk;
    // row = [info, X(k, k1:n) on my columns]: down my process column from process row pk.
    // Every rank is in one of those broadcasts' receiving ends, so all learn the info.
    column.assign(1 + static_cast<std::size_t>(lr0) * h, T(0));
    row.assign(1 + static_cast<std::size_t>(h) * ncols, T(0));
    if (in_col) {
      column[0] = tile[h * h];
      const int lck = A.local_col(k0);
      for (int j = 0; j < h; ++j)
        std::copy_n(&A.local(0, lck + j), lr0, &column[1 + static_cast<std::size_t>(j) * lr0]);
    }
    if (in_row) {
      row[0] = tile[h * h];
      T* p = &A.local(A.local_row(k0), lc1);
      blas::trmm('L', 'U', 'N', 'N', h, ncols, T(-1), tile.data(), h, p, ld);
      for (int j = 0; j < ncols; ++j)
        std::copy_n(p + static_cast<long>(j) * ld, h, &row[1 + static_cast<std::size_t>(j) * h]);
    }
    if (npcol > 1)
      MPI_Bcast(column.data(), static_cast<int>(column.size()), mpi_type<T>(), qk, g.row_comm());
    if (nprow > 1)
      MPI_Bcast(row.data(), static_cast<int>(row.size()), mpi_type<T>(), pk, g.col_comm());
    const int info = static_cast<int>(std::real(in_col ? column[0] : row[0]));
    if (info != 0)
      throw Error(ErrorCode::numerical_failure,
                  "invert_triangular: the matrix is singular (diagonal element " +
                      std::to_string(k0 + info) + " is zero)");

    blas::gemm('N', 'N', lr0, ncols, h, T(1), column.data() + 1, std::max(lr0, 1), row.data() + 1,
               h, T(1), &A.local(0, lc1), ld);
    if (in_col) {
      const int lck = A.local_col(k0);
      blas::trmm('R', 'U', 'N', 'N', lr0, h, T(1), tile.data(), h, &A.local(0, lck), ld);
      if (in_row) {
        T* a = &A.local(A.local_row(k0), lck);
        for (int j = 0; j < h; ++j) std::copy_n(&tile[j * h], h, a + static_cast<long>(j) * ld);
      }
    }
  }
  zero_outside(A, Triangle::upper);
}

#define TSEIG_INSTANTIATE(T) template void invert_upper<Device::host, T>(DistMatrix<T>&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
