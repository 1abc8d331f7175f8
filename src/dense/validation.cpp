// Self-validation (tseig/validation.hpp): accuracy measures, the trace identities and the
// shifted-Cholesky eigenvalue count, on working-layout copies of the operands.
#include "dense/validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "core/blas/scalapack.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "dense/linalg/cholesky/api.hpp"
#include "dense/linalg/working_layout.hpp"
#include "tseig/accuracy.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <class T>
DistMatrix<T> full_working_copy(const DistMatrix<T>& A, Triangle triangle, int nb) {
  DistMatrix<T> W =
      is_working_layout(A) && A.nb() == nb ? A.clone() : A.redistribute(A.grid(), nb, nb);
  if (triangle == Triangle::full) return W;
  const DistMatrix<T> C = conjugate_transpose(W);
  for (int lj = 0; lj < W.local_cols(); ++lj)
    for (int li = 0; li < W.local_rows(); ++li) {
      const int gi = W.global_row(li), gj = W.global_col(lj);
      if (triangle == Triangle::lower ? gi < gj : gi > gj) W.local(li, lj) = C.local(li, lj);
    }
  return W;
}

namespace {

// NaN-propagating max: a NaN must fail the check, not vanish from it.
double nan_max(double a, double b) {
  return (std::isnan(a) || a >= b) ? a : b;
}

// The first nev columns of Z in the working layout of `grid` (rows blocked like A's).
template <class T>
DistMatrix<T> working_columns(const DistMatrix<T>& Z, const Grid& grid, int nev, int nb) {
  DistMatrix<T> W(grid, Z.m(), nev, nb, nb);
  W.copy_from(Z, nev);
  return W;
}

// Collective. Whether M − σ·S + c·Y·Yᴴ is positive definite (S = I when null, no Y term
// when null): a Cholesky factorization of it that runs to the end. M is overwritten.
// All operands in the working layout.
template <class T>
bool positive_definite_after_shift(DistMatrix<T>& M, const DistMatrix<T>* S, real_t<T> sigma,
                                   const DistMatrix<T>* Y, real_t<T> c) {
  for (int lj = 0; lj < M.local_cols(); ++lj)
    for (int li = 0; li < M.local_rows(); ++li) {
      if (S)
        M.local(li, lj) -= sigma * S->local(li, lj);
      else if (M.global_row(li) == M.global_col(lj))
        M.local(li, lj) -= sigma;
    }
  // The Cholesky kernel reads the upper triangle only: update just that one.
  if (Y && Y->n() > 0)
    scalapack::pherk<T>('U', 'N', M.n(), Y->n(), c, Y->data(), 1, 1, Y->desc(), real_t<T>(1),
                        M.data(), 1, 1, M.desc());
  try {
    cholesky_upper<Device::host>(M);
  } catch (const Error& e) {
    // Every rank learns of a failing pivot at the same block and throws the same error.
    if (e.code() != ErrorCode::not_positive_definite) throw;
    return false;
  }
  return true;
}

// Standard problem, nev = N: max(|Σλ − trace A| / N, |‖λ‖₂ − ‖A‖_F| / √N) / ‖A‖₁. Both
// terms are at most max_i |λ_i − μ_i| / ‖A‖₁ for the true eigenvalues μ.
template <class T>
double trace_error(const DistMatrix<T>& A, const std::vector<real_t<T>>& w, double anorm) {
  double trace = 0;
  for (int lj = 0; lj < A.local_cols(); ++lj)
    for (int li = 0; li < A.local_rows(); ++li)
      if (A.global_row(li) == A.global_col(lj)) trace += std::real(A.local(li, lj));
  sum_over_grid(A.grid(), &trace, 1);
  const int n = A.n();
  const double frobenius = scalapack::plange<T>('F', n, n, A.data(), 1, 1, A.desc());
  // In units of ‖A‖₁: the squares of a matrix scaled by 1e±300 overflowed or underflowed
  // (trace error inf, "an eigenvalue is missing" with residual 0).
  double sum = 0, squares = 0;
  for (real_t<T> x : w) {
    const double y = x / anorm;
    sum += y;
    squares += y * y;
  }
  return nan_max(std::abs(sum - trace / anorm) / n,
                 std::abs(std::sqrt(squares) - frobenius / anorm) / std::sqrt(double(n)));
}

// max_i ‖z_i‖₂² over the columns of Z, on every rank.
template <class T>
double max_column_norm2(const DistMatrix<T>& Z) {
  std::vector<double> sums(Z.local_cols(), 0.0);
  for (int lj = 0; lj < Z.local_cols(); ++lj)
    for (int li = 0; li < Z.local_rows(); ++li) sums[lj] += std::norm(Z.local(li, lj));
  sum_over_column(Z.grid(), sums.data(), static_cast<int>(sums.size()));
  double worst = 0;
  for (double s : sums) worst = nan_max(worst, s);
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, Z.grid().comm());
  return worst;
}

