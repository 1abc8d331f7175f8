// require_hermitian: the pairs whose rows are both on this rank are compared in place
// (O(nonzeros), no messages); only the entries in halo columns send their mirror image
// to the owner of the column. Once per matrix.
#include "sparse/dist/hermitian_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "sparse/dist/entry_exchange.hpp"
#include "sparse/formats/sell.hpp"
#include "sparse/matrix_data.hpp"
#include "tseig/error.hpp"

namespace tseig::sparse {

namespace {

/// The first position (0-based, global) where a(i, j) and conj(a(j, i)) differ by more
/// than the tolerance; row = max when there is none.
struct Mismatch {
  std::int64_t row = std::numeric_limits<std::int64_t>::max(), col = 0;
  double gap = 0;

  bool found() const { return row != std::numeric_limits<std::int64_t>::max(); }
  bool before(const Mismatch& o) const { return by_position(row, col, o.row, o.col); }
};

/// Whether an entry (sum of repeats) x and its mirror y are too far apart: NaN is, and
/// equal values are not (two equal infinities are the reader's and the solvers' concern).
template <class T>
bool too_far(T x, T y, double tol) {
  return x != y && !(double(std::abs(x - y)) <= tol);
}

/// max|v| over the values; std::abs of a complex number (hypot) only where the cheap
/// bound max(|re|, |im|)·√2 could raise the maximum.
template <class T>
double largest_magnitude(const std::vector<T>& values) {
  double biggest = 0;
  for (const T& v : values) {
    const double bound = std::max(std::abs(double(std::real(v))), std::abs(double(std::imag(v))));
    if (bound * std::sqrt(2.0) > biggest) biggest = std::max(biggest, double(std::abs(v)));
  }
  return biggest;
}

/// Pairs (i, j) with both rows on this rank, without a transpose: the rows are walked in
/// order and row i reads each mirror a(c, i), c > i, at a cursor into row c, which only
/// moves forward because its own columns are ascending. An entry a cursor steps over, or
/// finds left when its row's turn comes, had no mirror. O(nonzeros), no messages.
template <class T>
Mismatch first_local_mismatch(const MatrixData<T>& d, const CrsStorage<T>& a, double tol) {
  const int n = d.local_rows;
  auto own = [&](int row, std::int64_t k) { return k < a.row_ptr[row + 1] && a.col[k] < n; };
  std::vector<std::int64_t> cursor(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    std::int64_t k = a.row_ptr[i];
    while (k < a.row_ptr[i + 1] && a.col[k] >= n) ++k;
    cursor[i] = k;
  }
  Mismatch first;
  // Mismatches come in mirror pairs: each is noted at its upper-triangle position.
  auto compare = [&](int i, int j, T x, T y) {
    if (!too_far(x, y, tol)) return;
    const Mismatch here{std::min(i, j) + d.first_row, std::max(i, j) + d.first_row,
                        double(std::abs(x - y))};
    if (here.before(first)) first = here;
  };
  auto skip_unmatched = [&](int row, std::int64_t& k, int below) {
    for (; own(row, k) && a.col[k] < below; ++k) compare(row, a.col[k], a.val[k], T(0));
  };
  for (int i = 0; i < n; ++i) {
    std::int64_t k = cursor[i];
    skip_unmatched(i, k, i);
    if (own(i, k) && a.col[k] == i) {
      compare(i, i, a.val[k], conj_if_complex(a.val[k]));
      ++k;
    }
    for (; own(i, k); ++k) {
      const int c = a.col[k];
      std::int64_t& m = cursor[c];
      skip_unmatched(c, m, i);
      const bool paired = own(c, m) && a.col[m] == i;
      compare(i, c, a.val[k], paired ? conj_if_complex(a.val[m++]) : T(0));
    }
  }
  return first;
}

/// Pairs across ranks: this rank's entries in halo columns, with global indices; sorted
/// and without repeats, as every row is (Matrix's constructor sorts and merges them).
template <class T>
std::vector<Entry<T>> halo_entries(const MatrixData<T>& d, const CrsStorage<T>& a) {
  std::vector<Entry<T>> e;
  for (int i = 0; i < d.local_rows; ++i)
    for (std::int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (const std::int32_t c = a.col[k]; c >= d.local_rows)
        e.push_back({d.first_row + i, d.halo_columns[c - d.local_rows], a.val[k]});
  return e;
}

}  // namespace

template <class T>
void require_hermitian(const Matrix<T>& a, const std::string& who) {
  const MatrixData<T>& d = a.data();
  if (d.hermitian == 0)  // the same verdict on every rank: no agreement needed
    throw Error(ErrorCode::not_hermitian, who + d.not_hermitian_at);
  if (d.hermitian == 1) return;
  using R = real_t<T>;
  CrsStorage<T> converted;
  double biggest = 0;
  collectively(d.comm, [&] {
    if (d.format != SparseFormat::crs) converted = to_crs(d.sell);
    biggest = largest_magnitude(d.format == SparseFormat::crs ? d.crs.val : converted.val);
  });
  const CrsStorage<T>& crs = d.format == SparseFormat::crs ? d.crs : converted;
  MPI_Allreduce(MPI_IN_PLACE, &biggest, 1, MPI_DOUBLE, MPI_MAX, d.comm);
  const double tol = std::sqrt(double(std::numeric_limits<R>::epsilon())) * biggest;
  Mismatch first;
  std::vector<Entry<T>> halo;
  collectively(d.comm, [&] {
    first = first_local_mismatch(d, crs, tol);
    halo = halo_entries(d, crs);
  });
  find_mirror_mismatch(d.comm, d.partition, halo, [&](std::int64_t i, std::int64_t j, T x, T y) {
    if (!too_far(x, y, tol)) return false;
    if (const Mismatch here{i, j, double(std::abs(x - y))}; here.before(first)) first = here;
    return true;
  });
  std::int64_t first_row = first.row;
  MPI_Allreduce(MPI_IN_PLACE, &first_row, 1, MPI_INT64_T, MPI_MIN, d.comm);
  d.hermitian = first_row == std::numeric_limits<std::int64_t>::max() ? 1 : 0;
  if (d.hermitian) return;
  int me = 0, owner = 0;
  MPI_Comm_rank(d.comm, &me);
  owner = first.row == first_row ? me : std::numeric_limits<int>::max();
  MPI_Allreduce(MPI_IN_PLACE, &owner, 1, MPI_INT, MPI_MIN, d.comm);
  double report[2] = {double(first.col), first.gap};
  MPI_Bcast(report, 2, MPI_DOUBLE, owner, d.comm);
  char text[192];
  std::snprintf(text, sizeof text,
                ": the sparse matrix is not Hermitian: |a(i, j) - conj(a(j, i))| = %.3e at "
                "0-based (i, j) = (%lld, %lld) > sqrt(eps)*max|a| = %.3e",
                report[1], static_cast<long long>(first_row), static_cast<long long>(report[0]),
                tol);
  d.not_hermitian_at = text;
  throw Error(ErrorCode::not_hermitian, who + text);
}

#define TSEIG_INSTANTIATE(T) template void require_hermitian(const Matrix<T>&, const std::string&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse
