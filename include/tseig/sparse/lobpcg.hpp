#pragma once
// LOBPCG, the robust variant (Knyazev 2001; Hetmaniuk & Lehoucq 2006; Duersch et al.
// 2018): the block [X, P, W] of Ritz vectors, search directions and preconditioned
// residuals, kept S-orthonormal as a whole, so every Rayleigh–Ritz step is a standard
// Hermitian eigenproblem of order ≤ 3m (m = nev + guard).
#include "tseig/export.hpp"
#include "tseig/sparse/linear_operator.hpp"
#include "tseig/sparse/progress.hpp"
#include "tseig/sparse/tune.hpp"

namespace tseig::sparse {

template <class T>
struct LobpcgOptions {
  int nev = 1;     ///< wanted eigenpairs
  int guard = -1;  ///< block columns beyond nev (speed up convergence, reveal multiplicity);
                   ///< −1: max(4, nev / 4)
  Which which = Which::smallest;
  /// Convergence of a pair: ‖Hx − λSx‖ / ((‖H‖ + |λ|‖S‖)‖x‖) ≤ tol; 0: √ε of real_t<T>.
  double tol = 0;
  int max_iterations = 500;
  /// Warm start (SCF): up to nev + guard columns with the operator's layout, used as the
  /// first columns of the initial block (the rest is random). Empty: random start.
  MultiVector<T> initial{};
  /// ‖H‖ and ‖S‖ for the criterion; 0: estimated by a few Lanczos steps (for S they also
  /// check that it is positive definite).
  double norm_h = 0, norm_s = 0;
  /// Not converged within max_iterations: true throws Error(not_converged) listing the
  /// residuals reached; false returns them with converged = false.
  bool throw_on_failure = true;
  SparseTuneParameters tune{};  ///< rr_distributed_min decides where Rayleigh–Ritz runs
  /// Before every iteration, with the residuals so far (converged: wanted pairs within
  /// tol; space: columns of the last Rayleigh–Ritz basis [X P W]; tseig-solve: a line on
  /// stderr for long runs).
  ProgressCallback progress{};
};

/// Collective: the nev extremal eigenpairs of H x = λ x. An eigenvalue whose level
/// crosses the nev-th pair is returned with its full multiplicity, so the result may hold
/// more than nev pairs: a level that still fills the block's last column when the pairs
/// have converged is solved again with twice the guard columns (+ 4), warm from the pairs
/// found, until it ends inside the block (iterations and times add up in the result).
/// Two Ritz values are one level when they differ by at most twice the sum of their
/// residual bounds ‖Hx − θSx‖/‖x‖, plus rounding.
template <class T>
TSEIG_API EigenResult<T> lobpcg(const LinearOperator<T>& h, const LobpcgOptions<T>& options = {},
                                const Preconditioner<T>& preconditioner = {});

/// Collective: the same for H x = λ S x with S Hermitian positive definite; eigenvectors
/// are S-orthonormal. An S found indefinite (unless norm_s is given: a Rayleigh quotient
/// of S below −√ε‖S‖ in the Lanczos steps that estimate ‖S‖) is
/// Error(not_positive_definite) on every rank: its negative directions would be dropped,
/// and with them the pencil's eigenpairs there.
template <class T>
TSEIG_API EigenResult<T> lobpcg(const LinearOperator<T>& h, const LinearOperator<T>& s,
                                const LobpcgOptions<T>& options = {},
                                const Preconditioner<T>& preconditioner = {});

}  // namespace tseig::sparse
