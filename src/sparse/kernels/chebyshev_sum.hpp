#pragma once
// A block's Chebyshev series, Σ_k c_k T_k(t)·X with t = (A − center)/half, as ChebFD's
// filter and LOBPCG's Chebyshev preconditioner apply it. Each step of the recurrence
// T_{k+1} = 2t·T_k − T_{k−1} is one sweep that holds T_{k−1}, T_k and T_{k+1} of a row in
// registers, so the sum is read and written only every third step, with three terms:
// of a step's memory traffic (matrix, T_k, T_{k−1} read and T_{k+1} written, sum read and
// written) that saves a sixth to a fifth on the TI at blocks of 8.
#include <array>
#include <span>

#include "tseig/sparse/matrix.hpp"
#include "tseig/sparse/multivector.hpp"

namespace tseig::sparse::detail {

/// What a Chebyshev step does with the sum X: nothing, X ← terms, X ← X + terms.
enum class StepSum { none, assign, add };

/// W ← 2α(A − βI)U − W, then (sum ≠ none) X ← [X +] c[0]·W_old + c[1]·U + c[2]·W_new.
/// Collective (halo exchange of U).
template <class T>
void chebyshev_step(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& u,
                    const MultiVector<T>& w, StepSum sum, const std::array<T, 3>& c,
                    const MultiVector<T>& x);

/// sum ← Σ_k c_k T_k(t)·t0 (k = 0 … c.size() − 1), t = (A − center)/half. t0 holds the
/// block on entry; t0 and t1 (of A's vector layout, as wide as sum) are overwritten.
/// Returns how many steps applied A (the degree). Collective.
template <class T>
int chebyshev_sum(const Matrix<T>& a, std::span<const double> c, double center, double half,
                  const MultiVector<T>& t0, const MultiVector<T>& t1, const MultiVector<T>& sum);

}  // namespace tseig::sparse::detail
