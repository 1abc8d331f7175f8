#pragma once
// Which converged Ritz pairs stand for an eigenvalue inside ChebFD's window. A Ritz
// value θ with residual ρ = ‖Hy − θy‖ is off by up to ρ²/δ (Kato–Temple; δ the distance
// to the rest of the spectrum), and by its own rounding, which is ρ's size once ρ is at
// rounding level: for the 8-fold eigenvalue 5 of a 10×10 periodic Laplacian, copies at
// 5 + 3.4·10⁻¹⁴ (19ε‖H‖) with ρ = 3.4·10⁻¹⁴. An eigenvalue on an edge must be returned
// whichever way those errors fall, so a pair counts as inside when its value lies
// within that bound of the window.
#include <algorithm>
#include <cmath>
#include <vector>

namespace tseig::sparse::detail {

/// max(ρ_j²/δ_j, min(ρ_j, rounding)), at most ρ_j (the bound without a gap). δ_j is
/// estimated by the other Ritz values k whose intervals [θ_k − ρ_k, θ_k + ρ_k] miss
/// θ_j's (those that meet it may be copies of one eigenvalue): |θ_j − θ_k| − ρ_k.
template <class R>
double eigenvalue_error_bound(const std::vector<R>& theta, const std::vector<double>& rho,
                              std::size_t j, double rounding) {
  double gap = 0;
  bool found = false;
  for (std::size_t k = 0; k < theta.size(); ++k) {
    const double d = std::abs(double(theta[j]) - double(theta[k]));
    if (k == j || d <= rho[j] + rho[k]) continue;
    gap = found ? std::min(gap, d - rho[k]) : d - rho[k];
    found = true;
  }
  const double kato_temple = found && gap > rho[j] ? rho[j] * rho[j] / gap : rho[j];
  return std::max(kato_temple, std::min(rho[j], rounding));
}

/// Whether θ lies within `bound` of [lower, upper].
inline bool near_window(double theta, double bound, double lower, double upper) {
  return theta + bound >= lower && theta - bound <= upper;
}

}  // namespace tseig::sparse::detail
