// Tridiagonal eigensolver. Eigenvectors: our distributed divide & conquer
// (divide_conquer/), which forms only the wanted eigenvectors at the top merge and
// keeps O(n²/P) memory per rank. Eigenvalues only: LAPACK ?stedc 'N' (root-free QR,
// O(n²), no eigenvector work) on rank 0, broadcast so all ranks agree bit for bit.
#include "dense/tridiagonal_solve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/blas/host.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/stages/divide_conquer/to_block_cyclic.hpp"
#include "dense/stages/divide_conquer/tree.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {

template <Device D, class T>
std::vector<real_t<T>> solve_tridiagonal(const Grid& grid, std::vector<real_t<T>> d,
                                         std::vector<real_t<T>> e, Wanted& wanted, DistMatrix<T>* Z,
                                         const TuneParameters& tune) {
  using R = real_t<T>;
  const Grid& g = Z ? Z->grid() : grid;
  const int n = static_cast<int>(d.size());
  const bool bad = static_cast<int>(e.size()) < n - 1 || wanted.first < 0 || wanted.count < 0 ||
                   wanted.end() > n || (Z && Z->m() != n);
  raise_if_any(g.comm(), bad, ErrorCode::invalid_argument,
               "solve_tridiagonal: need |e| ≥ n − 1, a window of eigenpairs inside [0, n) and Z "
               "of n rows");
  e.resize(std::max(n - 1, 0));
  const bool finite = std::all_of(d.begin(), d.end(), [](R x) { return std::isfinite(x); }) &&
                      std::all_of(e.begin(), e.end(), [](R x) { return std::isfinite(x); });
  raise_if_any(g.comm(), !finite, ErrorCode::not_finite,
               "solve_tridiagonal: the tridiagonal matrix contains NaN or Inf");
  if (n == 0) return d;

  // Scale to max-norm 1 (as ?stedc) so neither tiny nor huge entries under/overflow;
  // division by the largest entry cannot overflow.
  R scale = 0;
  for (R x : d) scale = std::max(scale, std::abs(x));
  for (R x : e) scale = std::max(scale, std::abs(x));
  if (!(scale > 0)) scale = 1;
  std::vector<R> ds(d), es(e);
  for (R& x : ds) x /= scale;
  for (R& x : es) x /= scale;
  // Every rank counts on the same d and e: the same window everywhere.
  resolve_interval(wanted, ds, es, scale);
  raise_if_any(g.comm(), Z && Z->n() < wanted.count, ErrorCode::invalid_argument,
               "Z has " + std::to_string(Z ? Z->n() : 0) + " columns; the " +
                   std::to_string(wanted.count) + " selected eigenvectors need as many");

  if (!Z || wanted.count == 0) {
    int info = 0;
    if (g.rank() == 0) info = lapack::stedc<R>('N', n, d.data(), e.data(), nullptr, 1);
    raise_if_any(g.comm(), info != 0, ErrorCode::numerical_failure,
                 "tridiagonal eigensolver (?stedc) failed with info = " + std::to_string(info));
    MPI_Bcast(d.data(), n, mpi_type<R>(), 0, g.comm());
    return d;
  }
  d = std::move(ds);
  e = std::move(es);
  // Negligible off-diagonals (?stedc's test) become exact splits: a merge across one
  // deflates completely.
  const R eps = std::numeric_limits<R>::epsilon();
  for (int i = 0; i + 1 < n; ++i)
    if (std::abs(e[i]) <= eps * std::sqrt(std::abs(d[i])) * std::sqrt(std::abs(d[i + 1]))) e[i] = 0;

  const dc::RowSplit split = dc::split_rows(n, g.size(), tune.dc_min_leaf);
  dc::Piece<R> piece =
      dc::divide_and_conquer<D>(g.comm(), split, std::move(d), e, wanted.first, wanted.count, tune);
  raise_if_any(g.comm(), piece.out_of_memory, ErrorCode::out_of_memory,
               "tridiagonal divide & conquer: out of memory for its work arrays (n = " +
                   std::to_string(n) + ", " + std::to_string(wanted.count) + " eigenvectors)");
  raise_if_any(g.comm(), piece.failed, ErrorCode::numerical_failure,
               "tridiagonal divide & conquer: a LAPACK kernel (?stedc or ?laed4) failed");
  std::vector<R> w = std::move(piece.w);
  w.resize(n);
  MPI_Bcast(w.data(), n, mpi_type<R>(), 0, g.comm());
  for (R& x : w) x *= scale;
  dc::rows_to_block_cyclic(split.first, piece.q.data(), wanted.count, *Z, tune.dc_chunk_cols);
  return w;
}

#define TSEIG_INSTANTIATE(T)                                                                \
  template std::vector<real_t<T>> solve_tridiagonal<Device::host, T>(                       \
      const Grid&, std::vector<real_t<T>>, std::vector<real_t<T>>, Wanted&, DistMatrix<T>*, \
      const TuneParameters&);                                                               \
  template std::vector<real_t<T>> solve_tridiagonal<Device::cuda, T>(                       \
      const Grid&, std::vector<real_t<T>>, std::vector<real_t<T>>, Wanted&, DistMatrix<T>*, \
      const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense
