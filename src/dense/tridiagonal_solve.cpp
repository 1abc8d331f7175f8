// Tridiagonal eigensolver. Eigenvectors: ScaLAPACK's distributed divide & conquer
// (p?stedc) into an n×n block-cyclic matrix, of which the first nev columns are kept.
// Eigenvalues only: LAPACK ?stedc on every rank (O(n²)). Either way rank 0's values are
// broadcast so all ranks agree bit for bit.
#include "dense/tridiagonal_solve.hpp"

#include "core/instantiate.hpp"
#include "core/lapack.hpp"
#include "core/mpi_types.hpp"
#include "core/scalapack.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
std::vector<real_t<T>> solve_tridiagonal(const Grid& grid, std::vector<real_t<T>> d,
                                         std::vector<real_t<T>> e, int nev, DistMatrix<T>* Z) {
  using R = real_t<T>;
  const int n = static_cast<int>(d.size());
  e.resize(std::max(n, 1));
  if (n == 0) return d;
  if (!Z) {
    int info = lapack::stedc<R>('N', n, d.data(), e.data(), nullptr, 1);
    raise_if_any(grid.comm(), info != 0, ErrorCode::numerical_failure,
                 "tridiagonal eigensolver (?stedc) failed with info = " + std::to_string(info));
    MPI_Bcast(d.data(), n, mpi_type<R>(), 0, grid.comm());
    return d;
  }
  // p?stedc wants square blocks starting on process (0, 0).
  DistMatrix<R> Q(grid, n, n, Z->mb(), Z->mb());
  int info = 0;
  collectively(grid.comm(),
               [&] { info = scalapack::pstedc<R>(n, d.data(), e.data(), Q.data(), Q.desc()); });
  raise_if_any(grid.comm(), info != 0, ErrorCode::numerical_failure,
               "tridiagonal eigensolver (p?stedc) failed with info = " + std::to_string(info));
  // Ranks that own no part of Q (N < NB) may hold unsorted values; process (0, 0) is right.
  MPI_Bcast(d.data(), n, mpi_type<R>(), 0, grid.comm());
  if constexpr (is_complex_v<T>) {
    DistMatrix<R> Qz(grid, n, Z->n(), Z->mb(), Z->nb(), Z->rsrc(), Z->csrc());
    Qz.copy_from(Q, nev);
    for (int lj = 0; lj < Z->local_cols_before(nev); ++lj)
      for (int li = 0; li < Z->local_rows(); ++li) Z->local(li, lj) = T(Qz.local(li, lj));
  } else {
    Z->copy_from(Q, nev);
  }
  return d;
}

#define TSEIG_INSTANTIATE(T)                                                             \
  template std::vector<real_t<T>> solve_tridiagonal(const Grid&, std::vector<real_t<T>>, \
                                                    std::vector<real_t<T>>, int, DistMatrix<T>*);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
