#pragma once
// ValidationReport: what the self-validation of a solve measured (tseig/validation.hpp
// computes it; Eigensolver::validation() returns the last one).
#include <string>

#include "tseig/export.hpp"

namespace tseig {

struct TSEIG_API ValidationReport {
  bool eigenvectors = false;  ///< residual and orthogonality were measured (false: values only)
  bool generalized = false;   ///< H z = λ S z: the measures below are the generalized ones
  /// max_i ‖A z_i − λ_i z_i‖₂ / (N ‖A‖₁); generalized: the largest normwise backward error
  /// ‖H z_i − λ_i S z_i‖₂ / ((‖H‖₁ + |λ_i| ‖S‖₁) ‖z_i‖₂) (tseig/accuracy.hpp). 0 if not measured.
  double residual = 0;
  /// ‖ZᴴZ − I‖_max; generalized ‖ZᴴSZ − I‖_max. 0 if not measured.
  double orthogonality = 0;
  /// Standard problem with nev = N: max(|Σλ_i − trace A| / N, |‖λ‖₂ − ‖A‖_F| / √N) / ‖A‖₁,
  /// a bound on how far the eigenvalues are from A's (relative to ‖A‖₁). 0 if not measured.
  double trace_error = 0;
  /// No eigenvalue below count_bound is missing from the returned ones (proved by a
  /// Cholesky factorization; with nev = N by the trace check or, with eigenvectors, by
  /// N orthonormal vectors with small residuals). False also when an eigenvalue is NaN or
  /// Inf. See tseig/validation.hpp.
  bool count_ok = true;
  /// False when no count could be established: a subset that does not start at the
  /// lowest eigenvalue (index_range with il > 1; in the solver, a value_range above it;
  /// in the public validate_* calls, any value_range whose vl is finite, since they do not
  /// know where the spectrum starts) or an empty one, since the eigenvalues below the
  /// subset are not at hand; count_ok is then vacuous.
  bool count_checked = true;
  double count_bound = 0;
  double tolerance = 0;  ///< residual, orthogonality and trace_error must not exceed it
  double seconds = 0;    ///< wall-clock time of the validation (slowest rank)

  bool passed() const {
    return residual <= tolerance && orthogonality <= tolerance && trace_error <= tolerance &&
           count_ok;
  }
  /// One line with every figure, e.g. for the message of Error(accuracy).
  std::string summary() const;
};

}  // namespace tseig