// Every rank takes rank 0's figures, so the verdict agrees everywhere bit for bit.
void broadcast(ValidationReport& r, MPI_Comm comm) {
  double v[] = {r.residual,  r.orthogonality, r.trace_error,          r.count_bound,
                r.tolerance, r.seconds,       r.count_ok ? 1.0 : 0.0, r.count_checked ? 1.0 : 0.0};
  MPI_Bcast(v, 8, MPI_DOUBLE, 0, comm);
  r.residual = v[0];
  r.orthogonality = v[1];
  r.trace_error = v[2];
  r.count_bound = v[3];
  r.tolerance = v[4];
  r.seconds = v[5];
  r.count_ok = v[6] != 0;
  r.count_checked = v[7] != 0;
}

}  // namespace

template <class T>
ValidationReport validate(DistMatrix<T> A, const DistMatrix<T>* S, const std::vector<real_t<T>>& w,
                          const DistMatrix<T>* Z_in, double tolerance, bool lowest) {
  using R = real_t<T>;
  const double start = MPI_Wtime();
  const Grid& grid = A.grid();
  const int n = A.n(), nb = A.nb();
  const int nev = static_cast<int>(w.size());
  ValidationReport r;
  r.eigenvectors = Z_in != nullptr;
  r.generalized = S != nullptr;
  r.tolerance = tolerance;
  // Without the eigenvalues below a subset (or with none returned) there is nothing a
  // count could be checked against.
  r.count_checked = lowest && nev > 0;
  if (n == 0 || nev == 0) return r;

  const double eps = std::numeric_limits<R>::epsilon();
  // A zero matrix (all eigenvalues 0) gets unit scale, as accuracy::residual does.
  double anorm = scalapack::plange<T>('O', n, n, A.data(), 1, 1, A.desc());
  if (!(anorm > 0)) anorm = 1;
  const double snorm = S ? scalapack::plange<T>('O', n, n, S->data(), 1, 1, S->desc()) : 1.0;
  const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
  const double wmin = *lo, wmax = *hi, wabs = std::max(std::abs(wmin), std::abs(wmax));

  std::optional<DistMatrix<T>> Z;
  if (Z_in) {
    Z.emplace(working_columns(*Z_in, grid, nev, nb));
    r.residual = S ? accuracy::generalized_residual(A, *S, w, *Z) : accuracy::residual(A, w, *Z);
    r.orthogonality = S ? accuracy::s_orthogonality(*S, *Z, nev) : accuracy::orthogonality(*Z, nev);
  }
  if (!S && nev == n) r.trace_error = trace_error(A, w, anorm);

  if (!r.count_checked) {
    r.count_bound = wmin;
  } else if (Z && nev == n) {
    // N S-orthonormal vectors with small residuals account for every eigenvalue.
    r.count_bound = wmax;
    r.count_ok = S || r.trace_error <= tolerance;
  } else if (Z) {
    // δ: the error the returned eigenvalues may carry (see tseig/validation.hpp).
    const double b = (anorm + wabs * snorm) * (S ? max_column_norm2(*Z) : 1.0);
    const double error = S ? r.residual * b : r.residual * n * anorm;
    const double delta = 4 * (std::sqrt(double(nev)) * error + n * eps * b);
    const double sigma = wmax - delta;
    // c lifts span Z clear of 0: its eigenvalues become λ_i − σ + c ≥ scale.
    const double scale = S ? std::max(wabs, anorm / snorm) : anorm;
    const double c = std::max(0.0, sigma - wmin) + (scale > 0 ? scale : 1.0);
    std::optional<DistMatrix<T>> SZ;
    if (S) {
      SZ.emplace(DistMatrix<T>::like(*Z));
      scalapack::pgemm<T>('N', 'N', n, nev, n, T(1), S->data(), 1, 1, S->desc(), Z->data(), 1, 1,
                          Z->desc(), T(0), SZ->data(), 1, 1, SZ->desc());
    }
    r.count_bound = sigma;
    r.count_ok = positive_definite_after_shift(A, S, R(sigma), S ? &*SZ : &*Z, R(c));
  } else {
    // Without eigenvectors: nothing is missing below the lowest returned eigenvalue, up
    // to the eigenvalue error the tolerance allows.
    r.count_bound = wmin - tolerance * (anorm + std::abs(wmin) * snorm) / snorm;
    r.count_ok = positive_definite_after_shift<T>(A, S, R(r.count_bound), nullptr, R(0));
  }
  // A NaN or Inf among the eigenvalues may sit between λ_min and λ_max, out of the checks'
  // sight: no count can be established then.
  if (r.count_checked && !std::all_of(w.begin(), w.end(), [](R x) { return std::isfinite(x); }))
    r.count_ok = false;
  r.seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &r.seconds, 1, MPI_DOUBLE, MPI_MAX, grid.comm());
  broadcast(r, grid.comm());
  return r;
}

