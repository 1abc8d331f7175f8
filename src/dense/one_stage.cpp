// One-stage solver pipeline; each stage is its own module.
#include "dense/one_stage.hpp"

#include "core/instantiate.hpp"
#include "core/stage_timer.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/tridiagonalize/api.hpp"
#include "dense/tridiagonal_solve.hpp"

namespace tseig::dense {

template <Device D, class T>
std::vector<real_t<T>> solve_one_stage(DistMatrix<T>& A, Wanted& wanted, DistMatrix<T>* Z,
                                       const TuneParameters& tune, StageTimes& times) {
  // The stages without a CUDA variant yet run on the host with D = cuda too.
  Tridiagonal<T> tri =
      timed(times, Stage::tridiagonalize, [&] { return tridiagonalize<Device::host>(A); });
  auto w = timed(times, Stage::tridiagonal_solve, [&] {
    return solve_tridiagonal<D, T>(A.grid(), std::move(tri.d), std::move(tri.e), wanted, Z, tune);
  });
  if (Z && wanted.count > 0)
    timed(times, Stage::backtransform,
          [&] { backtransform_householder<D>(A, tri.tau, 1, *Z, wanted.count, tune); });
  return selected(std::move(w), wanted);
}

#define TSEIG_INSTANTIATE(T)                                                        \
  template std::vector<real_t<T>> solve_one_stage<Device::host, T>(                 \
      DistMatrix<T>&, Wanted&, DistMatrix<T>*, const TuneParameters&, StageTimes&); \
  template std::vector<real_t<T>> solve_one_stage<Device::cuda, T>(                 \
      DistMatrix<T>&, Wanted&, DistMatrix<T>*, const TuneParameters&, StageTimes&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
