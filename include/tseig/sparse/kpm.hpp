#pragma once
// Kernel polynomial method (Weiße et al. 2006; Kreutzer et al.): Chebyshev moments
// μ_m = tr T_m(H̃) of the rescaled matrix H̃ = (A − c)/h, estimated with R random vectors
// processed as one block, then Jackson damping, the density of states and the number of
// eigenvalues in an interval with its stochastic error.
#include <cstdint>
#include <vector>

#include "tseig/export.hpp"
#include "tseig/sparse/matrix.hpp"

namespace tseig::sparse {

/// An interval that contains the spectrum.
struct SpectralBounds {
  double lower = 0, upper = 0;
};

/// Collective: bounds of the spectrum of the Hermitian matrix `a` from `steps` Lanczos
/// steps (random start, `seed`): the extreme Ritz values widened by their residual norms
/// and then by `margin` × the width on each side.
template <class T>
TSEIG_API SpectralBounds spectral_bounds(const Matrix<T>& a, int steps = 40, double margin = 0.02,
                                         std::uint64_t seed = 7);

struct KpmOptions {
  int moments = 256;       ///< M (even; an odd M is rounded up)
  int vectors = 16;        ///< R random vectors, one block
  std::uint64_t seed = 1;  ///< random vectors; the same for any rank count
  int lanczos_steps = 40;  ///< for the spectral bounds
  double margin = 0.02;    ///< safety margin of the bounds, relative to the width
};

/// The moments of one KPM run. per_vector[m·R + r] is ⟨r|T_m(H̃)|r⟩, whose mean over r
/// estimates tr T_m(H̃); H̃ = (A − center)/half_width.
struct KpmMoments {
  SpectralBounds bounds;
  double center = 0, half_width = 1;
  int moments = 0, vectors = 0;
  std::vector<double> per_vector;
  std::vector<double> mean;  ///< moments entries
};

/// Collective: M moments from R random vectors by aug_spmmv (two moments per product);
/// the dot products stay on each rank until one reduction at the end.
template <class T>
TSEIG_API KpmMoments kpm_moments(const Matrix<T>& a, const KpmOptions& options = {});

/// Jackson damping factors g_0 … g_{M−1}.
TSEIG_API std::vector<double> jackson_damping(int moments);

struct DensityOfStates {
  std::vector<double> energy;   ///< ascending
  std::vector<double> density;  ///< states per unit energy (integrates to the order n)
};

/// The Jackson-damped density of states at `points` Chebyshev nodes of the bounds.
TSEIG_API DensityOfStates density_of_states(const KpmMoments& m, int points);

struct EigenvalueCount {
  double count = 0;  ///< estimate of the number of eigenvalues in [lower, upper]
  double error = 0;  ///< its stochastic standard error (spread over the R vectors / √R)
};

/// Number of eigenvalues in [lower, upper] from the damped moments.
TSEIG_API EigenvalueCount eigenvalue_count(const KpmMoments& m, double lower, double upper);

}  // namespace tseig::sparse
