// Deflation as in LAPACK ?laed2, with explicit lists instead of index juggling.
#include "dense/stages/divide_conquer/deflation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tseig::dense::dc {

template <class R>
Deflation<R> deflate(std::vector<R> d, std::vector<R> z, int m1, R beta) {
  const int m = static_cast<int>(d.size());
  Deflation<R> out;

  // beta·v·vᵀ with ‖v‖² = 2: normalise z and fold the sign of beta into z2.
  const R root_half = std::sqrt(R(0.5));
  for (int j = 0; j < m; ++j) z[j] *= (j >= m1 && beta < 0) ? -root_half : root_half;
  out.rho = 2 * std::abs(beta);

  // Both halves are ascending: merge their column numbers into one ascending order.
  std::vector<int> halves(m), order(m);
  std::iota(halves.begin(), halves.end(), 0);
  std::merge(halves.begin(), halves.begin() + m1, halves.begin() + m1, halves.end(), order.begin(),
             [&](int a, int b) { return d[a] < d[b]; });

  R dmax = 0, zmax = 0;
  for (int j = 0; j < m; ++j) {
    dmax = std::max(dmax, std::abs(d[j]));
    zmax = std::max(zmax, std::abs(z[j]));
  }
  const R tol = 8 * std::numeric_limits<R>::epsilon() * std::max(dmax, zmax);

  std::vector<int> deflated;
  int prev = -1;  // last column still in the secular equation, not yet final
  for (int nj : order) {
    if (out.rho * std::abs(z[nj]) <= tol) {
      deflated.push_back(nj);
      continue;
    }
    if (prev < 0) {
      prev = nj;
      continue;
    }
    // Close poles: a rotation zeroes z[prev]; the off-diagonal |t·c·s| it leaves is
    // below the tolerance.
    const R tau = std::hypot(z[nj], z[prev]);
    const R c = z[nj] / tau, s = -z[prev] / tau;
    const R t = d[nj] - d[prev];
    if (std::abs(t * c * s) <= tol) {
      z[nj] = tau;
      z[prev] = 0;
      out.rotations.push_back({prev, nj, c, s});
      const R dp = d[prev] * c * c + d[nj] * s * s;
      d[nj] = d[prev] * s * s + d[nj] * c * c;
      d[prev] = dp;
      deflated.push_back(prev);
    } else {
      out.lambda.push_back(d[prev]);
      out.z.push_back(z[prev]);
      out.column.push_back(prev);
    }
    prev = nj;
  }
  if (prev >= 0) {
    out.lambda.push_back(d[prev]);
    out.z.push_back(z[prev]);
    out.column.push_back(prev);
  }
  std::stable_sort(deflated.begin(), deflated.end(), [&](int a, int b) { return d[a] < d[b]; });
  for (int j : deflated) {
    out.deflated_value.push_back(d[j]);
    out.deflated_column.push_back(j);
  }
  return out;
}

template Deflation<float> deflate(std::vector<float>, std::vector<float>, int, float);
template Deflation<double> deflate(std::vector<double>, std::vector<double>, int, double);

}  // namespace tseig::dense::dc
