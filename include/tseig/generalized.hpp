#pragma once
// CholeskyFactor<T>: the factorization of the S of a generalized eigenproblem
// H z = λ S z, computed once and passed to Eigensolver::generalized_eigenvectors /
// generalized_eigenvalues as often as needed (ELPA's "is_already_decomposed", as an
// object: a factor carries its size and grid, so it cannot be applied to a problem of
// another size or grid by mistake).
#include "tseig/eigensolver.hpp"
#include "tseig/export.hpp"
#include "tseig/matrix.hpp"

namespace tseig {

template <class T>
class TSEIG_API CholeskyFactor {
 public:
  CholeskyFactor() = default;  // empty
  /// Collective. Factors S (not modified; `triangle` says which part is valid; check_input rejects
  /// NaN/non-Hermitian). S = UᴴU by tseig::cholesky, then U⁻¹ by tseig::invert_triangular, on S's
  /// grid with S.nb()×S.nb() blocks. Throws Error(not_positive_definite) naming the failing leading
  /// minor on every rank. Memory: two N×N distributed matrices.
  explicit CholeskyFactor(const DistMatrix<T>& S, Triangle triangle = Triangle::full,
                          bool check_input = true);

  bool empty() const { return !factored_; }
  int n() const { return inverse_.n(); }
  const Grid& grid() const { return inverse_.grid(); }
  int block_size() const { return inverse_.nb(); }

  /// U⁻¹ in the upper triangle and its conjugate transpose in the lower one (a Hermitian
  /// matrix; the diagonal is real): hermitian_multiply with Triangle::upper applies U⁻ᴴ,
  /// with Triangle::lower U⁻¹, so no transpose is needed per solve.
  const DistMatrix<T>& inverse() const { return inverse_; }
  /// U in the upper triangle, zero below: what ScaLAPACK's p?sygst and p?trsm take.
  const DistMatrix<T>& factor() const { return upper_; }
  /// Seconds (slowest rank) of the factorization: "cholesky" and "invert_triangular".
  const StageTimes& timings() const { return times_; }

 private:
  DistMatrix<T> inverse_, upper_;
  StageTimes times_;
  bool factored_ = false;
};

}  // namespace tseig
