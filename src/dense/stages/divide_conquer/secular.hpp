#pragma once
// Secular equation of one merge: its roots (the new eigenvalues) by LAPACK ?laed4, and
// its eigenvectors by the Löwner / Gu–Eisenstat formula, which recomputes z from the
// computed roots so that the vectors stay orthogonal however close the roots are
// (as LAPACK ?laed3). The roots are shared among the ranks of a merge.
#include <vector>

#include "dense/stages/divide_conquer/deflation.hpp"

namespace tseig::dense::dc {

/// One rank's share of the roots. A root is pole_o + tau with o its nearer pole (the
/// origin ?laed4 measures it from); given o and tau every rank forms any entry of the
/// root's eigenvector itself, so only these k numbers per root travel.
template <class R>
struct SecularShare {
  std::vector<R> root;    ///< k entries: the roots this rank solved, 0 elsewhere
  std::vector<R> tau;     ///< k entries: their offsets from their origin poles (k > 2)
  std::vector<R> origin;  ///< k entries: their origin poles' indices, as R (k > 2)
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

/// pole_i − root for the root pole_o + tau, to high relative accuracy as ?laed4 forms it:
/// the pole difference is exact or nearly, and |tau| is at most half the gap to the other
/// pole around the root, so subtracting it cancels nothing.
template <class R>
R secular_delta(const Deflation<R>& df, int i, int o, R tau) {
  return (df.lambda[i] - df.lambda[o]) - tau;
}

/// 1/‖(ẑ_i / delta_i)_i‖ for the root pole_o + tau: the unit eigenvector of
/// diag(λ) + rho·ẑẑᵀ is ẑ_i / delta_i times this (k > 2).
template <class R>
R secular_scale(const Deflation<R>& df, const R* zhat, int o, R tau);

/// The unit eigenvector of root j into s (k entries) for k ≤ 2, where ?laed4 returns it.
/// False where ?laed4 fails.
template <class R>
bool two_pole_vector(const Deflation<R>& df, int j, R* s);

}  // namespace tseig::dense::dc
