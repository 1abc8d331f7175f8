#pragma once
// Orthonormalization of block vectors, optionally in the inner product of an S
// (B-orthonormal: XᴴSX = I), with one allreduce per Gram matrix:
// - SVQB (Stathopoulos & Wu 2002): X ← X·D·U·Θ^{-1/2} from the eigendecomposition of
//   the scaled Gram D·XᴴSX·D = UΘUᴴ; directions with θ below drop·θ_max are dropped,
//   so a block that lost rank shrinks instead of breaking down;
// - Cholesky-QR2: X ← X·R⁻¹ with XᴴSX = RᴴR, twice; cheaper, for well-conditioned X;
// - projection against an S-orthonormal Q (classical Gram–Schmidt, block form).
// `sx` is S·X, kept in step by the same transformations (nullptr: S = I; not deduced,
// so a plain nullptr works).
#include <span>
#include <type_traits>
#include <vector>

#include "tseig/sparse/linear_operator.hpp"
#include "tseig/sparse/tune.hpp"

namespace tseig::sparse::detail {

/// SVQB in place; returns the number of columns kept, now the leading ones of x (and sx).
/// `removed`, from project_out just before (empty: none): a column that projection left
/// with at most drop times its S-norm is dropped whole. What remains of it is rounding,
/// which the scaling to unit norm would blow up into a direction that is not orthogonal
/// to Q (a start column in the span of the others, a residual of a block that spans the
/// whole space).
template <class T>
int svqb(const MultiVector<T>& x, const std::type_identity_t<MultiVector<T>>* sx, double drop,
         const SparseTuneParameters& tune, SolverTimes& times,
         std::span<const double> removed = {});

/// Cholesky-QR2 in place; false (x, sx partly transformed) when the Gram matrix is not
/// numerically positive definite.
template <class T>
bool cholesky_qr2(const MultiVector<T>& x, const std::type_identity_t<MultiVector<T>>* sx,
                  SolverTimes& times);

/// X ← X − Q·(SQ)ᴴX and SX ← SX − SQ·(SQ)ᴴX; sq is S·Q (q itself for S = I). Returns
/// the squared S-norms of what it took from each column of X (for svqb's `removed`;
/// empty when Q has no columns).
template <class T>
std::vector<double> project_out(const MultiVector<T>& q, const MultiVector<T>& sq,
                                const MultiVector<T>& x,
                                const std::type_identity_t<MultiVector<T>>* sx, SolverTimes& times);

/// Twice (projection against q, then SVQB): x becomes S-orthonormal and S-orthogonal to
/// q. Returns the number of columns kept (the leading ones).
template <class T>
int orthonormalize_against(const MultiVector<T>& q, const MultiVector<T>& sq,
                           const MultiVector<T>& x, const std::type_identity_t<MultiVector<T>>* sx,
                           double drop, const SparseTuneParameters& tune, SolverTimes& times);

}  // namespace tseig::sparse::detail
