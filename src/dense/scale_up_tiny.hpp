#pragma once
// A matrix whose entries all lie far below the normal range is solved scaled up, as
// LAPACK's ?syev does: subnormal numbers carry few significant bits, and the stages'
// products of them lost all accuracy (a random matrix times 1e-320: eigenvalue errors of
// 6e10·Nε‖A‖ in one_stage and two_stage).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/mpi_types.hpp"
#include "tseig/matrix.hpp"
#include "tseig/types.hpp"

namespace tseig::dense {

/// x·2^k, exactly wherever the result is a normal number.
template <class T>
T times_power_of_two(T x, int k) {
  if constexpr (is_complex_v<T>)
    return T(std::ldexp(x.real(), k), std::ldexp(x.imag(), k));
  else
    return std::ldexp(x, k);
}

/// f(A(i, j)) for every local entry of A's lower triangle (i >= j).
template <class T, class F>
void for_each_lower(DistMatrix<T>& A, F&& f) {
  for (int lj = 0; lj < A.local_cols(); ++lj) {
    const int gj = A.global_col(lj);
    for (int li = 0; li < A.local_rows(); ++li)
      if (A.global_row(li) >= gj) f(A.local(li, lj));
  }
}

/// Collective. Multiplies the lower triangle of A by 2^k and returns k: 0 unless A's
/// largest entry there lies below √(safmin/ε) (LAPACK's threshold), else the k that
/// brings it into [1, 2). The eigenvalues of the scaled matrix are 2^k times A's.
template <class T>
int scale_up_tiny(DistMatrix<T>& A) {
  using R = real_t<T>;
  R amax = 0;
  for_each_lower(A, [&](const T& x) { amax = std::max(amax, R(std::abs(x))); });
  MPI_Allreduce(MPI_IN_PLACE, &amax, 1, mpi_type<R>(), MPI_MAX, A.grid().comm());
  const R threshold = std::sqrt(std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon());
  if (!(amax > 0 && amax < threshold)) return 0;
  const int k = -std::ilogb(amax);
  for_each_lower(A, [&](T& x) { x = times_power_of_two(x, k); });
  return k;
}

}  // namespace tseig::dense
