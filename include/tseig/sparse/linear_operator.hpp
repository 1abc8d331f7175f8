#pragma once
// What the block eigensolvers (LOBPCG, ChebFD) work on and return: an operator (a sparse
// Matrix or a user callback that applies H to a block vector), a preconditioner (none,
// Jacobi, or a callback), and the result of a solve with its time split.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "tseig/error.hpp"
#include "tseig/export.hpp"
#include "tseig/sparse/kernels.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/matrix.hpp"
#include "tseig/sparse/multivector.hpp"

namespace tseig::sparse {

/// y ← F(x) for blocks of equal width; collective over the operator's communicator. A
/// callback may throw on some ranks only: the solvers agree after each call (one
/// allreduce of an int), and every rank then throws the Error of the lowest failing rank
/// (a std::exception's message becomes an Error(invalid_argument) with that message). A
/// callback that communicates itself must finish its own exchanges before it throws.
template <class T>
using BlockFunction = std::function<void(const MultiVector<T>& x, const MultiVector<T>& y)>;

/// A Hermitian operator on row-distributed block vectors. Solvers allocate every block
/// they pass to apply() with layout() (for H and S together, with room for the wider of
/// their halos), so a callback may rely on it (a matrix's vector_layout() gives room for
/// its halo).
template <class T>
class LinearOperator {
 public:
  /// The sparse matrix `a` (shared, not copied).
  LinearOperator(const Matrix<T>& a)  // NOLINT: a Matrix is an operator
      : layout_(a.vector_layout()), matrix_(std::make_shared<Matrix<T>>(a)) {}
  /// Matrix-free: `apply(x, y)` sets y ← H·x for blocks of any width with `layout`.
  LinearOperator(const VectorLayout& layout, BlockFunction<T> apply)
      : layout_(layout), apply_(std::move(apply)) {}

  const VectorLayout& layout() const { return layout_; }
  MPI_Comm comm() const { return layout_.comm; }
  std::int64_t rows() const { return layout_.global_rows; }
  /// The matrix, or nullptr for a callback (the fused kernels need a matrix).
  const Matrix<T>* matrix() const { return matrix_.get(); }

  void apply(const MultiVector<T>& x, const MultiVector<T>& y) const {
    if (matrix_)
      spmmv(*matrix_, x, y);
    else
      collectively(layout_.comm, [&] { apply_(x, y); });
  }

 private:
  VectorLayout layout_;
  std::shared_ptr<const Matrix<T>> matrix_;
  BlockFunction<T> apply_;
};

/// Collective: spectral bounds of an operator by Lanczos (as spectral_bounds of a Matrix).
template <class T>
TSEIG_API SpectralBounds spectral_bounds(const LinearOperator<T>& h, int steps = 40,
                                         double margin = 0.02, std::uint64_t seed = 7);

/// y ← M⁻¹x with M ≈ H − θS, applied to LOBPCG's residual block. Default: none (y = x).
template <class T>
class Preconditioner {
 public:
  Preconditioner() = default;
  explicit Preconditioner(BlockFunction<T> apply) : apply_(std::move(apply)) {}

  bool empty() const { return !apply_; }
  void apply(const MultiVector<T>& x, const MultiVector<T>& y) const {
    if (apply_)
      apply_(x, y);
    else
      MultiVector<T>(y).assign(x);  // a handle: writes y's storage
  }

 private:
  BlockFunction<T> apply_;
};

/// Jacobi: y_i = x_i / |a_ii| (rows with a zero diagonal pass unchanged). Local.
template <class T>
TSEIG_API Preconditioner<T> jacobi_preconditioner(const Matrix<T>& a);

/// Which end of the spectrum an extremal solver computes.
enum class Which { smallest, largest };

/// Chebyshev polynomial preconditioner for the extremal eigenpairs of H (or of H − λS,
/// though p ignores S): y = p(A)·x with A = H − lower for Which::smallest, upper − H for
/// Which::largest, p the polynomial of `degree` + 1 Chebyshev-iteration steps for A·y = x
/// on [w/(degree + 2)², w], w = upper − lower: p ≈ A⁻¹ down to about w/degree². `bounds`
/// need only be estimates of the spectrum's ends (spectral_bounds(h, 40, 0.0)): p is
/// positive on all of (−∞, 2w) in A, so p(A) is positive definite unless the far end
/// misses the spectrum by a whole width; the closer the near end is to the wanted
/// eigenvalues, the better p. Each call costs `degree` operator applications (fused
/// passes for a Matrix) and cuts LOBPCG's iterations by up to about the degree's factor:
/// worth it when the operator is cheap against the dense block work. (SLEPc's LOBPCG
/// applies 5 GMRES steps to every residual by default.)
template <class T>
TSEIG_API Preconditioner<T> chebyshev_preconditioner(const LinearOperator<T>& h,
                                                     SpectralBounds bounds, int degree,
                                                     Which which = Which::smallest);

/// Seconds spent in each part of a solve (this rank; the parts overlap nowhere).
/// communication: the reductions and broadcasts of the solver itself (the halo
/// exchanges are inside spmmv).
struct SolverTimes {
  double spmmv = 0;              ///< operator (and S) applications, filter sweeps
  double orthogonalization = 0;  ///< SVQB / Cholesky-QR2 / projections, local part
  double rayleigh_ritz = 0;      ///< projected matrices and their dense eigensolve
  double communication = 0;      ///< allreduce of Gram matrices and norms, broadcasts
  double total = 0;
};

/// The eigenpairs a block solver found. Pairs are ordered from the wanted end (ascending
/// for the smallest, descending for the largest, ascending inside an interval).
template <class T>
struct EigenResult {
  std::vector<real_t<T>> eigenvalues;
  MultiVector<T> eigenvectors;    ///< one column per eigenvalue (S-orthonormal)
  std::vector<double> residuals;  ///< ‖Hx − λSx‖ / ((‖H‖ + |λ|‖S‖)‖x‖) per pair
  int iterations = 0;
  /// H applied to one vector counts one (a block of nb counts nb, a filter of degree d
  /// d per vector); S, the preconditioner and the KPM set-up are not counted.
  std::int64_t operator_applications = 0;
  bool converged = false;
  SolverTimes times;
};

}  // namespace tseig::sparse
