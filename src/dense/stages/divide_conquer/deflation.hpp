#pragma once
// Deflation of one divide & conquer merge (Gu & Eisenstat, as LAPACK ?laed2): the
// rank-one modified system diag(d) + rho·z·zᵀ loses the eigenpairs whose z component is
// negligible, and of two nearly equal eigenvalues one is rotated away by a Givens
// rotation. Pure sequential arithmetic: every rank of a merge computes the same result.
#include <vector>

namespace tseig::dense::dc {

/// A plane rotation of columns (a, b) of the merge's eigenvector matrix:
/// a ← c·a + s·b, b ← c·b − s·a.
template <class R>
struct Rotation {
  int a, b;
  R c, s;
};

template <class R>
struct Deflation {
  R rho = 0;                           ///< coupling of the secular equation (> 0 when k > 0)
  std::vector<R> lambda;               ///< k non-deflated poles, strictly increasing
  std::vector<R> z;                    ///< their z components (unit-norm z overall)
  std::vector<int> column;             ///< column of the merged eigenvector matrix of each pole
  std::vector<Rotation<R>> rotations;  ///< to apply, in order, before anything else
  std::vector<R> deflated_value;       ///< eigenvalues that are final already, ascending
  std::vector<int> deflated_column;    ///< their columns
  int k() const { return static_cast<int>(lambda.size()); }
};

/// Deflates diag(d1 ⊕ d2) + beta·v·vᵀ, v = (last row of Q1, first row of Q2)ᵀ given as
/// z = (z1, z2). d1 and d2 (lengths m1, m − m1) are each ascending. Columns are numbered
/// as in blockdiag(Q1, Q2).
template <class R>
Deflation<R> deflate(std::vector<R> d, std::vector<R> z, int m1, R beta);

}  // namespace tseig::dense::dc
