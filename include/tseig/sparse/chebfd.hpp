#pragma once
// Chebyshev filter diagonalization: the eigenpairs of a sparse Hermitian matrix inside an
// interval [a, b], through a polynomial window filter p(H) ≈ 1 on [a, b], ≈ 0 elsewhere.
// Two ways to iterate it (ChebfdMethod):
// - krylov_schur (default): a block Krylov space of p(H), restarted the Krylov–Schur way
//   around the Ritz vectors with the largest p-values (as SLEPc's polynomial filter);
//   pairs are extracted by Rayleigh–Ritz with H on the kept space at each restart;
// - subspace (Pieper et al. 2016): p(H) applied to a search space of about 1.5–2× the KPM
//   estimate of the count, orthonormalized and Rayleigh–Ritz-projected, converged pairs
//   inside [a, b] locked.
// Either stops when every Ritz value inside [a, b] has converged and their number held
// for one more restart (filter pass).
#include "tseig/export.hpp"
#include "tseig/sparse/kpm.hpp"
#include "tseig/sparse/linear_operator.hpp"
#include "tseig/sparse/progress.hpp"
#include "tseig/sparse/tune.hpp"

namespace tseig::sparse {

/// Damping of the window's Chebyshev series (against Gibbs oscillations).
enum class Damping { jackson, lanczos_sigma };

/// How the filtered block is orthonormalized: SVQB with a drop tolerance (robust), or
/// Cholesky-QR2 (cheaper), which falls back to SVQB when the block is ill-conditioned.
enum class Orthogonalization { svqb, cholesky_qr2 };

/// How the filter's space is iterated (see above). The Krylov–Schur variant needs a
/// filter of a fraction of the degree and far fewer applications; a level with as many
/// converged copies as its block width (tune.block_width) widens the block, so higher
/// multiplicities come back whole too. Matrices of fewer than 5 block widths of rows
/// run the subspace iteration, which finds any multiplicity its space holds.
enum class ChebfdMethod { krylov_schur, subspace };

struct ChebfdOptions {
  ChebfdMethod method = ChebfdMethod::krylov_schur;
  /// Convergence of a pair: ‖Hx − λx‖ / ((‖H‖ + |λ|)‖x‖) ≤ tol; 0: √ε of real_t<T>.
  double tol = 0;
  int max_iterations = 60;  ///< filter passes (subspace) or restarts (krylov_schur)
  /// Polynomial degree; 0: planned. Subspace: with the search space from the KPM density
  /// of states (the cheapest pair by the convergence model of Pieper et al.); it grows by
  /// half (up to 8×) whenever a pass gains much less than the plan predicted.
  /// Krylov–Schur: half the degree that resolves the window (edges a quarter of its
  /// width sharp), fixed.
  int degree = 0;
  /// The most a planned or grown degree may reach (a set `degree` is kept as given). A
  /// window of width w on the spectrum scaled to [−1, 1] needs a degree ≈ 4π/w; one
  /// ~10⁻⁶ of the spectrum would need millions of products per filter application.
  /// Capped, the filter may fail to separate the window: Error(not_converged) then says
  /// the degree the window needed.
  int max_degree = 10000;
  Damping damping = Damping::jackson;
  /// Subspace: search space / KPM estimate of the count, rounded up to whole blocks; 0:
  /// planned. (Krylov–Schur: a basis of 2.5× the count, at least 4 blocks.)
  double search_factor = 0;
  Orthogonalization orthogonalization = Orthogonalization::svqb;
  KpmOptions kpm{};  ///< the count estimate and the spectral bounds
  /// Not converged within max_iterations: true throws Error(not_converged) listing the
  /// residuals reached; false returns the pairs found with converged = false.
  bool throw_on_failure = true;
  ProgressCallback progress{};  ///< after every filter pass (tseig-solve: a line on stderr)
  /// block_width: the block filtered together; rr_distributed_min (tseig/sparse/tune.hpp;
  /// sparse::tuned_parameters fills them from the tuning cache).
  SparseTuneParameters tune{};
};

/// Collective: every eigenpair of `a` with lower ≤ λ ≤ upper (lower < upper), each
/// eigenvalue with its multiplicity and none outside, ascending. A converged Ritz value
/// counts as inside within its error bound (its residual's Kato–Temple bound, at least
/// what rounding leaves, 64ε‖H‖) plus 8ε‖H‖, so an eigenvalue on an edge is returned
/// whichever way its computed value falls.
template <class T>
TSEIG_API EigenResult<T> chebfd(const Matrix<T>& a, double lower, double upper,
                                const ChebfdOptions& options = {});

/// Collective: the k eigenpairs nearest to `target`, nearest first (a level cut by the
/// k-th is returned whole, so there may be more than k). A window around the target is
/// widened until it holds at least k eigenvalues.
template <class T>
TSEIG_API EigenResult<T> chebfd_nearest(const Matrix<T>& a, double target, int k,
                                        const ChebfdOptions& options = {});

}  // namespace tseig::sparse
