// LAPACK reference row of dense_bench: what one node does without MPI. Rank 0 solves
// the gathered matrix with as many BLAS threads as the environment allows.
#include <mpi.h>

#include <complex>

#include "core/blas/host.hpp"
#include "core/mpi_types.hpp"
#include "runners.hpp"
#include "tseig/error.hpp"

namespace tseig::bench {

template <class T>
Solution<T> solve_lapack(const DistMatrix<T>& A) {
  using R = real_t<T>;
  const Grid& grid = A.grid();
  const int n = A.n();
  std::vector<T> full = A.gather(0);
  Solution<T> s{std::vector<R>(n), DistMatrix<T>::like(A), 0, {}};
  int info = 0;
  if (grid.rank() == 0) {
    double start = MPI_Wtime();
    info = lapack::heevd<T, R>('V', 'L', n, full.data(), n, s.w.data());
    s.seconds = MPI_Wtime() - start;
  }
  MPI_Bcast(&info, 1, MPI_INT, 0, grid.comm());
  if (info != 0) throw Error(ErrorCode::numerical_failure, "?heevd info " + std::to_string(info));
  MPI_Bcast(&s.seconds, 1, MPI_DOUBLE, 0, grid.comm());
  MPI_Bcast(s.w.data(), n, mpi_type<R>(), 0, grid.comm());
  s.Z.scatter(full.data(), 0);
  return s;
}

template Solution<float> solve_lapack(const DistMatrix<float>&);
template Solution<double> solve_lapack(const DistMatrix<double>&);
template Solution<std::complex<float>> solve_lapack(const DistMatrix<std::complex<float>>&);
template Solution<std::complex<double>> solve_lapack(const DistMatrix<std::complex<double>>&);

}  // namespace tseig::bench
