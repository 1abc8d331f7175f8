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

template <class T>
DistMatrix<T> load_matrix(const Options& o, const Grid& grid) {
  if (o.matrix_path.empty()) {
    DistMatrix<T> A(grid, o.n, o.n, o.nb);
    generate::random_hermitian(A, o.seed);
    return A;
  }
  auto A = matrix_market::read<T>(grid, o.matrix_path, o.nb);
  // Every rank holds the broadcast header, so these checks agree everywhere.
  if (A.m() != A.n())
    throw Error(ErrorCode::invalid_argument, o.matrix_path + ": matrix is " +
                                                 std::to_string(A.m()) + "x" +
                                                 std::to_string(A.n()) + ", not square");
  if (o.nev > A.n())
    throw Error(ErrorCode::invalid_argument, "--nev " + std::to_string(o.nev) +
                                                 " exceeds the matrix order " +
                                                 std::to_string(A.n()) + " of " + o.matrix_path);
  return A;
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
  const int nev = o.nev > 0 ? o.nev : n;

  EigensolverOptions opts;
  opts.solver = o.solver;
  opts.nev = nev;
  opts.eigenvalues_only = o.values_only;
  Eigensolver<T> solver(opts);

  std::optional<DistMatrix<T>> original, Z;
  if (!o.values_only) {
    original = A.clone();
    Z.emplace(grid, n, nev, o.nb);
  }

  MPI_Barrier(grid.comm());
  double start = MPI_Wtime();
  std::vector<R> w = Z ? solver.eigenvectors(A, *Z) : solver.eigenvalues(A);
  MPI_Barrier(grid.comm());

  RunResult r;
  r.wall_seconds = MPI_Wtime() - start;
  r.n = n;
  r.nev = nev;
  r.times = solver.timings();
  r.lowest.assign(w.begin(), w.begin() + std::min<std::size_t>(w.size(), 10));
  if (Z) {
    r.residual = accuracy::residual(*original, w, *Z);
    r.orthogonality = accuracy::orthogonality(*Z, nev);
  }
  if (!o.out_values.empty()) write_values(w, o.out_values, grid);
  if (!o.out_vectors.empty()) matrix_market::write(*Z, o.out_vectors);
  return r;
}

template RunResult run_problem<float>(const Options&, const Grid&);
template RunResult run_problem<double>(const Options&, const Grid&);
template RunResult run_problem<std::complex<float>>(const Options&, const Grid&);
template RunResult run_problem<std::complex<double>>(const Options&, const Grid&);

}  // namespace tseig::cli
