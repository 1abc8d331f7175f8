#pragma once
// The window filter of ChebFD: the Chebyshev series of the indicator function of
// [x_a, x_b] ⊂ [−1, 1], with θ = arccos x,
//   c_0 = (θ_a − θ_b)/π,  c_k = 2(sin kθ_a − sin kθ_b)/(kπ),
// times damping factors g_k (Jackson, or Lanczos σ = sinc(kπ/(N+1))² as in Pieper et al.).
#include <vector>

#include "tseig/sparse/chebfd.hpp"

namespace tseig::sparse::detail {

/// c_0 … c_degree of the damped window on the scaled interval [xa, xb] ⊂ [−1, 1].
std::vector<double> window_coefficients(double xa, double xb, int degree, Damping damping);

/// p(x) = Σ c_k T_k(x) at x ∈ [−1, 1], by the three-term recurrence.
double window_value(const std::vector<double>& c, double x);

/// Degree resolving a window of this width (xb − xa): the damped series' transition
/// width π/N a quarter of it, i.e. 4π/width (unrounded, for reports).
double resolving_degree(double width);

/// resolving_degree rounded up, for a width of at least 10⁻⁶; at least 8.
int window_degree(double xa, double xb);

/// A planned degree within the cap ChebfdOptions::max_degree (at least 8 unless the cap
/// is lower).
int capped_degree(int planned, int max_degree);

}  // namespace tseig::sparse::detail
