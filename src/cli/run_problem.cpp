// The solve itself. A is copied before solving because the solver overwrites it and
// the residual needs the original.
#include "run_problem.hpp"

#include <mpi.h>

#include <algorithm>
#include <complex>
#include <fstream>
#include <limits>

#include "tseig/accuracy.hpp"
#include "tseig/error.hpp"
#include "tseig/generators.hpp"
#include "tseig/matrix_market.hpp"

namespace tseig::cli {
namespace {

// Reads a square matrix; every rank holds the broadcast header, so the checks agree
// everywhere.
template <class T>
DistMatrix<T> read_square(const Grid& grid, const std::string& path, int nb) {
  auto A = matrix_market::read<T>(grid, path, nb);
  if (A.m() != A.n())
    throw Error(ErrorCode::invalid_argument, path + ": matrix is " + std::to_string(A.m()) + "x" +
                                                 std::to_string(A.n()) + ", not square");
  return A;
}

template <class T>
DistMatrix<T> load_matrix(const Options& o, const Grid& grid) {
  if (o.matrix_path.empty()) {
    DistMatrix<T> A(grid, o.n, o.n, o.nb);
    generate::random_hermitian(A, o.seed);
    return A;
  }
  auto A = read_square<T>(grid, o.matrix_path, o.nb);
  if (o.nev > A.n())
    throw Error(ErrorCode::invalid_argument, "--nev " + std::to_string(o.nev) +
                                                 " exceeds the matrix order " +
                                                 std::to_string(A.n()) + " of " + o.matrix_path);
  return A;
}

// B of a generalized problem, of A's order.
template <class T>
DistMatrix<T> load_b(const Options& o, const Grid& grid, int n) {
  if (o.b_path.empty()) {
    DistMatrix<T> B(grid, n, n, o.nb);
    generate::random_positive_definite(B, o.seed);
    return B;
  }
  auto B = read_square<T>(grid, o.b_path, o.nb);
  if (B.n() != n)
    throw Error(ErrorCode::invalid_argument, o.b_path + ": B is of order " + std::to_string(B.n()) +
                                                 ", A of order " + std::to_string(n));
  return B;
}

template <class R>
void write_values(const std::vector<R>& w, const std::string& path, const Grid& grid) {
  // Only rank 0 touches the file; collectively() spreads its failure to all ranks.
  collectively(grid.comm(), [&] {
    if (grid.rank() != 0) return;
    std::ofstream out(path);
    if (!out) throw Error(ErrorCode::io_error, "cannot open '" + path + "' for writing");
    out.precision(std::numeric_limits<R>::max_digits10);
    for (R x : w) out << x << '\n';
    if (!out.flush()) throw Error(ErrorCode::io_error, "cannot write '" + path + "'");
  });
}

}  // namespace

template <class T>
RunResult run_problem(const Options& o, const Grid& grid) {
  using R = real_t<T>;
  auto A = load_matrix<T>(o, grid);
  const int n = A.n();
  // Z's width: the selection's count, or N for an interval (its count is found in the solve).
  const int nev = o.value_range   ? n
                  : o.index_range ? o.index_range->iu - o.index_range->il + 1
                  : o.nev > 0     ? o.nev
                                  : n;

  EigensolverOptions opts;
  opts.solver = o.solver;
  opts.bandwidth = o.bandwidth;
  opts.tune = o.tune;
  opts.nev = o.index_range || o.value_range ? -1 : nev;
  opts.index_range = o.index_range;
  opts.value_range = o.value_range;
  opts.eigenvalues_only = o.values_only;
  opts.validate = o.validate;
  opts.validation_tolerance = o.validation_tolerance;
  opts.grid_choice = o.grid_choice;
  opts.gpu = o.gpu;
  Eigensolver<T> solver(opts);

  std::optional<DistMatrix<T>> original, Z, B;
  if (o.generalized) B.emplace(load_b<T>(o, grid, n));
  if (!o.values_only) {
    original = A.clone();
    Z.emplace(grid, n, nev, o.nb);
  }

  MPI_Barrier(grid.comm());
  double start = MPI_Wtime();
  std::vector<R> w;
  if (B)
    w = Z ? solver.generalized_eigenvectors(A, *B, *Z) : solver.generalized_eigenvalues(A, *B);
  else
    w = Z ? solver.eigenvectors(A, *Z) : solver.eigenvalues(A);
  MPI_Barrier(grid.comm());

  RunResult r;
  r.wall_seconds = MPI_Wtime() - start;
  const int found = static_cast<int>(w.size());
  r.n = n;
  r.nev = found;
  r.times = solver.timings();
  r.choice = solver.last_choice();
  r.grid_used = solver.last_grid();
  r.lowest.assign(w.begin(), w.begin() + std::min<std::size_t>(w.size(), 10));
  r.generalized = o.generalized;
  r.validation = solver.validation();
  if (Z && B) {
    r.residual = accuracy::generalized_residual(*original, *B, w, *Z);
    r.orthogonality = accuracy::s_orthogonality(*B, *Z, found);
  } else if (Z) {
    r.residual = accuracy::residual(*original, w, *Z);
    r.orthogonality = accuracy::orthogonality(*Z, found);
  }
  if (!o.out_values.empty()) write_values(w, o.out_values, grid);
  if (!o.out_vectors.empty()) {
    // Only the columns the solve filled (an interval's Z has N).
    DistMatrix<T> filled(grid, n, found, o.nb);
    filled.copy_from(*Z, found);
    matrix_market::write(filled, o.out_vectors);
  }
  return r;
}

template RunResult run_problem<float>(const Options&, const Grid&);
template RunResult run_problem<double>(const Options&, const Grid&);
template RunResult run_problem<std::complex<float>>(const Options&, const Grid&);
template RunResult run_problem<std::complex<double>>(const Options&, const Grid&);

}  // namespace tseig::cli
