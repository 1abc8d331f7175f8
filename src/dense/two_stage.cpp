// Two-stage solver pipeline; each stage is its own module:
//   reduce_to_band → bulge_chase → solve_tridiagonal → backtransform_band →
//   backtransform_householder (the band reduction's panels).
#include "dense/two_stage.hpp"

#include "core/instantiate.hpp"
#include "core/stage_timer.hpp"
#include "dense/stages/backtransform_band/api.hpp"
#include "dense/stages/backtransform_householder/api.hpp"
#include "dense/stages/bulge_chase/api.hpp"
#include "dense/stages/reduce_to_band/api.hpp"
#include "dense/tridiagonal_solve.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

int default_bandwidth(int nb, const TuneParameters& tune) {
  return std::max(1, (tune.bandwidth_target + nb - 1) / nb) * nb;
}

template <Device D, class T>
std::vector<real_t<T>> solve_two_stage(DistMatrix<T>& A, Wanted& wanted, int bandwidth,
                                       DistMatrix<T>* Z, const TuneParameters& tune,
                                       StageTimes& times) {
  const Grid& g = A.grid();
  const int n = A.n(), nb = A.nb();
  const int b = bandwidth > 0 ? bandwidth : default_bandwidth(nb, tune);
  raise_if_any(g.comm(), b % nb != 0, ErrorCode::invalid_argument,
               "bandwidth " + std::to_string(b) + " must be a multiple of the block size " +
                   std::to_string(nb));
  // A band wider than the matrix is the matrix itself.
  const int bw = std::min(b, std::max(n - 1, 1));

  // The stages without a CUDA variant yet (the bulge chase stays on the host by design)
  // run on the host with D = cuda too.
  std::vector<T> tau = timed(times, Stage::reduce_to_band, [&] { return reduce_to_band<D>(A, b); });
  BandReflectors<T> q = timed(times, Stage::bulge_chase, [&] {
    return bulge_chase(gather_band(A, bw), n, bw, g.comm(), Z != nullptr);
  });
  auto w = timed(times, Stage::tridiagonal_solve, [&] {
    return solve_tridiagonal<D, T>(g, std::move(q.d), std::move(q.e), wanted, Z, tune);
  });
  if (Z && wanted.count > 0) {
    const int nev = wanted.count;
    timed(times, Stage::backtransform_band,
          [&] { backtransform_band<D>(std::move(q), *Z, nev, tune); });
    timed(times, Stage::backtransform_full,
          [&] { backtransform_householder<D>(A, tau, b, *Z, nev, tune); });
  }
  return selected(std::move(w), wanted);
}

#define TSEIG_INSTANTIATE(T)                                                             \
  template std::vector<real_t<T>> solve_two_stage<Device::host, T>(                      \
      DistMatrix<T>&, Wanted&, int, DistMatrix<T>*, const TuneParameters&, StageTimes&); \
  template std::vector<real_t<T>> solve_two_stage<Device::cuda, T>(                      \
      DistMatrix<T>&, Wanted&, int, DistMatrix<T>*, const TuneParameters&, StageTimes&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
