// ChebFD's filter plan (see chebfd_plan.hpp).
#include "sparse/solvers/chebfd_plan.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <vector>

#include "sparse/solvers/chebfd_window.hpp"

namespace tseig::sparse::detail {

namespace {

constexpr int grid_cells = 1024;  // uniform in θ = arccos x: fine where the DOS is

/// |p| at the centres of the θ cells and at x_a, x_b (the last two entries).
std::vector<double> filter_values(const std::vector<double>& c, const std::vector<double>& x) {
  std::vector<double> p(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) p[i] = std::abs(window_value(c, x[i]));
  return p;
}

}  // namespace

FilterPlan plan_filter(const KpmMoments& kpm, const FilterPlanRequest& r) {
  const double xa = (r.lower - kpm.center) / kpm.half_width;
  const double xb = (r.upper - kpm.center) / kpm.half_width;
  // Eigenvalues per θ cell from the KPM density (Gibbs undershoots clipped at zero).
  std::vector<double> x(grid_cells + 2), cells(grid_cells);
  for (int i = 0; i < grid_cells; ++i) {
    const double t0 = std::numbers::pi * i / grid_cells,
                 t1 = std::numbers::pi * (i + 1) / grid_cells;
    x[i] = std::cos((t0 + t1) / 2);
    const double e0 = kpm.center + kpm.half_width * std::cos(t1);
    const double e1 = kpm.center + kpm.half_width * std::cos(t0);
    cells[i] = std::max(0.0, eigenvalue_count(kpm, e0, e1).count);
  }
  x[grid_cells] = xa;
  x[grid_cells + 1] = xb;
  const double count = std::max(r.count, 1.0);

  std::vector<int> degrees;
  if (r.degree > 0) {
    degrees.push_back(r.degree);
  } else {
    // From a quarter of the resolving degree up to 4096 (or that start), within the cap.
    const int first = capped_degree(window_degree(xa, xb) / 4, r.max_degree);
    const int last = std::min(r.max_degree, std::max(4096, first));
    for (double d = first; d <= last; d *= 1.25) degrees.push_back(static_cast<int>(d));
  }
  std::vector<double> factors;
  if (r.search_factor > 0)
    factors.push_back(r.search_factor);
  else
    factors = {1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 6.0};

  FilterPlan best;
  double best_work = INFINITY;
  std::vector<int> order(grid_cells);
  for (int degree : degrees) {
    const std::vector<double> p = filter_values(window_coefficients(xa, xb, degree, r.damping), x);
    const double p_in = std::min(p[grid_cells], p[grid_cells + 1]);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int i, int j) { return p[i] > p[j]; });
    for (double f : factors) {
      const std::int64_t want = static_cast<std::int64_t>(std::ceil(f * count)) + 2;
      const int space = static_cast<int>(
          std::min<std::int64_t>((want + r.block - 1) / r.block * r.block, r.rows));
      // τ: the filter value where the cells, largest |p| first, hold more than the space.
      double held = 0, tau = 0;
      for (int i : order) {
        held += cells[i];
        if (held > space) {
          tau = p[i];
          break;
        }
      }
      const double rate = space >= r.rows ? 0.0 : tau / p_in;
      if (!(rate < 0.9)) continue;
      const double passes = 1 + (rate > 0 ? std::ceil(std::log(r.tol) / std::log(rate)) : 1.0);
      const double dense = 2.0 * space / r.nonzeros_per_row;  // per column and pass
      const double work = passes * space * (degree + dense);
      if (work < best_work) {
        best_work = work;
        best = {degree, space, rate};
      }
    }
  }
  if (best.degree == 0) {  // nothing converges by the model: the sharpest, largest plan
    const double f = factors.back();
    const std::int64_t want = static_cast<std::int64_t>(std::ceil(f * count)) + 2;
    best = {
        degrees.back(),
        static_cast<int>(std::min<std::int64_t>((want + r.block - 1) / r.block * r.block, r.rows)),
        0.9};
  }
  return best;
}

}  // namespace tseig::sparse::detail
