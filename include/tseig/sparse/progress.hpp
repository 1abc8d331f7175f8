#pragma once
// What an iterative sparse solver reports after each iteration (filter pass), for
// progress lines of long runs. The values agree on every rank.
#include <functional>

namespace tseig::sparse {

struct Progress {
  int iteration = 0;
  int converged = 0;            ///< pairs locked so far
  int unconverged = 0;          ///< wanted pairs still above the tolerance
  double largest_residual = 0;  ///< over the unconverged wanted pairs (0: none)
  int degree = 0;               ///< ChebFD: the filter degree of the next pass
  int space = 0;                ///< columns of the search space
  double seconds = 0;           ///< since the solver started
};

/// Called collectively on every rank after each iteration; empty: no reports.
using ProgressCallback = std::function<void(const Progress&)>;

}  // namespace tseig::sparse
