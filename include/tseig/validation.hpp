#pragma once
// Self-validation of computed eigenpairs. Eigensolver calls these after the solve when
// EigensolverOptions::validate is set; they are public so that a result from anywhere
// (another solver, a file, a corrupted run) can be checked the same way. All collective;
// the report is the same on every rank.
//
// What is checked (the tolerance is τ = options.validation_tolerance, 0: 1e3·N·ε):
//  - with eigenvectors: residual and orthogonality (tseig/accuracy.hpp) ≤ τ;
//  - the count: no eigenvalue below count_bound is missing from w. With nev < N
//    eigenvectors, σ = λ_max(w) − δ and M = A − σS + c·(SZ)(SZ)ᴴ (S = I for a standard
//    problem), c = max(0, σ − λ_min(w)) + ‖A‖-scale. M is congruent to à − σI + c·Z̃Z̃ᴴ
//    (à = L⁻¹AL⁻ᴴ, Z̃ = LᴴZ orthonormal), whose eigenvalues are λ_i − σ + c > 0 on span Z̃
//    and the remaining eigenvalues of à minus σ elsewhere: M is positive definite, which a
//    Cholesky factorization proves, iff every eigenvalue below σ is one of w.
//    δ = 4·(√nev·e + N·ε·b) is the error the returned eigenvalues may carry: e bounds
//    ‖A z_i − λ_i z_i‖ (standard: residual·N·‖A‖₁; generalized: residual·b) and b =
//    (‖A‖₁ + max|λ|·‖S‖₁)·max‖z_i‖². Placing σ that far *below* λ_nev means an unreturned
//    eigenvalue equal to or just above λ_nev (a cluster split at nev) never raises a
//    false alarm, and the √nev factor covers the coupling between span Z and the rest
//    (‖PᴴAZ‖₂ ≤ √nev·max_i‖r_i‖). An eigenvalue that lies within δ below λ_nev and is
//    missing is indistinguishable from rounding and is not reported.
//    nev = N with eigenvectors: N orthonormal vectors with small residuals already
//    account for every eigenvalue; the standard problem also checks the trace.
//  - eigenvalues only (no Z): M = A − σS with σ = λ_min(w) − δ, δ = τ·(‖A‖₁ + |λ_min|·‖S‖₁)
//    /‖S‖₁ (the eigenvalue error τ allows): nothing is missing below the lowest returned
//    eigenvalue. Without eigenvectors nothing can be said about gaps between the returned
//    ones short of an inertia (LDLᴴ) factorization, which ScaLAPACK does not provide; the
//    standard problem with nev = N adds the trace and Frobenius-norm identities.
// Cost: residual 2N²·nev flops, orthogonality N·nev² (generalized: three products S·Z and
// one H·Z, 2N²·nev each), count check one rank-nev update (N²·nev) and one Cholesky (N³/3)
// when nev < N; a copy of A (and S) that becomes the count check's work matrix.
#include <limits>
#include <vector>

#include "tseig/eigensolver.hpp"
#include "tseig/export.hpp"
#include "tseig/matrix.hpp"
#include "tseig/validation_report.hpp"

namespace tseig {

/// The default tolerance of an order-n problem: 1e3·n·ε of T's real type. It does not
/// grow with cond(S), as the generalized residual any Cholesky-based solver attains does
/// (N = 200, cond(S) = 1e8: 4.2e-11 against 4.4e-11): pass a larger validation_tolerance
/// for an ill-conditioned S (about 1e3·n·ε·√cond(S)).
template <class T>
double default_validation_tolerance(int n) {
  return 1e3 * n * static_cast<double>(std::numeric_limits<real_t<T>>::epsilon());
}

/// A z_i = λ_i z_i for the first w.size() columns of Z. A is read per options.triangle;
/// options.validation_tolerance sets τ; the other options are not used.
template <class T>
TSEIG_API ValidationReport validate_eigenpairs(const DistMatrix<T>& A,
                                               const std::vector<real_t<T>>& w,
                                               const DistMatrix<T>& Z,
                                               const EigensolverOptions& options);

/// w: the nev lowest eigenvalues of A, ascending, without eigenvectors.
template <class T>
TSEIG_API ValidationReport validate_eigenvalues(const DistMatrix<T>& A,
                                                const std::vector<real_t<T>>& w,
                                                const EigensolverOptions& options);

/// H z_i = λ_i S z_i, S Hermitian positive definite; both read per options.triangle.
template <class T>
TSEIG_API ValidationReport validate_generalized_eigenpairs(const DistMatrix<T>& H,
                                                           const DistMatrix<T>& S,
                                                           const std::vector<real_t<T>>& w,
                                                           const DistMatrix<T>& Z,
                                                           const EigensolverOptions& options);

template <class T>
TSEIG_API ValidationReport validate_generalized_eigenvalues(const DistMatrix<T>& H,
                                                            const DistMatrix<T>& S,
                                                            const std::vector<real_t<T>>& w,
                                                            const EigensolverOptions& options);

/// Collective: throws Error(accuracy) with report.summary() on every rank of comm unless
/// report.passed().
TSEIG_API void require_passed(MPI_Comm comm, const ValidationReport& report);

}  // namespace tseig
