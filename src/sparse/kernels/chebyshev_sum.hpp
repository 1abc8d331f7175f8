#pragma once
// A block's Chebyshev series, Σ_k c_k T_k(t)·X with t = (A − center)/half, as ChebFD's
// filter and LOBPCG's Chebyshev preconditioner apply it. Each step of the recurrence
// T_{k+1} = 2t·T_k − T_{k−1} is one sweep that holds T_{k−1}, T_k and T_{k+1} of a row in
// registers, so the sum is read and written only every third step, with three terms:
// of a step's memory traffic (matrix, T_k, T_{k−1} read and T_{k+1} written, sum read and
// written) that saves a sixth to a fifth on the TI at blocks of 8.
#include <array>
#include <span>

#include "sparse/dist/halo_plan.hpp"
#include "tseig/sparse/matrix.hpp"
#include "tseig/sparse/multivector.hpp"

namespace tseig::sparse::detail {

/// What a Chebyshev step does with the sum X: nothing, X ← terms, X ← X + terms.
enum class StepSum { none, assign, add };

/// W ← 2α(A − βI)U − W, then (sum ≠ none) X ← [X +] c[0]·W_old + c[1]·U + c[2]·W_new.
/// Collective (halo exchange of U; `posted`: U's exchange, begun by the caller).
template <class T>
void chebyshev_step(const Matrix<T>& a, T alpha, T beta, const MultiVector<T>& u,
                    const MultiVector<T>& w, StepSum sum, const std::array<T, 3>& c,
                    const MultiVector<T>& x, HaloExchange<T>* posted = nullptr);

/// One block's series taken a step at a time, so that blocks can take turns
/// (chebyshev_sums). t0 holds the block on entry; t0 and t1 (of A's vector layout, as
/// wide as sum) are overwritten; the sum is complete once finished().
template <class T>
class ChebyshevSeries {
 public:
  ChebyshevSeries(const Matrix<T>& a, std::span<const double> c, double center, double half,
                  const MultiVector<T>& t0, const MultiVector<T>& t1, const MultiVector<T>& sum);
  const Matrix<T>& matrix() const { return a_; }
  /// Steps that apply A.
  int degree() const { return degree_; }
  bool finished() const { return k_ > degree_; }
  /// The block the next step multiplies by A (its halo exchange may be begun ahead).
  const MultiVector<T>& input() const { return current_; }
  /// Collective: the next step; `posted`: input()'s halo exchange, begun by the caller.
  void step(HaloExchange<T>* posted = nullptr);

 private:
  const Matrix<T>& a_;
  std::span<const double> c_;
  T alpha_, beta_;
  int degree_;
  MultiVector<T> previous_, current_, sum_;
  int k_ = 1;      // the next step makes T_k
  int done_ = -1;  // terms 0 … done_ are in the sum
};

/// sum ← Σ_k c_k T_k(t)·t0 (k = 0 … c.size() − 1), t = (A − center)/half, as
/// ChebyshevSeries. Returns the degree. Collective.
template <class T>
int chebyshev_sum(const Matrix<T>& a, std::span<const double> c, double center, double half,
                  const MultiVector<T>& t0, const MultiVector<T>& t1, const MultiVector<T>& sum);

/// Series of one degree taking turns a step each. Before a block's step sweeps, the halo
/// exchange of the block next in turn is begun: it travels during a whole sweep, not only
/// the sweep's interior rows (the pipelining of Pieper et al. 2016). The sums are those
/// chebyshev_sum gives, bit for bit. Collective.
template <class T>
void chebyshev_sums(std::span<ChebyshevSeries<T>> series);

}  // namespace tseig::sparse::detail
