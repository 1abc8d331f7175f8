#pragma once
// Secular equation of one merge: its roots (the new eigenvalues) by LAPACK ?laed4, and
// its eigenvectors by the Löwner / Gu–Eisenstat formula, which recomputes z from the
// computed roots so that the vectors stay orthogonal however close the roots are
// (as LAPACK ?laed3). The roots are shared among the ranks of a merge.
#include <vector>

#include "dense/stages/divide_conquer/deflation.hpp"

namespace tseig::dense::dc {

/// One rank's share of the roots.
template <class R>
struct SecularShare {
  std::vector<R> root;    ///< k entries: the roots this rank solved, 0 elsewhere
  std::vector<R> zprod;   ///< k partial Löwner products over this rank's roots (k > 2)
  std::vector<int> kept;  ///< this rank's roots whose eigenvectors are wanted, ascending
  bool failed = false;    ///< ?laed4 did not converge
};

/// Solves the roots `mine` (ascending) of df. A root's eigenvector is wanted when its
/// eigenvalue's position among the merge's (deflated ones included) is in
/// [first, first + nout).
template <class R>
SecularShare<R> solve_secular(const Deflation<R>& df, const std::vector<int>& mine, int first,
                              int nout);

/// Number of deflated eigenvalues ≤ x (the merge's order puts those before a root x).
template <class R>
int deflated_not_above(const Deflation<R>& df, R x);

/// ẑ_i = sign(z_i)·√(−Π_j ...) from the product of all ranks' zprod (k > 2).
template <class R>
std::vector<R> lowner_z(const std::vector<R>& product, const std::vector<R>& z);

/// Unit eigenvector of diag(λ) + rho·ẑẑᵀ for root j into s (k entries): ẑ_i/delta_i
/// normalised, delta_i = pole_i − root_j from ?laed4 again (the same call solve_secular
/// made, so the same numbers; keeping them would hold k per root, as much memory as the
/// rank's block of eigenvectors, for < 1 % of the merge's flops); for k ≤ 2 ?laed4
/// returns the vector itself. `work`: k entries. False where ?laed4 fails.
template <class R>
bool secular_vector(const Deflation<R>& df, int j, const R* zhat, R* work, R* s);

}  // namespace tseig::dense::dc
