#pragma once
// The extreme Ritz values of a few Lanczos steps, for spectral_bounds (which widens
// them into bounds) and for LOBPCG's check that S is positive definite (a Ritz value is
// a Rayleigh quotient: one below zero shows a direction of negative S-norm).
#include <cstdint>

#include "tseig/sparse/linear_operator.hpp"

namespace tseig::sparse::detail {

struct RitzExtremes {
  double lowest = 0, highest = 0;  ///< the extreme Ritz values
  /// Their residual norms β_k|s_k|: each Ritz value is that close to an eigenvalue.
  double lowest_residual = 0, highest_residual = 0;
};

/// Collective: `steps` >= 1 Lanczos steps on a non-empty operator from a uniform random
/// start (`seed`), without reorthogonalization. Error(invalid_argument) for entries too
/// small or large; Error(not_finite) when the operator gives NaN or Inf.
template <class T>
RitzExtremes lanczos_extremes(const LinearOperator<T>& a, int steps, std::uint64_t seed);

}  // namespace tseig::sparse::detail
