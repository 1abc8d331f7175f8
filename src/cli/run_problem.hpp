#pragma once
// One tseig-solve run: build or read A, solve, measure accuracy, write requested files.
#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "tseig/eigensolver.hpp"
#include "tseig/grid.hpp"

namespace tseig::cli {

struct RunResult {
  int n = 0;
  int nev = 0;
  std::vector<double> lowest;  ///< up to 10 lowest eigenvalues
  StageTimes times;            ///< Eigensolver::timings() of the solve
  GridShape grid_used;         ///< Eigensolver::last_grid(): where the solve ran
  TuneChoice choice;           ///< Eigensolver::last_choice(): what --solver auto picked, and why
  double wall_seconds = 0;     ///< barrier-to-barrier time of the solve call
  std::optional<double> residual, orthogonality;  ///< empty with --values-only
  bool generalized = false;  ///< residual and orthogonality are the generalized ones
  std::optional<ValidationReport> validation;  ///< with --validate
};

/// Collective over `grid`. Library failures arrive as tseig::Error on every rank.
template <class T>
RunResult run_problem(const Options& options, const Grid& grid);

}  // namespace tseig::cli
