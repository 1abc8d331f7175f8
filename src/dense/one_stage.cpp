// One-stage solver pipeline; each stage is its own module.
#include "dense/one_stage.hpp"

#include "core/instantiate.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/tridiagonalize/api.hpp"
#include "dense/tridiagonal_solve.hpp"

namespace tseig::dense {

template <Device D, class T>
std::vector<real_t<T>> solve_one_stage(DistMatrix<T>& A, int nev, DistMatrix<T>* Z,
                                       const TuneParameters& tune, StageTimes& times) {
  double t = MPI_Wtime();
  Tridiagonal<T> tri = tridiagonalize<D>(A);
  times.add("tridiagonalize", MPI_Wtime() - t);

  t = MPI_Wtime();
  auto w = solve_tridiagonal<D, T>(A.grid(), std::move(tri.d), std::move(tri.e), nev, Z, tune);
  times.add("tridiagonal_solve", MPI_Wtime() - t);

  if (Z) {
    t = MPI_Wtime();
    backtransform_householder<D>(A, tri.tau, 1, *Z, nev, tune);
    times.add("backtransform", MPI_Wtime() - t);
  }
  w.resize(nev);
  return w;
}

#define TSEIG_INSTANTIATE(T)                                        \
  template std::vector<real_t<T>> solve_one_stage<Device::host, T>( \
      DistMatrix<T>&, int, DistMatrix<T>*, const TuneParameters&, StageTimes&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
