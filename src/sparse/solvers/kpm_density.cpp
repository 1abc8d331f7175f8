// From moments to answers: Jackson damping, the density of states
//   ρ(x) = [g_0μ_0 + 2Σ_{m≥1} g_mμ_m T_m(x)] / (π√(1 − x²)),
// and its integral over [x_a, x_b] with θ = arccos x:
//   N = [g_0μ_0(θ_a − θ_b) + 2Σ_{m≥1} g_mμ_m (sin mθ_a − sin mθ_b)/m] / π.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "tseig/error.hpp"
#include "tseig/sparse/kpm.hpp"

namespace tseig::sparse {

namespace {

/// Σ_m g_m μ_m w_m for the moments `mu` (stride `stride` from `first`).
template <class W>
double damped_sum(const std::vector<double>& g, const std::vector<double>& mu, std::size_t first,
                  std::size_t stride, W weight) {
  double s = 0;
  for (std::size_t m = 0; m < g.size(); ++m) s += g[m] * mu[first + m * stride] * weight(m);
  return s;
}

}  // namespace

std::vector<double> jackson_damping(int moments) {
  const double n = moments + 1.0, q = std::numbers::pi / n;
  std::vector<double> g(std::max(moments, 0));
  for (int m = 0; m < moments; ++m)
    g[m] = ((n - m) * std::cos(q * m) + std::sin(q * m) / std::tan(q)) / n;
  return g;
}

DensityOfStates density_of_states(const KpmMoments& k, int points) {
  if (points < 1) throw Error(ErrorCode::invalid_argument, "density_of_states: points < 1");
  const std::vector<double> g = jackson_damping(k.moments);
  DensityOfStates dos;
  for (int p = points - 1; p >= 0; --p) {
    const double theta = std::numbers::pi * (p + 0.5) / points, x = std::cos(theta);
    const double s = damped_sum(g, k.mean, 0, 1, [&](std::size_t m) {
      return (m == 0 ? 1.0 : 2.0) * std::cos(static_cast<double>(m) * theta);
    });
    dos.energy.push_back(k.center + k.half_width * x);
    dos.density.push_back(s / (std::numbers::pi * std::sin(theta) * k.half_width));
  }
  return dos;
}

EigenvalueCount eigenvalue_count(const KpmMoments& k, double lower, double upper) {
  if (!(lower <= upper))
    throw Error(ErrorCode::invalid_argument, "eigenvalue_count: need lower <= upper, got [" +
                                                 std::to_string(lower) + ", " +
                                                 std::to_string(upper) + "]");
  const std::vector<double> g = jackson_damping(k.moments);
  auto angle = [&](double e) {
    return std::acos(std::clamp((e - k.center) / k.half_width, -1.0, 1.0));
  };
  const double ta = angle(lower), tb = angle(upper);
  auto weight = [&](std::size_t m) {
    if (m == 0) return ta - tb;
    const double md = static_cast<double>(m);
    return 2 * (std::sin(md * ta) - std::sin(md * tb)) / md;
  };
  // One estimate per random vector: their mean is the count, their spread its error.
  std::vector<double> per(k.vectors);
  for (int r = 0; r < k.vectors; ++r)
    per[r] = damped_sum(g, k.per_vector, r, k.vectors, weight) / std::numbers::pi;
  EigenvalueCount c;
  for (double v : per) c.count += v / k.vectors;
  double var = 0;
  for (double v : per) var += (v - c.count) * (v - c.count);
  c.error = k.vectors > 1 ? std::sqrt(var / (k.vectors - 1) / k.vectors)
                          : std::numeric_limits<double>::infinity();
  return c;
}

}  // namespace tseig::sparse
