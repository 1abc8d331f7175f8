#pragma once
// The filter plan of ChebFD: polynomial degree and search-space size chosen from the KPM
// density of states, by the cost model of Pieper et al. (2016, section 3): a filter pass
// shrinks the unwanted components of a wanted vector by ρ = τ / p_in, where p_in is the
// smallest filter value on [a, b] (at its edges) and τ the largest filter value of an
// eigenvector the space cannot hold (the (N_S + 1)-th largest |p(λ)|, counted with the
// DOS). Passes ≈ log(tol) / log ρ; work ≈ passes · N_S · (degree + the orthogonalization
// and Rayleigh–Ritz work per column, in units of one sparse product).
#include <cstdint>

#include "tseig/sparse/chebfd.hpp"
#include "tseig/sparse/kpm.hpp"

namespace tseig::sparse::detail {

struct FilterPlan {
  int degree = 0;
  int space = 0;
  double rate = 1;  ///< predicted ρ per pass
};

struct FilterPlanRequest {
  double lower = 0, upper = 0;  ///< the window, in energies inside the KPM bounds
  double count = 0;             ///< KPM estimate of the eigenvalues in it
  double tol = 1e-8;
  int block = 1;                ///< the space is a multiple of it
  std::int64_t rows = 0;        ///< order of the matrix
  double nonzeros_per_row = 1;  ///< cost of a product relative to the dense block work
  int degree = 0;               ///< fixed degree (0: planned)
  int max_degree = 10000;       ///< the most a planned degree may reach
  double search_factor = 0;     ///< fixed space / count (0: planned)
  Damping damping = Damping::jackson;
};

/// The cheapest (degree, space) by the model; a fixed degree or search factor is kept.
FilterPlan plan_filter(const KpmMoments& kpm, const FilterPlanRequest& request);

}  // namespace tseig::sparse::detail
