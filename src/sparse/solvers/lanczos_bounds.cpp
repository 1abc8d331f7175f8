// Spectral bounds by a few Lanczos steps without reorthogonalization: extreme Ritz
// values converge first and never leave the spectrum; widening each by its residual
// norm β_k|s_k| and a relative margin gives the interval KPM and ChebFD rescale to
// (and the norm estimates of LOBPCG's criterion). Any operator, a matrix included.
// The start vector is uniform random, not ±1: a ±1 vector can be an eigenvector (the
// graphene cell's (1, 1), the 2-site Laplacian's), and the breakdown after one step
// then gave the bounds [3, 3] for the spectrum {−3, 3}. A continuous random vector has a
// component along every eigenvector, so a breakdown means the whole spectrum was found.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "core/require_each.hpp"
#include "sparse/dist/hermitian_check.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "sparse/solvers/lanczos_extremes.hpp"
#include "tseig/error.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/linear_operator.hpp"

namespace tseig::sparse {

namespace {

std::string out_of_range(const char* which, double size) {
  char text[240];
  std::snprintf(text, sizeof text,
                "spectral_bounds: the operator's entries are too %s (Lanczos sees a norm of "
                "about %.2g; the sparse solvers need 1e-140 .. 1e150, where their sums of "
                "squares neither under- nor overflow): scale the matrix",
                which, size);
  return text;
}

}  // namespace

namespace detail {

template <class T>
RitzExtremes lanczos_extremes(const LinearOperator<T>& a, int steps, std::uint64_t seed) {
  const VectorLayout layout = a.layout();
  MultiVector<T> q(layout, 1), previous(layout, 1), w(layout, 1);
  detail::fill_uniform(q, seed);
  axpby(T(0), q, T(1.0 / column_norms(q)[0]), q);
  std::vector<double> alpha, beta;  // beta[j]: coupling of q_j and q_{j+1}
  const int k_max = static_cast<int>(std::min<std::int64_t>(steps, a.rows()));
  for (int j = 0; j < k_max; ++j) {
    a.apply(q, w);
    alpha.push_back(std::real(column_dots(q, w)[0]));
    axpby(T(-alpha.back()), q, T(1), w);
    if (j > 0) axpby(T(-beta.back()), previous, T(1), w);
    beta.push_back(column_norms(w)[0]);
    // The dots are reduced over all ranks: every rank sees the same NaN and stops here.
    if (std::isfinite(alpha.back()) && std::isinf(beta.back()))
      throw Error(ErrorCode::invalid_argument, out_of_range("large", std::abs(alpha.back())));
    if (!std::isfinite(alpha.back()) || !std::isfinite(beta.back()))
      throw Error(ErrorCode::not_finite,
                  "spectral_bounds: the operator produced NaN or Inf (Lanczos step " +
                      std::to_string(j + 1) + ")");
    // Entries below 1e-154 square to nothing: β then reads 0, an invariant subspace
    // that is not there (and bounds of one point for a 1e-200 Laplacian); LOBPCG's
    // residuals, ~1e-8‖H‖, need ‖H‖ above about 1e-146.
    const double size = std::max(std::abs(alpha.back()), beta.back());
    if (size > 0 && size < 1e-140)
      throw Error(ErrorCode::invalid_argument, out_of_range("small", size));
    if (beta.back() <= 1e-12 * std::abs(alpha.back()) || beta.back() == 0) break;  // invariant
    previous.assign(q);
    axpby(T(1.0 / beta.back()), w, T(0), q);
  }
  const int k = static_cast<int>(alpha.size());
  std::vector<double> d = alpha, e(beta.begin(), beta.end() - 1),
                      z(static_cast<std::size_t>(k) * k);
  e.resize(std::max(k - 1, 1));
  if (lapack::stedc<double>('I', k, d.data(), e.data(), z.data(), k) != 0)
    throw Error(ErrorCode::numerical_failure, "spectral_bounds: tridiagonal eigensolver failed");
  const double last_beta = beta.back();
  return {d.front(), d.back(), last_beta * std::abs(z[k - 1]),
          last_beta * std::abs(z[static_cast<std::size_t>(k - 1) * k + k - 1])};
}

}  // namespace detail

template <class T>
SpectralBounds spectral_bounds(const LinearOperator<T>& a, int steps, double margin,
                               std::uint64_t seed) {
  require_each(a.comm(), "spectral_bounds",
               {{a.rows() > 0, "a matrix of at least one row"},
                {steps >= 1, "lanczos steps >= 1, not " + std::to_string(steps)},
                {margin >= 0, "margin >= 0, not " + shown(margin)}});
  const detail::RitzExtremes r = detail::lanczos_extremes(a, steps, seed);
  const double lower = r.lowest - r.lowest_residual, upper = r.highest + r.highest_residual;
  // A one-point spectrum (A = cI) still needs an interval of positive width, also when
  // rounding leaves a width of a few ulps (3I in complex double: 1.8e-15, and the
  // rescaled (A − c)/h then had rounding noise of order 1 and moments of 1e47).
  const double width = upper - lower, scale = std::max(std::abs(lower), std::abs(upper));
  const bool one_point = width <= 256 * std::numeric_limits<real_t<T>>::epsilon() * scale;
  const double pad = !one_point  ? margin * width
                     : scale > 0 ? scale * std::max(margin, 1e-3)
                                 : std::max(margin, 1e-3);  // the zero matrix
  return {lower - pad, upper + pad};
}

template <class T>
SpectralBounds spectral_bounds(const Matrix<T>& a, int steps, double margin, std::uint64_t seed) {
  require_hermitian(a, "spectral_bounds");
  return spectral_bounds(LinearOperator<T>(a), steps, margin, seed);
}

#define TSEIG_INSTANTIATE(T)                                                               \
  template detail::RitzExtremes detail::lanczos_extremes(const LinearOperator<T>&, int,    \
                                                         std::uint64_t);                   \
  template TSEIG_API SpectralBounds spectral_bounds(const LinearOperator<T>&, int, double, \
                                                    std::uint64_t);                        \
  template TSEIG_API SpectralBounds spectral_bounds(const Matrix<T>&, int, double, std::uint64_t);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
