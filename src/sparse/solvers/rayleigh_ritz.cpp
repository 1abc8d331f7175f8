// Rayleigh–Ritz's dense step. Small orders: one LAPACK call on rank 0 (the others would
// only wait for the same answer) and one broadcast. Large orders: the matrix is
// replicated, so every rank fills its block-cyclic tiles locally, tseig::Eigensolver
// solves on the grid, and the eigenvectors are gathered on rank 0 and broadcast.
#include "sparse/solvers/rayleigh_ritz.hpp"

#include <algorithm>
#include <cmath>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "sparse/solvers/block_ops.hpp"
#include "tseig/eigensolver.hpp"
#include "tseig/error.hpp"
#include "tseig/generalized.hpp"

namespace tseig::sparse::detail {

namespace {

template <class T>
void solve_on_root(MPI_Comm comm, int n, std::vector<T>& a, std::vector<T>& b, SmallEigen<T>& out) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  const int info = b.empty()
                       ? lapack::heevd('V', 'L', n, a.data(), n, out.values.data())
                       : lapack::hegvd('V', 'L', n, a.data(), n, b.data(), n, out.values.data());
  // hegvd's info > n: the leading minor info − n of B is not positive definite.
  if (info > n && !b.empty()) {
    out.ok = false;
    return;
  }
  if (info != 0)
    throw Error(ErrorCode::numerical_failure,
                "Rayleigh-Ritz: LAPACK eigensolver failed (info " + std::to_string(info) + ")");
  out.vectors = std::move(a);
}

template <class T>
void solve_on_grid(MPI_Comm comm, int n, const std::vector<T>& a, const std::vector<T>& b,
                   SmallEigen<T>& out) {
  const Grid grid(comm);
  const int nb = std::clamp(n / std::max(grid.nprow(), grid.npcol()), 16, 64);
  DistMatrix<T> h(grid, n, n, nb), z(grid, n, n, nb);
  h.fill([&](int i, int j) { return a[i + static_cast<std::size_t>(j) * n]; });
  EigensolverOptions options;
  options.check_input = false;  // symmetrised by construction, finite (checked above)
  Eigensolver<T> solver(options);
  std::vector<real_t<T>> w;
  if (b.empty()) {
    w = solver.eigenvectors(h, z);
  } else {
    DistMatrix<T> s(grid, n, n, nb);
    s.fill([&](int i, int j) { return b[i + static_cast<std::size_t>(j) * n]; });
    try {
      w = solver.generalized_eigenvectors(h, s, z);
    } catch (const Error& e) {  // raised on every rank alike
      if (e.code() != ErrorCode::not_positive_definite) throw;
      out.ok = false;
      return;
    }
  }
  std::copy(w.begin(), w.end(), out.values.begin());
  out.vectors = z.gather(0);
}

}  // namespace

template <class T>
SmallEigen<T> projected_eigen(MPI_Comm comm, int n, std::vector<T> a, std::vector<T> b,
                              const SparseTuneParameters& tune, SolverTimes& times, double& part) {
  Timer timer(part, &times);
  // A NaN or Inf from the operator, the preconditioner or S reaches every projected
  // matrix (replicated: the same verdict on every rank); LAPACK would pass it on.
  const auto finite = [](const std::vector<T>& m) {
    return std::all_of(m.begin(), m.end(), [](const T& x) {
      return std::isfinite(std::real(x)) && std::isfinite(std::imag(x));
    });
  };
  raise_if_any(comm, !finite(a) || !finite(b), ErrorCode::not_finite,
               "Rayleigh-Ritz: the projected matrix contains NaN or Inf (produced by the "
               "operator, the preconditioner or S)");
  make_hermitian(n, a);
  if (!b.empty()) make_hermitian(n, b);
  SmallEigen<T> out;
  out.values.resize(n);
  if (n >= tune.rr_distributed_min)
    solve_on_grid(comm, n, a, b, out);
  else
    collectively(comm, [&] { solve_on_root(comm, n, a, b, out); });
  int ok = out.ok ? 1 : 0;
  agree(comm, std::span<int>(&ok, 1), times);
  out.ok = ok != 0;
  if (!out.ok) return out;
  out.vectors.resize(static_cast<std::size_t>(n) * n);
  agree(comm, std::span<real_t<T>>(out.values), times);
  agree(comm, std::span<T>(out.vectors), times);
  return out;
}

#define TSEIG_INSTANTIATE(T)                                                            \
  template SmallEigen<T> projected_eigen(MPI_Comm, int, std::vector<T>, std::vector<T>, \
                                         const SparseTuneParameters&, SolverTimes&, double&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse::detail
