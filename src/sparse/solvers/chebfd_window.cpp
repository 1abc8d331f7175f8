// Window coefficients and their damping (see chebfd_window.hpp).
#include "sparse/solvers/chebfd_window.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "tseig/sparse/kpm.hpp"

namespace tseig::sparse::detail {

std::vector<double> window_coefficients(double xa, double xb, int degree, Damping damping) {
  const double ta = std::acos(std::clamp(xa, -1.0, 1.0)), tb = std::acos(std::clamp(xb, -1.0, 1.0));
  const std::vector<double> jackson =
      damping == Damping::jackson ? jackson_damping(degree + 1) : std::vector<double>{};
  std::vector<double> c(degree + 1);
  c[0] = (ta - tb) / std::numbers::pi;
  for (int k = 1; k <= degree; ++k) {
    const double q = std::numbers::pi * k / (degree + 1);
    const double g = damping == Damping::jackson ? jackson[k] : std::pow(std::sin(q) / q, 2);
    c[k] = g * 2 * (std::sin(k * ta) - std::sin(k * tb)) / (k * std::numbers::pi);
  }
  return c;
}

double window_value(const std::vector<double>& c, double x) {
  double previous = 1, current = x, sum = c[0] + (c.size() > 1 ? c[1] * x : 0.0);
  for (std::size_t k = 2; k < c.size(); ++k) {
    const double next = 2 * x * current - previous;
    previous = current;
    current = next;
    sum += c[k] * current;
  }
  return sum;
}

double resolving_degree(double width) {
  return 4 * std::numbers::pi / width;
}

int window_degree(double xa, double xb) {
  return std::max(8, static_cast<int>(std::ceil(resolving_degree(std::max(xb - xa, 1e-6)))));
}

int capped_degree(int planned, int max_degree) {
  return std::clamp(planned, std::min(8, max_degree), max_degree);
}

}  // namespace tseig::sparse::detail