#define TSEIG_INSTANTIATE(T)                                                                      \
  template DistMatrix<T> full_working_copy(const DistMatrix<T>&, Triangle, int);                  \
  template ValidationReport validate(DistMatrix<T>, const DistMatrix<T>*,                         \
                                     const std::vector<real_t<T>>&, const DistMatrix<T>*, double, \
                                     bool);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense

namespace tseig {

std::string ValidationReport::summary() const {
  char count[120];
  if (count_checked)
    std::snprintf(count, sizeof count, "%s (none missing below %.17g)",
                  count_ok ? "ok" : "FAILED: an eigenvalue is missing", count_bound);
  else
    std::snprintf(count, sizeof count, "not checked (a subset above the lowest, or empty)");
  char text[480];
  std::snprintf(text, sizeof text,
                "%s%s: residual %.3e, orthogonality %.3e, trace error %.3e, eigenvalue count %s, "
                "tolerance %.3e, %.3f s",
                generalized ? "generalized " : "", eigenvectors ? "eigenpairs" : "eigenvalues only",
                residual, orthogonality, trace_error, count, tolerance, seconds);
  return text;
}

namespace {

// Argument checks of the public entry points, then the checks on working copies.
template <class T>
ValidationReport checked_validate(const DistMatrix<T>& A, const DistMatrix<T>* S,
                                  const std::vector<real_t<T>>& w, const DistMatrix<T>* Z,
                                  const EigensolverOptions& options) {
  const Grid& grid = A.grid();
  const MPI_Comm comm = grid.comm();
  const int n = A.n();
  const int nev = static_cast<int>(w.size());
  dense::require_same_arguments(
      comm, {n, nev, S ? 1 : 0, Z ? 1 : 0, static_cast<int>(options.triangle)}, "validate");
  raise_if_any(
      comm, A.m() != n, ErrorCode::invalid_argument,
      "validate: A must be square, got " + std::to_string(A.m()) + "x" + std::to_string(n));
  // A subset may be empty (an interval holding no eigenvalue); the lowest nev may not.
  const bool subset = options.index_range || options.value_range;
  raise_if_any(comm, nev > n || (nev < 1 && n > 0 && !subset), ErrorCode::invalid_argument,
               "validate: " + std::to_string(nev) + " eigenvalues of an N = " + std::to_string(n) +
                   " matrix");
  raise_if_any(comm, S && (S->m() != n || S->n() != n || !grid.same_processes(S->grid())),
               ErrorCode::invalid_argument, "validate: S must be N x N over A's processes");
  raise_if_any(comm, Z && (Z->m() != n || Z->n() < nev || !grid.same_processes(Z->grid())),
               ErrorCode::invalid_argument,
               "validate: Z must be N x >= " + std::to_string(nev) + " over A's processes");
  raise_if_any(comm, !(options.validation_tolerance >= 0), ErrorCode::invalid_argument,
               "validation_tolerance must be >= 0 (0: the default)");
  const double tolerance = options.validation_tolerance > 0 ? options.validation_tolerance
                                                            : default_validation_tolerance<T>(n);
  std::optional<DistMatrix<T>> Sw;
  if (S) Sw.emplace(dense::full_working_copy(*S, options.triangle, A.nb()));
  // w starts at the lowest eigenvalue unless a range says otherwise (an interval whose
  // lower end is finite may).
  const bool lowest = (!options.value_range || options.value_range->vl == -HUGE_VAL) &&
                      (!options.index_range || options.index_range->il == 1);
  return dense::validate(dense::full_working_copy(A, options.triangle, A.nb()), Sw ? &*Sw : nullptr,
                         w, Z, tolerance, lowest);
}

}  // namespace

template <class T>
ValidationReport validate_eigenpairs(const DistMatrix<T>& A, const std::vector<real_t<T>>& w,
                                     const DistMatrix<T>& Z, const EigensolverOptions& options) {
  return checked_validate<T>(A, nullptr, w, &Z, options);
}

template <class T>
ValidationReport validate_eigenvalues(const DistMatrix<T>& A, const std::vector<real_t<T>>& w,
                                      const EigensolverOptions& options) {
  return checked_validate<T>(A, nullptr, w, nullptr, options);
}

template <class T>
ValidationReport validate_generalized_eigenpairs(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                                 const std::vector<real_t<T>>& w,
                                                 const DistMatrix<T>& Z,
                                                 const EigensolverOptions& options) {
  return checked_validate<T>(H, &S, w, &Z, options);
}

template <class T>
ValidationReport validate_generalized_eigenvalues(const DistMatrix<T>& H, const DistMatrix<T>& S,
                                                  const std::vector<real_t<T>>& w,
                                                  const EigensolverOptions& options) {
  return checked_validate<T>(H, &S, w, nullptr, options);
}

void require_passed(MPI_Comm comm, const ValidationReport& report) {
  raise_if_any(comm, !report.passed(), ErrorCode::accuracy,
               "self-validation failed: " + report.summary());
}

#define TSEIG_INSTANTIATE(T)                                                                      \
  template ValidationReport validate_eigenpairs(const DistMatrix<T>&,                             \
                                                const std::vector<real_t<T>>&,                    \
                                                const DistMatrix<T>&, const EigensolverOptions&); \
  template ValidationReport validate_eigenvalues(                                                 \
      const DistMatrix<T>&, const std::vector<real_t<T>>&, const EigensolverOptions&);            \
  template ValidationReport validate_generalized_eigenpairs(                                      \
      const DistMatrix<T>&, const DistMatrix<T>&, const std::vector<real_t<T>>&,                  \
      const DistMatrix<T>&, const EigensolverOptions&);                                           \
  template ValidationReport validate_generalized_eigenvalues(                                     \
      const DistMatrix<T>&, const DistMatrix<T>&, const std::vector<real_t<T>>&,                  \
      const EigensolverOptions&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig
