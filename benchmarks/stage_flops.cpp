#include "stage_flops.hpp"

#include "tseig/stage_times.hpp"

namespace tseig::bench {

std::optional<double> stage_flops(const std::string& stage, char type, int n, int nev, int b) {
  const double N = n, K = nev, B = b;
  const double complex_factor = type == 'z' || type == 'c' ? 4.0 : 1.0;
  // cuSOLVER's solve, counted as tseig's one_stage is: tridiagonalization and
  // back-transform, not the tridiagonal solve.
  if (stage == "cusolver_solve") return (4.0 / 3.0 * N * N * N + 2.0 * N * N * K) * complex_factor;
  const std::optional<Stage> s = stage_from_string(stage);
  if (!s) return std::nullopt;
  double f = 0;
  switch (*s) {
    case Stage::tridiagonalize:
    case Stage::reduce_to_band:
      f = 4.0 / 3.0 * N * N * N;  // two-sided update of the Hermitian trailing matrices
      break;
    case Stage::bulge_chase:
      f = 6.0 * N * N * B;  // ≈ N²/(2b) steps of ≈ 12 b² each
      break;
    case Stage::backtransform:
    case Stage::backtransform_band:
    case Stage::backtransform_full:
      f = 2.0 * N * N * K;  // N²/2 reflector entries applied to nev columns
      break;
    default:
      return std::nullopt;
  }
  return f * complex_factor;
}

}  // namespace tseig::bench
