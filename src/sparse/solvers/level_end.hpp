#pragma once
// Where the level cut by the k-th computed eigenvalue ends, so that a solver returns whole
// levels (any multiplicity) and no more. Each computed value of a Hermitian problem lies
// within its residual ‖Hx − θx‖/‖x‖ of an eigenvalue, so two values of one level are at most
// their two error bounds apart (twice that, and rounding, for safety). A width from the
// tolerance instead (10·tol·‖H‖) merged distinct levels in single precision, where tol is
// √ε: the 2D periodic Laplacian 40 × 38, LOBPCG's 3 smallest came back as 9 (two further
// levels, 0.0027 and 0.027 beyond the third), chebfd_nearest's 6 nearest of 12 × 10 as 14.
#include <cmath>

namespace tseig::sparse::detail {

/// k grown over the values (sorted from the wanted end, key(j) for j < n) that lie, within
/// their error bounds bound(j), at the k-th's; k itself when k = 0.
template <class Key, class Bound>
int level_end(int k, int n, Key key, Bound bound, double rounding) {
  int w = k;
  while (w > 0 && w < n &&
         std::abs(key(w) - key(k - 1)) <= 2 * (bound(w) + bound(k - 1)) + rounding)
    ++w;
  return w;
}

}  // namespace tseig::sparse::detail
