#pragma once
// The sparse kernels: one pass over the matrix and the block vectors each, specialised
// for block widths 1, 2, 4, 8, 16, 32, 64 (any other width works too). Every call is
// collective over the matrix's communicator (halo exchange). The operand that A is
// applied to must come from a.vector_layout(); its halo rows are overwritten. Dot
// products are this rank's partial sums (Σ over its rows of conj(first)·second, per
// column): add them up with sum_over_ranks — once per call, or once at the end of a
// run of calls as KPM does.
#include <span>

#include "tseig/export.hpp"
#include "tseig/sparse/matrix.hpp"
#include "tseig/sparse/multivector.hpp"

namespace tseig::sparse {

/// Y ← A·X.
template <class T>
TSEIG_API void spmmv(const Matrix<T>& a, const MultiVector<T>& x, const MultiVector<T>& y);

/// Y ← α(A − βI)X + γY, and per column xx = ⟨X,X⟩, yx = ⟨Y,X⟩ (new Y); γ = 0 does not
/// read Y. xx and yx need x.cols() entries.
template <class T>
TSEIG_API void aug_spmmv(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& x, T gamma,
                         const MultiVector<T>& y, std::span<T> xx, std::span<T> yx);

/// The Chebyshev filter step: W ← 2α(A − βI)U − W, then per column eta = ⟨W,U⟩ (new
/// W) and mu = ⟨U,U⟩, and X ← X + c·W. eta and mu need u.cols() entries.
template <class T>
TSEIG_API void chebfd_op(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& u,
                         const MultiVector<T>& w, T c, const MultiVector<T>& x, std::span<T> eta,
                         std::span<T> mu);

}  // namespace tseig::sparse
