// Tridiagonal eigensolver: LAPACK ?stedc (divide & conquer) on every rank; each rank
// copies its block-cyclic part of the eigenvectors. Rank 0's eigenvalues are broadcast
// so all ranks agree bit for bit.
#include "dense/tridiagonal_solve.hpp"

#include "core/lapack.hpp"
#include "core/mpi_types.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
std::vector<real_t<T>> solve_tridiagonal(const Grid& grid, std::vector<real_t<T>> d,
                                         std::vector<real_t<T>> e, int nev, DistMatrix<T>* Z) {
  using R = real_t<T>;
  const int n = static_cast<int>(d.size());
  std::vector<R> X;
  e.resize(std::max(n, 1));
  // Any failure (workspace allocation included) is raised on every rank.
  collectively(grid.comm(), [&] {
    if (n == 0) return;
    int info = 0;
    if (Z) {
      X.assign(static_cast<std::size_t>(n) * n, R(0));
      info = lapack::stedc<R>('I', n, d.data(), e.data(), X.data(), n);
    } else {
      info = lapack::stedc<R>('N', n, d.data(), e.data(), nullptr, 1);
    }
    if (info != 0)
      throw Error(ErrorCode::numerical_failure,
                  "tridiagonal eigensolver (?stedc) failed with info = " + std::to_string(info));
  });
  MPI_Bcast(d.data(), n, mpi_type<R>(), 0, grid.comm());
  if (Z) {
    for (int lj = 0; lj < Z->local_cols_before(nev); ++lj) {
      const R* x = X.data() + static_cast<std::size_t>(Z->global_col(lj)) * n;
      for (int li = 0; li < Z->local_rows(); ++li) Z->local(li, lj) = T(x[Z->global_row(li)]);
    }
  }
  return d;
}

template std::vector<float> solve_tridiagonal(const Grid&, std::vector<float>,
                                              std::vector<float>, int, DistMatrix<float>*);
template std::vector<double> solve_tridiagonal(const Grid&, std::vector<double>,
                                               std::vector<double>, int, DistMatrix<double>*);
template std::vector<float> solve_tridiagonal(const Grid&, std::vector<float>,
                                              std::vector<float>, int,
                                              DistMatrix<std::complex<float>>*);
template std::vector<double> solve_tridiagonal(const Grid&, std::vector<double>,
                                               std::vector<double>, int,
                                               DistMatrix<std::complex<double>>*);

}  // namespace tseig::dense
