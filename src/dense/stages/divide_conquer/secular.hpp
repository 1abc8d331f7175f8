#pragma once
// Secular equation of one merge: its roots (the new eigenvalues) by LAPACK ?laed4, and
// its eigenvectors by the Löwner / Gu–Eisenstat formula, which recomputes z from the
// computed roots so that the vectors stay orthogonal however close the roots are
// (as LAPACK ?laed3). The roots are shared among the ranks of a merge.
#include <vector>

#include "core/buffer_cache.hpp"
#include "dense/stages/divide_conquer/deflation.hpp"

namespace tseig::dense::dc {

/// One rank's share of the roots.
template <class R>
struct SecularShare {
  std::vector<R> root;     ///< k entries: the roots this rank solved, 0 elsewhere
  std::vector<R> zprod;    ///< k partial Löwner products over this rank's roots (k > 2)
  std::vector<int> kept;   ///< this rank's roots whose eigenvectors are wanted, ascending
  cached_vector<R> delta;  ///< k × kept.size(): pole_i − root_j of each kept root
  bool failed = false;     ///< ?laed4 did not converge
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

/// Unit eigenvector of diag(λ) + rho·ẑẑᵀ for a root with differences delta (k entries)
/// into s: ẑ_i/delta_i normalised; for k ≤ 2 ?laed4 returns the vector in delta itself.
template <class R>
void secular_vector(int k, const R* zhat, const R* delta, R* s);

}  // namespace tseig::dense::dc
