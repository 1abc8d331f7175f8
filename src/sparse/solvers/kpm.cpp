// KPM moments. With v_0 the random block and v_{m+1} = 2H̃v_m − v_{m−1}, one aug_spmmv
// per step yields ⟨v_m, v_m⟩ and ⟨v_{m+1}, v_m⟩, hence two moments:
//   μ_{2m} = 2⟨v_m, v_m⟩ − μ_0,  μ_{2m+1} = 2⟨v_{m+1}, v_m⟩ − μ_1.
// The per-rank dot products of all steps are summed over the ranks once, at the end.
#include <algorithm>
#include <string>
#include <utility>

#include "core/instantiate.hpp"
#include "core/require_each.hpp"
#include "sparse/dist/hermitian_check.hpp"
#include "sparse/solvers/agree.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"

namespace tseig::sparse {

template <class T>
KpmMoments kpm_moments(const Matrix<T>& a, const KpmOptions& options) {
  std::vector<int> values{options.moments, options.vectors, options.lanczos_steps};
  append_bits(values, options.margin);
  append_bits(values, static_cast<double>(options.seed));
  require_same_options(a.comm(), values, "kpm_moments");
  require_each(a.comm(), "kpm_moments",
               {{a.rows() > 0, "a matrix of at least one row"},
                {options.moments >= 2, "moments >= 2, not " + std::to_string(options.moments)},
                {options.vectors >= 1, "vectors >= 1, not " + std::to_string(options.vectors)}});
  require_hermitian(a, "kpm_moments");
  KpmMoments out;
  out.bounds = spectral_bounds(a, options.lanczos_steps, options.margin, options.seed + 1);
  out.center = (out.bounds.upper + out.bounds.lower) / 2;
  out.half_width = (out.bounds.upper - out.bounds.lower) / 2;
  const int steps = (options.moments + 1) / 2, r = options.vectors;
  out.moments = 2 * steps;
  out.vectors = r;

  const VectorLayout layout = a.vector_layout();
  MultiVector<T> v(layout, r), next(layout, r);
  v.fill_random(options.seed);
  // dots[2m·R + j], dots[(2m+1)·R + j]: this rank's ⟨v_m, v_m⟩ and ⟨v_{m+1}, v_m⟩.
  std::vector<T> dots(static_cast<std::size_t>(out.moments) * r);
  const T scale = T(1 / out.half_width), center = T(out.center);
  auto step = [&](int m, T alpha, T gamma) {
    aug_spmmv(a, alpha, center, v, gamma, next, std::span<T>(dots.data() + 2 * m * r, r),
              std::span<T>(dots.data() + (2 * m + 1) * r, r));
    std::swap(v, next);
  };
  step(0, scale, T(0));
  for (int m = 1; m < steps; ++m) step(m, T(2) * scale, T(-1));
  sum_over_ranks(a.comm(), std::span<T>(dots));

  out.per_vector.resize(dots.size());
  out.mean.assign(out.moments, 0.0);
  for (int m = 0; m < out.moments; ++m)
    for (int j = 0; j < r; ++j) {
      const double d = std::real(dots[static_cast<std::size_t>(m) * r + j]);
      const double mu = m < 2 ? d : 2 * d - out.per_vector[static_cast<std::size_t>(m % 2) * r + j];
      out.per_vector[static_cast<std::size_t>(m) * r + j] = mu;
      out.mean[m] += mu / r;
    }
  return out;
}

#define TSEIG_INSTANTIATE(T) \
  template TSEIG_API KpmMoments kpm_moments(const Matrix<T>&, const KpmOptions&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
