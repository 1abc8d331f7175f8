#pragma once
// The stages a solve is timed in, named once: StageTimes, tseig-solve --json and the
// benchmarks' flop model all use these names.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tseig/export.hpp"

namespace tseig {

enum class Stage {
  redistribute,               ///< copies into and out of the working layout
  check_input,                ///< NaN/Inf and symmetry checks
  cholesky,                   ///< generalized: S = UᴴU
  invert_triangular,          ///< generalized: U⁻¹
  transform,                  ///< generalized: H → U⁻ᴴ H U⁻¹
  tridiagonalize,             ///< one_stage: full → tridiagonal
  reduce_to_band,             ///< two_stage: full → band
  bulge_chase,                ///< two_stage: band → tridiagonal
  tridiagonal_solve,          ///< divide & conquer
  backtransform,              ///< one_stage: tridiagonal → full
  backtransform_band,         ///< two_stage: tridiagonal → band
  backtransform_full,         ///< two_stage: band → full
  backtransform_generalized,  ///< generalized: Z = U⁻¹ Z̃
  scalapack_syevd,            ///< Solver::scalapack, real, with vectors
  scalapack_heevd,            ///< Solver::scalapack, complex, with vectors
  scalapack_syevr,            ///< Solver::scalapack, real, eigenvalues only
  scalapack_heevr,            ///< Solver::scalapack, complex, eigenvalues only
  validate,                   ///< EigensolverOptions::validate: the checks after the solve
};

/// The stage's name in timings and JSON ("tridiagonalize", "p?syevd", ...).
TSEIG_API const char* to_string(Stage stage);

/// The stage called `name`, or nothing.
TSEIG_API std::optional<Stage> stage_from_string(std::string_view name);

/// Wall-clock seconds of each stage of the last solve, in pipeline order.
struct TSEIG_API StageTimes {
  std::vector<std::pair<std::string, double>> stages;
  double total = 0;
  void add(Stage stage, double seconds);
  /// Appends (or adds to) every stage of `other`; total is left alone.
  void add(const StageTimes& other);
  double get(Stage stage) const;              ///< 0 if the stage did not run
  double get(const std::string& name) const;  ///< 0 if the stage did not run
};

}  // namespace tseig

/// The stage running now on the calling thread (its to_string name), or null outside
/// every stage. For profilers: the MPI counting layer (tools/comm_profile) attributes each
/// MPI call to it.
extern "C" TSEIG_API const char* tseig_current_stage(void);
